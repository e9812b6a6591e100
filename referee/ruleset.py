"""Rulesets as data: the five presets of RULES.md are TOML files in
``referee/rulesets/``; a user's house rules are a copy of one, edited.

A file is checked against the dataclasses below (their fields are the schema):
unknown keys are rejected with a close-match hint, missing keys are named, and
every value's type and allowed choices are checked. A file may start with
``base = "classic"`` to inherit every key it does not set.

>>> rules = load_ruleset("fuzhou")
>>> rules.mode, rules.row_multiplier.middle, rules.special.settlement
('banker', 2, 'bonus')
"""

from __future__ import annotations

import difflib
import tomllib
import types
import typing
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from referee.errors import InputError
from referee.evaluate import Category
from referee.rule_bounds import check_bounds
from referee.safe_input import read_rules_toml

PRESET_NAMES: tuple[str, ...] = ("classic", "classic-regional", "popular", "fuzhou", "shisandao")

Mode = Literal["pairwise", "banker"]
ScoopMode = Literal["add", "double", "none"]
FoulMode = Literal["rows", "fixed"]
SpecialSettlement = Literal["alone", "bonus"]
SpecialRanking = Literal["order", "points", "tier"]
SpecialTies = Literal["push", "banker"]
HomeRunMode = Literal["add", "multiply"]
FoulPointsBy = Literal["opponent", "own"]


@dataclass(frozen=True, kw_only=True)
class RowMultiplier:
    head: int
    middle: int
    tail: int

    def of(self, row: str) -> int:
        return int(getattr(self, row))


@dataclass(frozen=True, kw_only=True)
class RowPoints:
    """Points for the winner of each row by the winner's category (default 1)."""

    head: dict[str, int] = field(default_factory=dict)
    middle: dict[str, int] = field(default_factory=dict)
    tail: dict[str, int] = field(default_factory=dict)

    def of(self, row: str, category: Category) -> int:
        table: dict[str, int] = getattr(self, row)
        return table.get(category.label, 1)


@dataclass(frozen=True, kw_only=True)
class ScoopRule:
    mode: ScoopMode
    points: int
    points_per_opponent: int
    min_players: int
    allows_ties: bool
    no_bonus_with_special: bool
    name: str = "打枪"  # what the preset calls a scoop (shown beside "scoop")
    banker_name: str = ""  # banker mode: what a banker's scoop is called, when the preset names it apart


@dataclass(frozen=True, kw_only=True)
class HomeRunRule:
    """``mode = "add"``: each opponent pays ``points`` more; ``"multiply"``: the winner's pair
    results are multiplied by (players - 1), with at least 3 players (RULES.md "Conflicting texts")."""

    points: int
    min_players: int
    mode: HomeRunMode = "add"


@dataclass(frozen=True, kw_only=True)
class FoulRule:
    """``points_by`` (mode "rows"): the rows a fouled hand loses are paid at the ``"opponent"``'s
    row points, or at the fouled hand's ``"own"`` row categories (RULES.md "Conflicting texts")."""

    mode: FoulMode
    points: int
    multiplier: int
    points_by: FoulPointsBy = "opponent"


@dataclass(frozen=True, kw_only=True)
class SpecialHand:
    key: str
    points: int
    tier: int = 0


@dataclass(frozen=True, kw_only=True)
class SpecialRule:
    settlement: SpecialSettlement
    ranking: SpecialRanking
    ties: SpecialTies
    hands: tuple[SpecialHand, ...]


@dataclass(frozen=True, kw_only=True)
class Ruleset:
    name: str
    description: str
    source: str = ""
    mode: Mode
    wheel: Literal["second", "lowest"]
    strict_order: bool
    ties_to_banker: bool
    row_multiplier: RowMultiplier
    row_points: RowPoints
    scoop: ScoopRule
    home_run: HomeRunRule
    foul: FoulRule
    special: SpecialRule

    def special_hand(self, key: str) -> SpecialHand:
        return self._special_by_key[key]

    @cached_property
    def _special_by_key(self) -> dict[str, SpecialHand]:
        return {hand.key: hand for hand in self.special.hands}

    def special_strength(self, key: str) -> int:
        """Special vs special: greater wins, equal ties (by list order, points or tier)."""
        hands = self.special.hands
        hand = self.special_hand(key)
        if self.special.ranking == "points":
            return hand.points
        if self.special.ranking == "tier":
            return hand.tier
        return len(hands) - hands.index(hand)

    def special_order(self, key: str) -> int:
        """Rank used to pick a player's single highest special (lower is higher)."""
        return self.specials_high_to_low.index(key)

    @cached_property
    def specials_high_to_low(self) -> tuple[str, ...]:
        """Special keys, strongest first; list order breaks equal strength."""
        hands = self.special.hands
        order = sorted(range(len(hands)), key=lambda i: (-self.special_strength(hands[i].key), i))
        return tuple(hands[i].key for i in order)


# ------------------------------------------------------------------ loading


def load_ruleset(name_or_path: str | Path) -> Ruleset:
    """Load a preset by name, or a TOML file by path."""
    text = str(name_or_path)
    if text in PRESET_NAMES:
        return _from_mapping(_preset_mapping(text), f"preset {text}")
    path = Path(text)
    if not path.exists():
        close = difflib.get_close_matches(text, PRESET_NAMES, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        presets = ", ".join(PRESET_NAMES)
        raise InputError(f"unknown ruleset {text!r}{hint}: use one of {presets} or a path to a .toml file")
    data = read_rules_toml(path)
    base = data.pop("base", None)
    if base is not None:
        if base not in PRESET_NAMES:
            raise InputError(f"rules file {path}: base {base!r} is not a preset ({', '.join(PRESET_NAMES)})")
        preset = _preset_mapping(base)
        merged = _merge(preset, data)
        if "description" not in data:
            merged["description"] = house_description(base, preset, merged)
        data = merged
    return _from_mapping(data, f"rules file {path}")


def house_description(base: str, preset: dict[str, Any], merged: dict[str, Any]) -> str:
    """The description of house rules that do not write their own: the base's when nothing
    changed, else which keys differ from it (a preset's description may no longer hold).

    >>> preset = {"description": "scoop +3", "scoop": {"points": 3, "mode": "add"}}
    >>> house_description("popular", preset, {"description": "scoop +3", "scoop": {"points": 4, "mode": "add"}})
    'popular with house changes: scoop.points'
    """
    changed = [key for key in _changed_keys(preset, merged, "") if key not in ("name", "description", "source")]
    if not changed:
        return str(preset.get("description", base))
    return f"{base} with house changes: {', '.join(changed)}"


def _changed_keys(before: dict[str, Any], after: dict[str, Any], path: str) -> list[str]:
    out = []
    for key, value in after.items():
        old = before.get(key)
        if isinstance(value, dict) and isinstance(old, dict):
            out += _changed_keys(old, value, f"{path}{key}.")
        elif value != old:
            out.append(f"{path}{key}")
    return out


def ruleset_text(name: str) -> str:
    """The preset's TOML file, as shipped."""
    if name not in PRESET_NAMES:
        raise InputError(f"unknown preset {name!r}: use one of {', '.join(PRESET_NAMES)}")
    return resources.files("referee.rulesets").joinpath(f"{name}.toml").read_text(encoding="utf-8")


def _preset_mapping(name: str) -> dict[str, Any]:
    return tomllib.loads(ruleset_text(name))


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _from_mapping(data: dict[str, Any], where: str) -> Ruleset:
    rules = _build(Ruleset, data, where, "")
    assert isinstance(rules, Ruleset)
    _check_semantics(rules, where)
    return rules


def _build(cls: type, data: Any, where: str, path: str) -> Any:
    if not isinstance(data, dict):
        raise InputError(f"{where}: {path or 'top level'} must be a table")
    hints = typing.get_type_hints(cls)
    known = {f.name: f for f in fields(cls)}
    for key in data:
        if key not in known:
            close = difflib.get_close_matches(key, list(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise InputError(f"{where}: unknown key {path}{key!r}{hint}")
    values: dict[str, Any] = {}
    for name, f in known.items():
        if name not in data:
            if f.default is MISSING and f.default_factory is MISSING:
                raise InputError(f"{where}: missing key {path}{name!r}")
            continue
        values[name] = _convert(hints[name], data[name], where, f"{path}{name}")
    return cls(**values)


def _convert(hint: Any, value: Any, where: str, path: str) -> Any:
    origin = get_origin(hint)
    if isinstance(hint, type) and is_dataclass(hint):
        return _build(hint, value, where, f"{path}.")
    if origin is Literal:
        choices = get_args(hint)
        if value not in choices:
            raise InputError(f"{where}: {path} must be one of {', '.join(map(repr, choices))}, not {value!r}")
        return value
    if origin is tuple:
        (item,) = get_args(hint)[:1]
        if not isinstance(value, list):
            raise InputError(f"{where}: {path} must be a list")
        return tuple(_convert(item, v, where, f"{path}[{i}]") for i, v in enumerate(value))
    if origin is dict:
        if not isinstance(value, dict):
            raise InputError(f"{where}: {path} must be a table")
        labels = [c.label for c in Category]
        for key, points in value.items():
            if key not in labels:
                close = difflib.get_close_matches(key, labels, n=1)
                hint_text = f" (did you mean {close[0]!r}?)" if close else ""
                raise InputError(f"{where}: unknown category {path}.{key}{hint_text}")
            _convert(int, points, where, f"{path}.{key}")
        return dict(value)
    if hint is bool:
        if not isinstance(value, bool):
            raise InputError(f"{where}: {path} must be true or false, not {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(f"{where}: {path} must be an integer, not {value!r}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise InputError(f"{where}: {path} must be a string, not {value!r}")
        return value
    if isinstance(hint, types.UnionType):  # pragma: no cover - no unions in the schema today
        raise TypeError(hint)
    raise TypeError(f"unsupported schema type {hint!r}")


def _check_semantics(rules: Ruleset, where: str) -> None:
    from referee.specials import PREDICATES

    seen: set[str] = set()
    for i, hand in enumerate(rules.special.hands):
        if hand.key not in PREDICATES:
            close = difflib.get_close_matches(hand.key, list(PREDICATES), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise InputError(f"{where}: unknown special key {hand.key!r} in special.hands[{i}]{hint}")
        if hand.key in seen:
            raise InputError(f"{where}: special {hand.key!r} is listed twice")
        seen.add(hand.key)
        if hand.points < 0:
            raise InputError(f"{where}: special {hand.key!r} has negative points")
    for name in ("head", "middle", "tail"):
        if rules.row_multiplier.of(name) < 1:
            raise InputError(f"{where}: row_multiplier.{name} must be at least 1")
    check_bounds(rules, where)
    if rules.ties_to_banker and rules.mode != "banker":
        raise InputError(f"{where}: ties_to_banker needs mode = \"banker\"")
    if rules.special.ties == "banker" and rules.mode != "banker":
        raise InputError(f"{where}: special.ties = \"banker\" needs mode = \"banker\"")
