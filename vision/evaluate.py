"""``python -m vision.evaluate`` still works: the detector's evaluation now lives in ``training.evaluate``."""

from training.evaluate import main

if __name__ == "__main__":
    raise SystemExit(main())
