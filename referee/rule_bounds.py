"""What a rules file's numbers may be: amounts that mean something, small enough that no score overflows.

Every amount (points of any kind, a special's tier) is an integer from 0 to
:data:`MAX_POINTS`; every multiplier from 1 to :data:`MAX_MULTIPLIER`; every
``min_players`` from 2 to 4. Row points may only be given for categories the row can
hold (a head is 3 cards: high card, pair or three of a kind). Adjustments and negotiated results
are bounded too (:data:`MAX_HAND_POINTS`, :data:`MAX_ADJUSTMENTS`). Within these bounds the
largest score a player can get in one round is :func:`max_round_score` (under 10^9), so
scores, session totals and the app's tables stay far inside 64-bit integers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.errors import InputError
from referee.evaluate import Category

if TYPE_CHECKING:
    from referee.ruleset import Ruleset

MAX_POINTS = 1_000
MAX_MULTIPLIER = 100
#: Points one adjustment of a round moves, and a negotiated result's size (either way).
MAX_HAND_POINTS = 100_000
#: Adjustments one round may carry.
MAX_ADJUSTMENTS = 24
MIN_TABLE = 2
MAX_TABLE = 4

#: The categories a row can hold; a head (3 cards) has no two pair, straight, flush, full house or quads.
ROW_CATEGORIES: dict[str, frozenset[str]] = {
    "head": frozenset({Category.HIGH_CARD.label, Category.PAIR.label, Category.THREE_OF_A_KIND.label}),
    "middle": frozenset(c.label for c in Category),
    "tail": frozenset(c.label for c in Category),
}


def _amount(where: str, key: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise InputError(f"{where}: {key} must be from {low} to {high:,}, not {value:,}")


def check_bounds(rules: Ruleset, where: str) -> None:
    """Raise naming the key when a number of ``rules`` has no meaning."""
    for row in ("head", "middle", "tail"):
        _amount(where, f"row_multiplier.{row}", rules.row_multiplier.of(row), 1, MAX_MULTIPLIER)
        table: dict[str, int] = getattr(rules.row_points, row)
        for label, points in table.items():
            if label not in ROW_CATEGORIES[row]:
                raise InputError(f"{where}: row_points.{row}.{label}: a {row} row is never a {label} "
                                 f"(it can be {', '.join(sorted(ROW_CATEGORIES[row]))})")
            _amount(where, f"row_points.{row}.{label}", points, 0, MAX_POINTS)
    _amount(where, "scoop.points", rules.scoop.points, 0, MAX_POINTS)
    _amount(where, "scoop.points_per_opponent", rules.scoop.points_per_opponent, 0, MAX_POINTS)
    _amount(where, "scoop.min_players", rules.scoop.min_players, MIN_TABLE, MAX_TABLE)
    _amount(where, "home_run.points", rules.home_run.points, 0, MAX_POINTS)
    _amount(where, "home_run.min_players", rules.home_run.min_players, MIN_TABLE, MAX_TABLE)
    _amount(where, "foul.points", rules.foul.points, 0, MAX_POINTS)
    _amount(where, "foul.multiplier", rules.foul.multiplier, 1, MAX_MULTIPLIER)
    for i, hand in enumerate(rules.special.hands):
        _amount(where, f"special.hands[{i}].points ({hand.key})", hand.points, 0, MAX_POINTS)
        _amount(where, f"special.hands[{i}].tier ({hand.key})", hand.tier, 0, MAX_POINTS)


def max_round_score() -> int:
    """An upper bound of any player's score in one round under rules within these bounds.

    Per opponent: three rows at the largest row points and multiplier, times the foul
    multiplier (a foul pays every row), doubled by a scoop, plus every fixed bonus.
    """
    rows = 3 * MAX_POINTS * MAX_MULTIPLIER
    per_pair = rows * MAX_MULTIPLIER * 2 + MAX_POINTS * (4 + MAX_TABLE)  # scoop, per-opponent, home run, special, foul
    per_pair *= MAX_TABLE - 1  # home_run.mode = "multiply": the pair's points x (players - 1)
    settled = max(per_pair, MAX_HAND_POINTS) * (MAX_TABLE - 1)  # a negotiated pair replaces its settlement
    return settled + MAX_ADJUSTMENTS * MAX_HAND_POINTS
