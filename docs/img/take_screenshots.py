"""The README's screenshots (docs/img/*.png): the app in headless Debian Chromium through Playwright.

    PYTHONPATH=. .venv/bin/python docs/img/take_screenshots.py

Starts ``streamlit run app.py`` on a free local port with a scratch database (a session of three
rounds, as tests/test_browser.py seeds it), scores the committed photo tests/fixtures/photos/foul.jpg
with the committed detector, checks a hand, opens the history, and writes each page as a small
palette PNG. Needs the test extra (playwright) and /usr/bin/chromium.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import test_browser as tb  # noqa: E402  (its server, seeding and browser helpers)
from playwright.sync_api import sync_playwright  # noqa: E402

from referee.storage import Database  # noqa: E402

OUT = ROOT / "docs" / "img"
VIEWPORT = {"width": 900, "height": 1000}


def save(page: object, name: str, height: int = 1000) -> None:
    path = OUT / f"{name}.png"
    page.set_viewport_size({"width": VIEWPORT["width"], "height": height})  # type: ignore[attr-defined]
    page.wait_for_timeout(600)  # type: ignore[attr-defined]
    page.screenshot(path=str(path), clip={"x": 0, "y": 0, "width": VIEWPORT["width"], "height": height})  # type: ignore[attr-defined]
    image = Image.open(path).convert("RGB")
    image = image.resize((image.width * 2 // 3, image.height * 2 // 3), Image.LANCZOS)
    image.quantize(colors=64, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    print(path, path.stat().st_size // 1024, "KB")


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as p:
        folder = Path(scratch)
        tb._seed(Database(folder / "referee.sqlite3"))
        with tb._streamlit(ROOT / "app.py", folder) as url:
            browser = p.chromium.launch(executable_path=tb.CHROMIUM, args=tb.LAUNCH_ARGS, headless=True)
            page = browser.new_context(viewport=VIEWPORT, device_scale_factor=1).new_page()
            page.set_default_timeout(120_000)
            page.goto(url)
            page.get_by_text("Score a table").first.wait_for()
            page.locator("input[type=file]").first.set_input_files(str(ROOT / "tests/fixtures/photos/foul.jpg"))
            page.get_by_text("Pair by pair").first.wait_for()
            tb._settle(page)
            save(page, "score", 2400)
            page.set_viewport_size(VIEWPORT)
            page.goto(f"{url}/check")
            page.get_by_text("Expected gain").first.wait_for()
            box = page.locator("input[aria-label^='Cards: HEAD']")
            box.fill("Ah Ad 2c | Kh Kd 3c 4s 5s | 9s 9h 9d 7c 8c")
            box.press("Enter")
            page.get_by_text("head (pair AA) beats middle (pair KK)").first.wait_for()
            page.get_by_text("Trying the best arrangements").first.wait_for(state="detached")
            page.get_by_text("Expected gain").first.wait_for()
            tb._settle(page)
            save(page, "check", 1300)
            page.goto(f"{url}/history")
            page.get_by_text("Totals after 3 rounds").first.wait_for()
            tb._settle(page)
            save(page, "history", 1200)
            browser.close()


if __name__ == "__main__":
    main()
