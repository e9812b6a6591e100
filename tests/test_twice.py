"""A card read twice does not stop the round when the scores do not depend on which read is which
(vision.twice)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_layout import table
from test_unseen import FOUR, dealt
from test_unsure import RULES, photo, scores, unsure

from referee.cards import Card
from vision.annotate import draw
from vision.pipeline import read_photo
from vision.types import CardDetection, Detections


def misread(cards: list[CardDetection], card: str, as_: str) -> list[CardDetection]:
    """``card`` read, surely, as ``as_`` (a card also on the table)."""
    return [replace(c, card=Card.parse(as_)) if str(c.card) == card else c for c in cards]


def test_a_card_read_as_another_on_the_table_that_changes_nothing_is_scored_with_a_note() -> None:
    # top's head Ah Kc 3c with the 3c read 2d, which is in top's middle 7h 7d Qc Qd 2d: whichever read is the
    # 3c, top's head is ace-king high and its middle two pair, and they beat and lose to the same rows
    full = table(FOUR)
    cards = misread(full, "3c", "2d")
    reading = photo(cards)
    assert scores(cards) == scores(full) is not None
    notes = [p for p in reading.problems if p.kind == "duplicate_card"]
    assert [(p.card, p.blocking) for p in notes] == [("2d", False)]
    assert notes[0].message.startswith("2d is seen twice: one of the two is another card, 3c, the one card of the "
                                       "deck not seen, and the scores are the same whichever it is (shown as 3c at (")
    assert notes[0].seat == "top"
    top = next(s for s in reading.to_json()["seats"] if s["seat"] == "top")
    assert sorted(top["head"] + top["middle"]) == sorted(["Ah", "Kc", "3c", "7h", "7d", "Qc", "Qd", "2d"])
    # the card shown as another than it was read is marked for checking, as a card not seen is
    assert top["confidence"] == 0.0
    assert [str(c.card) for s in reading.layout.seats for c in s.cards if c.confidence == 0.0] == ["3c"]
    assert draw(reading).shape == reading.image.shape


def test_a_card_read_twice_that_could_change_the_score_blocks_and_names_what_it_may_be() -> None:
    # right's Ac read as top's As: if the read in top's tail is the Ac, top's tail is no longer two aces
    reading = photo(misread(table(FOUR), "Ac", "As"))
    assert reading.settlement is None
    twice = next(p for p in reading.problems if p.kind == "duplicate_card")
    assert twice.blocking and twice.card == "As"
    assert twice.message.startswith("As is seen twice, at (")
    assert twice.message.endswith("one of the two is another card, Ac (the one card of the deck not seen), and which "
                                  "one it is changes the scores: check them")
    # forced (the app reads so), the table as laid is scored without the seat that kept one read too few
    detections = Detections(width=1000, height=1000, cards=tuple(misread(table(FOUR), "Ac", "As")))
    forced = read_photo(np.zeros((8, 8, 3), np.uint8), RULES, force=True, detector=lambda _image: detections)
    assert forced.settlement is not None and {p.name for p in forced.settlement.players} == {"bottom", "right", "left"}


def test_with_two_players_a_card_read_twice_blocks() -> None:
    # 26 cards are not on the table: the other read may be any of them
    reading = photo(misread(table(["bottom", "top"]), "3c", "2d"))
    assert reading.settlement is None
    assert any(p.kind == "duplicate_card" and p.blocking for p in reading.problems)


def test_a_card_read_twice_and_an_unsure_card_are_tried_together() -> None:
    full = table(FOUR)
    cards = unsure(misread(full, "3c", "2d"), "2c", ("2c", 0.6), ("3d", 0.4))  # 3d sure elsewhere: it is the 2c
    assert scores(cards) == scores(full)


@settings(max_examples=150, deadline=None)
@given(st.permutations(range(52)), st.integers(2, 4), st.integers(0, 51), st.integers(0, 51))
def test_a_card_read_as_another_on_the_table_never_changes_a_score(order: list[int], players: int, which: int,
                                                                  other: int) -> None:
    # any deal, laid in rows; one card read surely as another card on the table: the reading is the full
    # table's settlement, or it is not scored (never another score)
    cards = dealt(order, players)
    full = scores(cards)
    assert full is not None
    card, as_ = str(cards[which % len(cards)].card), str(cards[other % len(cards)].card)
    assert scores(misread(cards, card, as_)) in (None, full)
