"""Players' choices (RULES.md §3 "Declining a special", "Adjustments", "Conflicting texts"):
worked rounds with the arithmetic written out, the round format's errors, and zero-sum."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rounds import (
    ANN,
    BANK,
    BOB,
    DAN,
    PAT,
    POPULAR_A,
    POPULAR_B,
    POPULAR_C,
    POPULAR_D,
    REX,
    player,
    round_of,
)

from referee import PRESET_NAMES, Round, Settlement, load_ruleset, settle
from referee.cards import DECK
from referee.cli import main
from referee.errors import InputError
from referee.round import Adjustment, PlayerHand

# Six pairs (55 66 77 88 99 KK + 2) laid as two straight flushes: a special (classic 4) or strong rows.
SIX = player("Six", "Kc Kd 2c | 5s 6s 7s 8s 9s | 5h 6h 7h 8h 9h")  # pair K | straight flush 9 | straight flush 9
BEA = player("Bea", "Ah Qd 3s | Ts Td 4c 4d Jc | As Ac Ad Jh Js")  # A-Q-3 | two pair T4 | full house A
CAL = player("Cal", "Qs Jd 4s | Tc Th 2d 3d 6c | Kh Ks 7c 7d 8c")  # Q-J-4 | pair T | two pair K7


def settled(data: dict[str, Any], rules: str = "classic") -> Settlement:
    result = settle(Round.from_json(data), load_ruleset(rules))
    assert result.total == 0
    return result


def scores(result: Settlement) -> dict[str, int]:
    return {p.name: p.score for p in result.players}


def player_json(result: Settlement, name: str) -> dict[str, Any]:
    return next(p for p in result.to_json()["players"] if p["name"] == name)


def house(tmp_path: Path, text: str) -> str:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


# --------------------------------------------------------------- declining a special

def test_six_pairs_declined_under_classic_scores_rows_scoop_and_home_run() -> None:
    declined = settled(round_of({**SIX, "special": False}, BEA, CAL))
    # Six plays the rows: head pair K beats A-Q-3 / Q-J-4 (1), middle straight flush (10), tail
    # straight flush (5) against both: 16 each. No special is declared at the table, so the scoop
    # bonus is players - 1 = 2: 18 each. Six scoops everyone: home run, 12 more from each: 30 + 30.
    # Bea v Cal: head A-Q-3 > Q-J-4, two pair > pair, full house > two pair: 3, scoop +2 = 5.
    assert scores(declined) == {"Six": 30 + 30, "Bea": -30 + 5, "Cal": -30 - 5}
    six = player_json(declined, "Six")
    assert six["special"] is None and six["declined_special"] == "six_pairs"
    # Declared, six pairs is paid 4 by each (Six 8); Bea v Cal 3 rows, no scoop bonus with a special at
    # the table: Bea -4 + 3 = -1, Cal -4 - 3 = -7.
    assert six["special_instead"] == 4 + 4
    declared = settled(round_of(SIX, BEA, CAL))
    assert scores(declared) == {"Six": 8, "Bea": -1, "Cal": -7}
    assert player_json(declared, "Six")["rows_instead"] == 60
    assert "rows_instead" not in player_json(declared, "Bea")


def test_declining_is_kept_in_the_round_json() -> None:
    data = round_of({**SIX, "special": False}, BEA)
    assert Round.from_json(data).to_json() == data
    assert "special" not in Round.from_json(round_of(SIX, BEA)).to_json()["players"][0]


# --------------------------------------------------------------- adjustments and negotiated results

def test_four_players_two_adjustments_added_last() -> None:
    data = round_of(POPULAR_A, POPULAR_B, POPULAR_C, POPULAR_D)
    data["adjustments"] = [{"from": "B", "to": "D", "points": 5, "note": "side bet"},
                           {"from": "A", "to": "C", "points": 2, "note": "left early (逃跑)"}]
    result = settled(data, "popular")
    # The rule book's round: A 1, B -13, C -6, D 18; then B pays D 5 and A pays C 2.
    assert scores(result) == {"A": 1 - 2, "B": -13 - 5, "C": -6 + 2, "D": 18 + 5}
    assert result.to_json()["adjustments"] == data["adjustments"]
    plain = settled(round_of(POPULAR_A, POPULAR_B, POPULAR_C, POPULAR_D), "popular")
    assert result.pairs == plain.pairs  # the pairs are untouched: adjustments come after them


def test_shisandao_negotiated_pair_is_not_compared() -> None:
    data = round_of(BANK, PAT, REX, banker="Bank")
    data["negotiated"] = {"Pat": 5}
    result = settled(data, "shisandao")
    # Pat's 三同花 (小拋 6) is not compared: Pat and the banker agreed that Pat receives 5.
    # Bank v Rex: A-Q-5 > K-Q-2 (1), flush > two pair (1), flush > straight (1): 3, a scoop doubles: 6.
    assert scores(result) == {"Bank": -5 + 6, "Pat": 5, "Rex": -6}
    pat = next(p for p in result.to_json()["pairs"] if p["b"] == "Pat")
    assert pat["negotiated"] is True and pat["settled_by"] == "negotiated" and pat["points"] == -5
    assert pat["rows"] == [0, 0, 0] and pat["special"] is None
    assert "rows_instead" not in player_json(result, "Pat")


# --------------------------------------------------------------- the two literal readings

def test_home_run_multiply_with_three_players(tmp_path: Path) -> None:
    rules = house(tmp_path, 'base = "classic"\n[home_run]\nmode = "multiply"\n')
    result = settle(Round.from_json(round_of(ANN, BOB, DAN)), load_ruleset(rules))
    # Ann scoops Bob (3 + 8 + 5 + scoop 2 = 18) and Dan (18); the home run multiplies her pair
    # results by players - 1 = 2: 36 each. Bob v Dan: Bob wins the head, Dan the middle and tail: -1.
    assert scores(result) == {"Ann": 36 + 36, "Bob": -36 - 1, "Dan": -36 + 1}
    ann_bob = next(p for p in result.pairs if (p.a, p.b) == ("Ann", "Bob"))
    assert ann_bob.home_run == "Ann" and ann_bob.home_run_points == 18
    # the preset (add): 18 + 12 each
    assert scores(settle(Round.from_json(round_of(ANN, BOB, DAN)), load_ruleset("classic")))["Ann"] == 60


def test_foul_paid_by_own_rows_under_shisandao(tmp_path: Path) -> None:
    fouler = player("Quo", "Ks Kc Kh | Ts Th 2s 3s 4c | Qs Qc 9s 9c 5s")  # trips K | pair T -> FOUL | two pair
    data = round_of(BANK, fouler, banker="Bank")
    # shisandao: the banker's rows priced at the banker's categories (high card, flush, flush: 1 + 1 + 1),
    # doubled: 6.
    assert scores(settled(data, "shisandao")) == {"Bank": 6, "Quo": -6}
    own = load_ruleset(house(tmp_path, 'base = "shisandao"\n[foul]\npoints_by = "own"\n'))
    # By Quo's own rows: head trips 3, middle pair 1, tail two pair 1 = 5, doubled: 10.
    result = settle(Round.from_json(data), own)
    assert scores(result) == {"Bank": 10, "Quo": -10}
    assert result.pairs[0].rows == (3, 1, 1) and result.pairs[0].foul_points == 5


def test_new_ruleset_keys_default_to_todays_behaviour() -> None:
    for name in PRESET_NAMES:
        rules = load_ruleset(name)
        assert rules.home_run.mode == "add" and rules.foul.points_by == "opponent"
    assert load_ruleset("fuzhou").scoop.banker_name == "全垒打"


def test_house_rules_with_changes_do_not_keep_the_base_description(tmp_path: Path) -> None:
    changed = load_ruleset(house(tmp_path, 'base = "popular"\n[scoop]\npoints = 4\n'))
    assert changed.description == "popular with house changes: scoop.points"
    same = load_ruleset(house(tmp_path, 'base = "popular"\n[scoop]\npoints = 3\n'))
    assert same.description == load_ruleset("popular").description
    own = load_ruleset(house(tmp_path, 'base = "popular"\ndescription = "ours"\n[scoop]\npoints = 4\n'))
    assert own.description == "ours"


# --------------------------------------------------------------- bad input: exit 2, the key named

@pytest.mark.parametrize(
    ("extra", "rules", "message"),
    [
        ({"adjustments": [{"from": "Zed", "to": "Ann", "points": 2}]}, "classic",
         "adjustments[0].from: 'Zed' is not one of the players"),
        ({"adjustments": [{"from": "Ann", "to": "Bob", "points": "two"}]}, "classic",
         "adjustments[0].points must be a whole number above 0, not 'two'"),
        ({"adjustments": [{"from": "Ann", "to": "Bob", "points": 0}]}, "classic", "adjustments[0].points"),
        ({"adjustments": [{"from": "Ann", "to": "Bob", "points": 1.5}]}, "classic", "adjustments[0].points"),
        ({"adjustments": [{"from": "Ann", "to": "Ann", "points": 1}]}, "classic", "adjustments[0]: \"from\""),
        ({"adjustments": [{"from": "Ann", "to": "Bob", "pts": 1}]}, "classic", "adjustments[0]: unknown key(s) pts"),
        ({"adjustments": {"from": "Ann"}}, "classic", "\"adjustments\" must be a list"),
        ({"negotiated": {"Bob": 3}}, "classic", "negotiated: ruleset classic is played pairwise"),
        ({"negotiated": {"Zed": 3}, "banker": "Ann"}, "shisandao", "negotiated: 'Zed' is not one of the players"),
        ({"negotiated": {"Bob": "x"}, "banker": "Ann"}, "shisandao", "negotiated.Bob must be a whole number"),
        ({"negotiated": {"Ann": 3}, "banker": "Ann"}, "shisandao", "negotiated: 'Ann' is the banker"),
    ],
)
def test_bad_choices_exit_2_naming_the_key(extra: dict[str, Any], rules: str, message: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(round_of(ANN, BOB) | extra), encoding="utf-8")
    assert main(["score", str(path), "--rules", rules]) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err and err.count("\n") == 1


def test_special_must_be_true_or_false() -> None:
    with pytest.raises(InputError, match='player Ann: "special" must be true'):
        Round.from_json(round_of({**ANN, "special": "no"}, BOB))


# --------------------------------------------------------------- zero-sum with adjustments

NAMES = ("North", "East", "South", "West")
RULES = {name: load_ruleset(name) for name in PRESET_NAMES}


@st.composite
def rounds_with_choices(draw: st.DrawFn) -> tuple[Round, str]:
    preset = draw(st.sampled_from(PRESET_NAMES))
    count = draw(st.integers(2, 4))
    deck = draw(st.permutations(range(52)))
    names = NAMES[:count]
    players = []
    for i, name in enumerate(names):
        cards = [DECK[j] for j in deck[13 * i: 13 * i + 13]]
        players.append(PlayerHand(name=name, rows=(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:])),
                                  declares_special=draw(st.booleans())))
    banker = draw(st.sampled_from(names)) if RULES[preset].mode == "banker" else None
    pair_of_names = st.permutations(names).map(lambda p: (p[0], p[1]))
    adjustments = tuple(Adjustment(source=a, target=b, points=n, note="")
                        for (a, b), n in draw(st.lists(st.tuples(pair_of_names, st.integers(1, 200)), max_size=5)))
    negotiated: tuple[tuple[str, int], ...] = ()
    if banker is not None:
        others = [n for n in names if n != banker]
        chosen = draw(st.lists(st.sampled_from(others), unique=True, max_size=len(others)))
        negotiated = tuple((n, draw(st.integers(-50, 50))) for n in chosen)
    return Round(players=tuple(players), banker=banker, adjustments=adjustments, negotiated=negotiated), preset


@settings(max_examples=120, deadline=None)
@given(rounds_with_choices())
def test_adjustments_and_negotiated_results_keep_zero_sum(case: tuple[Round, str]) -> None:
    round_, preset = case
    result = settle(round_, RULES[preset])
    assert result.total == 0
    plain = settle(Round(players=round_.players, banker=round_.banker, negotiated=round_.negotiated), RULES[preset])
    moved = {p.name: 0 for p in round_.players}
    for a in round_.adjustments:
        moved[a.source] -= a.points
        moved[a.target] += a.points
    # adjustments come on top of everything else, point for point
    assert {p.name: p.score for p in result.players} == {p.name: p.score + moved[p.name] for p in plain.players}
    for p in result.players:
        if p.instead is not None:  # the other choice's score is that of the round with the choice flipped
            flipped = tuple(replace(h, declares_special=not h.declares_special) if h.name == p.name else h
                            for h in round_.players)
            assert settle(replace(round_, players=flipped), RULES[preset]).score_of(p.name) == p.instead
