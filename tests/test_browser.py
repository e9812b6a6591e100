"""The app in a real browser: ``streamlit run app.py`` driven by headless Debian Chromium
through Playwright. Saves a screenshot of each page, desktop and phone width, under
``test-artifacts/``. Skips (saying why) where Chromium or Playwright is missing.

With a photo fixture (``tests/fixtures/photos/*.jpg`` + ``*.expected.json``) and the
detector's model files, it uploads the photo and checks the totals on the page.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.round import Round
from referee.ruleset import load_ruleset, ruleset_text
from referee.settle import settle
from referee.storage import DB_ENV, Database

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
FIXTURES = ROOT / "tests" / "fixtures" / "photos"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--lang=en-US"]
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")
if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
    pytest.skip("Debian chromium is not installed (apt-get install chromium)", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _seed(db: Database) -> None:
    """A session with three rounds, so the history page has totals, a chart and rounds."""
    sid = db.create_session(date="2026-11-29", place="Grandma's kitchen", players=["Ann", "Bob", "Chen"],
                            ruleset="classic", ruleset_toml=ruleset_text("classic"))
    hands = [
        ("Qs Qh Qd", "9h 9d 9c 9s Kd", "2s 3s 4s 5s 6s"),
        ("Ah Kc 3d", "Jh Jd 7c 8c 4h", "Th Td Tc 2d 3h"),
        ("5c 6c 7d", "8d 8h Ks Kh 2c", "Ac Ad As Js Jc"),
    ]
    for shift in (0, 1, 0):
        players = [{"name": n, "head": h[0], "middle": h[1], "tail": h[2]}
                   for n, h in zip(("Ann", "Bob", "Chen"), hands[shift:] + hands[:shift], strict=True)]
        round_json: dict[str, Any] = {"players": players}
        scored = settle(Round.from_json(round_json), load_ruleset("classic")).to_json()
        db.save_round(sid, hands=round_json, settlement=scored, ruleset="classic",
                      ruleset_toml=ruleset_text("classic"))


@contextlib.contextmanager
def _streamlit(script: Path, folder: Path) -> Iterator[str]:
    """``streamlit run SCRIPT`` on a free port with its own database; yields the URL once healthy."""
    port = _free_port()
    env = dict(os.environ, **{DB_ENV: str(folder / "referee.sqlite3"), "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"})
    log = (folder / "streamlit.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script), "--server.headless", "true",
         "--browser.gatherUsageStats", "false", "--server.port", str(port), "--server.address", "127.0.0.1"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"streamlit did not start: {(folder / 'streamlit.log').read_text()[-2000:]}")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("browser")
    _seed(Database(folder / "referee.sqlite3"))
    with _streamlit(ROOT / "app.py", folder) as url:
        yield url


# The app with a stand-in detector that 'sees' two laid-out hands (tests/test_layout.py's table), one
# card read with low confidence: the whole photo flow in a browser without the model files.
STAND_IN_APP = """
import runpy, sys
from dataclasses import replace
sys.path[:0] = [{root!r}, {tests!r}]
import test_layout
from app_pages import reader
from vision.types import Detections

CARDS = test_layout.table(["bottom", "top"])
CARDS[3] = replace(CARDS[3], confidence=0.3)
reader.detector = lambda: (lambda image: Detections(width=1000, height=1000, cards=tuple(CARDS)))
runpy.run_path({app!r}, run_name="__main__")
"""


def _table_photo(path: Path) -> None:
    """A green table with white cards where the stand-in detector 'sees' them."""
    import test_layout
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (1000, 1000), (22, 96, 52))
    draw = ImageDraw.Draw(image)
    for card in test_layout.table(["bottom", "top"]):
        assert card.outline is not None
        draw.polygon(card.outline, fill=(250, 250, 245), outline=(60, 60, 60))
        x, y = card.outline[0] if card.up == 0 else card.outline[2]
        colour = (200, 30, 30) if card.card.suit.is_red else (20, 20, 20)
        draw.text((x + (4 if card.up == 0 else -16), y + (4 if card.up == 0 else -16)), str(card.card), fill=colour)
    image.save(path, format="JPEG", quality=90)


@pytest.fixture(scope="module")
def stand_in_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("vision.pipeline", reason="the photo pipeline (vision) is not installed")
    folder = tmp_path_factory.mktemp("browser-photo")
    script = folder / "stand_in_app.py"
    script.write_text(STAND_IN_APP.format(root=str(ROOT), tests=str(ROOT / "tests"), app=str(ROOT / "app.py")))
    with _streamlit(script, folder) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
                                     args=LAUNCH_ARGS, headless=True)
        yield instance
        instance.close()


def _open(browser: Any, url: str, viewport: str) -> Any:
    context = browser.new_context(viewport=VIEWPORTS[viewport], device_scale_factor=1,
                                  is_mobile=viewport == "phone", has_touch=viewport == "phone")
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(url)
    return page


def _settle(page: Any) -> None:
    """Wait for the script run to finish (no 'running' indicator) and images to load."""
    page.wait_for_load_state("networkidle")
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=60_000)
    page.wait_for_timeout(300)


def _shot(page: Any, name: str) -> None:
    """Streamlit scrolls inside its main container, so a full-page shot needs a viewport as tall as it."""
    ARTIFACTS.mkdir(exist_ok=True)
    size = page.viewport_size
    height = page.evaluate("() => Math.max(...[...document.querySelectorAll('[data-testid=\"stMain\"], "
                           "[data-testid=\"stAppScrollToBottomContainer\"], section')].map(e => e.scrollHeight), "
                           "document.body.scrollHeight)")
    page.set_viewport_size({"width": size["width"], "height": min(max(int(height), size["height"]), 6000)})
    page.wait_for_timeout(400)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    page.set_viewport_size(size)


def _all_numbers_in_view(page: Any) -> None:
    """Every number of the settlement (totals, each pair's rows, bonuses and points) lies inside the
    viewport's width: readable without scrolling sideways (a phone at 390 px included)."""
    width = page.viewport_size["width"]
    boxes = page.evaluate("""() => [...document.querySelectorAll('.ssr-totals .ssr-score, .ssr-pair b, '
        + '.ssr-points .ssr-score, .ssr-score')].filter(e => e.offsetParent !== null).map(e => {
        const r = e.getBoundingClientRect(); return [e.textContent, r.left, r.right]; })""")
    assert boxes, "no settlement numbers on the page"
    outside = [(text, left, right) for text, left, right in boxes if left < 0 or right > width]
    assert not outside, f"numbers outside the {width} px viewport: {outside}"
    scroll = page.evaluate("() => Math.max(...[...document.querySelectorAll('[data-testid=\"stMain\"], "
                           "[data-testid=\"stMainBlockContainer\"]')].map(e => e.scrollWidth - e.clientWidth), 0)")
    assert scroll <= 1, f"the page scrolls sideways by {scroll} px"


def _no_exception(page: Any) -> None:
    assert page.locator("[data-testid='stException']").count() == 0, page.inner_text("body")[:2000]


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_pages_render_and_screenshots(server: str, browser: Any, viewport: str) -> None:
    page = _open(browser, server, viewport)
    page.get_by_text("Score a table").first.wait_for()
    _settle(page)
    _no_exception(page)
    _shot(page, f"score-{viewport}")

    # Type a two-player table in and check the totals the page shows.
    page.locator("[data-testid='stButtonGroup'] button").filter(has_text=re.compile(r"^\s*2\s*$")).click()
    page.get_by_text("Who is at top").wait_for(state="detached")  # two seats left
    _settle(page)
    inputs = page.locator("[data-testid='stTextInputField']")
    for i, text in enumerate(("Ann", "Qs Qh Qd", "9h 9d 9c 9s Kd", "2s 3s 4s 5s 6s",
                              "Bob", "Ah Kc 3d", "Jh Jd 7c 8c 4h", "Th Td Tc 2d 3h")):
        inputs.nth(i).fill(text)
        inputs.nth(i).press("Enter")
        _settle(page)  # each box is sent when it is left; the next is filled once the page has caught up
    page.get_by_text("Pair by pair").first.wait_for(timeout=60_000)
    _settle(page)
    _no_exception(page)
    totals = page.locator(".ssr-totals").first.inner_text()
    assert "Ann\n+28" in totals and "Bob\n\u221228" in totals, totals
    _all_numbers_in_view(page)
    _shot(page, f"score-typed-{viewport}")

    page.goto(f"{server}/check")
    page.get_by_text("Check a hand").first.wait_for()
    page.get_by_text("Expected gain").first.wait_for(timeout=60_000)
    _settle(page)
    _no_exception(page)
    _shot(page, f"check-{viewport}")
    box = page.locator("input[aria-label*='Cards: HEAD']")
    box.fill("Ah Ad 2c | Kh Kd 3c 4s 5s | 9s 9h 9d 7c 8c")
    box.press("Enter")
    page.get_by_text("head (pair AA) beats middle (pair KK)").first.wait_for(timeout=60_000)
    _settle(page)
    _shot(page, f"check-foul-{viewport}")
    page.locator("[data-testid='stButtonGroup'] button").filter(has_text=re.compile(r"Picking\s*$")).click()
    _settle(page)
    for label in ("2♣", "3♦", "5♥", "6♠", "6♥", "8♣", "9♦"):
        page.locator("[data-testid='stButtonGroup'] button").filter(has_text=re.compile(f"^\\s*{label}\\s*$")).click()
        page.wait_for_timeout(200)
    page.get_by_text("Pick 6 more cards").first.wait_for()
    _settle(page)
    _no_exception(page)
    _shot(page, f"check-picker-{viewport}")

    page.goto(f"{server}/history")
    page.get_by_text("Totals after 3 rounds").first.wait_for(timeout=60_000)
    _settle(page)
    _no_exception(page)
    body = page.inner_text("body")
    assert "Ann" in body and "Chen" in body
    page.get_by_text("Round 3 ·").first.click()
    _settle(page)
    _all_numbers_in_view(page)
    _shot(page, f"history-{viewport}")
    page.context.close()


def test_bad_upload_shows_a_message(server: str, browser: Any, tmp_path: Path) -> None:
    bad = tmp_path / "notes.jpg"
    bad.write_bytes(b"this is not a photo")
    page = _open(browser, server, "desktop")
    page.get_by_text("Score a table").first.wait_for()
    page.locator("input[type=file]").first.set_input_files(str(bad))
    page.get_by_text("not an image").first.wait_for(timeout=30_000)
    _settle(page)
    _no_exception(page)
    _shot(page, "score-bad-upload")
    page.context.close()


def _photo_fixtures() -> list[Path]:
    return sorted(p for p in FIXTURES.glob("*.jpg") if p.with_suffix(".expected.json").exists())


@pytest.mark.parametrize("photo", _photo_fixtures() or [None], ids=lambda p: p.stem if p else "none")
def test_photo_fixture_totals_on_the_page(server: str, browser: Any, photo: Path | None) -> None:
    if photo is None:
        pytest.skip(f"no photo fixtures with expected totals in {FIXTURES}")
    try:
        from vision.detector import CardDetector
    except ImportError:
        pytest.skip("the photo pipeline (vision) is not installed")
    if not CardDetector.available():
        pytest.skip("the card detector's model files are not in models/")
    expected = json.loads(photo.with_suffix(".expected.json").read_text())
    if expected.get("rules", "classic") != "classic" or expected.get("banker"):
        pytest.skip("the browser test scores fixtures under the default classic rules only")
    page = _open(browser, server, "desktop")
    page.get_by_text("Score a table").first.wait_for()
    page.locator("input[type=file]").first.set_input_files(str(photo))
    page.get_by_text("Pair by pair").first.wait_for(timeout=120_000)
    _settle(page)
    _no_exception(page)
    _shot(page, f"score-photo-{photo.stem}")
    body = page.inner_text("body").replace("\u2212", "-")  # the page writes minus signs as U+2212
    for score in expected["totals"].values():
        assert f"{int(score):+d}" in body
    page.context.close()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_photo_flow_with_a_stand_in_detector(stand_in_server: str, browser: Any, viewport: str,
                                             tmp_path: Path) -> None:
    import test_layout

    photo = tmp_path / "table.jpg"
    _table_photo(photo)
    # Nobody has said who sits where yet: the seats are scored under their names, to look at.
    rows = {n: [r.strip() for r in test_layout.HANDS[s].split("|")] for n, s in (("(下 bottom)", "bottom"),
                                                                                 ("(上 top)", "top"))}
    expected = settle(Round.from_json({"players": [{"name": n, "head": r[0], "middle": r[1], "tail": r[2]}
                                                   for n, r in rows.items()]}), load_ruleset("classic"))
    page = _open(browser, stand_in_server, viewport)
    page.get_by_text("Score a table").first.wait_for()
    page.locator("input[type=file]").first.set_input_files(str(photo))
    page.get_by_text("Pair by pair").first.wait_for(timeout=60_000)
    _settle(page)
    _no_exception(page)
    totals = page.locator(".ssr-totals").first.inner_text()
    for player in expected.players:
        shown = f"{player.score:+d}".replace("-", "\u2212") if player.score else "0"
        assert f"{player.name}\n{shown}" in totals, totals
    assert page.locator(".ssr-flag").count() >= 1  # the low-confidence card, outlined where it lies
    page.get_by_text("Name every player to save the round").first.wait_for()  # no placeholder is saved
    _all_numbers_in_view(page)
    assert page.get_by_text("Open the photo full size").count() == 1
    _shot(page, f"score-photo-{viewport}")
    page.context.close()
