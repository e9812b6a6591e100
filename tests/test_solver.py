"""The arrangement solver against a plain brute force, the referee's own foul and
special checks, and settle(); plus the ``referee solve`` / ``check --advise`` CLI.

The brute force is independent of the fast path: it walks every split with
itertools, ranks rows with the scalar rank3/rank5 (through per-hand tables keyed
by the positions' bitmask) and asks referee.hand.is_fouled about each split.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from itertools import combinations

import numpy as np
import pytest

from referee.cards import DECK, Card, parse_arrangement, parse_cards
from referee.errors import InputError
from referee.evaluate import rank3, rank5
from referee.hand import analyse, is_fouled, possible_special, row_values
from referee.round import PlayerHand, Round
from referee.ruleset import PRESET_NAMES, Ruleset, load_ruleset
from referee.settle import settle
from referee.solver import (
    analyse_splits,
    best_special,
    expected_points,
    pareto_front,
    solve,
    split_structure,
)
from referee.specials import Rows

FULL = (1 << 13) - 1
RANDOM_HANDS = 200


def _mask(positions: tuple[int, ...]) -> int:
    return sum(1 << p for p in positions)


@cache
def _all_splits() -> list[tuple[int, int, int]]:
    """(head, middle, tail) position bitmasks of every split, by itertools."""
    splits = []
    for head in combinations(range(13), 3):
        rest = [p for p in range(13) if p not in head]
        head_mask = _mask(head)
        for middle in combinations(rest, 5):
            middle_mask = _mask(middle)
            splits.append((head_mask, middle_mask, FULL ^ head_mask ^ middle_mask))
    assert len(splits) == 72072
    return splits


def _sorted_hand(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: c.index))


def brute_force(cards: tuple[Card, ...], rules: Ruleset) -> dict[tuple[int, int], tuple[int, int, int]]:
    """Every legal split as {(head mask, middle mask): row values}, positions into the
    hand sorted by card index."""
    hand = _sorted_hand(cards)
    wheel = rules.wheel
    v3 = {_mask(c): rank3([hand[p] for p in c]) for c in combinations(range(13), 3)}
    v5 = {_mask(c): rank5([hand[p] for p in c], wheel) for c in combinations(range(13), 5)}
    fouled: dict[tuple[int, int, int], bool] = {}
    legal = {}
    for head, middle, tail in _all_splits():
        values = (v3[head], v5[middle], v5[tail])
        bad = fouled.get(values)
        if bad is None:
            bad = fouled[values] = is_fouled(values, rules)
        if not bad:
            legal[(head, middle)] = values
    return legal


def fast_legal(cards: tuple[Card, ...], rules: Ruleset) -> set[tuple[int, int]]:
    s = split_structure()
    hand = analyse_splits(cards, rules)
    head_masks = (1 << s.heads).sum(axis=1)
    five_masks = (1 << s.fives).sum(axis=1)
    idx = np.flatnonzero(hand.legal)
    assert hand.valid_arrangements == len(idx)
    return set(zip(head_masks[s.split_head[idx]].tolist(), five_masks[s.split_middle[idx]].tolist(), strict=True))


def random_hands(seed: int, n: int) -> Iterator[tuple[Card, ...]]:
    rng = np.random.default_rng(seed)
    for _ in range(n):
        yield tuple(DECK[int(i)] for i in rng.choice(52, 13, replace=False))


# ------------------------------------------------------------------ structure


def test_split_structure_is_every_split_once() -> None:
    s = split_structure()
    assert s.heads.shape == (286, 3) and s.fives.shape == (1287, 5)
    head_masks = (1 << s.heads).sum(axis=1)[s.split_head]
    middle_masks = (1 << s.fives).sum(axis=1)[s.split_middle]
    tail_masks = (1 << s.fives).sum(axis=1)[s.split_tail]
    assert len(head_masks) == 72072
    assert np.all((head_masks | middle_masks | tail_masks) == FULL)
    assert np.all((head_masks & middle_masks) == 0) and np.all((middle_masks & tail_masks) == 0)
    assert len(set(zip(head_masks.tolist(), middle_masks.tolist(), strict=True))) == 72072


# ------------------------------------------------------------------ exact counting


@pytest.mark.parametrize("preset", ["classic", "popular"])
def test_counts_match_brute_force_on_random_hands(preset: str) -> None:
    rules = load_ruleset(preset)
    seed = {"classic": 3, "popular": 4}[preset]
    for cards in random_hands(seed, RANDOM_HANDS):
        expected = brute_force(cards, rules)
        assert fast_legal(cards, rules) == set(expected), cards


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_counts_match_brute_force_heavy(preset: str, request: pytest.FixtureRequest) -> None:
    """1,000 hands per preset (about 2 minutes each): run with ``pytest -m slow``."""
    if "slow" not in (request.config.option.markexpr or ""):
        pytest.skip("heavy differential run: select it with -m slow")
    rules = load_ruleset(preset)
    for cards in random_hands(100 + PRESET_NAMES.index(preset), 1000):
        assert fast_legal(cards, rules) == set(brute_force(cards, rules)), cards


def test_counts_match_brute_force_strict_order() -> None:
    rules = load_ruleset("shisandao")
    for cards in random_hands(5, 40):
        assert fast_legal(cards, rules) == set(brute_force(cards, rules)), cards


EDGE_HANDS = {
    # wheel A-2-3-4-5 against a 6-high straight: ordered differently by the two wheel modes
    "wheel": "Ah 2d 3c 4s 5h 2s 3h 4d 5c 6d 9c Kh Qd",
    "two_wheels": "Ah 2d 3c 4s 5h As 2h 3d 4c 5s 6h 7h 8h",
    # head AA-K against middle AA-K-x-x: equal over the head's cards (legal unless strict)
    "equal_head_middle": "Ah Ad Kc As Ac Kd 7s 2c 9h 9s 9d Jc Js",
    "equal_high_cards": "Ah Kd Qc As Kc Qd 7h 7d 5s 5c 3h 3d 8c",
    "trips_head": "7h 7d 7c 7s 9h 9d 9c 9s 2h 2d 2c Ah Kh",
    "three_flushes": "2h 5h 9h 2s 4s 7s 9s Js 3c 6c 8c Tc Qc",
    "three_straights": "Ah 2c 3d 4h 5s 6d 7c 8c 9s Tc Jh Qd Kd",
    "three_straight_flushes": "Qh Kh Ah 2c 3c 4c 5c 6c 9s Ts Js Qs Ks",
    "six_pairs": "2h 2s 3d 3c 4h 4s 5d 5c 6h 6s 7d 7c 8h",
    "dragon": "Ah 2s 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh",
    "quads": "2h 2s 2d 2c 5h 5s 5d 5c 9h 9s 9d 9c Kh",
    "one_suit_run": "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 2h",
}


@pytest.mark.parametrize("preset", ["classic", "popular", "shisandao"])
@pytest.mark.parametrize("name", sorted(EDGE_HANDS))
def test_counts_match_brute_force_on_edge_hands(name: str, preset: str) -> None:
    rules = load_ruleset(preset)
    cards = parse_cards(EDGE_HANDS[name])
    assert fast_legal(cards, rules) == set(brute_force(cards, rules))


def _split_of(rows: Rows) -> int:
    """The split index whose rows hold exactly these cards."""
    cards = tuple(c for row in rows for c in row)
    order = _sorted_hand(cards)
    position = {c: i for i, c in enumerate(order)}
    s = split_structure()
    head_mask = _mask(tuple(position[c] for c in rows[0]))
    middle_mask = _mask(tuple(position[c] for c in rows[1]))
    hits = np.flatnonzero(((1 << s.heads).sum(axis=1)[s.split_head] == head_mask)
                          & ((1 << s.fives).sum(axis=1)[s.split_middle] == middle_mask))
    assert len(hits) == 1
    return int(hits[0])


@pytest.mark.parametrize(("rows", "classic", "shisandao"), [
    ("Ah Ad Kc | As Ac Kd 7s 2c | 9h 9s 9d Jc Js", True, False),  # head equals middle over AA-K
    ("Ah Kd Qc | As Kc Qd 7h 5s | 7d 5c 3h 3d 8c", True, False),  # A-K-Q equals A-K-Q-7-5
    ("Ah Kd Jc | As Kc Qd 7h 5s | 7d 5c 3h 3d 8c", True, True),
    ("As Ac Kd | Ah Ad Kc 7s 2c | 9h 9s 9d Jc Js", True, False),
    ("Qh Kh Ah | 2c 3c 4c 5c 6c | 9s Ts Js Qs Ks", True, True),
    ("Ah Ad 2c | Kh Kd 3c 4s 5s | 9s 9h 9d 7c 8c", False, False),
])
def test_single_splits_agree_with_the_referee(rows: str, classic: bool, shisandao: bool) -> None:
    arrangement = parse_arrangement(rows)
    split = _split_of(arrangement)
    cards = tuple(c for row in arrangement for c in row)
    for preset, legal in (("classic", classic), ("shisandao", shisandao)):
        rules = load_ruleset(preset)
        hand = analyse_splits(cards, rules)
        assert bool(hand.legal[split]) is legal
        assert hand.split_values(split) == row_values(arrangement, rules.wheel)
        assert analyse(arrangement, rules).foul is not legal


@pytest.mark.parametrize(("rows", "classic", "popular"), [
    ("9c Kh Qd | Ah 2d 3c 4s 5h | 2s 3h 4d 5c 6d", False, True),  # the wheel is second-highest in classic
    ("9c Kh Qd | 2s 3h 4d 5c 6d | Ah 2d 3c 4s 5h", True, False),
])
def test_wheel_mode_decides_the_split(rows: str, classic: bool, popular: bool) -> None:
    arrangement = parse_arrangement(rows)
    split = _split_of(arrangement)
    cards = tuple(c for row in arrangement for c in row)
    assert bool(analyse_splits(cards, load_ruleset("classic")).legal[split]) is classic
    assert bool(analyse_splits(cards, load_ruleset("popular")).legal[split]) is popular


# ------------------------------------------------------------------ the Pareto front


def brute_front(legal: dict[tuple[int, int], tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    points = np.array(sorted(set(legal.values()), reverse=True), dtype=np.int64)
    front = []
    for p in points:
        dominated = np.any(np.all(points >= p, axis=1) & np.any(points > p, axis=1))
        if not dominated:
            front.append((int(p[0]), int(p[1]), int(p[2])))
    return sorted(front, key=lambda v: (v[2], v[1], v[0]), reverse=True)


@pytest.mark.parametrize("preset", ["classic", "popular", "shisandao"])
def test_pareto_front_matches_brute_force(preset: str) -> None:
    rules = load_ruleset(preset)
    hands = list(random_hands(11, 6)) + [parse_cards(EDGE_HANDS[n]) for n in ("wheel", "equal_high_cards")]
    for cards in hands:
        expected = brute_front(brute_force(cards, rules))
        hand = analyse_splits(cards, rules)
        front = pareto_front(hand)
        assert [hand.split_values(i) for i in front] == expected
        assert all(hand.legal[i] for i in front)
        peeled = pareto_front(hand, 5)
        assert [hand.split_values(i) for i in peeled] == expected[:5]


def test_strength_result_is_strongest_tail_first() -> None:
    result = solve("As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 7d", "classic", top=None)
    assert result.front_size == len(result.best)
    tails = [a.values[2] for a in result.best]
    assert tails == sorted(tails, reverse=True)
    assert result.best[0].categories == ("high_card", "full_house", "straight_flush")
    for arrangement in result.best:
        report = analyse(arrangement.rows, load_ruleset("classic"))
        assert not report.foul and report.values == arrangement.values
        assert 0.0 <= arrangement.value <= 3.0


# ------------------------------------------------------------------ specials


SPECIAL_HANDS = [
    *EDGE_HANDS.values(),
    "2h 5h 9h 2s 4s 7s 9s Js 3c 6c 8c Tc Qd",  # one card off three flushes
    "Ah 2h 3h 4h 5h 6h 7h 8h 9h Ts Js Qs Ks",  # three straight flushes? runs of 3/5/5 with A-2-3
    "2h 3h 4h 5h 6h 7s 8s 9s Ts Js Qd Kd Ad",
    "Qd Kd Ad 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc",
    "2h 2s 3d 3c 4h 4s 5d 5c 6h 6s 7d 7c 7h",
    "2h 2s 2d 3c 3h 3s 4d 4c 4h 5s 5d 5c 6h",
    "Ah As Ad Kh Ks Kd Qh Qs Qd Jh Js Jd Jc",
    "8h 9s Td Jc Qh Ks Ad 8c 9h Ts Jd Qc Kh",
    "2h 3d 4h 5d 6h 7d 8h 9d Th Jd Qh Kd Ah",
]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_special_matches_possible_special(preset: str) -> None:
    rules = load_ruleset(preset)
    hands = [parse_cards(h) for h in SPECIAL_HANDS] + list(random_hands(21, 15))
    found = set()
    for cards in hands:
        hand = analyse_splits(cards, rules)
        key, split = best_special(hand)
        assert key == possible_special(cards, rules), cards
        found.add(key)
        if split is not None:
            rows = hand.split_rows(split)
            report = analyse(rows, rules)
            assert not report.foul and report.special == key
    assert len(found) >= 3


def test_solve_reports_special_arrangement() -> None:
    result = solve("2h 5h 9h 2s 4s 7s 9s Js 3c 6c 8c Tc Qc", "classic")
    assert result.special == "three_flushes"
    assert result.special_arrangement is not None
    assert analyse(result.special_arrangement.rows, load_ruleset("classic")).special == "three_flushes"
    assert solve("Qh Kh Ah 2c 3c 4c 5c 6c 9s Ts Js Qs Ks", "popular").special == "three_straight_flushes"


# ------------------------------------------------------------------ expected points


def _random_rows(rng: np.random.Generator, cards: list[Card]) -> Rows:
    order = [cards[int(i)] for i in rng.permutation(13)]
    return (tuple(order[:3]), tuple(order[3:8]), tuple(order[8:]))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_table_score_matches_settle(preset: str) -> None:
    """The Monte Carlo's scorer is settle() without analyse(): same points on random tables."""
    from referee.solver import _seat, _table_score

    rules = load_ruleset(preset)
    rng = np.random.default_rng(7)
    specials = [parse_arrangement(r) for r in ("2h 5h 9h | 2s 4s 7s 9s Js | 3c 6c 8c Tc Qc",
                                               "2d 2s 3d | 3c 4h 4s 5d 5c | 6h 6s 7d 7c 8h")]
    for trial in range(60):
        players = int(rng.integers(2, 5))
        deck = [DECK[int(i)] for i in rng.permutation(52)]
        tables: list[Rows] = []
        for j in range(players):
            cards = deck[13 * j:13 * j + 13]
            if j == 0 or rng.random() < 0.5:
                hand = analyse_splits(tuple(cards), rules)
                legal = np.flatnonzero(hand.legal)
                tables.append(hand.split_rows(int(rng.choice(legal))) if len(legal) else _random_rows(rng, cards))
            else:
                tables.append(_random_rows(rng, cards))  # mostly fouled
        if trial % 10 == 0:
            tables[0] = specials[trial // 10 % 2]
            used = {c for c in (c for row in tables[0] for c in row)}
            tables = [tables[0]] + [t for t in tables[1:] if not used & {c for row in t for c in row}]
            if len(tables) < 2:
                continue
        banker = int(rng.integers(0, len(tables))) if rules.mode == "banker" else None
        names = [f"p{i}" for i in range(len(tables))]
        round_ = Round(players=tuple(PlayerHand(name=n, rows=r) for n, r in zip(names, tables, strict=True)),
                       banker=None if banker is None else names[banker])
        expected = settle(round_, rules).score_of("p0")
        seats = [_seat(r, row_values(r, rules.wheel), rules) for r in tables]
        assert _table_score(seats, rules, banker) == expected


def test_expected_objective_is_seeded_and_has_stderr() -> None:
    cards = "Ah Kd Qs 9c 8d 7h 6s 5c 4d 3h 3s Tc Jd"
    a = solve(cards, "popular", objective="expected", samples=30, seed=5, players=3, top=3)
    b = solve(cards, "popular", objective="expected", samples=30, seed=5, players=3, top=3)
    assert a == b
    assert a.best and all(x.stderr is not None and x.stderr >= 0 for x in a.best)
    values = [x.value for x in a.best]
    assert values == sorted(values, reverse=True)
    data = a.to_json()
    assert data["objective"] == "expected" and data["samples"] == 30 and data["seed"] == 5
    assert all("stderr" in x for x in data["best"])


def test_expected_points_are_whole_points_per_deal() -> None:
    cards = parse_cards("Ah Kd Qs 9c 8d 7h 6s 5c 4d 3h 3s Tc Jd")
    rows = analyse_splits(cards, load_ruleset("classic")).split_rows(pareto_front(
        analyse_splits(cards, load_ruleset("classic")), 1)[0])
    points = expected_points(cards, [rows], load_ruleset("classic"), samples=20, seed=1, players=2)
    assert points.shape == (1, 20)
    assert np.all(points == np.round(points))


def test_special_hand_expected_value_is_its_points() -> None:
    # six pairs under classic ("alone"): every opponent without a special pays 4
    result = solve("2h 2s 3d 3c 4h 4s 5d 5c 6h 6s Kd Kc Ah", "classic", objective="expected", samples=10,
                   players=2, top=1)
    assert result.special == "six_pairs"
    assert result.best[0].value == pytest.approx(4.0)


def test_banker_mode_expected() -> None:
    result = solve("Ah Kd Qs 9c 8d 7h 6s 5c 4d 3h 3s Tc Jd", "fuzhou", objective="expected", samples=10,
                   players=3, top=2, banker=True)
    assert len(result.best) == 2


# ------------------------------------------------------------------ input and CLI


@pytest.mark.parametrize("bad", [
    "As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c",  # 12 cards
    "As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 7d 8d",  # 14 cards
    "As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 3c",  # duplicate
    "As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c Xx",  # bad token
])
def test_bad_input_raises(bad: str) -> None:
    with pytest.raises(InputError):
        solve(bad)


def test_cli_solve_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    code = main(["solve", "As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 7d", "--json", "--top", "3", "--rules", "popular"])
    out = capsys.readouterr().out
    assert code == 0
    data = json.loads(out)
    assert {"valid_arrangements", "special", "best"} <= set(data)
    assert data["valid_arrangements"] == analyse_splits(
        parse_cards("As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 7d"), load_ruleset("popular")).valid_arrangements
    assert data["special"] is None and len(data["best"]) == 3
    for best in data["best"]:
        assert set(best) >= {"head", "middle", "tail", "categories", "value"}
        assert (len(best["head"]), len(best["middle"]), len(best["tail"])) == (3, 5, 5)
        assert isinstance(best["value"], float) and len(best["categories"]) == 3


def test_cli_solve_expected_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    code = main(["solve", "Ah Kd Qs 9c 8d 7h 6s 5c 4d 3h 3s Tc Jd", "--objective", "expected", "--samples", "8",
                 "--seed", "3", "--players", "2", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["objective"] == "expected" and data["seed"] == 3 and "stderr" in data["best"][0]
    assert main(["solve", "Ah Kd Qs 9c 8d 7h 6s 5c 4d 3h 3s Tc Jd"]) == 0
    assert "legal arrangements:" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["solve", "As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c"],
    ["solve", "As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 3c"],
    ["solve", "As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c Zz"],
    ["solve", "As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 7d", "--rules", "nosuch"],
    ["solve", "As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 7d", "--objective", "luck"],
    ["solve", "As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 7d", "--objective", "expected", "--players", "7"],
])
def test_cli_solve_bad_input_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("referee: error:") and err.count("\n") == 1


def test_advice_keeps_rows_that_are_already_best() -> None:
    from referee.solver import advise

    cards = "As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 7d"
    best = solve(cards, "popular", objective="expected", samples=20, seed=2, players=2, top=1).best[0]
    advice = advise(best.rows, "popular", samples=20, seed=2, players=2)
    assert advice.gain == 0 and advice.best.rows == best.rows
    assert advice.text().startswith("advice: the laid rows are as good as any found")


def test_cli_check_advise(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    rows = "Ah Ad 2c | Kh Kd 3c 4s 5s | 9s 9h 9d 7c 8c"
    assert main(["check", rows, "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["check", rows, "--json", "--advise"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in data.items() if k != "advice"} == plain
    advice = data["advice"]
    assert advice["gain"] > 0 and advice["expected_laid"] < 0  # the laid rows foul
    assert {"best", "gain", "gain_stderr", "expected_best", "expected_laid"} <= set(advice)
    best = advice["best"]
    assert not analyse(parse_arrangement(" | ".join(" ".join(best[r]) for r in ("head", "middle", "tail"))),
                       load_ruleset("classic")).foul
    assert main(["check", rows, "--advise"]) == 0
    assert "advice: play" in capsys.readouterr().out
