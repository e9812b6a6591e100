"""Hand-computed rounds for every preset (RULES.md §3).

The arithmetic for each expected number is written out beside it.
"""

from __future__ import annotations

from typing import Any

import pytest
from rounds import (
    ANN,
    BANK,
    BOB,
    CAT,
    DAN,
    EVE,
    PAT,
    POPULAR_A,
    POPULAR_B,
    POPULAR_C,
    POPULAR_D,
    QUINN,
    REX,
    TIA,
    X,
    Y,
    round_of,
)

from referee import Round, Settlement, load_ruleset, settle


def scores(data: dict[str, Any], rules: str) -> dict[str, int]:
    result = settle(Round.from_json(data), load_ruleset(rules))
    assert result.total == 0
    return {p.name: p.score for p in result.players}


def pair(result: Settlement, a: str, b: str) -> dict[str, Any]:
    return next(p.to_json() for p in result.pairs if (p.a, p.b) == (a, b))


# --------------------------------------------------------------- RULES.md worked examples

def test_popular_rulebook_example_a_nets_plus_one() -> None:
    # A sweeps B: 3 rows + 3 scoop = 6; A wins 2 rows of 3 against C: +1; D sweeps A: -6.
    result = scores(round_of(POPULAR_A, POPULAR_B, POPULAR_C, POPULAR_D), "popular")
    assert result["A"] == 6 + 1 - 6
    # B: -6 (A) -1 (C wins middle, tail; B wins head) -6 (D) ; C: -1 +1 -6 ; D: 3 sweeps.
    assert result == {"A": 1, "B": -13, "C": -6, "D": 18}


def test_fuzhou_rulebook_example_rows_then_three_flushes_bonus() -> None:
    data = round_of(BANK, PAT, banker="Bank")
    result = settle(Round.from_json(data), load_ruleset("fuzhou"))
    p = pair(result, "Bank", "Pat")
    # Pat wins head (+1), loses middle (-1 x2), wins tail (+1 x2) = +1; 三同花 +3 on top = +4.
    assert p["rows"] == [-1, 2, -2]
    assert p["special"] == "three_flushes" and p["special_points"] == -3
    assert result.score_of("Pat") == 4


# --------------------------------------------------------------- classic

def test_classic_row_bonuses_scoop_and_foul() -> None:
    data = round_of(ANN, BOB, CAT)
    result = settle(Round.from_json(data), load_ruleset("classic"))
    ann_bob = pair(result, "Ann", "Bob")
    # head trips 3, middle quads 8, tail straight flush 5; scoop adds players-1 = 2.
    assert ann_bob["rows"] == [3, 8, 5] and ann_bob["scoop"] == "Ann" and ann_bob["scoop_points"] == 2
    assert ann_bob["points"] == 18
    ann_cat = pair(result, "Ann", "Cat")
    # Cat fouled: loses every row at Ann's row points (3 + 8 + 5), no scoop added.
    assert ann_cat["rows"] == [3, 8, 5] and ann_cat["scoop"] is None and ann_cat["points"] == 16
    assert pair(result, "Bob", "Cat")["points"] == 3  # Bob's plain rows: 1 + 1 + 1
    assert {p.name: p.score for p in result.players} == {"Ann": 34, "Bob": -15, "Cat": -19}
    assert result.players[2].report.foul_reason == "head (pair AA) beats middle (pair KK)"


def test_classic_home_run_each_opponent_pays_twelve() -> None:
    # Ann scoops Bob (16 + 2) and Dan (3 + 8 + 5 + 2); home run: +12 from each.
    # Bob v Dan: Bob wins the head (+1), Dan middle and tail (-2): -1.
    assert scores(round_of(ANN, BOB, DAN), "classic") == {"Ann": 60, "Bob": -31, "Dan": -29}


def test_classic_special_settled_alone_blocks_scoop_bonus_and_home_run() -> None:
    # Eve's six pairs (4) is paid by both; Ann scoops Bob (16) but no bonus with a special at
    # the table, and her pair with Eve is not a scoop, so no home run.
    assert scores(round_of(ANN, BOB, EVE), "classic") == {"Ann": 16 - 4, "Bob": -16 - 4, "Eve": 8}


def test_classic_two_players_scoop_with_a_tie_counts_for_home_run_only() -> None:
    # Head tied, X wins middle and tail: a scoop (碾过). p = 2: no scoop bonus; home run 12.
    result = settle(Round.from_json(round_of(X, Y)), load_ruleset("classic"))
    p = pair(result, "X", "Y")
    assert p["rows"] == [0, 1, 1] and p["scoop"] == "X" and p["scoop_points"] == 0
    assert p["home_run"] == "X" and p["home_run_points"] == 12 and p["points"] == 14


# --------------------------------------------------------------- classic-regional

def test_classic_regional_row_bonuses() -> None:
    # head trips 4, middle quads 10, tail straight flush 6 = 20; scoop +2; Cat's foul pays 20; Bob v Cat 3.
    assert scores(round_of(ANN, BOB, CAT), "classic-regional") == {"Ann": 42, "Bob": -19, "Cat": -23}


def test_classic_regional_home_run_and_special() -> None:
    # Ann v Bob 20 + 2, Ann v Dan 20 + 2, both +12 home run; Bob v Dan -1.
    assert scores(round_of(ANN, BOB, DAN), "classic-regional") == {"Ann": 68, "Bob": -35, "Dan": -33}
    # six pairs is worth 3 here; scoop bonus off with a special at the table.
    assert scores(round_of(ANN, BOB, EVE), "classic-regional") == {"Ann": 20 - 3, "Bob": -20 - 3, "Eve": 6}


# --------------------------------------------------------------- popular

def test_popular_foul_pays_three_and_scoop_adds_three() -> None:
    # Ann v Bob 3 rows + 3; Cat's foul pays 3 to each.
    assert scores(round_of(ANN, BOB, CAT), "popular") == {"Ann": 9, "Bob": -3, "Cat": -6}


def test_popular_special_and_no_tie_scoop() -> None:
    # Eve's six pairs is worth 8 from each; Ann still gets her scoop bonus (+3) from Bob.
    assert scores(round_of(ANN, BOB, EVE), "popular") == {"Ann": 6 - 8, "Bob": -6 - 8, "Eve": 16}
    # A tied head is not a scoop in popular: X gets 2 rows only.
    assert scores(round_of(X, Y), "popular") == {"X": 2, "Y": -2}


# --------------------------------------------------------------- fuzhou

def test_fuzhou_banker_round() -> None:
    data = round_of(BANK, PAT, REX, QUINN, banker="Bank")
    result = settle(Round.from_json(data), load_ruleset("fuzhou"))
    # Bank v Rex: 1 + 2 + 2 = 5 and a scoop +3 = 8. Quinn fouled: pays 3. Pat: +4 (above).
    assert pair(result, "Bank", "Rex")["points"] == 8
    assert pair(result, "Bank", "Quinn")["points"] == 3
    assert {p.name: p.score for p in result.players} == {"Bank": 7, "Pat": 4, "Rex": -8, "Quinn": -3}


# --------------------------------------------------------------- shisandao

def test_shisandao_banker_round() -> None:
    data = round_of(BANK, PAT, REX, QUINN, banker="Bank")
    result = settle(Round.from_json(data), load_ruleset("shisandao"))
    # Pat's 三同花 is a 小拋: +6, settled alone. Rex is scooped: 3 rows doubled = 6.
    # Quinn fouled: loses 3 rows at the banker's points, doubled = 6.
    assert pair(result, "Bank", "Pat")["settled_by"] == "special"
    assert pair(result, "Bank", "Rex")["points"] == 6
    assert pair(result, "Bank", "Quinn")["points"] == 6
    assert {p.name: p.score for p in result.players} == {"Bank": 6, "Pat": 6, "Rex": -6, "Quinn": -6}


def test_shisandao_tied_row_goes_to_banker_and_counts_for_scoop() -> None:
    result = settle(Round.from_json(round_of(BANK, TIA, banker="Bank")), load_ruleset("shisandao"))
    p = pair(result, "Bank", "Tia")
    assert p["rows"] == [1, 1, 1] and p["scoop"] == "Bank" and p["points"] == 6


@pytest.mark.parametrize("rules", ["classic", "classic-regional", "popular"])
def test_banker_is_ignored_in_pairwise_mode(rules: str) -> None:
    with_banker = scores(round_of(ANN, BOB, CAT, banker="Bob"), rules)
    assert with_banker == scores(round_of(ANN, BOB, CAT), rules)


def test_shisandao_row_bonuses_doubled_by_the_scoop() -> None:
    # Bob banks. Ann beats him in every row: head trips 3, middle quads 12, tail straight flush 10 = 25,
    # scooped, so doubled = 50. Cat fouled: loses Bob's plain rows 1 + 1 + 1, doubled = 6.
    result = settle(Round.from_json(round_of(ANN, BOB, CAT, banker="Bob")), load_ruleset("shisandao"))
    assert pair(result, "Bob", "Ann")["rows"] == [-3, -12, -10]
    assert pair(result, "Bob", "Ann")["points"] == -50
    assert pair(result, "Bob", "Cat")["points"] == 6
    assert {p.name: p.score for p in result.players} == {"Ann": 50, "Bob": -44, "Cat": -6}
