"""Where the app's time goes when it scores a photo, against ``referee photo`` on the same photo.

    .venv/bin/python benchmarks/bench_app_photo.py [--image PHOTO] [--runs 3]

Prints, for one photo (default: a synthetic table upscaled to 12 MP, as a phone takes it):

* ``referee photo PHOTO`` as a command (process start and model load included) and the same
  reading in-process with the model loaded (``vision.pipeline.read_photo``);
* the app's steps: checking the upload (``load_photo``), decoding, reading, drawing the annotated
  photo, encoding what the page shows, and what one rerun of the page costs afterwards;
* the whole app run as a user meets it (AppTest: upload -> settlement on the page), model warm.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("STREAMLIT_BROWSER_GATHER_USAGE_STATS", "false")


def timed(runs: int, work: Callable[[], Any]) -> float:
    """Median wall time of ``work`` in ms."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--image", type=Path, help="a photo of a table (default: a synthetic 12 MP one)")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()

    import numpy as np
    from PIL import Image

    from app_pages.images import display_jpeg, load_photo, to_rgb
    from referee.ruleset import load_ruleset
    from training.evaluate import twelve_mp_photo
    from vision.annotate import draw
    from vision.detector import CardDetector
    from vision.image_io import read_image
    from vision.pipeline import read_photo

    if not CardDetector.available():
        print("the card detector's model files are not in models/: nothing to measure")
        return 1
    data = args.image.read_bytes() if args.image else twelve_mp_photo()
    with tempfile.NamedTemporaryFile(suffix=".jpg", delete=False) as handle:
        handle.write(data)
        path = Path(handle.name)
    rules = load_ruleset("classic")
    detector = CardDetector().detect
    image = read_image(data)
    print(f"photo: {image.shape[1]} x {image.shape[0]} px, {len(data) / 1e6:.1f} MB")

    cli = timed(args.runs, lambda: subprocess.run([sys.executable, "-m", "referee", "photo", str(path)],
                                                  cwd=ROOT, capture_output=True, check=False))
    warm = timed(args.runs, lambda: read_photo(data, rules, force=True, detector=detector))
    print(f"referee photo (command, model loaded each time)  {cli:7.0f} ms")
    print(f"read_photo in-process, model warm               {warm:7.0f} ms")

    reading = read_photo(image, rules, force=True, detector=detector)
    annotated = draw(reading)
    steps = {
        "load_photo (check the upload, decode once, keep the pixels)": lambda: load_photo(data),
        "decode again for the reader (before: read_image)": lambda: read_image(data),
        "read_photo on the decoded image": lambda: read_photo(image, rules, force=True, detector=detector),
        "draw the annotated photo": lambda: draw(reading),
        "page image: JPEG for the page, once (now, OpenCV)": lambda: display_jpeg(annotated),
        "page image: Pillow flip + thumbnail (before, once)": lambda: Image.fromarray(
            np.ascontiguousarray(annotated[:, :, ::-1])).thumbnail((1600, 1600)),
        "page image: array re-encoded by st.image (before, each rerun)": lambda: _st_image_cost(
            np.asarray(Image.fromarray(np.ascontiguousarray(annotated[:, :, ::-1])).resize((1600, 1200)))),
        "plain photo shown: decode + scale (before, each rerun)": lambda: to_rgb(data),
    }
    print("the app's steps (median ms):")
    for label, work in steps.items():
        print(f"  {label:62s} {timed(args.runs, work):7.0f}")

    total, rerun = _app_run(data)
    print(f"app, upload -> settlement on the page (AppTest, model warm)  {total:7.0f} ms")
    print(f"app, one rerun afterwards (a name typed)                       {rerun:7.0f} ms")
    print(f"app minus referee photo in-process: {total - warm:+.0f} ms")
    path.unlink(missing_ok=True)
    return 0


def _st_image_cost(array: Any) -> None:
    """What st.image did with an array each rerun: encode, reopen, scale to 1460 px, encode again."""
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(array).save(out, format="JPEG")
    again = Image.open(io.BytesIO(out.getvalue()))
    again.resize((1460, int(again.height * 1460 / again.width))).save(io.BytesIO(), format="JPEG", quality=90)


def _app_run(data: bytes) -> tuple[float, float]:
    from streamlit.testing.v1 import AppTest

    from referee.storage import DB_ENV

    with tempfile.TemporaryDirectory() as folder:
        os.environ[DB_ENV] = str(Path(folder) / "bench.sqlite3")
        app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
        app.run()
        warmup = io.BytesIO()
        from PIL import Image

        Image.new("RGB", (640, 480), (20, 90, 40)).save(warmup, format="JPEG")
        app.file_uploader(key="score_upload").set_value(("warm.jpg", warmup.getvalue(), "image/jpeg")).run()
        start = time.perf_counter()
        app.file_uploader(key="score_upload").set_value(("table.jpg", data, "image/jpeg")).run()
        total = (time.perf_counter() - start) * 1e3
        start = time.perf_counter()
        app.run()
        rerun = (time.perf_counter() - start) * 1e3
    return total, rerun


if __name__ == "__main__":
    raise SystemExit(main())
