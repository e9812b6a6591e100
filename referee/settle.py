"""Settlement 结算 (RULES.md §3): pairwise or against the banker.

Every pair's points are split into parts a player can check by hand::

    points = sum(rows) + scoop_points + home_run_points + special_points + foul_points

and every amount is what player ``a`` receives from player ``b`` (negative: pays).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, Literal, NamedTuple

from referee.cards import ROW_NAMES
from referee.evaluate import category_of
from referee.hand import HandReport, analyse
from referee.round import PlayerHand, Round
from referee.ruleset import Ruleset

SettledBy = Literal["rows", "foul", "special", "rows+special", "foul+special"]


@dataclass(frozen=True, kw_only=True)
class PairResult:
    a: str
    b: str
    settled_by: SettledBy
    rows: tuple[int, int, int]
    scoop: str | None
    scoop_points: int
    home_run: str | None
    home_run_points: int
    special: str | None  # the special that was paid, if any
    special_winner: str | None
    special_points: int
    foul_points: int

    @property
    def points(self) -> int:
        return sum(self.rows) + self.scoop_points + self.home_run_points + self.special_points + self.foul_points

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "rows": list(self.rows),
            "scoop": self.scoop,
            "home_run": self.home_run,
            "special": self.special,
            "points": self.points,
            "settled_by": self.settled_by,
            "scoop_points": self.scoop_points,
            "home_run_points": self.home_run_points,
            "special_winner": self.special_winner,
            "special_points": self.special_points,
            "foul_points": self.foul_points,
        }


class BonusPart(NamedTuple):
    """One term of a pair's points beyond the rows: ``kind`` is scoop, home_run, special or foul;
    ``label`` is the kind, or the special hand's key; ``by`` who earned it (None for a foul)."""

    kind: str
    label: str
    by: str | None
    points: int


def bonus_parts(pair: Mapping[str, Any]) -> list[BonusPart]:
    """The non-zero bonus terms of one pair's JSON (``PairResult.to_json``), in settlement order.

    >>> bonus_parts({"scoop": "ann", "scoop_points": 3, "home_run": None, "special": None, "foul_points": 0})
    [BonusPart(kind='scoop', label='scoop', by='ann', points=3)]
    """
    parts = []
    if pair.get("scoop"):
        parts.append(BonusPart("scoop", "scoop", pair["scoop"], pair["scoop_points"]))
    if pair.get("home_run"):
        parts.append(BonusPart("home_run", "home_run", pair["home_run"], pair["home_run_points"]))
    if pair.get("special"):
        parts.append(BonusPart("special", str(pair["special"]), pair["special_winner"], pair["special_points"]))
    if pair.get("foul_points"):
        parts.append(BonusPart("foul", "foul", None, pair["foul_points"]))
    return parts


@dataclass(frozen=True, kw_only=True)
class PlayerResult:
    name: str
    score: int
    report: HandReport

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "score": self.score,
            "foul": self.report.foul,
            "foul_reason": self.report.foul_reason,
            "special": self.report.special,
            "missed_special": self.report.missed_special,
            "rows": [
                {"row": r.row, "cards": [str(c) for c in r.cards], "category": r.category.label}
                for r in self.report.rows
            ],
        }


@dataclass(frozen=True, kw_only=True)
class Settlement:
    rules: str
    mode: str
    banker: str | None
    players: tuple[PlayerResult, ...]
    pairs: tuple[PairResult, ...]

    @property
    def total(self) -> int:
        return sum(p.score for p in self.players)

    def score_of(self, name: str) -> int:
        return next(p.score for p in self.players if p.name == name)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "mode": self.mode,
            "banker": self.banker,
            "players": [p.to_json() for p in self.players],
            "pairs": [p.to_json() for p in self.pairs],
            "total": self.total,
        }


@dataclass(frozen=True)
class _Side:
    player: PlayerHand
    report: HandReport
    is_banker: bool


def settle(round_: Round, rules: Ruleset) -> Settlement:
    """Score one round under ``rules``; always zero-sum."""
    round_.checked_for(rules)
    banker = round_.banker if rules.mode == "banker" else None
    reports = {p.name: analyse(p.rows, rules) for p in round_.players}
    pairs = settle_pairs([(p, reports[p.name]) for p in round_.players], rules, banker)
    names = [p.name for p in round_.players]
    scores = dict.fromkeys(names, 0)
    for pair in pairs:
        scores[pair.a] += pair.points
        scores[pair.b] -= pair.points
    players = tuple(PlayerResult(name=n, score=scores[n], report=reports[n]) for n in names)
    return Settlement(rules=rules.name, mode=rules.mode, banker=banker, players=players, pairs=tuple(pairs))


def settle_pairs(hands: Sequence[tuple[PlayerHand, HandReport]], rules: Ruleset,
                 banker: str | None) -> list[PairResult]:
    """Every pair's result for players already analysed (``banker`` only in banker mode).

    This is the settlement itself; :func:`settle` adds the analysis and the totals, and
    the solver calls it directly on reports it has computed faster.
    """
    sides = {p.name: _Side(p, report, p.name == banker) for p, report in hands}
    names = [p.name for p, _ in hands]
    if banker is not None:
        matchups = [(banker, n) for n in names if n != banker]
    else:
        matchups = list(combinations(names, 2))
    special_at_table = any(report.special is not None for _, report in hands)
    pairs = [_settle_pair(sides[a], sides[b], rules, len(names), special_at_table) for a, b in matchups]
    return _apply_home_run(pairs, names, rules)


def _special_payment(a: _Side, b: _Side, rules: Ruleset) -> tuple[str | None, str | None, int]:
    """(special paid, its holder, points to a) between two sides, at least one holding a special."""
    sa, sb = a.report.special, b.report.special
    if sa is not None and sb is not None:
        strength_a, strength_b = rules.special_strength(sa), rules.special_strength(sb)
        if strength_a == strength_b:
            if rules.special.ties == "banker" and (a.is_banker or b.is_banker):
                winner = a if a.is_banker else b
            else:
                return None, None, 0
        else:
            winner = a if strength_a > strength_b else b
    else:
        winner = a if sa is not None else b
    key = winner.report.special
    assert key is not None
    points = rules.special_hand(key).points
    return key, winner.player.name, points if winner is a else -points


def _row_comparison(a: _Side, b: _Side, rules: Ruleset) -> tuple[list[int], int, int]:
    """Points a gets per row, and each side's row wins (ties to the banker counted)."""
    rows = [0, 0, 0]
    wins_a = wins_b = 0
    for i, row in enumerate(ROW_NAMES):
        va, vb = a.report.values[i], b.report.values[i]
        if va == vb and rules.ties_to_banker and (a.is_banker or b.is_banker):
            a_wins = a.is_banker
        elif va == vb:
            continue
        else:
            a_wins = va > vb
        winner_value = va if a_wins else vb
        points = rules.row_points.of(row, category_of(winner_value)) * rules.row_multiplier.of(row)
        rows[i] = points if a_wins else -points
        wins_a += a_wins
        wins_b += not a_wins
    return rows, wins_a, wins_b


def _forfeit_rows(winner: _Side, rules: Ruleset) -> list[int]:
    """What a fouled hand loses: every row at the winner's row points."""
    return [
        rules.row_points.of(row, category_of(winner.report.values[i])) * rules.row_multiplier.of(row)
        for i, row in enumerate(ROW_NAMES)
    ]


def _settle_pair(a: _Side, b: _Side, rules: Ruleset, players: int, special_at_table: bool) -> PairResult:
    has_special = a.report.special is not None or b.report.special is not None
    special = winner_name = None
    special_points = 0
    if has_special:
        special, winner_name, special_points = _special_payment(a, b, rules)
        if rules.special.settlement == "alone":
            return PairResult(a=a.player.name, b=b.player.name, settled_by="special", rows=(0, 0, 0),
                              scoop=None, scoop_points=0, home_run=None, home_run_points=0, special=special,
                              special_winner=winner_name, special_points=special_points, foul_points=0)
    rows = [0, 0, 0]
    scoop = None
    scoop_points = foul_points = 0
    fa, fb = a.report.foul, b.report.foul
    if fa or fb:
        settled_by: SettledBy = "foul"
        if not (fa and fb):
            winner, sign = (b, -1) if fa else (a, 1)
            if rules.foul.mode == "fixed":
                foul_points = sign * rules.foul.points * rules.foul.multiplier
            else:
                rows = [sign * p for p in _forfeit_rows(winner, rules)]
                foul_points = sum(rows) * (rules.foul.multiplier - 1)
    else:
        settled_by = "rows"
        rows, wins_a, wins_b = _row_comparison(a, b, rules)
        need = 1 if rules.scoop.allows_ties else 3
        if wins_a >= need and wins_b == 0:
            scoop = a.player.name
        elif wins_b >= need and wins_a == 0:
            scoop = b.player.name
        if scoop is not None:
            scoop_points = _scoop_bonus(sum(rows), rules, players, special_at_table)
    if has_special:
        settled_by = "foul+special" if settled_by == "foul" else "rows+special"
    return PairResult(a=a.player.name, b=b.player.name, settled_by=settled_by, rows=(rows[0], rows[1], rows[2]),
                      scoop=scoop, scoop_points=scoop_points, home_run=None, home_run_points=0, special=special,
                      special_winner=winner_name, special_points=special_points, foul_points=foul_points)


def _scoop_bonus(row_total: int, rules: Ruleset, players: int, special_at_table: bool) -> int:
    """Extra points for a scoop, signed like the rows (the scooper's way)."""
    scoop = rules.scoop
    sign = 1 if row_total > 0 else -1
    if scoop.mode == "double":
        return row_total
    if scoop.mode == "none" or players < scoop.min_players:
        return 0
    if scoop.no_bonus_with_special and special_at_table:
        return 0
    return sign * (scoop.points + scoop.points_per_opponent * (players - 1))


def _apply_home_run(pairs: list[PairResult], names: list[str], rules: Ruleset) -> list[PairResult]:
    """全垒打: a player who scoops every opponent gets ``home_run.points`` more from each."""
    if rules.mode != "pairwise" or rules.home_run.points == 0 or len(names) < rules.home_run.min_players:
        return pairs
    for name in names:
        own = [p for p in pairs if name in (p.a, p.b)]
        if not own or not all(p.scoop == name for p in own):
            continue
        updated = []
        for p in pairs:
            if p in own:
                bonus = rules.home_run.points if p.a == name else -rules.home_run.points
                p = replace(p, home_run=name, home_run_points=bonus)
            updated.append(p)
        pairs = updated
    return pairs
