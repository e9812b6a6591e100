"""The resolver on its own (vision.resolve): hand-made doubts on a hand-made two-player table."""

from __future__ import annotations

from dataclasses import replace

from test_layout import table

from referee import load_ruleset, parse_cards
from referee.cards import Card
from vision.layout import layout_table
from vision.resolve import Doubt, Laid, OpenTable, readings, resolve, settled_alike
from vision.score import Scored, Scorer
from vision.thresholds import THRESHOLDS
from vision.types import MIN_CONFIDENCE, Detections, TableLayout

SCORER = Scorer(load_ruleset("classic"))
# bottom: 2c 3d 5h | 6s 6h 8c 9d Tc | Js Jh Jd 4c 4d, top: Ah Kc 3c | 7h 7d Qc Qd 2d | As Ad 9s 9h 9c
OFF_THE_TABLE = [str(c) for c in parse_cards("4h 6d Th Td Ts 3s Kd Kh Ks 8d 8h 3h 4s 7s 8s Qs Qh 6c 7c Jc Ac")]


def laid(*unsure: str) -> TableLayout:
    return layout_table([replace(c, confidence=0.6) if str(c.card) in unsure else c for c in table(["bottom", "top"])])


def doubt(layout: TableLayout, name: str, *others: str) -> Doubt:
    card = next(c for s in layout.seats for c in s.cards if str(c.card) == name)
    return Doubt("unsure", card, tuple(Card.parse(n) for n in (name, *others)))


def totals(scored: Scored | None) -> dict[str, int]:
    assert scored is not None
    return {p.name: p.score for p in scored[2].players}


def test_a_doubt_that_does_not_matter_settles_the_table_as_read() -> None:
    layout = laid()
    found = settled_alike(layout, [doubt(layout, "3d", "3h", "8d")], SCORER.sure)  # head 2c ? 5h loses either way
    assert found is not None
    reading, scored = found
    assert [str(c) for c in reading.values()] == ["3d"]  # the first reading: the card as read
    assert totals(scored) == totals(SCORER.sure(layout)) == {"bottom": -1, "top": 1}


def test_a_doubt_that_matters_settles_nothing() -> None:
    layout = laid()
    assert settled_alike(layout, [doubt(layout, "9d", "6d")], SCORER.sure) is None  # 6d: three sixes in the middle


def test_two_doubts_at_once_are_tried_together_one_deck() -> None:
    layout = laid()
    # each alone changes nothing (an 8 in bottom's head still loses to Ah Kc 3c), together they make a pair of
    # eights in the head: above the middle's pair of sixes, a foul
    eight_spades, eight_diamonds = doubt(layout, "2c", "8s"), doubt(layout, "3d", "8d")
    assert settled_alike(layout, [eight_spades], SCORER.sure) is not None
    assert settled_alike(layout, [eight_diamonds], SCORER.sure) is not None
    assert settled_alike(layout, [eight_spades, eight_diamonds], SCORER.sure) is None
    # one deck: two doubts never take one identity at once
    both_ks = [doubt(layout, "2c", "Ks"), doubt(layout, "3d", "Ks")]
    combos = readings(both_ks)
    assert combos is not None
    assert sorted(tuple(str(c) for c in r.values()) for r in combos) == [("2c", "3d"), ("2c", "Ks"), ("Ks", "3d")]


def test_beyond_the_bound_nothing_is_tried() -> None:
    layout = laid()
    ranks = OFF_THE_TABLE[:16]
    at_bound = [doubt(layout, "Js", *ranks[:15]), doubt(layout, "4d", *ranks[:15])]  # 16 x 16 = 256
    assert THRESHOLDS.max_readings == 256 and readings(at_bound) is not None
    beyond = [doubt(layout, "Js", *ranks), doubt(layout, "4d", *ranks)]  # 17 x 17
    assert readings(beyond) is None
    assert settled_alike(layout, beyond, SCORER.sure) is None


def resolved_with(doubts: list[tuple[str, ...]], *unsure: str):  # type: ignore[no-untyped-def]
    """The table with ``unsure`` cards read at 0.6, resolved by one producer giving ``doubts``."""
    layout = laid(*unsure)

    def producer(table: Laid) -> OpenTable:
        return OpenTable(table.laid, tuple(doubt(table.laid, *d) for d in doubts))

    detections = Detections(width=1000, height=1000, cards=())
    return resolve(Laid.of(layout, detections, SCORER, MIN_CONFIDENCE), [producer])


def test_resolve_turns_the_problems_of_doubts_that_do_not_matter_into_notes() -> None:
    resolved = resolved_with([("3d", "3h", "8d")], "3d")
    assert totals(resolved.scored) == {"bottom": -1, "top": 1}
    (note,) = [p for p in resolved.layout.problems if p.kind == "low_confidence"]
    assert not note.blocking and note.message.endswith("the scores are the same whether it is 3d, 3h, 8d")


def test_resolve_names_what_a_doubt_that_matters_may_be() -> None:
    resolved = resolved_with([("9d", "6d"), ("3d", "3h")], "9d", "3d")
    assert resolved.scored is None
    blocking = {p.card: p.message for p in resolved.layout.problems if p.blocking}
    assert blocking["9d"].endswith("check it (it may be 9d, 6d)") and blocking["3d"].endswith("(it may be 3d, 3h)")


def test_a_table_nothing_blocks_is_not_resolved() -> None:
    def producer(table: Laid) -> OpenTable:
        raise AssertionError("no producer is asked about a table nothing blocks")

    layout = laid()
    resolved = resolve(Laid.of(layout, Detections(width=1, height=1, cards=()), SCORER, MIN_CONFIDENCE), [producer])
    assert resolved.scored is None and resolved.layout == layout and set(resolved.seat_rows) == {"bottom", "top"}
