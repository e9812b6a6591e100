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
from referee.specials import PREDICATES, HandFacts, Rows, SpecialPredicate


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

    def describe(i: int) -> str:
        if rows is None:
            return category_of(values[i]).label
        return RowReport(row=ROW_NAMES[i], cards=rows[i], value=values[i]).describe()

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
    return [PREDICATES[k] for k in rules.specials_high_to_low]


def laid_special(cards: Sequence[Card] | HandFacts, rows: Rows | None, fouled: bool, rules: Ruleset) -> str | None:
    """The highest special of the ruleset these cards (and rows, as laid) show."""
    facts = cards if isinstance(cards, HandFacts) else HandFacts(cards)
    for predicate in _ordered_specials(rules):
        if predicate.needs_rows and (fouled or rows is None):
            continue
        if predicate.test(facts, rows):
            return predicate.key
    return None


def possible_special(cards: Sequence[Card] | HandFacts, rules: Ruleset) -> str | None:
    """The highest special the 13 cards could be laid as (any arrangement)."""
    facts = cards if isinstance(cards, HandFacts) else HandFacts(cards)
    card_special, arrangement_special = specials_of(facts, None, True, rules)
    return arrangement_special or card_special


def arrangements_for(predicate: SpecialPredicate, cards: Sequence[Card], rules: Ruleset) -> Iterator[Rows]:
    """Unfouled arrangements whose every row passes an arrangement predicate."""
    row_test = predicate.row_test
    assert row_test is not None
    pool = tuple(cards)
    positions = range(len(pool))
    heads = [h for h in combinations(positions, 3) if row_test([pool[i] for i in h])]
    if not heads:
        return
    fives = [f for f in combinations(positions, 5) if row_test([pool[i] for i in f])]
    masks = [(sum(1 << i for i in f), f) for f in fives]
    full = (1 << len(pool)) - 1
    passing = {m for m, _ in masks}
    for head in heads:
        head_mask = sum(1 << i for i in head)
        for middle_mask, middle in masks:
            tail_mask = full & ~head_mask & ~middle_mask
            if middle_mask & head_mask or tail_mask not in passing:
                continue
            rows: Rows = (
                tuple(pool[i] for i in head),
                tuple(pool[i] for i in middle),
                tuple(pool[i] for i in positions if tail_mask >> i & 1),
            )
            if not is_fouled(row_values(rows, rules.wheel), rules):
                yield rows


def specials_of(facts: HandFacts, rows: Rows | None, fouled: bool, rules: Ruleset) -> tuple[str | None, str | None]:
    """(special as laid, missed special) in one pass over the ruleset's specials, strongest first.

    A card-based special is both laid and possible, so the scan stops there; an
    arrangement-based one the rows do not show is remembered as missed if some
    unfouled arrangement of these cards has it.
    """
    missed = None
    for predicate in _ordered_specials(rules):
        if not predicate.needs_rows:
            if predicate.test(facts, None):
                return predicate.key, missed
            continue
        if not fouled and rows is not None and predicate.test(facts, rows):
            return predicate.key, missed
        if missed is None and (predicate.feasible is None or predicate.feasible(facts)):
            if next(arrangements_for(predicate, facts.cards, rules), None) is not None:
                missed = predicate.key
    return None, missed


def analyse(rows: Rows, rules: Ruleset) -> HandReport:
    """Everything the referee says about one laid arrangement."""
    values = row_values(rows, rules.wheel)
    reason = foul_reason(values, rules, rows)
    special, missed = specials_of(HandFacts([c for row in rows for c in row]), rows, reason is not None, rules)
    reports = tuple(RowReport(row=n, cards=r, value=v) for n, r, v in zip(ROW_NAMES, rows, values, strict=True))
    assert len(reports) == 3
    return HandReport(rows=(reports[0], reports[1], reports[2]), foul_reason=reason, special=special,
                      missed_special=missed)


def format_rows(rows: Rows) -> str:
    return " | ".join(format_cards(r) for r in rows)
