"""Rulesets as data: presets ship as TOML, house rules load with clear validation errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee import PRESET_NAMES, InputError, load_ruleset
from referee.ruleset import ruleset_text


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_presets_load_and_copy_round_trips(name: str, tmp_path: Path) -> None:
    rules = load_ruleset(name)
    assert rules.name == name
    copy = tmp_path / "house.toml"
    copy.write_text(ruleset_text(name), encoding="utf-8")
    assert load_ruleset(copy) == rules


def test_preset_numbers_from_rulebook() -> None:
    classic = load_ruleset("classic")
    assert classic.wheel == "second" and classic.row_points.middle == {
        "full_house": 2, "four_of_a_kind": 8, "straight_flush": 10}
    assert classic.special_hand("dragon_flush").points == 108
    shisandao = load_ruleset("shisandao")
    assert shisandao.strict_order and shisandao.ties_to_banker and shisandao.scoop.mode == "double"
    assert load_ruleset("fuzhou").row_multiplier.tail == 2


def house(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_base_inherits_and_overrides(tmp_path: Path) -> None:
    rules = load_ruleset(house(tmp_path, 'base = "popular"\nname = "ours"\n[scoop]\npoints = 4\n'))
    assert rules.name == "ours" and rules.scoop.points == 4 and rules.foul.points == 3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('base = "popular"\n[special]\nhands = [{ key = "six_pair", points = 3 }]\n',
         "unknown special key 'six_pair' in special.hands[0] (did you mean 'six_pairs'?)"),
        ('base = "popular"\nwhee = "second"\n', "unknown key 'whee' (did you mean 'wheel'?)"),
        ('name = "x"\n', "missing key 'description'"),
        ('base = "popular"\nwheel = "middle"\n', "wheel must be one of 'second', 'lowest'"),
        ('base = "popular"\n[scoop]\npoints = "three"\n', "scoop.points must be an integer"),
        ('base = "popular"\n[row_points.tail]\nquads = 4\n', "unknown category row_points.tail.quads"),
        ('base = "nope"\n', "base 'nope' is not a preset"),
        ("name = \n", "not valid TOML"),
        ('base = "popular"\nties_to_banker = true\n', "ties_to_banker needs mode"),
    ],
)
def test_bad_rules_files(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(InputError, match=re.escape(message)):
        load_ruleset(house(tmp_path, text))
