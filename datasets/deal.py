"""Deals that follow the game: 13 cards a player from one 52-card deck, laid in
three rows, with a share of fouled hands and a share of special hands.

>>> import numpy as np
>>> hands = deal_round(np.random.default_rng(1), 4)
>>> len({c for h in hands for row in h.rows for c in row})
52
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Literal

import numpy as np

from referee.cards import DECK, Card
from referee.evaluate import rank5_batch
from referee.hand import is_fouled, row_values
from referee.ruleset import Ruleset, load_ruleset
from referee.specials import Rows

Mode = Literal["normal", "fouled", "special"]
SPECIAL_KINDS = ("six_pairs", "dragon", "three_flushes", "three_straights", "all_low_8", "all_high_8",
                 "one_color", "four_trips", "five_pairs_trips")
MODE_WEIGHTS: dict[Mode, float] = {"normal": 0.62, "fouled": 0.18, "special": 0.20}
_COMBOS_13_5 = np.array(list(combinations(range(13), 5)), dtype=np.int64)
_COMBOS_8_5 = np.array(list(combinations(range(8), 5)), dtype=np.int64)
_RULES: Ruleset | None = None


def rules() -> Ruleset:
    global _RULES
    if _RULES is None:
        _RULES = load_ruleset("classic")
    return _RULES


@dataclass(frozen=True)
class DealtHand:
    rows: Rows
    mode: Mode
    intended_special: str | None = None  # the special this hand was built for


def _fouled(rows: Rows) -> bool:
    r = rules()
    return is_fouled(row_values(rows, r.wheel), r)


def arrange_well(cards: list[Card], rng: np.random.Generator) -> Rows:
    """A sensible unfouled arrangement: one of the strongest tails, the best middle of the rest."""
    idx = np.array([c.index for c in cards], dtype=np.int64)
    tails = rank5_batch(idx[_COMBOS_13_5])
    order = np.argsort(-tails, kind="stable")
    for attempt in range(12):
        pick = order[min(int(rng.integers(0, 25)) if attempt < 8 else attempt - 8, len(order) - 1)]
        tail_i = set(_COMBOS_13_5[pick].tolist())
        rest = [i for i in range(13) if i not in tail_i]
        rest_idx = idx[rest]
        mids = rank5_batch(rest_idx[_COMBOS_8_5])
        mid_i = {rest[j] for j in _COMBOS_8_5[int(np.argmax(mids))].tolist()}
        head = tuple(cards[i] for i in range(13) if i not in tail_i and i not in mid_i)
        rows: Rows = (head, tuple(cards[i] for i in sorted(mid_i)), tuple(cards[i] for i in sorted(tail_i)))
        if not _fouled(rows):
            return _sorted_rows(rows)
    return _sorted_rows(rows)


def _sorted_rows(rows: Rows) -> Rows:
    """Order each row the way people hold them: by rank, high card left."""
    def key(c: Card) -> tuple[int, int]:
        return (-c.rank, c.index)
    head, middle, tail = (tuple(sorted(r, key=key)) for r in rows)
    return head, middle, tail


def arrange_fouled(cards: list[Card], rng: np.random.Generator) -> Rows:
    """A fouled arrangement: rows swapped or shuffled until some row beats the one below."""
    good = arrange_well(cards, rng)
    head, middle, tail = good
    candidates: list[Rows] = [(head, tail, middle)]
    strong = list(tail)
    candidates.append((tuple(strong[:3]), middle, tuple(strong[3:]) + tuple(head)))
    for _ in range(40):
        perm = [cards[i] for i in rng.permutation(13)]
        candidates.append((tuple(perm[:3]), tuple(perm[3:8]), tuple(perm[8:])))
    start = int(rng.integers(0, 2))
    for rows in candidates[start:] + candidates[:start]:
        if _fouled(rows):
            return _sorted_rows(rows)
    return _sorted_rows(candidates[-1])


def _take(pool: list[Card], pred: object, n: int, rng: np.random.Generator) -> list[Card] | None:
    ok = [c for c in pool if pred(c)]  # type: ignore[operator]
    if len(ok) < n:
        return None
    return [ok[i] for i in rng.choice(len(ok), n, replace=False)]


def _by_rank(pool: list[Card]) -> dict[int, list[Card]]:
    out: dict[int, list[Card]] = {}
    for c in pool:
        out.setdefault(int(c.rank), []).append(c)
    return out


def _groups(pool: list[Card], sizes: list[int], rng: np.random.Generator) -> list[Card] | None:
    """Cards forming groups of equal rank (e.g. [2]*6 + [1] for six pairs), distinct ranks."""
    by_rank = _by_rank(pool)
    ranks = list(by_rank)
    rng.shuffle(ranks)
    out: list[Card] = []
    used: set[int] = set()
    for size in sorted(sizes, reverse=True):
        rank = next((r for r in ranks if r not in used and len(by_rank[r]) >= size), None)
        if rank is None:
            return None
        used.add(rank)
        group = by_rank[rank]
        out += [group[i] for i in rng.choice(len(group), size, replace=False)]
    return out


def _run(pool: list[Card], length: int, suit: str | None, rng: np.random.Generator,
         exclude: set[Card]) -> list[Card] | None:
    starts = list(range(1, 15 - length + 1))
    rng.shuffle(starts)
    for start in starts:
        picked: list[Card] = []
        for r in range(start, start + length):
            rank = 14 if r == 1 else r
            options = [c for c in pool if c.rank == rank and c not in exclude and c not in picked
                       and (suit is None or c.suit.value == suit)]
            if not options:
                break
            picked.append(options[int(rng.integers(0, len(options)))])
        else:
            return picked
    return None


def build_special(kind: str, pool: list[Card], rng: np.random.Generator) -> Rows | None:
    """Thirteen cards from ``pool`` laid as the special hand ``kind``, or None if the pool lacks them."""
    cards: list[Card] | None
    if kind == "six_pairs":
        cards = _groups(pool, [2] * 6 + [1], rng)
    elif kind == "five_pairs_trips":
        cards = _groups(pool, [3] + [2] * 5, rng)
    elif kind == "four_trips":
        cards = _groups(pool, [3] * 4 + [1], rng)
    elif kind == "dragon":
        cards = _groups(pool, [1] * 13, rng)
    elif kind == "all_low_8":
        cards = _take(pool, lambda c: c.rank <= 8, 13, rng)
    elif kind == "all_high_8":
        cards = _take(pool, lambda c: c.rank >= 8, 13, rng)
    elif kind == "one_color":
        red = bool(rng.integers(0, 2))
        cards = _take(pool, lambda c: c.suit.is_red == red, 13, rng)
    elif kind in ("three_flushes", "three_straights"):
        for _ in range(20):
            rows_l: list[list[Card]] = []
            used: set[Card] = set()
            for n in (3, 5, 5):
                if kind == "three_flushes":
                    suit = "shdc"[int(rng.integers(0, 4))]
                    row = _take([c for c in pool if c not in used], lambda c, s=suit: c.suit.value == s, n, rng)
                else:
                    row = _run(pool, n, None, rng, used)
                if row is None:
                    break
                rows_l.append(row)
                used |= set(row)
            if len(rows_l) == 3:
                rows: Rows = (tuple(rows_l[0]), tuple(rows_l[1]), tuple(rows_l[2]))
                if _fouled(rows):
                    rows = (rows[0], rows[2], rows[1])
                if not _fouled(rows):
                    return _sorted_rows(rows)
        return None
    else:
        raise ValueError(f"unknown special kind {kind}")
    if cards is None:
        return None
    return arrange_well(cards, rng)


def deal_round(rng: np.random.Generator, players: int, modes: list[Mode] | None = None) -> list[DealtHand]:
    """Deal ``players`` hands from one shuffled deck; special hands are built first."""
    if modes is None:
        names = list(MODE_WEIGHTS)
        weights = np.array([MODE_WEIGHTS[m] for m in names])
        modes = [names[int(rng.choice(len(names), p=weights / weights.sum()))] for _ in range(players)]
    pool = [DECK[i] for i in rng.permutation(52)]
    out: list[DealtHand | None] = [None] * players
    for i, mode in enumerate(modes):
        if mode != "special":
            continue
        kinds = list(SPECIAL_KINDS)
        rng.shuffle(kinds)
        for kind in kinds:
            rows = build_special(kind, pool, rng)
            if rows is not None:
                used = {c for row in rows for c in row}
                pool = [c for c in pool if c not in used]
                out[i] = DealtHand(rows=rows, mode="special", intended_special=kind)
                break
    for i, mode in enumerate(modes):
        if out[i] is not None:
            continue
        cards, pool = pool[:13], pool[13:]
        if mode == "fouled":
            out[i] = DealtHand(rows=arrange_fouled(cards, rng), mode="fouled")
        else:
            out[i] = DealtHand(rows=arrange_well(cards, rng), mode="normal")
    return [h for h in out if h is not None]
