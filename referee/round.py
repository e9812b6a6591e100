"""A round as players lay it: names, three rows each, the banker, and the players' choices.

``Round.from_json`` reads the ``referee score`` format and rejects anything the
referee cannot score, naming the player, row, card or key at fault. Besides the
rows, a round may carry the choices of RULES.md §3: a player's ``"special": false``
(a special declined, the rows played), ``"adjustments"`` (transfers entered by
hand) and, in banker mode, ``"negotiated"`` results (that pair is not compared).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.cards import ROW_NAMES, Card, format_cards, parse_cards, validate_rows
from referee.errors import InputError
from referee.rule_bounds import MAX_ADJUSTMENTS, MAX_HAND_POINTS
from referee.ruleset import Ruleset
from referee.specials import Rows

MIN_PLAYERS = 2
MAX_PLAYERS = 4


@dataclass(frozen=True, kw_only=True)
class PlayerHand:
    name: str
    rows: Rows
    declares_special: bool = True  # False: "special": false, a special this hand shows is not declared

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for row in self.rows for c in row)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        out |= {n: format_cards(r) for n, r in zip(ROW_NAMES, self.rows, strict=True)}
        if not self.declares_special:
            out["special"] = False
        return out


@dataclass(frozen=True, kw_only=True)
class Adjustment:
    """Points handed over by hand, after the settlement: ``source`` pays ``points`` (> 0) to ``target``."""

    source: str
    target: str
    points: int
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"from": self.source, "to": self.target, "points": self.points, "note": self.note}


@dataclass(frozen=True, kw_only=True)
class Round:
    players: tuple[PlayerHand, ...]
    banker: str | None = None
    adjustments: tuple[Adjustment, ...] = ()
    negotiated: tuple[tuple[str, int], ...] = ()  # (player, points the player receives from the banker)

    def __post_init__(self) -> None:
        count = len(self.players)
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise InputError(f"a round has {MIN_PLAYERS} to {MAX_PLAYERS} players, got {count}")
        names: set[str] = set()
        holder: dict[Card, str] = {}
        for player in self.players:
            if not player.name:
                raise InputError("a player has an empty name")
            check_name(player.name)
            if player.name in names:
                raise InputError(f"player name {player.name!r} is used twice")
            names.add(player.name)
            for card in player.cards:
                if card in holder:
                    other = holder[card]
                    where = f"{player.name}'s hand" if other == player.name else f"{other} and {player.name}"
                    raise InputError(f"duplicate card {card}: held by {where}")
                holder[card] = player.name
        listed = ", ".join(sorted(names))
        if self.banker is not None and self.banker not in names:
            raise InputError(f"banker {self.banker!r} is not one of the players ({listed})")
        if len(self.adjustments) > MAX_ADJUSTMENTS:
            raise InputError(f"a round has at most {MAX_ADJUSTMENTS} adjustments, got {len(self.adjustments)}")
        for i, adjustment in enumerate(self.adjustments):
            where = f"adjustments[{i}]"
            for key, who in (("from", adjustment.source), ("to", adjustment.target)):
                if who not in names:
                    raise InputError(f"{where}.{key}: {who!r} is not one of the players ({listed})")
            if adjustment.source == adjustment.target:
                raise InputError(f"{where}: \"from\" and \"to\" are the same player ({adjustment.source})")
            if isinstance(adjustment.points, bool) or not isinstance(adjustment.points, int) or adjustment.points < 1:
                raise InputError(f"{where}.points must be a whole number above 0, not {adjustment.points!r}")
            if adjustment.points > MAX_HAND_POINTS:
                raise InputError(f"{where}.points must be at most {MAX_HAND_POINTS:,}, not {adjustment.points:,}")
        seen: set[str] = set()
        for who, points in self.negotiated:
            if who not in names:
                raise InputError(f"negotiated: {who!r} is not one of the players ({listed})")
            if who in seen:
                raise InputError(f"negotiated: {who!r} is listed twice")
            seen.add(who)
            if who == self.banker:
                raise InputError(f"negotiated: {who!r} is the banker; a negotiated result is between the banker "
                                 "and another player")
            if isinstance(points, bool) or not isinstance(points, int):
                raise InputError(f"negotiated.{who} must be a whole number of points, not {points!r}")
            if abs(points) > MAX_HAND_POINTS:
                raise InputError(f"negotiated.{who} must be from -{MAX_HAND_POINTS:,} to {MAX_HAND_POINTS:,}, "
                                 f"not {points:,}")

    @property
    def negotiated_points(self) -> dict[str, int]:
        """Negotiated results: player -> points the player receives from the banker (negative: pays)."""
        return dict(self.negotiated)

    def checked_for(self, rules: Ruleset) -> Round:
        """Raise if the round cannot be scored under ``rules`` (banker mode needs a banker;
        negotiated results need banker mode)."""
        if rules.mode == "banker" and self.banker is None:
            raise InputError(f"ruleset {rules.name} is played against a banker: name one with \"banker\"")
        if self.negotiated and rules.mode != "banker":
            raise InputError(f"negotiated: ruleset {rules.name} is played pairwise; a negotiated result is "
                             "between the banker and a player (banker mode only)")
        return self

    @classmethod
    def from_json(cls, data: Any) -> Round:
        if not isinstance(data, Mapping):
            raise InputError("a round is a JSON object with \"players\" (and \"banker\" in banker mode)")
        unknown = set(data) - {"players", "banker", "adjustments", "negotiated"}
        if unknown:
            raise InputError(f"unknown key(s) in the round: {', '.join(sorted(unknown))}")
        players = data.get("players")
        if not isinstance(players, list):
            raise InputError("the round needs \"players\": a list of {\"name\", \"head\", \"middle\", \"tail\"}")
        hands = tuple(_player_from_json(i, p) for i, p in enumerate(players))
        banker = data.get("banker")
        if banker is not None and not isinstance(banker, str):
            raise InputError("\"banker\" must be a player's name")
        return cls(players=hands, banker=banker, adjustments=_adjustments_from_json(data.get("adjustments", [])),
                   negotiated=_negotiated_from_json(data.get("negotiated", {})))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": [p.to_json() for p in self.players]}
        if self.banker is not None:
            out["banker"] = self.banker
        if self.adjustments:
            out["adjustments"] = [a.to_json() for a in self.adjustments]
        if self.negotiated:
            out["negotiated"] = dict(self.negotiated)
        return out


def check_name(name: str) -> None:
    """A player's name is printable text: no control characters (NUL...) and no lone surrogates."""
    for char in name:
        if unicodedata.category(char) in ("Cc", "Cs"):
            shown = "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) in ("Cc", "Cs") else c for c in name)
            raise InputError(f"player name '{shown}' holds the character U+{ord(char):04X}, "
                             "which a name cannot have")


def _adjustments_from_json(data: Any) -> tuple[Adjustment, ...]:
    if not isinstance(data, list):
        raise InputError("\"adjustments\" must be a list of {\"from\", \"to\", \"points\", \"note\"}")
    out = []
    for i, entry in enumerate(data):
        where = f"adjustments[{i}]"
        if not isinstance(entry, Mapping):
            raise InputError(f"{where} must be an object with \"from\", \"to\", \"points\" and \"note\"")
        unknown = set(entry) - {"from", "to", "points", "note"}
        if unknown:
            raise InputError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        for key in ("from", "to", "points"):
            if key not in entry:
                raise InputError(f"{where} needs \"{key}\"")
        for key in ("from", "to"):
            if not isinstance(entry[key], str):
                raise InputError(f"{where}.{key} must be a player's name, not {entry[key]!r}")
        note = entry.get("note", "")
        if not isinstance(note, str):
            raise InputError(f"{where}.note must be text, not {note!r}")
        out.append(Adjustment(source=entry["from"], target=entry["to"], points=_whole(entry["points"]), note=note))
    return tuple(out)


def _negotiated_from_json(data: Any) -> tuple[tuple[str, int], ...]:
    if not isinstance(data, Mapping):
        raise InputError("\"negotiated\" must be an object {PLAYER: points the player receives from the banker}")
    return tuple((str(who), _whole(points)) for who, points in data.items())


def _whole(value: Any) -> Any:
    """A JSON number that is a whole number (2.0 reads as 2); anything else is left for the check to name."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _player_from_json(index: int, data: Any) -> PlayerHand:
    if not isinstance(data, Mapping):
        raise InputError(f"player {index + 1} must be an object with name, head, middle, tail")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"player {index + 1} needs a \"name\"")
    unknown = set(data) - {"name", "special", *ROW_NAMES}
    if unknown:
        raise InputError(f"player {name}: unknown key(s) {', '.join(sorted(unknown))}")
    declares = data.get("special", True)
    if not isinstance(declares, bool):
        raise InputError(f"player {name}: \"special\" must be true (declare a special) or false (play the rows), "
                         f"not {declares!r}")
    rows = []
    for row in ROW_NAMES:
        text = data.get(row)
        if not isinstance(text, str):
            raise InputError(f"player {name}: missing {row} row (a string like \"Ah Kd 2c\")")
        try:
            rows.append(parse_cards(text))
        except InputError as err:
            raise InputError(f"player {name}, {row} row: {err}") from None
    return PlayerHand(name=name, rows=validate_rows(rows, f"player {name}"), declares_special=declares)
