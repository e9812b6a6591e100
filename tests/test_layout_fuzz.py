"""Whatever the detector reads, what follows it answers: a settlement or named problems, never an exception.

Reads laid on a coarse grid (so that two lie at exactly one place, as two reads of one index box do), facing any of
the four ways, with or without outlines and alternatives; and dealt tables with reads added on top of their cards."""

from __future__ import annotations

import math
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from test_layout import card_at
from test_unseen import dealt
from test_unsure import photo

from referee.cards import DECK, Card
from vision.types import CardDetection

NAMES = [str(c) for c in DECK]


@st.composite
def reads(draw: st.DrawFn) -> CardDetection:
    card = Card.parse(NAMES[draw(st.integers(0, 51))])
    x, y = draw(st.integers(0, 20)) * 50.0, draw(st.integers(0, 20)) * 50.0
    up = float(draw(st.sampled_from([0, 90, 180, 270, 45, 10])))
    confidence = draw(st.sampled_from([0.3, 0.6, 0.84, 0.86, 0.99, 1.0]))
    c = card_at(card, x, y, up, confidence=confidence)
    if draw(st.booleans()):  # read from its index box alone: no outline estimated
        c = replace(c, outline=None)
    if draw(st.booleans()):
        other = Card.parse(NAMES[draw(st.integers(0, 51))])
        c = replace(c, alternatives=((card, confidence), (other, round(1 - confidence, 3))))
    if draw(st.booleans()):  # an index box, as the detector gives one
        a = math.radians(up)
        ix, iy = x - 20 * math.cos(a) + 35 * math.sin(a), y - 20 * math.sin(a) - 35 * math.cos(a)
        c = replace(c, index_boxes=((ix - 6, iy - 9, ix + 6, iy + 9),))
    return c


def answered(cards: list[CardDetection]) -> None:
    reading = photo(cards)
    assert reading.settlement is not None or any(p.blocking for p in reading.problems)
    reading.to_json()


@settings(max_examples=120, deadline=None)
@given(st.lists(reads(), max_size=40))
def test_any_reads_are_answered(cards: list[CardDetection]) -> None:
    answered(cards)


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(52)), st.integers(2, 4), st.sampled_from([0.0, 3.0]),
       st.lists(st.tuples(st.integers(0, 51), st.integers(0, 51), st.sampled_from([0, 90, 180, 270]),
                          st.sampled_from([0.5, 0.9, 1.0]), st.integers(-3, 3), st.integers(-3, 3)), max_size=4),
       st.lists(st.integers(0, 51), max_size=3))
def test_a_dealt_table_with_reads_on_its_cards_is_answered(order: list[int], players: int, jitter: float,
                                                           extra: list[tuple[int, int, int, float, int, int]],
                                                           gone: list[int]) -> None:
    # each extra read lies on a card of the table, 0-30 px from its centre along each axis, facing any way; some of
    # the table's cards taken away
    cards = dealt(order, players, jitter)
    cards = [c for c in cards if str(c.card) not in {NAMES[k] for k in gone}]
    for on, identity, up, confidence, dx, dy in extra:
        x, y = cards[on % len(cards)].center
        cards.append(card_at(Card.parse(NAMES[identity]), x + 10 * dx, y + 10 * dy, float(up), confidence=confidence))
    answered(cards)
