"""The arrangement solver: every legal split of 13 cards, the best ones, and advice.

A hand of 13 cards splits into a head (3), a middle (5) and a tail (5) in
C(13,3)·C(10,5) = 72,072 ways. That split structure is the same for every hand,
so it is built once (:func:`split_structure`) as index arrays into the 286
three-card and 1,287 five-card subsets of 13 positions. Per hand only those
1,573 subsets are ranked (:func:`referee.evaluate.rank3_batch`,
:func:`referee.evaluate.rank5_batch`); every split is then classified legal or
fouled with a few vectorised gathers and comparisons.

Objectives:

* ``strength``: the non-dominated legal arrangements (Pareto over the three row
  values), strongest tail first. Their ``value`` is a heuristic: the expected
  number of rows won (weighted by the ruleset's row multipliers) against the rows
  a typical opponent plays.
* ``expected``: expected points against opponents holding random hands from the
  remaining 39 cards, each playing its own heuristic-best arrangement, settled
  exactly as :func:`referee.settle.settle` does (Monte Carlo with a seed; every
  candidate meets the same deals, and the standard error is reported).

>>> result = solve("As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 7d", "classic")
>>> result.valid_arrangements, result.best[0].categories
(20678, ('high_card', 'full_house', 'straight_flush'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from referee.cards import DECK, HAND_SIZE, ROW_NAMES, Card, check_unique, format_cards, parse_cards
from referee.errors import InputError
from referee.evaluate import (
    CATEGORY_SHIFT,
    category_of,
    rank3_batch,
    rank5_batch,
    truncate_to_head_batch,
)
from referee.hand import HandReport, RowReport, foul_reason, laid_special, row_values
from referee.round import PlayerHand
from referee.ruleset import Ruleset, load_ruleset
from referee.settle import settle_pairs
from referee.specials import PREDICATES, HandFacts, Rows

__all__ = [
    "Advice",
    "Arrangement",
    "HandSplits",
    "Objective",
    "SolveResult",
    "advise",
    "analyse_splits",
    "expected_points",
    "solve",
    "split_structure",
]

Objective = Literal["strength", "expected"]
IntArray = npt.NDArray[np.int64]
IndexArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]

N_HEADS = 286
N_FIVES = 1287
N_SPLITS = 72072
DEFAULT_SAMPLES = 200
DEFAULT_PLAYERS = 4
DEFAULT_TOP = 5
DEFAULT_CANDIDATES = 24


# ------------------------------------------------------------------ the fixed split structure


@dataclass(frozen=True)
class SplitStructure:
    """All 72,072 splits of 13 positions, as indices into the 286 heads and 1,287 fives."""

    heads: IndexArray  # (286, 3) positions 0..12
    fives: IndexArray  # (1287, 5)
    split_head: IndexArray  # (72072,) index into heads
    split_middle: IndexArray  # (72072,) index into fives
    split_tail: IndexArray  # (72072,) index into fives


@lru_cache(maxsize=1)
def split_structure() -> SplitStructure:
    """Build (once) the split structure; splits are ordered by head, then middle."""
    heads = np.array(list(combinations(range(HAND_SIZE), 3)), dtype=np.intp)
    fives = np.array(list(combinations(range(HAND_SIZE), 5)), dtype=np.intp)
    five_of_mask = np.full(1 << HAND_SIZE, -1, dtype=np.intp)
    five_masks = (1 << fives).sum(axis=1)
    five_of_mask[five_masks] = np.arange(len(fives))
    choose = np.array(list(combinations(range(10), 5)), dtype=np.intp)  # (252, 5)
    all_positions = np.arange(HAND_SIZE)
    split_head = np.repeat(np.arange(len(heads)), len(choose))
    middles: list[IndexArray] = []
    tails: list[IndexArray] = []
    full = (1 << HAND_SIZE) - 1
    for head in heads:
        rest = np.setdiff1d(all_positions, head)
        middle_masks = (1 << rest[choose]).sum(axis=1)
        tail_masks = full ^ (1 << head).sum() ^ middle_masks
        middles.append(five_of_mask[middle_masks])
        tails.append(five_of_mask[tail_masks])
    for array in (heads, fives):
        array.setflags(write=False)
    return SplitStructure(heads=heads, fives=fives, split_head=split_head.astype(np.intp),
                          split_middle=np.concatenate(middles), split_tail=np.concatenate(tails))


# Rank masks (bit r for rank index r = card index >> 2: 0 = deuce … 12 = ace) that are runs.
_RUN5 = np.zeros(1 << 13, dtype=np.bool_)
_RUN3 = np.zeros(1 << 13, dtype=np.bool_)
for _k in range(9):
    _RUN5[0x1F << _k] = True
_RUN5[(1 << 12) | 0xF] = True  # A-2-3-4-5
for _k in range(11):
    _RUN3[0x7 << _k] = True
_RUN3[(1 << 12) | 0x3] = True  # A-2-3

# Arrangement specials: which per-row flags every row must carry.
_ROW_SPECIAL_FLAGS: dict[str, tuple[bool, bool]] = {  # key -> (one suit, run)
    "three_flushes": (True, False),
    "three_straights": (False, True),
    "three_straight_flushes": (True, True),
}


# ------------------------------------------------------------------ per hand


def _cards_of(cards: str | Sequence[Card | str]) -> tuple[Card, ...]:
    parsed = parse_cards(cards if isinstance(cards, str) else list(cards))
    if len(parsed) != HAND_SIZE:
        raise InputError(f"a hand has {HAND_SIZE} cards, got {len(parsed)} ({format_cards(parsed)})")
    check_unique(parsed)
    return parsed


def _rules_of(rules: Ruleset | str) -> Ruleset:
    return rules if isinstance(rules, Ruleset) else load_ruleset(rules)


@dataclass(frozen=True, eq=False)
class HandSplits:
    """One hand's 72,072 splits: row values and the legal (not fouled) mask.

    ``cards`` are the 13 card indices in ascending order; position ``p`` of the
    split structure is ``cards[p]``.
    """

    cards: IntArray
    rules: Ruleset
    head_values: IntArray  # (286,)
    five_values: IntArray  # (1287,)
    legal: BoolArray  # (72072,)

    @property
    def valid_arrangements(self) -> int:
        return int(np.count_nonzero(self.legal))

    def split_values(self, split: int) -> tuple[int, int, int]:
        s = split_structure()
        return (int(self.head_values[s.split_head[split]]), int(self.five_values[s.split_middle[split]]),
                int(self.five_values[s.split_tail[split]]))

    def split_rows(self, split: int) -> Rows:
        s = split_structure()
        head = self.cards[s.heads[s.split_head[split]]]
        middle = self.cards[s.fives[s.split_middle[split]]]
        tail = self.cards[s.fives[s.split_tail[split]]]
        return (_card_tuple(head), _card_tuple(middle), _card_tuple(tail))


def _card_tuple(indices: IntArray) -> tuple[Card, ...]:
    return tuple(sorted((DECK[int(i)] for i in indices), reverse=True))


def analyse_splits(cards: str | Sequence[Card | str] | IntArray, rules: Ruleset | str) -> HandSplits:
    """Rank the 1,573 subsets of a hand and classify all 72,072 splits legal/fouled."""
    ruleset = _rules_of(rules)
    if isinstance(cards, np.ndarray):
        indices = np.sort(cards.astype(np.int64))
        if indices.shape != (HAND_SIZE,) or indices[0] < 0 or indices[-1] > 51 or np.any(indices[1:] == indices[:-1]):
            raise InputError(f"a hand is {HAND_SIZE} distinct card indices 0..51")
    else:
        indices = np.array(sorted(c.index for c in _cards_of(cards)), dtype=np.int64)
    s = split_structure()
    head_values = rank3_batch(indices[s.heads])
    five_values = rank5_batch(indices[s.fives], ruleset.wheel)
    # The head is compared with the middle cut to the head's tie-break positions, and
    # the cut floors to a multiple of a unit (2**dropped bits): so per head there is a
    # least middle value that passes, and each split needs one comparison.
    cut_all = truncate_to_head_batch(head_values | ((1 << CATEGORY_SHIFT) - 1), head_values)
    unit = cut_all & -cut_all
    if ruleset.strict_order:
        least_middle = truncate_to_head_batch(head_values, head_values) + unit
    else:
        least_middle = truncate_to_head_batch(head_values + unit - 1, head_values)
    # Values stay below 2**24: int32 halves the memory traffic of the 72,072-long gathers.
    five32 = five_values.astype(np.int32)
    threshold = least_middle.astype(np.int32)[s.split_head]
    mv = five32[s.split_middle]
    tv = five32[s.split_tail]
    legal = (threshold <= mv) & ((mv < tv) if ruleset.strict_order else (mv <= tv))
    return HandSplits(cards=indices, rules=ruleset, head_values=head_values, five_values=five_values, legal=legal)


def pareto_front(hand: HandSplits, limit: int | None = None) -> list[int]:
    """Split indices of the non-dominated legal arrangements, strongest tail first
    (then middle, then head); one split per distinct triple of row values.

    With a small ``limit`` the front is peeled one point at a time (each step takes
    the lexicographic maximum and drops what it dominates); the whole front is found
    on a grid of (tail, middle) ranks holding the best head rank, with a 2-D suffix
    maximum: a point is non-dominated when its head beats every cell above it.
    """
    s = split_structure()
    legal = np.flatnonzero(hand.legal)
    if legal.size == 0:
        return []
    # Dense ranks of the values: same order, small integers.
    _, r5 = np.unique(hand.five_values, return_inverse=True)
    _, r3 = np.unique(hand.head_values, return_inverse=True)
    tail_sub = s.split_tail[legal]
    middle_sub = s.split_middle[legal]
    h = r3[s.split_head[legal]].astype(np.int64)
    if limit is not None and limit <= _PEEL_LIMIT:
        return _peel(legal, r5[tail_sub].astype(np.int64), r5[middle_sub].astype(np.int64), h, limit)
    # Compress the tail and middle ranks to the values present among legal splits.
    present_t = np.zeros(N_FIVES + 1, dtype=np.intp)
    present_m = np.zeros(N_FIVES + 1, dtype=np.intp)
    present_t[r5[tail_sub]] = 1
    present_m[r5[middle_sub]] = 1
    rank_t = np.cumsum(present_t) - 1
    rank_m = np.cumsum(present_m) - 1
    t = rank_t[r5[tail_sub]]
    m = rank_m[r5[middle_sub]]
    grid = np.full((int(rank_t[-1]) + 2, int(rank_m[-1]) + 2), -1, dtype=np.int16)
    np.maximum.at(grid, (t, m), h.astype(np.int16))
    above = np.maximum.accumulate(np.maximum.accumulate(grid[::-1, ::-1], axis=0), axis=1)[::-1, ::-1]
    top = (h == grid[t, m]) & (h > np.maximum(above[t + 1, m], above[t, m + 1]))
    key = (t[top].astype(np.int64) << 22) | (m[top].astype(np.int64) << 11) | h[top]
    _, first = np.unique(key, return_index=True)
    front = [int(i) for i in legal[top][first[::-1]]]
    return front if limit is None else front[:limit]


_PEEL_LIMIT = 16


def _peel(legal: IndexArray, t: IntArray, m: IntArray, h: IntArray, limit: int) -> list[int]:
    key = (t << 22) | (m << 11) | h
    front: list[int] = []
    while key.size and len(front) < limit:
        i = int(np.argmax(key))
        front.append(int(legal[i]))
        keep = (t > t[i]) | (m > m[i]) | (h > h[i])
        legal, key, t, m, h = legal[keep], key[keep], t[keep], m[keep], h[keep]
    return front


def _row_flags(hand: HandSplits) -> tuple[BoolArray, BoolArray, BoolArray, BoolArray]:
    """(one suit, run) for each head and each five-card subset."""
    s = split_structure()
    heads = hand.cards[s.heads]
    fives = hand.cards[s.fives]
    suit3 = ((heads & 3) == (heads[:, :1] & 3)).all(axis=1)
    suit5 = ((fives & 3) == (fives[:, :1] & 3)).all(axis=1)
    run3 = _RUN3[np.bitwise_or.reduce(np.int64(1) << (heads >> 2), axis=1)]
    run5 = _RUN5[np.bitwise_or.reduce(np.int64(1) << (fives >> 2), axis=1)]
    return suit3, run3, suit5, run5


def special_splits(hand: HandSplits, key: str,
                   flags: tuple[BoolArray, BoolArray, BoolArray, BoolArray] | None = None) -> BoolArray:
    """Legal splits whose every row passes the arrangement special ``key``."""
    one_suit, run = _ROW_SPECIAL_FLAGS[key]
    s = split_structure()
    suit3, run3, suit5, run5 = _row_flags(hand) if flags is None else flags
    ok3 = np.ones(N_HEADS, dtype=np.bool_)
    ok5 = np.ones(N_FIVES, dtype=np.bool_)
    if one_suit:
        ok3 &= suit3
        ok5 &= suit5
    if run:
        ok3 &= run3
        ok5 &= run5
    if not ok3.any() or np.count_nonzero(ok5) < 2:
        return np.zeros(N_SPLITS, dtype=np.bool_)
    result: BoolArray = hand.legal & ok3[s.split_head] & ok5[s.split_middle] & ok5[s.split_tail]
    return result


def best_special(hand: HandSplits) -> tuple[str | None, int | None]:
    """The highest special of the ruleset the 13 cards can be laid as, and for an
    arrangement special the split that shows it (the heuristic-best such split)."""
    facts = HandFacts([DECK[int(i)] for i in hand.cards])
    flags = None
    for key in hand.rules.specials_high_to_low:
        predicate = PREDICATES[key]
        if not predicate.needs_rows:
            if predicate.test(facts, None):
                return key, None
            continue
        if key not in _ROW_SPECIAL_FLAGS:  # pragma: no cover - the catalogue has three
            raise NotImplementedError(key)
        if predicate.feasible is not None and not predicate.feasible(facts):
            continue
        if flags is None:
            flags = _row_flags(hand)
        mask = special_splits(hand, key, flags)
        if mask.any():
            candidates = np.flatnonzero(mask)
            return key, int(candidates[np.argmax(_heuristic_scores(hand, candidates.tolist()))])
    return None, None


# ------------------------------------------------------------------ the strength heuristic

_REFERENCE_HANDS = 160
_REFERENCE_SEED = 20261129


@dataclass(frozen=True)
class _Reference:
    """Sorted row values a typical opponent plays in each row."""

    head: IntArray
    middle: IntArray
    tail: IntArray


def _win_probability(values: IntArray, reference: IntArray) -> FloatArray:
    """P(value beats a reference row), ties counted half."""
    below = np.searchsorted(reference, values, side="left")
    upto = np.searchsorted(reference, values, side="right")
    result: FloatArray = (below + upto) / (2.0 * len(reference))
    return result


def _scores_against(hand: HandSplits, ref: _Reference, splits: IndexArray | None = None) -> FloatArray:
    """The heuristic's value of every split (or of ``splits`` only)."""
    s = split_structure()
    split_head, split_middle, split_tail = s.split_head, s.split_middle, s.split_tail
    if splits is not None:
        split_head, split_middle, split_tail = split_head[splits], split_middle[splits], split_tail[splits]
    mult = hand.rules.row_multiplier
    head = mult.head * _win_probability(hand.head_values, ref.head)
    middle = mult.middle * _win_probability(hand.five_values, ref.middle)
    tail = mult.tail * _win_probability(hand.five_values, ref.tail)
    result: FloatArray = head[split_head] + middle[split_middle] + tail[split_tail]
    return result


def _choose(hand: HandSplits, scores: FloatArray) -> int:
    """The split a heuristic player lays: the best-scoring legal one (any one if all foul)."""
    if hand.legal.any():
        return int(np.argmax(np.where(hand.legal, scores, -np.inf)))
    return int(np.argmax(scores))


@lru_cache(maxsize=8)
def _reference(wheel: str, strict_order: bool) -> _Reference:
    """Self-play once (fixed seed): first against random rows, then against the
    rows that first pass played."""
    rules = load_ruleset("shisandao" if strict_order else "popular" if wheel == "lowest" else "classic")
    rng = np.random.default_rng(_REFERENCE_SEED)
    deals = [rng.choice(52, HAND_SIZE, replace=False) for _ in range(_REFERENCE_HANDS)]
    rows: list[IntArray] = []
    for cards in deals[:40]:  # random rows: every subset of a few hands
        hand = analyse_splits(cards, rules)
        rows += [hand.head_values, hand.five_values]
    every_five = np.sort(np.concatenate(rows[1::2]))
    ref = _Reference(head=np.sort(np.concatenate(rows[::2])), middle=every_five, tail=every_five)
    for _ in range(2):
        played = []
        for cards in deals:  # recomputed rather than kept: 160 hands' splits would hold ~12 MB
            hand = analyse_splits(cards, rules)
            played.append(hand.split_values(_choose(hand, _scores_against(hand, ref))))
        table = np.array(played, dtype=np.int64)
        ref = _Reference(head=np.sort(table[:, 0]), middle=np.sort(table[:, 1]), tail=np.sort(table[:, 2]))
    return ref


def _heuristic_scores(hand: HandSplits, splits: Sequence[int] | None = None) -> FloatArray:
    ref = _reference(hand.rules.wheel, hand.rules.strict_order)
    return _scores_against(hand, ref, None if splits is None else np.asarray(splits, dtype=np.intp))


# ------------------------------------------------------------------ results


@dataclass(frozen=True, kw_only=True)
class Arrangement:
    """One arrangement with its row values and the objective's value."""

    head: tuple[Card, ...]
    middle: tuple[Card, ...]
    tail: tuple[Card, ...]
    values: tuple[int, int, int]
    value: float
    stderr: float | None = None
    fouled: bool = False
    special: str | None = None

    @property
    def rows(self) -> Rows:
        return (self.head, self.middle, self.tail)

    @property
    def categories(self) -> tuple[str, str, str]:
        labels = tuple(category_of(v).label for v in self.values)
        return (labels[0], labels[1], labels[2])

    def text(self) -> str:
        return " | ".join(format_cards(r) for r in self.rows)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "head": [str(c) for c in self.head],
            "middle": [str(c) for c in self.middle],
            "tail": [str(c) for c in self.tail],
            "categories": list(self.categories),
            "value": round(self.value, 6),
        }
        if self.stderr is not None:
            out["stderr"] = round(self.stderr, 6)
        if self.fouled:
            out["fouled"] = True
        if self.special is not None:
            out["special"] = self.special
        return out


@dataclass(frozen=True, kw_only=True)
class SolveResult:
    """What :func:`solve` finds; ``to_json()`` is the ``referee solve --json`` output."""

    cards: tuple[Card, ...]
    rules: str
    objective: Objective
    valid_arrangements: int
    special: str | None
    special_arrangement: Arrangement | None
    best: tuple[Arrangement, ...]
    front_size: int
    samples: int | None = None
    seed: int | None = None
    players: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "cards": [str(c) for c in self.cards],
            "rules": self.rules,
            "objective": self.objective,
            "valid_arrangements": self.valid_arrangements,
            "special": self.special,
            "special_arrangement": None if self.special_arrangement is None else self.special_arrangement.to_json(),
            "non_dominated": self.front_size,
            "best": [a.to_json() for a in self.best],
        }
        if self.objective == "expected":
            out |= {"samples": self.samples, "seed": self.seed, "players": self.players}
        return out


def _candidates(hand: HandSplits, front: list[int], special_split: int | None, limit: int) -> list[int]:
    """The splits the Monte Carlo compares: the non-dominated ones (the heuristic's
    ``limit`` best of them, plus the strongest-tail few, when the front is larger),
    the special's arrangement, or the least-bad split when every split fouls."""
    if limit < 1:
        raise InputError(f"candidates must be at least 1, got {limit}")
    splits = list(front)
    if len(splits) > limit:
        scores = dict(zip(front, _heuristic_scores(hand, front).tolist(), strict=True))
        by_score = sorted(front, key=lambda i: -scores[i])
        strongest_tails = front[: min(4, limit // 2)]
        splits = list(dict.fromkeys(strongest_tails + by_score))[:limit]
    if special_split is not None and special_split not in splits:
        splits.append(special_split)
    if not splits:
        splits = [_choose(hand, _heuristic_scores(hand))]
    return splits


def _arrangement(hand: HandSplits, split: int, value: float, stderr: float | None = None) -> Arrangement:
    head, middle, tail = hand.split_rows(split)
    values = hand.split_values(split)
    fouled = not bool(hand.legal[split])
    cards = head + middle + tail
    return Arrangement(head=head, middle=middle, tail=tail, values=values, value=value, stderr=stderr,
                       fouled=fouled, special=laid_special(cards, (head, middle, tail), fouled, hand.rules))


# ------------------------------------------------------------------ expected points


@dataclass(frozen=True)
class _Seat:
    """A hand as the settlement sees it (what analyse() would report)."""

    rows: Rows
    report: HandReport


def _seat(rows: Rows, values: tuple[int, int, int], rules: Ruleset, fouled: bool | None = None) -> _Seat:
    reason = foul_reason(values, rules, rows)
    if fouled is not None and fouled != (reason is not None):  # pragma: no cover - a solver bug
        raise AssertionError(f"solver and referee disagree on the foul of {rows}")
    cards = tuple(c for row in rows for c in row)
    special = laid_special(cards, rows, reason is not None, rules)
    reports = tuple(RowReport(row=n, cards=r, value=v) for n, r, v in zip(ROW_NAMES, rows, values, strict=True))
    report = HandReport(rows=(reports[0], reports[1], reports[2]), foul_reason=reason, special=special,
                        missed_special=None)
    return _Seat(rows=rows, report=report)


def _opponent_seat(indices: IntArray, rules: Ruleset) -> _Seat:
    """An opponent lays its special's arrangement if it has one, else its heuristic best."""
    hand = analyse_splits(indices, rules)
    _, split = best_special(hand)
    if split is None:
        split = _choose(hand, _heuristic_scores(hand))
    return _seat(hand.split_rows(split), hand.split_values(split), rules, not bool(hand.legal[split]))


def _table_score(seats: Sequence[_Seat], rules: Ruleset, banker: int | None) -> int:
    """Seat 0's score at this table, exactly as settle() scores it (seat 0 is 'you')."""
    names = [f"p{i}" for i in range(len(seats))]
    if rules.mode == "banker":
        assert banker is not None
    hands = [(PlayerHand(name=n, rows=s.rows), s.report) for n, s in zip(names, seats, strict=True)]
    pairs = settle_pairs(hands, rules, names[banker] if rules.mode == "banker" and banker is not None else None)
    score = 0
    for pair in pairs:
        if pair.a == "p0":
            score += pair.points
        elif pair.b == "p0":
            score -= pair.points
    return score


def expected_points(
    cards: Sequence[Card],
    candidates: Sequence[Rows],
    rules: Ruleset,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    players: int = DEFAULT_PLAYERS,
    banker: bool = False,
) -> FloatArray:
    """Points each candidate arrangement scores per deal: shape ``(len(candidates), samples)``.

    Each deal gives the ``players - 1`` opponents random hands from the other 39
    cards; every candidate meets the same deals. In banker mode the banker is
    you (``banker=True``) or the first opponent.
    """
    if not 2 <= players <= 4:
        raise InputError(f"players must be 2 to 4, got {players}")
    if samples < 1:
        raise InputError(f"samples must be at least 1, got {samples}")
    own = {c.index for c in cards}
    rest = np.array([i for i in range(52) if i not in own], dtype=np.int64)
    seats = [_seat(rows, row_values(rows, rules.wheel), rules) for rows in candidates]
    banker_seat = (0 if banker else 1) if rules.mode == "banker" else None
    rng = np.random.default_rng(seed)
    out = np.zeros((len(candidates), samples), dtype=np.float64)
    for s in range(samples):
        deal = rng.permutation(rest)
        opponents = [_opponent_seat(deal[13 * j:13 * j + 13], rules) for j in range(players - 1)]
        for k, seat in enumerate(seats):
            out[k, s] = _table_score([seat, *opponents], rules, banker_seat)
    return out


def _mean_stderr(points: FloatArray) -> tuple[FloatArray, FloatArray]:
    n = points.shape[-1]
    mean: FloatArray = points.mean(axis=-1)
    if n < 2:
        return mean, np.zeros_like(mean)
    stderr: FloatArray = points.std(axis=-1, ddof=1) / np.sqrt(n)
    return mean, stderr


# ------------------------------------------------------------------ the API


def solve(
    cards: str | Sequence[Card | str],
    rules: Ruleset | str = "classic",
    *,
    objective: Objective = "strength",
    top: int | None = DEFAULT_TOP,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    players: int = DEFAULT_PLAYERS,
    banker: bool = False,
    candidates: int = DEFAULT_CANDIDATES,
) -> SolveResult:
    """Solve one 13-card hand. ``top=None`` returns every non-dominated arrangement.

    ``objective="expected"`` compares at most ``candidates`` arrangements (see
    :func:`expected_points` for ``samples``, ``seed``, ``players`` and ``banker``).
    """
    parsed = _cards_of(cards)
    ruleset = _rules_of(rules)
    if objective not in ("strength", "expected"):
        raise InputError(f"unknown objective {objective!r} (use strength or expected)")
    if top is not None and top < 1:
        raise InputError(f"top must be at least 1, got {top}")
    hand = analyse_splits(parsed, ruleset)
    special, special_split = best_special(hand)
    front = pareto_front(hand)
    shown = (front if top is None else front[:top]) + ([] if special_split is None else [special_split])
    scores = dict(zip(shown, _heuristic_scores(hand, shown).tolist(), strict=True))
    special_arrangement = None
    if special_split is not None:
        special_arrangement = _arrangement(hand, special_split, scores[special_split])
    common: dict[str, Any] = {"cards": tuple(sorted(parsed, reverse=True)), "rules": ruleset.name,
                              "valid_arrangements": hand.valid_arrangements, "special": special,
                              "special_arrangement": special_arrangement, "front_size": len(front)}
    if objective == "strength":
        chosen = front if top is None else front[:top]
        best = tuple(_arrangement(hand, i, scores[i]) for i in chosen)
        return SolveResult(objective="strength", best=best, **common)
    splits = _candidates(hand, front, special_split, candidates)
    points = expected_points(parsed, [hand.split_rows(i) for i in splits], ruleset, samples=samples, seed=seed,
                             players=players, banker=banker)
    mean, stderr = _mean_stderr(points)
    order = sorted(range(len(splits)), key=lambda k: (-mean[k], k))
    if top is not None:
        order = order[:top]
    best = tuple(_arrangement(hand, splits[k], float(mean[k]), float(stderr[k])) for k in order)
    if special_split is not None:  # its value in the objective's terms
        k = splits.index(special_split)
        common["special_arrangement"] = _arrangement(hand, special_split, float(mean[k]), float(stderr[k]))
    return SolveResult(objective="expected", best=best, samples=samples, seed=seed, players=players, **common)


@dataclass(frozen=True, kw_only=True)
class Advice:
    """The best arrangement for a laid hand and what it is expected to gain."""

    laid: Arrangement
    best: Arrangement
    gain: float
    gain_stderr: float
    samples: int
    seed: int
    players: int

    def to_json(self) -> dict[str, Any]:
        return {
            "best": self.best.to_json(),
            "expected_best": round(self.best.value, 6),
            "expected_laid": round(self.laid.value, 6),
            "gain": round(self.gain, 6),
            "gain_stderr": round(self.gain_stderr, 6),
            "samples": self.samples,
            "seed": self.seed,
            "players": self.players,
        }

    def text(self) -> str:
        if self.gain <= 0 or self.best.rows == self.laid.rows:
            return (f"advice: the laid rows are as good as any found (expected {self.laid.value:+.2f} points, "
                    f"{self.samples} deals)")
        return (f"advice: play {self.best.text()} - expected {self.gain:+.2f} ± {self.gain_stderr:.2f} points "
                f"over the laid rows ({self.best.value:+.2f} vs {self.laid.value:+.2f}, {self.samples} deals)")


def advise(
    rows: Rows,
    rules: Ruleset | str = "classic",
    *,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    players: int = DEFAULT_PLAYERS,
    banker: bool = False,
    candidates: int = DEFAULT_CANDIDATES,
) -> Advice:
    """Compare a laid arrangement with the solver's candidates on the same deals."""
    ruleset = _rules_of(rules)
    cards = tuple(c for row in rows for c in row)
    _cards_of(cards)
    hand = analyse_splits(cards, ruleset)
    _, special_split = best_special(hand)
    splits = _candidates(hand, pareto_front(hand), special_split, candidates)
    laid_rows: Rows = (tuple(rows[0]), tuple(rows[1]), tuple(rows[2]))
    compared = [laid_rows] + [hand.split_rows(i) for i in splits]
    points = expected_points(cards, compared, ruleset, samples=samples, seed=seed, players=players,
                             banker=banker)
    mean, stderr = _mean_stderr(points)
    k = int(np.argmax(mean))  # ties favour the laid rows (index 0)
    _, gain_stderr = _mean_stderr(points[k] - points[0])
    laid_values = row_values(laid_rows, ruleset.wheel)
    laid_foul = foul_reason(laid_values, ruleset) is not None
    laid = Arrangement(head=laid_rows[0], middle=laid_rows[1], tail=laid_rows[2], values=laid_values,
                       value=float(mean[0]), stderr=float(stderr[0]), fouled=laid_foul,
                       special=laid_special(cards, laid_rows, laid_foul, ruleset))
    best = laid if k == 0 else _arrangement(hand, splits[k - 1], float(mean[k]), float(stderr[k]))
    return Advice(laid=laid, best=best, gain=float(mean[k] - mean[0]), gain_stderr=float(gain_stderr),
                  samples=samples, seed=seed, players=players)

