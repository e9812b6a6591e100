"""Settlement 结算 (RULES.md §3): pairwise or against the banker.

Every pair's points are split into parts a player can check by hand::

    points = sum(rows) + scoop_points + home_run_points + special_points + foul_points + negotiated_points

and every amount is what player ``a`` receives from player ``b`` (negative: pays). A pair
with a negotiated result (banker mode) is not compared: its points are the agreed ones.
Adjustments (transfers entered by hand) come after every pair, each listed with its note.
A player who holds a special is shown what the other choice would have scored
(``rows_instead`` when the special is declared, ``special_instead`` when it is declined).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, Literal, NamedTuple

from referee.cards import ROW_NAMES
from referee.evaluate import category_of
from referee.hand import HandReport, analyse
from referee.round import Adjustment, PlayerHand, Round
from referee.ruleset import Ruleset

SettledBy = Literal["rows", "foul", "special", "rows+special", "foul+special", "negotiated"]


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
    negotiated_points: int = 0  # a negotiated pair: what a gets from b as agreed (nothing else counts)

    @property
    def negotiated(self) -> bool:
        return self.settled_by == "negotiated"

    @property
    def points(self) -> int:
        return (sum(self.rows) + self.scoop_points + self.home_run_points + self.special_points + self.foul_points
                + self.negotiated_points)

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
            "negotiated": self.negotiated,
            "negotiated_points": self.negotiated_points,
        }


class BonusPart(NamedTuple):
    """One term of a pair's points beyond the rows: ``kind`` is scoop, home_run, special, foul or negotiated;
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
    if pair.get("negotiated"):
        parts.append(BonusPart("negotiated", "negotiated", None, int(pair.get("negotiated_points", 0))))
    return parts


@dataclass(frozen=True, kw_only=True)
class PlayerResult:
    """``report`` is what the hand shows (its special even when declined); ``instead`` the score
    of the other choice for a hand holding a special (the rows when declared, and the reverse)."""

    name: str
    score: int
    report: HandReport
    declares_special: bool = True
    instead: int | None = None

    @property
    def special(self) -> str | None:
        """The special scored (None when declined)."""
        return self.report.special if self.declares_special else None

    def to_json(self) -> dict[str, Any]:
        out = {
            "name": self.name,
            "score": self.score,
            "foul": self.report.foul,
            "foul_reason": self.report.foul_reason,
            "special": self.special,
            "missed_special": self.report.missed_special,
            "rows": [
                {"row": r.row, "cards": [str(c) for c in r.cards], "category": r.category.label}
                for r in self.report.rows
            ],
        }
        if self.report.special is not None and not self.declares_special:
            out["declined_special"] = self.report.special
        if self.instead is not None:
            out["rows_instead" if self.declares_special else "special_instead"] = self.instead
        return out


@dataclass(frozen=True, kw_only=True)
class Settlement:
    rules: str
    mode: str
    banker: str | None
    players: tuple[PlayerResult, ...]
    pairs: tuple[PairResult, ...]
    adjustments: tuple[Adjustment, ...] = ()

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
            "adjustments": [a.to_json() for a in self.adjustments],
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
    declares = {p.name: p.declares_special for p in round_.players}
    pairs, scores = _scores(round_, rules, reports, declares, banker)
    negotiated = round_.negotiated_points
    instead: dict[str, int] = {}
    for name, report in reports.items():
        if report.special is not None and name not in negotiated:  # the other choice, all else equal
            _, other = _scores(round_, rules, reports, declares | {name: not declares[name]}, banker)
            instead[name] = other[name]
    players = tuple(PlayerResult(name=n, score=scores[n], report=reports[n], declares_special=declares[n],
                                 instead=instead.get(n)) for n in reports)
    return Settlement(rules=rules.name, mode=rules.mode, banker=banker, players=players, pairs=tuple(pairs),
                      adjustments=round_.adjustments)


def _scores(round_: Round, rules: Ruleset, reports: Mapping[str, HandReport], declares: Mapping[str, bool],
            banker: str | None) -> tuple[list[PairResult], dict[str, int]]:
    """The pairs and every player's score, a declined special played as the rows."""
    played = [(p, reports[p.name] if declares[p.name] else replace(reports[p.name], special=None))
              for p in round_.players]
    pairs = settle_pairs(played, rules, banker, round_.negotiated_points)
    scores = {p.name: 0 for p in round_.players}
    for pair in pairs:
        scores[pair.a] += pair.points
        scores[pair.b] -= pair.points
    for adjustment in round_.adjustments:
        scores[adjustment.source] -= adjustment.points
        scores[adjustment.target] += adjustment.points
    return pairs, scores


def settle_pairs(hands: Sequence[tuple[PlayerHand, HandReport]], rules: Ruleset,
                 banker: str | None, negotiated: Mapping[str, int] | None = None) -> list[PairResult]:
    """Every pair's result for players already analysed (``banker`` only in banker mode;
    ``negotiated``: player -> points the player receives from the banker, that pair not compared).

    This is the settlement itself; :func:`settle` adds the analysis and the totals, and
    the solver calls it directly on reports it has computed faster.
    """
    agreed = negotiated or {}
    sides = {p.name: _Side(p, report, p.name == banker) for p, report in hands}
    names = [p.name for p, _ in hands]
    if banker is not None:
        matchups = [(banker, n) for n in names if n != banker]
    else:
        matchups = list(combinations(names, 2))
    special_at_table = any(report.special is not None for p, report in hands if p.name not in agreed)
    pairs = [_negotiated_pair(a, b, agreed[b]) if b in agreed else
             _settle_pair(sides[a], sides[b], rules, len(names), special_at_table) for a, b in matchups]
    return _apply_home_run(pairs, names, rules)


def _negotiated_pair(banker: str, player: str, to_player: int) -> PairResult:
    return PairResult(a=banker, b=player, settled_by="negotiated", rows=(0, 0, 0), scoop=None, scoop_points=0,
                      home_run=None, home_run_points=0, special=None, special_winner=None, special_points=0,
                      foul_points=0, negotiated_points=-to_player)


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


def _forfeit_rows(priced_by: _Side, rules: Ruleset) -> list[int]:
    """What a fouled hand loses: every row at ``priced_by``'s row points (the winner's, or
    the fouled hand's own with ``foul.points_by = "own"``)."""
    return [
        rules.row_points.of(row, category_of(priced_by.report.values[i])) * rules.row_multiplier.of(row)
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
            winner, fouled, sign = (b, a, -1) if fa else (a, b, 1)
            if rules.foul.mode == "fixed":
                foul_points = sign * rules.foul.points * rules.foul.multiplier
            else:
                priced_by = fouled if rules.foul.points_by == "own" else winner
                rows = [sign * p for p in _forfeit_rows(priced_by, rules)]
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
    """全垒打: a player who scoops every opponent gets ``home_run.points`` more from each
    (``mode = "add"``), or that player's pair results x (players - 1), 3+ players (``"multiply"``)."""
    home_run = rules.home_run
    if rules.mode != "pairwise" or len(names) < home_run.min_players:
        return pairs
    disabled = home_run.points == 0 if home_run.mode == "add" else len(names) < 3
    if disabled:
        return pairs
    for name in names:
        own = [p for p in pairs if name in (p.a, p.b)]
        if not own or not all(p.scoop == name for p in own):
            continue
        updated = []
        for p in pairs:
            if p in own:
                if home_run.mode == "multiply":
                    bonus = p.points * (len(names) - 2)  # the pair's points become x (players - 1)
                else:
                    bonus = home_run.points if p.a == name else -home_run.points
                p = replace(p, home_run=name, home_run_points=bonus)
            updated.append(p)
        pairs = updated
    return pairs
