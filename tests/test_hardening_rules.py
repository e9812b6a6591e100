"""Rules with no meaning are refused, naming the key; no score or total can overflow."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from referee.errors import InputError
from referee.round import Round
from referee.rule_bounds import MAX_MULTIPLIER, MAX_POINTS, max_round_score
from referee.ruleset import PRESET_NAMES, load_ruleset, ruleset_text
from referee.settle import settle
from referee.storage import Database


def house(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "house.toml"
    path.write_text('base = "classic"\n' + body, encoding="utf-8")
    return path


@pytest.mark.parametrize(("body", "says"), [
    ("[foul]\nmultiplier = -1\n", "foul.multiplier must be from 1 to 100, not -1"),
    ("[foul]\nmultiplier = 0\n", "foul.multiplier must be from 1"),
    ("[foul]\nmode = \"fixed\"\npoints = -3\n", "foul.points must be from 0 to 1,000, not -3"),
    ("[row_points.tail]\nflush = -2\n", "row_points.tail.flush must be from 0"),
    ("[scoop]\npoints = -1\n", "scoop.points must be from 0"),
    ("[scoop]\npoints_per_opponent = -1\n", "scoop.points_per_opponent must be from 0"),
    ("[scoop]\nmin_players = 0\n", "scoop.min_players must be from 2 to 4"),
    ("[home_run]\npoints = -19\n", "home_run.points must be from 0"),  # a fouled hand then *won* 19
    ("[home_run]\nmin_players = 9\n", "home_run.min_players must be from 2 to 4"),
    ("[foul]\nmultiplier = 100000000000000000\n", "foul.multiplier must be from 1 to 100, not 100,000,000,000,000,000"),
    ("[row_multiplier]\ntail = 101\n", "row_multiplier.tail must be from 1 to 100"),
    ("[row_points.middle]\nfull_house = 1001\n", "row_points.middle.full_house must be from 0 to 1,000"),
    ("[row_points.head]\nflush = 3\n", "row_points.head.flush: a head row is never a flush"),
    ("[row_points.head]\nstraight = 3\n", "a head row is never a straight"),
    ("[row_points.head]\nfull_house = 3\n", "a head row is never a full_house"),
    ("[row_points.head]\nfour_of_a_kind = 3\n", "a head row is never a four_of_a_kind"),
    ("[row_points.head]\nstraight_flush = 3\n", "a head row is never a straight_flush"),
    ("[row_points.head]\ntwo_pair = 3\n", "a head row is never a two_pair"),
    ("[special]\nhands = [{ key = \"dragon\", points = 5000 }]\n", "special.hands[0].points (dragon) must be from 0"),
    ("[special]\nhands = [{ key = \"dragon\", points = 5, tier = -1 }]\n", "special.hands[0].tier (dragon)"),
])
def test_meaningless_rules_are_refused_naming_the_key(tmp_path: Path, body: str, says: str) -> None:
    with pytest.raises(InputError, match=re.escape(says)):
        load_ruleset(house(tmp_path, body))


def test_every_preset_is_within_the_bounds() -> None:
    for name in PRESET_NAMES:
        load_ruleset(name)
        assert "base" not in ruleset_text(name)


def test_the_largest_score_fits_everywhere() -> None:
    # Under the bounds no player's score in a round reaches 10^9: sessions of millions of
    # rounds stay within 64-bit integers (SQLite, pandas) and JavaScript's exact integers.
    assert max_round_score() < 10**9
    assert max_round_score() * 10**6 < 2**63 and max_round_score() < 2**53


def test_the_largest_rules_give_a_score_within_the_bound(tmp_path: Path) -> None:
    # Everything at its largest: a foul against a straight flush tail and quads middle, 4 players.
    body = (f"[row_multiplier]\nhead = {MAX_MULTIPLIER}\nmiddle = {MAX_MULTIPLIER}\ntail = {MAX_MULTIPLIER}\n"
            f"[row_points.head]\nthree_of_a_kind = {MAX_POINTS}\n"
            f"[row_points.middle]\nfour_of_a_kind = {MAX_POINTS}\n"
            f"[row_points.tail]\nstraight_flush = {MAX_POINTS}\n"
            f"[foul]\nmultiplier = {MAX_MULTIPLIER}\n[home_run]\npoints = {MAX_POINTS}\n")
    rules = load_ruleset(house(tmp_path, body))
    winner = {"name": "Ann", "head": "Qs Qh Qd", "middle": "9h 9d 9c 9s Kd", "tail": "2s 3s 4s 5s 6s"}
    fouls = [{"name": n, "head": h, "middle": m, "tail": t} for n, h, m, t in [
        ("Bob", "Ah Ad Ac", "2h 3d 5c 7h 8d", "4h 6d Tc Jh Kc"),
        ("Cy", "As Kh Ks", "2c 3c 4d 6h 7c", "8h Th Js Qc 5d"),
    ]]  # three players: Ann against two fouled hands, every row at the largest points
    scored = settle(Round.from_json({"players": [winner, *fouls]}), rules)
    top = max(abs(p.score) for p in scored.players)
    assert top == 2 * 3 * MAX_POINTS * MAX_MULTIPLIER * MAX_MULTIPLIER
    assert top <= max_round_score()


def test_totals_are_exact_and_foreign_scores_are_damage(tmp_path: Path) -> None:
    db = Database(tmp_path / "r.sqlite3")
    sid = db.create_session(date="2026-12-01", place="", players=["Ann", "Bob"], ruleset="classic",
                            ruleset_toml=ruleset_text("classic"))
    top = max_round_score()
    settlement = {"players": [{"name": "Ann", "score": top}, {"name": "Bob", "score": -top}]}
    for _ in range(3):
        db.save_round(sid, hands={"players": []}, settlement=settlement, ruleset="classic",
                      ruleset_toml=ruleset_text("classic"))
    assert db.totals(sid) == {"Ann": 3 * top, "Bob": -3 * top}
    assert db.running_totals(sid)[-1] == {"round": 3, "Ann": 3 * top, "Bob": -3 * top}
    # A database written by something else, with scores past 2^62: read as damage (SQL's SUM
    # would overflow, the page's chart could not draw them), not added up.
    conn = sqlite3.connect(tmp_path / "r.sqlite3")
    with conn:
        conn.execute("UPDATE scores SET score = ? WHERE player = 'Ann'", (2**62,))
        conn.execute("UPDATE scores SET score = ? WHERE player = 'Bob'", (-(2**62),))
    conn.close()
    for read in (db.totals, db.rounds, db.running_totals):
        with pytest.raises(ValueError, match="beyond what any ruleset can give"):
            read(sid)


def test_a_score_no_ruleset_can_give_is_not_saved(tmp_path: Path) -> None:
    db = Database(tmp_path / "r.sqlite3")
    sid = db.create_session(date="2026-12-01", place="", players=["Ann", "Bob"], ruleset="classic",
                            ruleset_toml=ruleset_text("classic"))
    settlement = {"players": [{"name": "Ann", "score": 10**20}, {"name": "Bob", "score": -(10**20)}]}
    with pytest.raises(InputError, match="beyond what any ruleset can give"):
        db.save_round(sid, hands={"players": []}, settlement=settlement, ruleset="classic",
                      ruleset_toml=ruleset_text("classic"))
    assert db.rounds(sid) == []


@pytest.mark.parametrize("name", ["A\x00B", "\ud800", "bell\x07"])
def test_names_with_control_characters_are_refused_by_storage(tmp_path: Path, name: str) -> None:
    # PostgreSQL refuses NUL in text; SQLite would store it. Both now refuse it first, by name.
    db = Database(tmp_path / "r.sqlite3")
    with pytest.raises(InputError, match="which a name cannot have"):
        db.create_session(date="2026-12-01", place="", players=[name, "Bob"], ruleset="classic",
                          ruleset_toml=ruleset_text("classic"))
