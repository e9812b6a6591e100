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

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from referee.cards import Card

Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]

_FACES = {11, 12, 13}
_ROYALS = {11, 12, 13, 14}


class HandFacts:
    """What the predicates ask of 13 cards, computed once per hand."""

    __slots__ = ("cards", "colour_majority", "counts", "distinct_ranks", "pairs_and_trips", "rank_vector", "ranks",
                 "suit_counts")

    def __init__(self, cards: Sequence[Card]) -> None:
        self.cards = tuple(cards)
        self.ranks: list[int] = [(c.index >> 2) + 2 for c in self.cards]
        vector = [0] * 13
        suits = [0, 0, 0, 0]
        for c in self.cards:
            vector[c.index >> 2] += 1
            suits[c.index & 3] += 1
        #: How many cards of each rank, 2 first.
        self.rank_vector = tuple(vector)
        self.distinct_ranks = 13 - vector.count(0)
        #: Rank counts, largest first: [4, 3, 3, 3] is a quad and three trips.
        self.counts = sorted((n for n in vector if n), reverse=True)
        self.suit_counts = sorted((n for n in suits if n), reverse=True)
        red = suits[1] + suits[2]  # hearts, diamonds in deck order s h d c
        self.colour_majority = max(red, len(self.cards) - red)
        #: Pairs (a quad counts as two) and trips (exactly three of a rank).
        self.pairs_and_trips = (
            vector.count(2) + 2 * vector.count(4),
            vector.count(3),
        )


def is_run(cards: Sequence[Card]) -> bool:
    """Consecutive distinct ranks; the ace plays high or low (A-2-3, Q-K-A,
    A-2-3-4-5 and T-J-Q-K-A all count)."""
    ranks = {int(c.rank) for c in cards}
    if len(ranks) != len(cards):
        return False
    if max(ranks) - min(ranks) == len(cards) - 1:
        return True
    if 14 in ranks:
        low = {1 if r == 14 else r for r in ranks}
        return max(low) - min(low) == len(cards) - 1
    return False


def is_one_suit(cards: Sequence[Card]) -> bool:
    suit = cards[0].suit
    for c in cards:  # noqa: SIM110 - a plain loop is measurably faster than all() here
        if c.suit is not suit:
            return False
    return True


# Runs as rank tuples; the ace is 14 whether it plays high or low.
_RUNS3 = [tuple(14 if r == 1 else r for r in range(lo, lo + 3)) for lo in range(1, 13)]
_RUNS5 = [tuple(14 if r == 1 else r for r in range(lo, lo + 5)) for lo in range(1, 11)]


def _count_vector(ranks: Sequence[int]) -> tuple[int, ...]:
    counts = [0] * 13
    for r in ranks:
        counts[r - 2] += 1
    return tuple(counts)


# Every rank-count vector that a 3-run and two 5-runs can make: about 600 of them.
_RUN_SPLITS: frozenset[tuple[int, ...]] = frozenset(
    _count_vector(h + m + t) for h in _RUNS3 for m in _RUNS5 for t in _RUNS5
)


def _splits_into_runs(facts: HandFacts) -> bool:
    """Can these 13 ranks form a 3-run and two 5-runs (rank counts only)?"""
    return facts.rank_vector in _RUN_SPLITS


def _suits_fit_rows(facts: HandFacts) -> bool:
    """Can the suits fill a 3-row and two 5-rows, one suit each?"""
    return facts.suit_counts in ([13], [8, 5], [10, 3], [5, 5, 3])


def _six_pairs(facts: HandFacts) -> bool:
    return facts.pairs_and_trips == (6, 0) and facts.counts != [4, 4, 4, 1]


def _five_pairs_trips(facts: HandFacts) -> bool:
    return facts.pairs_and_trips == (5, 1)


def _high_low(lo: int, hi: int, aces: int) -> Callable[[HandFacts], bool]:
    def test(facts: HandFacts) -> bool:
        ranks = facts.ranks
        return ranks.count(14) == aces and all(lo <= r <= hi for r in ranks if r != 14)

    return test


@dataclass(frozen=True)
class SpecialPredicate:
    key: str
    chinese: str
    definition: str
    on_cards: Callable[[HandFacts], bool] | None = None
    row_test: Callable[[Sequence[Card]], bool] | None = None
    #: For row-based specials: a fast necessary condition on the 13 cards.
    feasible: Callable[[HandFacts], bool] | None = None

    @property
    def needs_rows(self) -> bool:
        """True for the arrangement-based specials, judged on the laid rows."""
        return self.row_test is not None

    def test(self, cards: Sequence[Card] | HandFacts, rows: Rows | None) -> bool:
        if self.on_cards is not None:
            return self.on_cards(cards if isinstance(cards, HandFacts) else HandFacts(cards))
        assert self.row_test is not None
        return rows is not None and all(self.row_test(row) for row in rows)


def _ranks_all(test: Callable[[int], bool]) -> Callable[[HandFacts], bool]:
    return lambda f: all(test(r) for r in f.ranks)


_CATALOGUE = [
    SpecialPredicate("dragon_flush", "至尊清龙", "A…K, all one suit",
                     lambda f: f.distinct_ranks == 13 and f.suit_counts == [13]),
    SpecialPredicate("dragon", "一条龙", "one card of each rank A…K", lambda f: f.distinct_ranks == 13),
    SpecialPredicate("royals_all", "十二皇族", "all 13 cards are J, Q, K or A",
                     _ranks_all(lambda r: r in _ROYALS)),
    SpecialPredicate("royals_12faces", "十二皇族", "all twelve J/Q/K cards + 1 other",
                     lambda f: sum(r in _FACES for r in f.ranks) == 12),
    SpecialPredicate("royals_12", "十二皇族", "at least 12 of the 13 cards are J/Q/K/A",
                     lambda f: sum(r in _ROYALS for r in f.ranks) >= 12),
    SpecialPredicate("three_straight_flushes", "三同花顺", "every row a straight flush (head: 3-card run of one suit)",
                     row_test=lambda row: is_run(row) and is_one_suit(row),
                     feasible=lambda f: _suits_fit_rows(f) and _splits_into_runs(f)),
    SpecialPredicate("three_quads", "三分天下", "three four-of-a-kinds + 1", lambda f: f.counts[:3] == [4, 4, 4]),
    SpecialPredicate("all_high_8", "全大", "every card 8…A", _ranks_all(lambda r: r >= 8)),
    SpecialPredicate("all_low_8", "全小", "every card 2…8", _ranks_all(lambda r: r <= 8)),
    SpecialPredicate("one_color", "凑一色", "all black or all red", lambda f: f.colour_majority == 13),
    SpecialPredicate("one_color_but_one", "全黑一点红", "exactly 12 of one colour",
                     lambda f: f.colour_majority == 12),
    SpecialPredicate("three_trips_and_quad", "三冲加弹", "three trips + one quad",
                     lambda f: f.counts == [4, 3, 3, 3]),
    SpecialPredicate("four_trips", "四套三条", "four three-of-a-kinds + 1", lambda f: f.counts == [3, 3, 3, 3, 1]),
    SpecialPredicate("five_pairs_trips", "五对三条", "five pairs + one trips (a quad counts as two pairs)",
                     _five_pairs_trips),
    SpecialPredicate("six_pairs", "六对半", "six pairs + 1 single (a quad counts as two pairs)", _six_pairs),
    SpecialPredicate("six_pairs_or_five_pairs_trips", "六对半", "six_pairs or five_pairs_trips",
                     lambda f: _six_pairs(f) or _five_pairs_trips(f)),
    SpecialPredicate("three_flushes", "三同花", "every row one suit (head: 3 of a suit)", row_test=is_one_suit,
                     feasible=_suits_fit_rows),
    SpecialPredicate("three_straights", "三顺子", "every row a run (head: 3 consecutive ranks)", row_test=is_run,
                     feasible=_splits_into_runs),
    SpecialPredicate("high_5_no_ace", "全大", "every card 5…K (no ace)", _high_low(5, 13, 0)),
    SpecialPredicate("high_5_one_ace", "半大", "every card 5…K except exactly one ace", _high_low(5, 13, 1)),
    SpecialPredicate("low_10_no_ace", "全小", "every card 2…10 (no ace)", _high_low(2, 10, 0)),
    SpecialPredicate("low_10_one_ace", "半小", "every card 2…10 except exactly one ace", _high_low(2, 10, 1)),
]

PREDICATES: dict[str, SpecialPredicate] = {p.key: p for p in _CATALOGUE}
