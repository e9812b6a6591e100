"""One player's arrangement: row strengths, the foul check, special hands.

>>> from referee.cards import parse_arrangement
>>> from referee.ruleset import load_ruleset
>>> report = analyse(parse_arrangement("Ah Ad 2c | Kh Kd 3c 4s 5s | 9s 9h 9d 7c 8c"), load_ruleset("classic"))
>>> report.foul, report.foul_reason
(True, 'head (pair AA) beats middle (pair KK)')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from referee.cards import ROW_NAMES, Card, format_cards
from referee.evaluate import Category, Wheel, category_of, rank3, rank5, truncate_to_head
from referee.ruleset import Ruleset
from referee.specials import PREDICATES, Rows, SpecialPredicate


@dataclass(frozen=True, kw_only=True)
class RowReport:
    row: str
    cards: tuple[Card, ...]
    value: int

    @property
    def category(self) -> Category:
        return category_of(self.value)

    def describe(self) -> str:
        """Category with its defining ranks, e.g. ``pair AA``, ``straight``."""
        category = self.category
        counts: dict[str, int] = {}
        for c in self.cards:
            counts[c.rank.symbol] = counts.get(c.rank.symbol, 0) + 1
        sets = [r * n for r, n in sorted(counts.items(), key=lambda rn: -rn[1]) if n >= 2]
        if category in (Category.PAIR, Category.TWO_PAIR, Category.THREE_OF_A_KIND,
                        Category.FULL_HOUSE, Category.FOUR_OF_A_KIND):
            return f"{category.label} {' '.join(sets)}"
        return category.label


@dataclass(frozen=True, kw_only=True)
class HandReport:
    rows: tuple[RowReport, RowReport, RowReport]
    foul_reason: str | None
    special: str | None
    missed_special: str | None

    @property
    def foul(self) -> bool:
        return self.foul_reason is not None

    @property
    def values(self) -> tuple[int, int, int]:
        return (self.rows[0].value, self.rows[1].value, self.rows[2].value)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for row in self.rows for c in row.cards)


def row_values(rows: Rows, wheel: Wheel) -> tuple[int, int, int]:
    head, middle, tail = rows
    return rank3(head), rank5(middle, wheel), rank5(tail, wheel)


def foul_reason(values: tuple[int, int, int], rules: Ruleset, rows: Rows | None = None) -> str | None:
    """Why the rows are fouled (which pair of rows, with categories), or None."""
    head, middle, tail = values
    reports = None
    if rows is not None:
        reports = [RowReport(row=n, cards=r, value=v) for n, r, v in zip(ROW_NAMES, rows, values, strict=True)]

    def describe(i: int) -> str:
        return reports[i].describe() if reports else category_of(values[i]).label

    checks = ((0, 1, head, truncate_to_head(middle, head)), (1, 2, middle, tail))
    for low, high, low_value, high_value in checks:
        if low_value > high_value:
            return f"{ROW_NAMES[low]} ({describe(low)}) beats {ROW_NAMES[high]} ({describe(high)})"
        if rules.strict_order and low_value == high_value:
            return (f"{ROW_NAMES[low]} ({describe(low)}) equals {ROW_NAMES[high]} ({describe(high)}); "
                    "this ruleset needs each row strictly stronger")
    return None


def is_fouled(values: tuple[int, int, int], rules: Ruleset) -> bool:
    return foul_reason(values, rules) is not None


def _ordered_specials(rules: Ruleset) -> list[SpecialPredicate]:
    keys = sorted((h.key for h in rules.special.hands), key=rules.special_order)
    return [PREDICATES[k] for k in keys]


def laid_special(cards: Sequence[Card], rows: Rows | None, fouled: bool, rules: Ruleset) -> str | None:
    """The highest special of the ruleset these cards (and rows, as laid) show."""
    for predicate in _ordered_specials(rules):
        if predicate.needs_rows and (fouled or rows is None):
            continue
        if predicate.test(cards, rows):
            return predicate.key
    return None


def possible_special(cards: Sequence[Card], rules: Ruleset) -> str | None:
    """The highest special the 13 cards could be laid as (any arrangement)."""
    for predicate in _ordered_specials(rules):
        if predicate.needs_rows:
            if next(arrangements_for(predicate, cards, rules), None) is not None:
                return predicate.key
        elif predicate.test(cards, None):
            return predicate.key
    return None


def arrangements_for(predicate: SpecialPredicate, cards: Sequence[Card], rules: Ruleset) -> Iterator[Rows]:
    """Unfouled arrangements whose every row passes an arrangement predicate."""
    row_test = predicate.row_test
    assert row_test is not None
    pool = tuple(cards)
    for head in combinations(pool, 3):
        if not row_test(head):
            continue
        rest = [c for c in pool if c not in head]
        for middle in combinations(rest, 5):
            if not row_test(middle):
                continue
            tail = tuple(c for c in rest if c not in middle)
            if not row_test(tail):
                continue
            rows: Rows = (head, middle, tail)
            if not is_fouled(row_values(rows, rules.wheel), rules):
                yield rows


def analyse(rows: Rows, rules: Ruleset) -> HandReport:
    """Everything the referee says about one laid arrangement."""
    values = row_values(rows, rules.wheel)
    reason = foul_reason(values, rules, rows)
    cards = tuple(c for row in rows for c in row)
    special = laid_special(cards, rows, reason is not None, rules)
    best = possible_special(cards, rules)
    missed = None
    if best is not None and best != special:
        if special is None or rules.special_order(best) < rules.special_order(special):
            missed = best
    reports = tuple(RowReport(row=n, cards=r, value=v) for n, r, v in zip(ROW_NAMES, rows, values, strict=True))
    assert len(reports) == 3
    return HandReport(rows=(reports[0], reports[1], reports[2]), foul_reason=reason, special=special,
                      missed_special=missed)


def format_rows(rows: Rows) -> str:
    return " | ".join(format_cards(r) for r in rows)
