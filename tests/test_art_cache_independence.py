"""The suite does not depend on what the machine's card-art cache holds.

A user who ran ``python -m datasets.setup_art`` has a cache of tiers A and A-dup; one who also asked
for ``--tiers B,C`` has every tier; a fresh clone has none. Each test below runs under each of those
three caches (``tests/art_caches.py`` makes them in seconds, under ``$SHISANSHUI_CACHE``):

- the training smoke run draws its scenes from its own procedural decks, so no cache can make it
  ask for decks the cache lacks (a tiers-A cache once made its foreign-letter phase ask for B and C);
- the tests that need rendered art run when the cache has it and otherwise skip, saying how to get it.

CI (``.ci/run``) also runs the whole suite under an empty temporary cache and the art-touching test
files under a partial and a full one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from art_caches import CACHE_TIERS, make

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module", params=list(CACHE_TIERS))
def art_cache(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    state = str(request.param)
    return state, make(state, tmp_path_factory.mktemp(f"cache-{state}"))


def test_the_training_smoke_run_uses_an_art_cache_of_its_own(art_cache: tuple[str, Path], tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from test_detector import training_smoke_run

    monkeypatch.setenv("SHISANSHUI_CACHE", str(art_cache[1]))
    cmd, env = training_smoke_run(tmp_path)
    assert "--test-deck" in cmd
    assert Path(env["SHISANSHUI_CACHE"]).is_relative_to(tmp_path)
    assert not Path(env["SHISANSHUI_CACHE"]).exists()


@pytest.mark.parametrize("tiers", [None, "B,C"], ids=["training-decks", "foreign-letter-decks"])
def test_training_scenes_of_the_test_deck_never_read_the_cache(art_cache: tuple[str, Path], tiers: str | None,
                                                               tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The scene sets training.train makes with --test-deck (the smoke run's), the foreign-letter one
    included, are drawn from the procedural deck whatever tiers the cache holds."""
    from training.train import FOREIGN_TIERS, ensure_scenes

    assert tiers is None or tiers == FOREIGN_TIERS
    monkeypatch.setenv("SHISANSHUI_CACHE", str(art_cache[1]))
    ensure_scenes(tmp_path / "scenes", "train", 1, 5, True, 1, 480, tiers=tiers)
    truths = list((tmp_path / "scenes" / "truth" / "train").glob("*.json"))
    assert len(truths) == 1
    assert json.loads(truths[0].read_text())["family"] == "procedural"


def test_tests_that_need_rendered_art_run_with_it_and_skip_without_saying_how_to_get_it(
        art_cache: tuple[str, Path]) -> None:
    state, root = art_cache
    env = {**os.environ, "SHISANSHUI_CACHE": str(root), "PYTHONPATH": str(ROOT), "COLUMNS": "2000"}
    r = subprocess.run([sys.executable, "-m", "pytest", "tests/test_synth.py", "-k",
                        "splits_use_their_own_families or real_deck_scene", "-rs"],
                       capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:]
    if state == "empty":
        assert "2 skipped" in r.stdout
        assert "run `python -m datasets.setup_art`" in r.stdout and str(root) in r.stdout
    else:
        assert "2 passed" in r.stdout
