"""``python -m vision.train`` still works: the training command now lives in ``training.train``."""

from training.train import main

if __name__ == "__main__":
    raise SystemExit(main())
