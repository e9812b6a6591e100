"""Special hands 特殊牌型: the predicate catalogue of RULES.md §2.

Each predicate looks at the player's 13 cards; the three arrangement-based ones
(``three_flushes``, ``three_straights``, ``three_straight_flushes``) look at the
rows as laid, and the caller must also check that those rows are not fouled.

>>> from referee.cards import parse_cards
>>> cards = parse_cards("2s 2h 3s 3h 4s 4h 5s 5h 6s 6h 7s 7h Ac")
>>> PREDICATES["six_pairs"].test(cards, None)
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from referee.cards import Card

Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]

_FACES = {11, 12, 13}
_ROYALS = {11, 12, 13, 14}


def _counts(cards: Sequence[Card]) -> list[int]:
    return sorted(Counter(c.rank.value for c in cards).values(), reverse=True)


def _ranks(cards: Sequence[Card]) -> list[int]:
    return [c.rank.value for c in cards]


def _pairs_and_trips(cards: Sequence[Card]) -> tuple[int, int]:
    """Pairs (a quad counts as two) and trips (exactly three of a rank)."""
    counts = _counts(cards)
    pairs = sum(2 if n == 4 else 1 for n in counts if n in (2, 4))
    trips = sum(1 for n in counts if n == 3)
    return pairs, trips


def is_run(cards: Sequence[Card]) -> bool:
    """Consecutive distinct ranks; the ace plays high or low (A-2-3, Q-K-A,
    A-2-3-4-5 and T-J-Q-K-A all count)."""
    ranks = set(_ranks(cards))
    if len(ranks) != len(cards):
        return False
    if max(ranks) - min(ranks) == len(cards) - 1:
        return True
    if 14 in ranks:
        low = {1 if r == 14 else r for r in ranks}
        return max(low) - min(low) == len(cards) - 1
    return False


def is_one_suit(cards: Sequence[Card]) -> bool:
    return len({c.suit for c in cards}) == 1


def _colour_majority(cards: Sequence[Card]) -> int:
    red = sum(1 for c in cards if c.suit.is_red)
    return max(red, len(cards) - red)


def _six_pairs(cards: Sequence[Card]) -> bool:
    pairs, trips = _pairs_and_trips(cards)
    return pairs == 6 and trips == 0 and _counts(cards) != [4, 4, 4, 1]


def _five_pairs_trips(cards: Sequence[Card]) -> bool:
    return _pairs_and_trips(cards) == (5, 1)


def _high_low(lo: int, hi: int, aces: int) -> Callable[[Sequence[Card]], bool]:
    def test(cards: Sequence[Card]) -> bool:
        ranks = _ranks(cards)
        return ranks.count(14) == aces and all(lo <= r <= hi for r in ranks if r != 14)

    return test


@dataclass(frozen=True)
class SpecialPredicate:
    key: str
    chinese: str
    definition: str
    on_cards: Callable[[Sequence[Card]], bool] | None = None
    row_test: Callable[[Sequence[Card]], bool] | None = None

    @property
    def needs_rows(self) -> bool:
        """True for the arrangement-based specials, judged on the laid rows."""
        return self.row_test is not None

    def test(self, cards: Sequence[Card], rows: Rows | None) -> bool:
        if self.on_cards is not None:
            return self.on_cards(cards)
        assert self.row_test is not None
        return rows is not None and all(self.row_test(row) for row in rows)


_CATALOGUE = [
    SpecialPredicate("dragon_flush", "至尊清龙", "A…K, all one suit",
                     lambda c: len(set(_ranks(c))) == 13 and is_one_suit(c)),
    SpecialPredicate("dragon", "一条龙", "one card of each rank A…K", lambda c: len(set(_ranks(c))) == 13),
    SpecialPredicate("royals_all", "十二皇族", "all 13 cards are J, Q, K or A",
                     lambda c: all(r in _ROYALS for r in _ranks(c))),
    SpecialPredicate("royals_12faces", "十二皇族", "all twelve J/Q/K cards + 1 other",
                     lambda c: sum(r in _FACES for r in _ranks(c)) == 12),
    SpecialPredicate("royals_12", "十二皇族", "at least 12 of the 13 cards are J/Q/K/A",
                     lambda c: sum(r in _ROYALS for r in _ranks(c)) >= 12),
    SpecialPredicate("three_straight_flushes", "三同花顺", "every row a straight flush (head: 3-card run of one suit)",
                     row_test=lambda row: is_run(row) and is_one_suit(row)),
    SpecialPredicate("three_quads", "三分天下", "three four-of-a-kinds + 1", lambda c: _counts(c)[:3] == [4, 4, 4]),
    SpecialPredicate("all_high_8", "全大", "every card 8…A", lambda c: all(r >= 8 for r in _ranks(c))),
    SpecialPredicate("all_low_8", "全小", "every card 2…8", lambda c: all(r <= 8 for r in _ranks(c))),
    SpecialPredicate("one_color", "凑一色", "all black or all red", lambda c: _colour_majority(c) == len(c)),
    SpecialPredicate("one_color_but_one", "全黑一点红", "exactly 12 of one colour",
                     lambda c: _colour_majority(c) == len(c) - 1),
    SpecialPredicate("three_trips_and_quad", "三冲加弹", "three trips + one quad",
                     lambda c: _counts(c) == [4, 3, 3, 3]),
    SpecialPredicate("four_trips", "四套三条", "four three-of-a-kinds + 1", lambda c: _counts(c) == [3, 3, 3, 3, 1]),
    SpecialPredicate("five_pairs_trips", "五对三条", "five pairs + one trips (a quad counts as two pairs)",
                     _five_pairs_trips),
    SpecialPredicate("six_pairs", "六对半", "six pairs + 1 single (a quad counts as two pairs)", _six_pairs),
    SpecialPredicate("six_pairs_or_five_pairs_trips", "六对半", "six_pairs or five_pairs_trips",
                     lambda c: _six_pairs(c) or _five_pairs_trips(c)),
    SpecialPredicate("three_flushes", "三同花", "every row one suit (head: 3 of a suit)", row_test=is_one_suit),
    SpecialPredicate("three_straights", "三顺子", "every row a run (head: 3 consecutive ranks)", row_test=is_run),
    SpecialPredicate("high_5_no_ace", "全大", "every card 5…K (no ace)", _high_low(5, 13, 0)),
    SpecialPredicate("high_5_one_ace", "半大", "every card 5…K except exactly one ace", _high_low(5, 13, 1)),
    SpecialPredicate("low_10_no_ace", "全小", "every card 2…10 (no ace)", _high_low(2, 10, 0)),
    SpecialPredicate("low_10_one_ace", "半小", "every card 2…10 except exactly one ace", _high_low(2, 10, 1)),
]

PREDICATES: dict[str, SpecialPredicate] = {p.key: p for p in _CATALOGUE}
