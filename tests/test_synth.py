"""Synthetic scene generator (datasets/): labels on the indices, ground truth that
scores, determinism, the family split, one deck per scene.

Tests that need the rendered card art skip when the cache is missing
(``python -m datasets.setup_art`` builds it); the procedural test deck keeps
the generator itself exercised everywhere.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from datasets.art_cache import CardArt, available_decks, cards_dir
from datasets.decks import DECKS, FAMILY_SPLIT, SPLITS, decks_for_split, families_by_split
from datasets.labels import CLASS_NAMES, yolo_lines
from datasets.scene import make_scene
from datasets.synth import generate, split_decks
from datasets.testdeck import procedural_deck
from referee.cards import DECK
from referee.round import Round
from referee.ruleset import load_ruleset
from referee.settle import settle

SIZE = 960


@pytest.fixture(scope="module")
def proc_deck() -> CardArt:
    return procedural_deck()


def _have_cache() -> bool:
    names = set(available_decks())
    return all(any(d.name in names for d in decks_for_split(s)) for s in SPLITS)


needs_cache = pytest.mark.skipif(not _have_cache(), reason=f"card-art cache missing in {cards_dir()}: "
                                 "run `python -m datasets.setup_art` to render the decks")


# --- always run (procedural deck) ----------------------------------------------------------------

def test_class_list_follows_deck_order() -> None:
    assert len(CLASS_NAMES) == 52
    assert tuple(str(DECK[i]) for i in range(52)) == CLASS_NAMES
    assert CLASS_NAMES[0] == "2s" and CLASS_NAMES[-1] == "Ac"


def test_family_split_is_fixed_and_disjoint() -> None:
    fams = families_by_split()
    assert len(fams["test"]) >= 3
    assert {"aguilar", "kennard"} & set(fams["test"])
    seen: set[str] = set()
    for split in SPLITS:
        assert fams[split], split
        assert not seen & set(fams[split])
        seen |= set(fams[split])
    # duplicated artwork stays on one side: every deck's split is its family's
    for deck in DECKS:
        assert FAMILY_SPLIT[deck.family] in SPLITS


def test_index_box_found_from_ink(proc_deck: CardArt) -> None:
    """The procedural deck draws rank + suit in the top-left 40x46 px; the detected box holds them."""
    for card in DECK:
        x0, y0, x1, y1 = proc_deck.boxes[card.index]
        assert x0 <= 8 and y0 <= 12 and x1 >= 18 and y1 >= 40, (str(card), x0, y0, x1, y1)
        assert x1 <= 45 and y1 <= 50, (str(card), x0, y0, x1, y1)


def _check_truth(truth: dict[str, Any]) -> None:
    cards = [c["card"] for c in truth["cards"]]
    assert len(cards) == len(set(cards)), "a card appears twice"
    assert len(cards) == 13 * len(truth["round"]["players"])
    round_ = Round.from_json(truth["round"])
    result = settle(round_, load_ruleset("classic"))
    assert {p: result.score_of(p) for p in truth["scores_classic"]} == truth["scores_classic"]
    assert sum(truth["scores_classic"].values()) == 0
    by_player = {p.name: {str(c) for c in p.cards} for p in round_.players}
    for card in truth["cards"]:
        assert card["card"] in by_player[card["player"]]
        assert card["class"] == DECK.index(next(c for c in DECK if str(c) == card["card"]))
        assert len(card["corners"]) == 4 and len(card["index"]) in (2, 4)
        if card["row"] is not None:
            row_cards = next(p for p in truth["round"]["players"] if p["name"] == card["player"])[card["row"]]
            assert row_cards.split()[card["position"]] == card["card"]


def _index_ink_share(image: np.ndarray, box: list[float]) -> float:
    """Share of dark or strongly coloured pixels in a box (an index has ink, plain card paper has none)."""
    x0, y0, x1, y1 = (round(v) for v in box)
    patch = image[y0:y1, x0:x1].astype(np.int16)
    if patch.size == 0:
        return 0.0
    gray = patch.mean(axis=2)
    chroma = patch.max(axis=2) - patch.min(axis=2)
    paper = np.percentile(gray, 95)
    return float(((gray < min(0.6 * paper, paper - 35)) | (chroma > np.median(chroma) + 45)).mean())


def _labels_on_indices(scene_image: np.ndarray, truth: dict[str, Any], min_side: float = 6,
                       share: float = 0.97) -> None:
    """Visible index boxes hold ink (all but a few when blur, glare and noise are on)."""
    shares = []
    for card in truth["cards"]:
        for index in card["index"]:
            x0, y0, x1, y1 = index["box"]
            if index["visible"] and min(x1 - x0, y1 - y0) >= min_side:
                shares.append(_index_ink_share(scene_image, index["box"]))
    assert shares, "no visible index"
    shares_a = np.array(shares)
    assert (shares_a > 0.03).mean() >= share, np.sort(shares_a)


def test_procedural_scene_ground_truth(proc_deck: CardArt) -> None:
    for index in range(4):
        scene = make_scene(7, index, [proc_deck], [], SIZE)
        truth = scene.truth
        assert scene.image.shape == (truth["height"], truth["width"], 3)
        _check_truth(truth)
        clean = make_scene(7, index, [proc_deck], [], SIZE, effects=False)
        assert clean.truth == truth                     # the camera's look does not move anything
        _labels_on_indices(clean.image, truth)
        _labels_on_indices(scene.image, truth, min_side=12, share=0.8)
        lines = yolo_lines(truth)
        assert lines
        for line in lines:
            cls, *vals = line.split()
            assert 0 <= int(cls) < 52
            assert all(0 <= float(v) <= 1 for v in vals)


def test_index_boxes_hold_the_label_pixels(proc_deck: CardArt) -> None:
    """Visible boxes have ink; a box moved off the index onto plain card paper has less."""
    scene = make_scene(11, 0, [proc_deck], [], SIZE)
    inside, shifted = [], []
    for card in scene.truth["cards"]:
        tl = card["index"][0]
        if not tl["visible"]:
            continue
        quad = np.array(card["corners"])
        centre = quad.mean(axis=0)
        x0, y0, x1, y1 = tl["box"]
        dx, dy = centre - ((x0 + x1) / 2, (y0 + y1) / 2)
        inside.append(_index_ink_share(scene.image, tl["box"]))
        shifted.append(_index_ink_share(scene.image, [x0 + 0.35 * dx, y0 + 0.35 * dy, x1 + 0.35 * dx,
                                                      y1 + 0.35 * dy]))
    assert inside
    assert np.median(inside) > np.median(shifted)


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    generate(a, 3, seed=5, split="train", size=SIZE, workers=1, use_test_deck=True, progress=False)
    generate(b, 3, seed=5, split="train", size=SIZE, workers=2, use_test_deck=True, progress=False)

    def digest(root: Path) -> dict[str, str]:
        return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(root.rglob("*")) if p.is_file() and p.name != "data.yaml"}

    da, db = digest(a), digest(b)
    assert da == db
    assert len([k for k in da if k.startswith("images/")]) == 3
    c = tmp_path / "c"
    generate(c, 1, seed=6, split="train", size=SIZE, workers=1, use_test_deck=True, progress=False)
    assert digest(c)["images/train/s6_000000.jpg"] != da["images/train/s5_000000.jpg"]
    v = tmp_path / "v"   # the same seed in another split is another table
    generate(v, 1, seed=5, split="val", size=SIZE, workers=1, use_test_deck=True, progress=False)
    truth_v = json.loads((v / "truth/val/s5_000000.json").read_text())
    truth_t = json.loads((a / "truth/train/s5_000000.json").read_text())
    assert truth_v["round"] != truth_t["round"]


def test_look_changes_the_pixels_not_the_tables(tmp_path: Path) -> None:
    """``--look sharp`` / ``none`` draw the same tables and labels as the camera's look, and the
    camera's images are the softest (mean Laplacian energy on the labelled indices; the sharp look
    keeps the sensor noise, so it is not compared with none)."""
    import cv2

    energy: dict[str, float] = {}
    truths = []
    for look in ("camera", "sharp", "none"):
        out = tmp_path / look
        generate(out, 4, seed=9, split="train", size=SIZE, workers=1, use_test_deck=True, progress=False, look=look)
        values = []
        for f in sorted((out / "truth/train").glob("*.json")):
            truth = json.loads(f.read_text())
            truths.append((look, f.name, truth["cards"], (out / "labels/train" / f"{f.stem}.txt").read_text()))
            grey = cv2.cvtColor(cv2.imread(str(out / truth["image"])), cv2.COLOR_BGR2GRAY)
            lap = np.abs(cv2.Laplacian(grey.astype(np.float32), cv2.CV_32F))
            for card in truth["cards"]:
                for index in card["index"]:
                    if index["visible"]:
                        x1, y1, x2, y2 = (int(v) for v in index["box"])
                        values.append(float(lap[max(0, y1):y2, max(0, x1):x2].mean()))
        energy[look] = float(np.mean(values))
    by_look = {look: [(name, cards, labels) for lk, name, cards, labels in truths if lk == look]
               for look in energy}
    assert by_look["camera"] == by_look["sharp"] == by_look["none"]
    assert energy["camera"] < min(energy["sharp"], energy["none"]), energy


def test_real_look_is_sharper_and_grainier_than_the_camera_look(tmp_path: Path) -> None:
    """``--look real`` (the look measured on real photos, ``datasets.effects.REAL_LOOK``) draws the same tables and
    labels as the camera's look; measured as ``benchmarks/camera_look.py`` measures real photos, its indices' edges
    are narrower, its noise stronger, and its JPEG quality within the measured range."""
    import cv2

    from datasets.effects import REAL_LOOK
    from datasets.look_measure import index_look, jpeg_quality, noise_sigma

    measured: dict[str, dict[str, list[float]]] = {}
    tables: dict[str, list[Any]] = {}
    for look in ("camera", "real"):
        out = tmp_path / look
        generate(out, 6, seed=21, split="train", size=SIZE, workers=1, use_test_deck=True, progress=False, look=look)
        m: dict[str, list[float]] = {"edge": [], "noise": [], "jpeg": []}
        for f in sorted((out / "truth/train").glob("*.json")):
            truth = json.loads(f.read_text())
            tables.setdefault(look, []).append((truth["cards"], (out / "labels/train" / f"{f.stem}.txt").read_text()))
            data = (out / truth["image"]).read_bytes()
            grey = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
            m["noise"].append(noise_sigma(grey))
            m["jpeg"].append(jpeg_quality(data) or 0.0)
            for card in truth["cards"]:
                for index in card["index"]:
                    if index["visible"] and (seen := index_look(grey, tuple(index["box"]))) is not None:
                        m["edge"].append(seen["edge"])
        measured[look] = m
    assert tables["camera"] == tables["real"]
    camera, real = measured["camera"], measured["real"]
    assert np.median(real["edge"]) < np.median(camera["edge"]), (np.median(real["edge"]), np.median(camera["edge"]))
    assert np.median(real["noise"]) > 2 * np.median(camera["noise"]), (real["noise"], camera["noise"])
    lo, hi = REAL_LOOK.jpeg_quality
    assert all(lo - 1 <= q <= hi for q in real["jpeg"]), real["jpeg"]


def test_dataset_layout(tmp_path: Path) -> None:
    generate(tmp_path, 2, seed=1, split="val", size=SIZE, workers=1, use_test_deck=True, progress=False)
    yaml = (tmp_path / "data.yaml").read_text()
    assert "nc: 52" in yaml and "0: '2s'" in yaml and "51: 'Ac'" in yaml
    for name in ("s1_000000", "s1_000001"):
        assert (tmp_path / "images/val" / f"{name}.jpg").is_file()
        labels = (tmp_path / "labels/val" / f"{name}.txt").read_text().splitlines()
        truth = json.loads((tmp_path / "truth/val" / f"{name}.json").read_text())
        assert labels == yolo_lines(truth)
        _check_truth(truth)


def test_truth_round_scores_through_referee_cli(tmp_path: Path, proc_deck: CardArt,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The deal in the truth is a valid `referee score` input and scores as recorded."""
    from referee.cli import main as referee_main

    for index in range(3):
        truth = make_scene(9, index, [proc_deck], [], SIZE).truth
        path = tmp_path / f"round{index}.json"
        path.write_text(json.dumps(truth["round"]))
        capsys.readouterr()
        assert referee_main(["score", "--json", str(path)]) == 0
        out = json.loads(capsys.readouterr().out)
        assert {p["name"]: p["score"] for p in out["players"]} == truth["scores_classic"]
        reported = {p["name"]: (p["foul"], p["special"]) for p in out["players"]}
        assert reported == {p["name"]: (p["foul"], p["special"]) for p in truth["players"]}


def test_deals_cover_fouls_and_specials(proc_deck: CardArt) -> None:
    from datasets.deal import deal_round, rules
    from referee.hand import analyse

    fouls = specials = 0
    for seed in range(40):
        for hand in deal_round(np.random.default_rng(seed), 4):
            report = analyse(hand.rows, rules())
            fouls += report.foul
            specials += report.special is not None
    assert fouls > 5 and specials > 5


# --- with the rendered art ---------------------------------------------------------------------

@needs_cache
def test_splits_use_their_own_families() -> None:
    fams = {s: {d.family for d in split_decks(s)} for s in SPLITS}
    assert not fams["train"] & fams["val"]
    assert not fams["train"] & fams["test"]
    assert not fams["val"] & fams["test"]
    assert len(fams["test"]) >= 3


@needs_cache
def test_real_deck_scene() -> None:
    decks = split_decks("test")
    for index in range(2):
        scene = make_scene(3, index, decks, [], 960, "test", effects=False)
        assert scene.truth["family"] in families_by_split()["test"]
        _check_truth(scene.truth)
        _labels_on_indices(scene.image, scene.truth)


def _strip_stats(truth: dict[str, Any]) -> tuple[int, int]:
    """(indices partly covered, of them strips a person reads: rank whole, part of the suit)."""
    from training.train_data import readable_strip

    cut = [ix for c in truth["cards"] for ix in c["index"] if "shown" in ix and ix["inside"] >= 0.9]
    return len(cut), sum(not ix["visible"] and readable_strip(ix) for ix in cut)


def test_tight_rows_show_strips_of_the_same_tables(proc_deck: CardArt) -> None:
    """``tight``: the same deal and seats (what comes after the layout, chips to banker, may differ), cards
    laid closer so that far more indices are cut; what shows of each cut index is in its truth (rank and suit
    shares, a box inside the index's box), and some cut indices are strips a person reads."""
    cut_loose = cut_tight = strips = 0
    for index in range(6):
        loose = make_scene(3, index, [proc_deck], [], SIZE).truth
        tight = make_scene(3, index, [proc_deck], [], SIZE, tight=1.0).truth
        assert tight["round"]["players"] == loose["round"]["players"]
        assert sorted(c["card"] for c in tight["cards"]) == sorted(c["card"] for c in loose["cards"])
        cut_loose += _strip_stats(loose)[0]
        n, s = _strip_stats(tight)
        cut_tight, strips = cut_tight + n, strips + s
        for c in tight["cards"]:
            for ix in c["index"]:
                if "shown" not in ix:
                    continue
                assert 0 <= ix["rank_unoccluded"] <= 1 and 0 <= ix["suit_unoccluded"] <= 1
                if ix["shown"] is not None:
                    x1, y1, x2, y2 = ix["shown"]
                    bx1, by1, bx2, by2 = ix["box"]
                    assert bx1 - 2 <= x1 < x2 <= bx2 + 2 and by1 - 2 <= y1 < y2 <= by2 + 2  # whole pixels
    assert cut_tight > 2 * cut_loose
    assert strips > 0


def test_no_tight_option_no_change(tmp_path: Path) -> None:
    """``--tight 0`` (the default) draws nothing more: the evaluation tables of earlier runs stay byte for byte."""
    a, b = tmp_path / "a", tmp_path / "b"
    generate(a, 2, seed=5, split="train", size=SIZE, workers=1, use_test_deck=True, progress=False)
    generate(b, 2, seed=5, split="train", size=SIZE, workers=1, use_test_deck=True, progress=False, tight=0.0)
    c = tmp_path / "c"
    generate(c, 2, seed=5, split="train", size=SIZE, workers=1, use_test_deck=True, progress=False, tight=1.0)
    for name in ("s5_000000", "s5_000001"):
        img = f"images/train/{name}.jpg"
        assert (a / img).read_bytes() == (b / img).read_bytes()
        assert (a / img).read_bytes() != (c / img).read_bytes()


def test_bent_cards_change_the_light_on_the_cards_not_the_tables(proc_deck: CardArt) -> None:
    """``bent``: bowed cards get shading and a glare band (own stream); the tables, the truth and every pixel off
    the cards stay as they were, and ``bent=0`` draws nothing more."""
    plain = make_scene(4, 0, [proc_deck], [], SIZE, effects=False)
    zero = make_scene(4, 0, [proc_deck], [], SIZE, effects=False, bent=0.0)
    bent = make_scene(4, 0, [proc_deck], [], SIZE, effects=False, bent=1.0)
    assert np.array_equal(plain.image, zero.image)
    assert bent.truth == plain.truth
    changed = np.any(bent.image != plain.image, axis=2)
    assert changed.mean() > 0.02
    corners = np.array([c["corners"] for c in plain.truth["cards"]])
    x0, y0 = corners[..., 0].min() - 2, corners[..., 1].min() - 2
    x1, y1 = corners[..., 0].max() + 2, corners[..., 1].max() + 2
    ys, xs = np.nonzero(changed)
    assert xs.min() >= x0 and xs.max() <= x1 and ys.min() >= y0 and ys.max() <= y1  # only on the cards


def test_a_glare_band_leaves_the_ink_darker_than_the_paper() -> None:
    """Wherever the band and the shading fall, ink stays well below what the paper becomes at the same spot (the
    same draws on a blank card): a person still reads the index under the glare."""
    from datasets.effects import bent_card_light

    w, h = 100, 140
    paper = np.full((h, w, 3), 235.0, np.float32)
    inked = paper.copy()
    inked[:, 40:60] = 20.0                       # an ink stroke down the card
    idmap = np.zeros((h, w), np.int16)
    for seed in range(30):
        a, b = paper.copy(), inked.copy()
        assert bent_card_light(a, idmap, 0, np.eye(3), w, h, np.random.default_rng(seed))
        assert bent_card_light(b, idmap, 0, np.eye(3), w, h, np.random.default_rng(seed))
        assert float(a.max()) > 240 or float(a.min()) < 230           # the light changed
        assert np.all(b[:, 40:60].mean(axis=2) < a[:, 40:60].mean(axis=2) - 60), seed


def test_the_recipes_bent_scenes_are_the_generators_bowed_cards(tmp_path: Path) -> None:
    """``training.train``'s ``--bent-scenes`` (cls22's crops) are ``datasets.synth --bent`` scenes: the same tables as
    without the option, other light on the cards."""
    import argparse

    from training.train_data import BENT_SHARE, ensure_bent_scenes, ensure_scenes

    args = argparse.Namespace(bent_scenes=1, seed=1, test_deck=True, workers=1, size=480)
    bent = ensure_bent_scenes(args, tmp_path)
    ensure_scenes(tmp_path / "flat", "train", 1, args.seed + 110, True, 1, 480, tight=0.5)
    name = "truth/train/s111_000000.json"
    assert json.loads((bent / name).read_text()) == json.loads((tmp_path / "flat" / name).read_text())
    img = "images/train/s111_000000.jpg"
    assert (bent / img).read_bytes() != (tmp_path / "flat" / img).read_bytes()
    assert 0 < BENT_SHARE <= 1


def test_held_tables_are_laid_and_photographed_as_the_phone_held_check(proc_deck: CardArt) -> None:
    """``held``: 2-3 players, the camera tilted 15-35 degrees, and every hand laid in rows where each next card
    leaves 0.95-1.55 index extents of the one below showing (the row's pitch, measured on the table)."""
    from datasets.layout import hand_in_player_frame
    from datasets.scene import HELD

    for index in range(4):
        truth = make_scene(3, index, [proc_deck], [], SIZE, held=True).truth
        _check_truth(truth)
        assert len(truth["round"]["players"]) in HELD.players
        assert HELD.tilt_deg[0] <= truth["camera"]["tilt_deg"] <= HELD.tilt_deg[1]

    rows = (tuple(DECK[:3]), tuple(DECK[3:8]), tuple(DECK[8:13]))
    index_w, w = 9.0, 63.0
    for seed in range(20):
        poses = hand_in_player_frame(rows, w, 88.0, index_w, 14.0, False, np.random.default_rng(seed),
                                     showing=HELD.showing)
        for row in ("head", "middle", "tail"):
            xs = sorted(x for _c, r, _p, x, _y, _a in poses if r == row)
            pitch = float(np.mean(np.diff(xs)))
            assert HELD.showing[0] * index_w - 0.03 * w <= pitch <= HELD.showing[1] * index_w + 0.03 * w
