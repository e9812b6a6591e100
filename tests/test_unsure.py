"""Unsure cards whose identity changes nothing do not stop the round (vision.unsure)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from test_layout import table

from referee import load_ruleset
from referee.cards import Card
from vision.join import IndexHit, join_indices
from vision.pipeline import read_photo
from vision.thresholds import THRESHOLDS
from vision.types import CardDetection, Detections
from vision.unsure import plausible_identities

RULES = load_ruleset("classic")


def unsure(cards: list[CardDetection], name: str, *alternatives: tuple[str, float]) -> list[CardDetection]:
    """``cards`` with ``name`` read at 0.6 and these alternatives (its reading first)."""
    out = []
    for c in cards:
        if str(c.card) == name:
            c = replace(c, confidence=0.6, alternatives=tuple((Card.parse(n), p) for n, p in alternatives))
        out.append(c)
    return out


def photo(cards: list[CardDetection]):  # type: ignore[no-untyped-def]
    detections = Detections(width=1000, height=1000, cards=tuple(cards))
    return read_photo(np.zeros((8, 8, 3), np.uint8), RULES, detector=lambda _image: detections)


def scores(cards: list[CardDetection]) -> dict[str, int] | None:
    reading = photo(cards)
    return None if reading.settlement is None else {p.name: p.score for p in reading.settlement.players}


def test_an_unsure_card_that_changes_nothing_is_scored_with_a_note() -> None:
    sure = table(["bottom", "top"])
    # bottom's head 2c 3d 5h loses to top's Ah Kc 3c whether the 3d is a 3h or an 8d
    cards = unsure(sure, "3d", ("3d", 0.6), ("3h", 0.3), ("8d", 0.1))
    reading = photo(cards)
    assert scores(cards) == scores(sure) is not None
    notes = [p for p in reading.problems if p.kind == "low_confidence"]
    assert len(notes) == 1 and not notes[0].blocking and notes[0].card == "3d"
    assert notes[0].message.endswith("the scores are the same whether it is 3d, 3h, 8d")


def test_an_unsure_card_every_other_reading_of_which_is_read_surely_elsewhere_is_named() -> None:
    # bottom's 9d read unsurely, its reader's other thoughts (9h, Qd) both read surely in the top player's hand
    cards = unsure(table(["bottom", "top"]), "9d", ("9d", 0.6), ("9h", 0.3), ("Qd", 0.1))
    reading = photo(cards)
    assert reading.settlement is not None
    [note] = [p for p in reading.problems if p.kind == "low_confidence"]
    assert not note.blocking
    assert note.message.endswith("it can only be 9d, the one plausible card no sure read holds")


def test_an_unsure_card_that_could_change_the_score_blocks() -> None:
    # bottom's middle 6s 6h 8c 9d Tc: a 6d instead of the 9d makes three sixes, which beat top's two pair
    cards = unsure(table(["bottom", "top"]), "9d", ("9d", 0.7), ("6d", 0.2))
    reading = photo(cards)
    assert reading.settlement is None
    blocking = [p for p in reading.problems if p.kind == "low_confidence" and p.blocking]
    assert len(blocking) == 1 and blocking[0].card == "9d"
    assert blocking[0].message.endswith("check it (it may be 9d, 6d)")  # what to look for on the table


def test_an_unsure_card_without_the_readers_probabilities_blocks() -> None:
    cards = [replace(c, confidence=0.6) if str(c.card) == "3d" else c for c in table(["bottom", "top"])]
    reading = photo(cards)
    assert reading.settlement is None
    assert any(p.kind == "low_confidence" and p.blocking for p in reading.problems)


def test_every_unsure_card_is_tried_together() -> None:
    sure = table(["bottom", "top"])
    # two unsure cards of bottom's head: as 8d and 7c it still loses to Ah Kc 3c, so every pairing is tried and scored
    cards = unsure(unsure(sure, "3d", ("3d", 0.6), ("8d", 0.4)), "2c", ("2c", 0.5), ("7c", 0.5))
    assert scores(cards) == scores(sure)
    # and a 6d among one card's identities blocks the whole round even with another unsure card that is harmless
    cards = unsure(unsure(sure, "3d", ("3d", 0.6), ("8d", 0.4)), "9d", ("9d", 0.7), ("6d", 0.3))
    assert scores(cards) is None


def test_plausible_identities_leave_out_what_sure_cards_hold() -> None:
    card = replace(table(["bottom"])[0], confidence=0.6,
                   alternatives=((Card.parse("Kd"), 0.5), (Card.parse("2c"), 0.3), (Card.parse("Ks"), 0.198),
                                 (Card.parse("Qs"), THRESHOLDS.plausible * 0.1)))
    assert str(card.card) == "2c"
    # Kd is held by a sure card; the rest weighed again: 2c first (its reading), then Ks; Qs is too improbable
    assert [str(c) for c in plausible_identities(card, {Card.parse("Kd")})] == ["2c", "Ks"]
    assert plausible_identities(replace(card, alternatives=()), set()) == ()


def test_cards_keep_their_readers_probabilities_as_read() -> None:
    names = ["2c", "3d", "Kd", "zz_bg"]
    sure = IndexHit((0, 0, 10, 20), 0.9, "Kd", 0.99, 0.0, np.array([0.0, 0.01, 0.99, 0.0], np.float32))
    weak = IndexHit((300, 0, 310, 20), 0.9, "Kd", 0.6, 0.0, np.array([0.1, 0.3, 0.6, 0.0], np.float32))
    cards = join_indices([sure, weak], names)
    unsure_card = next(c for c in cards if c.confidence < 0.85)
    # one deck moved the weak read off the Kd the sure card holds; its alternatives are still as read
    assert str(unsure_card.card) == "3d"
    assert [(str(c), round(p, 2)) for c, p in unsure_card.alternatives] == [("Kd", 0.6), ("3d", 0.3), ("2c", 0.1)]
