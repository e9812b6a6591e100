"""A round as players lay it: names, three rows each, and the banker.

``Round.from_json`` reads the ``referee score`` format and rejects anything the
referee cannot score, naming the player, row or card at fault.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.cards import ROW_NAMES, Card, format_cards, parse_cards, validate_rows
from referee.errors import InputError
from referee.ruleset import Ruleset
from referee.specials import Rows

MIN_PLAYERS = 2
MAX_PLAYERS = 4


@dataclass(frozen=True, kw_only=True)
class PlayerHand:
    name: str
    rows: Rows

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for row in self.rows for c in row)

    def to_json(self) -> dict[str, str]:
        return {"name": self.name} | {n: format_cards(r) for n, r in zip(ROW_NAMES, self.rows, strict=True)}


@dataclass(frozen=True, kw_only=True)
class Round:
    players: tuple[PlayerHand, ...]
    banker: str | None = None

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
        if self.banker is not None and self.banker not in names:
            raise InputError(f"banker {self.banker!r} is not one of the players ({', '.join(sorted(names))})")

    def checked_for(self, rules: Ruleset) -> Round:
        """Raise if the round cannot be scored under ``rules`` (banker mode needs a banker)."""
        if rules.mode == "banker" and self.banker is None:
            raise InputError(f"ruleset {rules.name} is played against a banker: name one with \"banker\"")
        return self

    @classmethod
    def from_json(cls, data: Any) -> Round:
        if not isinstance(data, Mapping):
            raise InputError("a round is a JSON object with \"players\" (and \"banker\" in banker mode)")
        unknown = set(data) - {"players", "banker"}
        if unknown:
            raise InputError(f"unknown key(s) in the round: {', '.join(sorted(unknown))}")
        players = data.get("players")
        if not isinstance(players, list):
            raise InputError("the round needs \"players\": a list of {\"name\", \"head\", \"middle\", \"tail\"}")
        hands = tuple(_player_from_json(i, p) for i, p in enumerate(players))
        banker = data.get("banker")
        if banker is not None and not isinstance(banker, str):
            raise InputError("\"banker\" must be a player's name")
        return cls(players=hands, banker=banker)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": [p.to_json() for p in self.players]}
        if self.banker is not None:
            out["banker"] = self.banker
        return out


def check_name(name: str) -> None:
    """A player's name is printable text: no control characters (NUL...) and no lone surrogates."""
    for char in name:
        if unicodedata.category(char) in ("Cc", "Cs"):
            raise InputError(f"player name {name.encode('utf-8', 'backslashreplace').decode()!r} holds "
                             f"the character U+{ord(char):04X}, which a name cannot have")


def _player_from_json(index: int, data: Any) -> PlayerHand:
    if not isinstance(data, Mapping):
        raise InputError(f"player {index + 1} must be an object with name, head, middle, tail")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"player {index + 1} needs a \"name\"")
    unknown = set(data) - {"name", *ROW_NAMES}
    if unknown:
        raise InputError(f"player {name}: unknown key(s) {', '.join(sorted(unknown))}")
    rows = []
    for row in ROW_NAMES:
        text = data.get(row)
        if not isinstance(text, str):
            raise InputError(f"player {name}: missing {row} row (a string like \"Ah Kd 2c\")")
        try:
            rows.append(parse_cards(text))
        except InputError as err:
            raise InputError(f"player {name}, {row} row: {err}") from None
    return PlayerHand(name=name, rows=validate_rows(rows, f"player {name}"))
