"""Rank 5-card rows (middle, tail) and 3-card rows (head).

A row's strength is one ``int``: greater is stronger. The category sits above
bit 20 and five 4-bit tie-break ranks below it, highest first, so the head and
the 5-card rows share one scale (RULES.md §1): head trips sit at category 3,
above any two pair and below any straight.

Tables are built once per wheel mode, treys-style: a rank multiset key (three
bits per rank count) gives the value of every non-flush hand, and a 13-bit rank
mask gives the value of every flush. The scalar functions and the batch API
(:func:`rank5_batch`) read the same tables.

>>> from referee.cards import parse_cards
>>> v = rank5(parse_cards("Ah Kh Qh Jh Th"))
>>> category_of(v).label
'straight_flush'
>>> rank5(parse_cards("Ah 2d 3c 4s 5s"), wheel="second") > rank5(parse_cards("Kh Qd Jc Ts 9s"), wheel="second")
True
>>> rank5(parse_cards("Ah 2d 3c 4s 5s"), wheel="lowest") < rank5(parse_cards("6h 2d 3c 4s 5s"), wheel="lowest")
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum, unique
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from typing import Literal

import numpy as np
import numpy.typing as npt

from referee.cards import Card

__all__ = [
    "Category",
    "Wheel",
    "category_of",
    "head_position_count",
    "rank3",
    "rank3_batch",
    "rank5",
    "rank5_batch",
    "rank_row",
]

Wheel = Literal["second", "lowest"]
CATEGORY_SHIFT = 20
_NIBBLES = 5


@unique
class Category(IntEnum):
    """Hand categories, weakest first, on the scale shared by all rows."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """The JSON name: ``high_card`` … ``straight_flush``."""
        return self.name.lower()


def category_of(value: int) -> Category:
    return Category(int(value) >> CATEGORY_SHIFT)


def _pack(category: Category, ranks: Sequence[int]) -> int:
    value = int(category)
    for i in range(_NIBBLES):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def _grouped(ranks: Sequence[int]) -> tuple[list[int], list[int]]:
    """Ranks ordered by (count, rank) descending, with their counts."""
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    return [r for r, _ in groups], [c for _, c in groups]


def _straight_top(ranks: Sequence[int], wheel: Wheel) -> int | None:
    """Tie-break rank of a straight, or None. Broadway is 15 so that the
    'second' wheel can sit at 14, between broadway and the king-high straight."""
    distinct = sorted(set(ranks), reverse=True)
    if len(distinct) != 5:
        return None
    if distinct[0] - distinct[4] == 4:
        return 15 if distinct[0] == 14 else distinct[0]
    if distinct == [14, 5, 4, 3, 2]:
        return 14 if wheel == "second" else 5
    return None


def _value5(ranks: Sequence[int], flush: bool, wheel: Wheel) -> int:
    top = _straight_top(ranks, wheel)
    if top is not None:
        return _pack(Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT, [top])
    order, counts = _grouped(ranks)
    if flush:
        return _pack(Category.FLUSH, order)
    shape = tuple(counts)
    category = {
        (4, 1): Category.FOUR_OF_A_KIND,
        (3, 2): Category.FULL_HOUSE,
        (3, 1, 1): Category.THREE_OF_A_KIND,
        (2, 2, 1): Category.TWO_PAIR,
        (2, 1, 1, 1): Category.PAIR,
        (1, 1, 1, 1, 1): Category.HIGH_CARD,
    }[shape]
    return _pack(category, order)


def _value3(ranks: Sequence[int]) -> int:
    order, counts = _grouped(ranks)
    category = {(3,): Category.THREE_OF_A_KIND, (2, 1): Category.PAIR, (1, 1, 1): Category.HIGH_CARD}[tuple(counts)]
    return _pack(category, order)


def _rank_key(ranks: Sequence[int]) -> int:
    return sum(1 << (3 * (r - 2)) for r in ranks)


class _Tables:
    """Lookup tables for one wheel mode."""

    def __init__(self, wheel: Wheel) -> None:
        self.plain5: dict[int, int] = {}
        for ranks in combinations_with_replacement(range(2, 15), 5):
            if max(Counter(ranks).values()) <= 4:
                self.plain5[_rank_key(ranks)] = _value5(ranks, False, wheel)
        self.flush5 = np.zeros(1 << 13, dtype=np.int64)
        for ranks in combinations(range(2, 15), 5):
            self.flush5[sum(1 << (r - 2) for r in ranks)] = _value5(ranks, True, wheel)
        self.plain3: dict[int, int] = {
            _rank_key(ranks): _value3(ranks) for ranks in combinations_with_replacement(range(2, 15), 3)
        }
        self.flush5_list: list[int] = self.flush5.tolist()
        self.keys5, self.values5 = _sorted_arrays(self.plain5)
        self.keys3, self.values3 = _sorted_arrays(self.plain3)


def _sorted_arrays(table: dict[int, int]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    keys = np.array(sorted(table), dtype=np.int64)
    values = np.array([table[k] for k in keys.tolist()], dtype=np.int64)
    return keys, values


@lru_cache(maxsize=2)
def _tables(wheel: Wheel) -> _Tables:
    return _Tables(wheel)


# Per card index: its term in the rank multiset key, and its bit in a rank mask.
_KEY_TERM = tuple(1 << (3 * (i >> 2)) for i in range(52))
_RANK_BIT = tuple(1 << (i >> 2) for i in range(52))


def rank5(cards: Sequence[Card], wheel: Wheel = "lowest") -> int:
    """Strength of a 5-card row (no validation: the caller checks the cards)."""
    tables = _tables(wheel)
    suit = cards[0].suit
    if all(c.suit is suit for c in cards):
        return int(tables.flush5_list[sum(_RANK_BIT[c.index] for c in cards)])
    return tables.plain5[sum(_KEY_TERM[c.index] for c in cards)]


def rank3(cards: Sequence[Card]) -> int:
    """Strength of a 3-card head: trips, pair or high card only."""
    return _tables("lowest").plain3[sum(_KEY_TERM[c.index] for c in cards)]


def rank_row(cards: Sequence[Card], wheel: Wheel = "lowest") -> int:
    """Rank a head (3 cards) or a middle/tail (5 cards)."""
    if len(cards) == 3:
        return rank3(cards)
    if len(cards) == 5:
        return rank5(cards, wheel)
    raise ValueError(f"a row has 3 or 5 cards, not {len(cards)}")


def head_position_count(head_value: int) -> int:
    """How many tie-break ranks a head carries: trips 1, pair 2, high card 3."""
    return {Category.THREE_OF_A_KIND: 1, Category.PAIR: 2, Category.HIGH_CARD: 3}[category_of(head_value)]


def truncate_to_head(row_value: int, head_value: int) -> int:
    """A 5-card value cut to the tie-break positions the head has (RULES.md §1:
    the head is compared with the middle over the cards the head has)."""
    drop = 4 * (_NIBBLES - head_position_count(head_value))
    return (int(row_value) >> drop) << drop


# ---------------------------------------------------------------- batch API

IntArray = npt.NDArray[np.int64]


def rank5_batch(cards: npt.ArrayLike, wheel: Wheel = "lowest") -> IntArray:
    """Rank many 5-card rows at once.

    ``cards`` is an integer array of shape ``(n, 5)`` of card indices
    (:attr:`Card.index`, 0..51); the result has shape ``(n,)``.
    """
    tables = _tables(wheel)
    idx = np.asarray(cards, dtype=np.int64)
    ranks = idx >> 2
    suits = idx & 3
    key = (np.int64(1) << (3 * ranks)).sum(axis=1)
    plain: IntArray = tables.values5[np.searchsorted(tables.keys5, key)]
    flush = (suits == suits[:, :1]).all(axis=1)
    if not flush.any():
        return plain
    mask = (np.int64(1) << ranks).sum(axis=1)
    result: IntArray = np.where(flush, tables.flush5[mask & 0x1FFF], plain)
    return result


def rank3_batch(cards: npt.ArrayLike) -> IntArray:
    """Rank many 3-card heads at once: ``(n, 3)`` card indices → ``(n,)``."""
    tables = _tables("lowest")
    ranks = np.asarray(cards, dtype=np.int64) >> 2
    key = (np.int64(1) << (3 * ranks)).sum(axis=1)
    result: IntArray = tables.values3[np.searchsorted(tables.keys3, key)]
    return result


def truncate_to_head_batch(row_values: IntArray, head_values: IntArray) -> IntArray:
    """Vectorised :func:`truncate_to_head`."""
    category = head_values >> CATEGORY_SHIFT
    positions = np.where(category == Category.THREE_OF_A_KIND, 1, np.where(category == Category.PAIR, 2, 3))
    drop = 4 * (_NIBBLES - positions)
    result: IntArray = (row_values >> drop) << drop
    return result
