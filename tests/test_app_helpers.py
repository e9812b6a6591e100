"""The app's plain helpers: their doctests, and the table/correction functions on edge cases."""

from __future__ import annotations

import doctest
import importlib
from typing import Any

import pytest

from app_pages.i18n import name
from app_pages.table import build_round, corrections, move_card, seat_entry, seats_from_reading
from referee.errors import InputError
from referee.ruleset import load_ruleset

ANN = seat_entry("bottom", "Ann", "Qs Qh Qd", "9h 9d 9c 9s Kd", "2s 3s 4s 5s 6s")
BOB = seat_entry("top", "Bob", "Ah Kc 3d", "Jh Jd 7c 8c 4h", "Th Td Tc 2d 3h")


@pytest.mark.parametrize("module", ["app_pages.glyphs", "app_pages.i18n", "app_pages.images", "app_pages.table",
                                    "app_pages.seating", "app_pages.words", "app_pages.show"])
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0


@pytest.mark.parametrize(
    ("seats", "banker", "message"),
    [
        ([], None, "2 to 4 players"),
        ([ANN], None, "2 to 4 players"),
        ([ANN, dict(BOB, name="")], None, "give the player a name"),
        ([ANN, dict(BOB, name="Ann")], None, "used twice"),
        ([ANN, dict(BOB, head="Ah Kc")], None, "head row must have 3 cards"),
        ([ANN, dict(BOB, head="Ah Kc Zz")], None, "Bob, head row: unknown card 'Zz'"),
        ([ANN, dict(BOB, head="Qs Kc 3d")], None, "duplicate card Qs: held by Ann and Bob"),
        ([ANN, BOB], "Chen", "banker 'Chen' is not one of the players"),
        ([dict(ANN, name=n) for n in "ABCDE"], None, "at most 4 players"),
    ],
)
def test_build_round_names_every_problem(seats: list[dict[str, str]], banker: str | None, message: str) -> None:
    round_, errors = build_round(seats, banker)
    assert round_ is None
    assert any(message in e for e in errors), errors


def test_move_card_edge_cases() -> None:
    assert move_card([ANN, BOB], "qs", to_seat=0, to_row="head") == [dict(ANN, head="Qh Qd Qs"), BOB]
    moved = move_card([ANN, BOB], "7h", to_seat=1, to_row="tail")  # a card no row holds (unassigned)
    assert moved[1]["tail"] == BOB["tail"] + " 7h"
    with pytest.raises(InputError):
        move_card([ANN, BOB], "Qs", to_seat=2, to_row="head")
    with pytest.raises(InputError):
        move_card([ANN, BOB], "Qs", to_seat=0, to_row="crown")


def test_corrections_count_added_and_removed_seats() -> None:
    assert corrections([ANN], [ANN]) == []
    changes = corrections([ANN], [ANN, BOB])
    assert {c["field"] for c in changes} == {"name", "head", "middle", "tail"}
    assert all(c["seat"] == "top" and c["from"] == "" for c in changes)
    assert corrections([dict(ANN, head="Qs  Qh Qd")], [ANN]) == []  # spacing is not a correction


def test_seats_from_reading_rows_free_shapes_and_names() -> None:
    rules = load_ruleset("classic")
    reading: dict[str, Any] = {"seats": [
        {"seat": "bottom", "shape": "rows", "head": ["Qs", "Qh", "Qd"], "middle": ["9h", "9d", "9c", "9s", "Kd"],
         "tail": ["2s", "3s", "4s", "5s", "6s"], "cards": []},
        {"seat": "top", "shape": "free", "head": None, "middle": None, "tail": None,
         "cards": ["Ah", "2h", "3c", "4d", "5s", "6s", "7c", "8d", "9h", "Th", "Jd", "Qc", "Kc"]},
        {"seat": "left", "shape": "free", "head": None, "middle": None, "tail": None, "cards": ["As", "Ks"]},
    ]}
    seats, notes = seats_from_reading(reading, {"bottom": "Ann"}, rules)
    assert seats[0] == dict(ANN, middle="9h 9d 9c 9s Kd")
    assert seats[1]["name"] == ""  # no placeholder name: the page asks who sits there
    top_cards = sorted(" ".join(seats[1][r] for r in ("head", "middle", "tail")).split())
    assert top_cards == sorted(reading["seats"][1]["cards"])  # a dragon, laid out in rows by the solver
    assert "dragon" in notes[0]
    assert seats[2]["tail"] == "As Ks" and "put them into rows" in notes[1]
    assert notes[2].startswith("11 cards not read (left 11): type them into the rows, or take the photo again")


def test_no_unread_note_when_every_hand_is_complete() -> None:
    reading = {"seats": [{"seat": "bottom", "shape": "rows", "head": ["Qs", "Qh", "Qd"],
                          "middle": ["9h", "9d", "9c", "9s", "Kd"], "tail": ["2s", "3s", "4s", "5s", "6s"]}]}
    seats, notes = seats_from_reading(reading, {"bottom": "Ann"}, load_ruleset("classic"))
    assert notes == [] and seats[0] == dict(ANN, middle="9h 9d 9c 9s Kd")
    one_short = {"seats": [dict(reading["seats"][0], head=["Qs", "Qh"])]}
    assert seats_from_reading(one_short, {"bottom": "Ann"}, load_ruleset("classic"))[1] == [
        "1 card not read (Ann 1): type it into the rows, or take the photo again from above, held still, "
        "in good light, with every corner sharp (a soft photo is the usual cause)"]


def test_a_hand_the_photo_does_not_show_is_asked_about() -> None:
    # three sit at the table, the photo shows two hands: one may be washed out by glare (not one card of it found)
    rows = {"shape": "rows", "head": ["Qs", "Qh", "Qd"], "middle": ["9h", "9d", "9c", "9s", "Kd"],
            "tail": ["2s", "3s", "4s", "5s", "6s"]}
    reading = {"seats": [dict(rows, seat=s) for s in ("left", "right")]}
    _, notes = seats_from_reading(reading, {"left": "Ann", "right": "Bob", "top": "Cy"}, load_ruleset("classic"))
    assert notes == ["3 sit at this table (Ann, Bob, Cy) but the photo shows 2 hands: a hand washed out by glare or "
                     "outside the photo is not found at all. Type its rows in, or mark who sits out this round"]
    # nobody at the top this round (marked away), or only two seated: nothing to ask
    assert seats_from_reading(reading, {"left": "Ann", "right": "Bob", "top": None}, load_ruleset("classic"))[1] == []
    assert seats_from_reading(reading, {"left": "Ann", "right": "Bob"}, load_ruleset("classic"))[1] == []


@pytest.mark.parametrize(
    ("key", "zh", "en"),
    [("", "", ""), ("head", "头道", "head"), ("six_pairs", "六对半", "six pairs"),
     ("four_of_a_kind", "铁支", "four of a kind"), ("bottom", "下", "bottom")],
)
def test_names(key: str, zh: str, en: str) -> None:
    assert name(key, "zh") == (zh or key)
    assert name(key, "en") == (en or key)
