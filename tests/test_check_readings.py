"""The synthetic tables' reliability count (``benchmarks/check_readings.py reliability``): right, wrong, on no card."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmark_modules import load_benchmark

from referee import parse_cards
from vision.types import CardDetection, Detections

check_readings = load_benchmark("check_readings")

# two cards laid overlapping: the 7d from x 0 to 100, the Ks over its right part from x 60 to 160
TRUTH: dict[str, Any] = {"width": 400, "height": 300, "cards": [
    {"card": "7d", "corners": [[0, 0], [100, 0], [100, 140], [0, 140]]},
    {"card": "Ks", "corners": [[60, 10], [160, 10], [160, 150], [60, 150]]},
]}


def _read(card: str, confidence: float, index: tuple[float, float, float, float]) -> CardDetection:
    return CardDetection(card=parse_cards(card)[0], confidence=confidence, box=index, index_boxes=(index,))


def test_a_read_is_right_on_its_card_wrong_on_another_and_uncounted_off_the_table() -> None:
    assert check_readings.read_right(_read("7d", 0.99, (2, 2, 14, 30)), TRUTH) is True
    assert check_readings.read_right(_read("7d", 0.99, (70, 20, 82, 48)), TRUTH) is True   # under the Ks too
    assert check_readings.read_right(_read("Kh", 0.90, (110, 20, 122, 48)), TRUTH) is False
    assert check_readings.read_right(_read("Kh", 0.90, (300, 200, 312, 228)), TRUTH) is None


def _table(root: Path, truth: dict[str, Any], reads: tuple[CardDetection, ...]) -> Path:
    """A table set of one table (``t0``) in ``root``: its truth and its cached readings; the truth file's path."""
    (root / "truth" / "val").mkdir(parents=True)
    (root / "readings").mkdir()
    (root / "truth" / "val" / "t0.json").write_text(json.dumps(truth))
    found = Detections(width=truth["width"], height=truth["height"], cards=reads)
    (root / "readings" / "t0.json").write_text(json.dumps(check_readings.detections_to_json(found)))
    return root / "truth" / "val" / "t0.json"


def test_reliability_buckets_the_cached_reads_by_confidence(tmp_path: Path) -> None:
    _table(tmp_path, TRUTH, (_read("7d", 0.999, (2, 2, 14, 30)), _read("Kh", 0.90, (110, 20, 122, 48)),
                             _read("Ks", 0.60, (120, 20, 132, 48)), _read("As", 0.97, (300, 200, 312, 228))))
    rows = {r["confidence"]: (r["reads"], r["wrong"])
            for r in check_readings.reliability(check_readings.cached_reads([tmp_path]))}
    assert rows["0.99-1.00"] == (1, 0)
    assert rows["0.85-0.95"] == (1, 1)
    assert rows["0.55-0.70"] == (1, 0)
    assert sum(n for n, _w in rows.values()) == 3   # the As on no card is left out


def test_misses_count_unread_misread_off_card_and_twice_read_cards(tmp_path: Path) -> None:
    """The 7d is read twice, the Ks not at all (a read of another card lies on its index), a read lies on no card,
    and a 2c whose index is hidden is not counted as missed."""
    truth = {"width": 400, "height": 300, "image": "images/val/t0.jpg", "cards": [
        {"card": "7d", "corners": [[0, 0], [100, 0], [100, 140], [0, 140]],
         "index": [{"box": [2, 2, 14, 30], "visible": True}]},
        {"card": "Ks", "corners": [[200, 10], [300, 10], [300, 150], [200, 150]],
         "index": [{"box": [202, 12, 214, 40], "visible": True}]},
        {"card": "2c", "corners": [[0, 160], [100, 160], [100, 300], [0, 300]],
         "index": [{"box": [2, 162, 14, 190], "visible": False}]},
    ]}
    path = _table(tmp_path, truth, (_read("7d", 0.99, (2, 2, 14, 30)), _read("7d", 0.60, (80, 100, 92, 128)),
                                    _read("Kh", 0.90, (202, 12, 214, 40)), _read("As", 0.97, (330, 200, 342, 228))))
    counts, misses = check_readings.table_misses(tmp_path, path, truth)
    assert counts == {"right": 2, "not read": 1, "another card": 1, "on no card": 1, "read twice": 1}
    assert [(m.truth, m.read, m.found_by_stage1) for m in misses] == [("Ks", "Kh", True), ("-", "As", True),
                                                                       ("Ks", None, True)]
    assert {m.photo for m in misses} == {tmp_path / "images" / "val" / "t0.jpg"}


def test_cached_readings_say_which_models_made_them(tmp_path: Path) -> None:
    """Measuring a set cached with other models than the ones named would measure the wrong models: the cache notes
    the models' digest, and a set cached with others (or not saying) is reported, one line each."""
    shipped, other = tmp_path / "shipped", tmp_path / "other"
    for folder, reader in ((shipped, b"reader one"), (other, b"reader two")):
        folder.mkdir()
        (folder / "index_det.onnx").write_bytes(b"finder")
        (folder / "index_cls.onnx").write_bytes(reader)
    assert check_readings.models_digest(shipped) != check_readings.models_digest(other)
    table_set = tmp_path / "eval"
    _table(table_set, TRUTH, (_read("7d", 0.999, (2, 2, 14, 30)),))
    assert "do not say which models" in check_readings.stale_caches([table_set], shipped)[0]
    check_readings.record_models(table_set, shipped)
    assert check_readings.stale_caches([table_set], shipped) == []
    [line] = check_readings.stale_caches([table_set], other)
    assert str(table_set) in line and "other models" in line
    (shipped / "index_cls.onnx").write_bytes(b"reader one, retrained")
    assert check_readings.stale_caches([table_set], shipped) != []
    # a calibration refitted to the same applied temperature reads alike; another temperature does not
    check_readings.record_models(table_set, shipped)
    (shipped / "reader_calibration.json").write_text(json.dumps({"temperature": 1.0, "fitted": 0.6}))
    assert check_readings.stale_caches([table_set], shipped) == []
    (shipped / "reader_calibration.json").write_text(json.dumps({"temperature": 1.3, "fitted": 1.3}))
    assert check_readings.stale_caches([table_set], shipped) != []


def test_cached_readings_keep_each_cards_turn_and_read_older_caches_without_it() -> None:
    card = CardDetection(card=parse_cards("7d")[0], confidence=0.9, box=(0, 0, 10, 20), index_boxes=((0, 0, 10, 20),),
                         up=0.0, turn=-6.5)
    data = check_readings.card_to_json(card)
    assert check_readings.card_from_json(json.loads(json.dumps(data))).turn == -6.5
    del data["turn"]  # readings cached before the turn was kept
    assert check_readings.card_from_json(data).turn is None


def test_black_suits_taken_for_each_other_are_counted_by_rank(tmp_path: Path) -> None:
    """A Qc read as Qs (its club and spade holding most of it, the spade more), a 7c read right, a 9s read 9s with the
    club close but under, an As read as 4s (its black aces hold too little to count) and a read on no index: one court
    of clubs of one taken for a spade, one number club of one right, one number spade of one right, nothing else."""
    def card(name: str, x: float) -> dict[str, Any]:
        return {"card": name, "corners": [[x, 0], [x + 100, 0], [x + 100, 140], [x, 140]],
                "index": [{"box": [x + 2, 2, x + 14, 30], "visible": True}]}

    def read(name: str, x: float, alternatives: dict[str, float]) -> CardDetection:
        return CardDetection(card=parse_cards(name)[0], confidence=max(alternatives.values()),
                             box=(x + 2, 2, x + 14, 30), index_boxes=((x + 2, 2, x + 14, 30),),
                             alternatives=tuple((parse_cards(c)[0], p) for c, p in alternatives.items()))

    truth = {"width": 800, "height": 300, "cards": [card("Qc", 0), card("7c", 150), card("9s", 300), card("As", 450)]}
    _table(tmp_path, truth, (read("Qs", 0, {"Qs": 0.6, "Qc": 0.3}), read("7c", 150, {"7c": 0.9, "7s": 0.05}),
                             read("9s", 300, {"9s": 0.5, "9c": 0.45}), read("4s", 450, {"4s": 0.8, "As": 0.1}),
                             read("2h", 650, {"2h": 0.99})))
    lean = check_readings.black_suit_lean([tmp_path])
    assert lean[("c", "courts")] == [1, 1]
    assert lean[("c", "number cards")] == [1, 0]
    assert lean[("s", "number cards")] == [1, 0]
    assert sum(n for n, _taken in lean.values()) == 3
