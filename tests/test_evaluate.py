"""Row ranking: categories, tie-breaks, the wheel, and a differential test against eval7."""

from __future__ import annotations

from itertools import combinations

import eval7
import numpy as np
import pytest

from referee import load_ruleset, parse_arrangement, parse_cards, rank3, rank3_batch, rank5, rank5_batch
from referee.cards import DECK
from referee.evaluate import Category, category_of
from referee.hand import analyse

RNG_SEED = 20261129


def cat5(text: str, wheel: str = "lowest") -> str:
    return category_of(rank5(parse_cards(text), wheel)).label  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Ah Kh Qh Jh Th", "straight_flush"),
        ("5d 4d 3d 2d Ad", "straight_flush"),
        ("9s 9h 9d 9c 2s", "four_of_a_kind"),
        ("9s 9h 9d 2c 2s", "full_house"),
        ("Ah 9h 7h 4h 2h", "flush"),
        ("Ah 2s 3c 4d 5h", "straight"),
        ("Ts Jd Qc Kh As", "straight"),
        ("Qs Kd Ac 2h 3s", "high_card"),  # no wrap-around straights
        ("7s 7h 7d Ac 2s", "three_of_a_kind"),
        ("7s 7h 2d 2c As", "two_pair"),
        ("7s 7h 2d 3c As", "pair"),
        ("7s 8h 2d 3c As", "high_card"),
    ],
)
def test_five_card_categories(text: str, category: str) -> None:
    assert cat5(text) == category


def test_three_card_head_has_no_straights_or_flushes() -> None:
    assert category_of(rank3(parse_cards("2h 3h 4h"))) is Category.HIGH_CARD
    assert category_of(rank3(parse_cards("Qh Qs 4h"))) is Category.PAIR
    assert category_of(rank3(parse_cards("Qh Qs Qd"))) is Category.THREE_OF_A_KIND


def test_wheel_second_or_lowest() -> None:
    wheel, king_high, six_high, broadway = (parse_cards(t) for t in (
        "Ah 2s 3c 4d 5h", "9h Ts Jc Qd Kh", "2h 3s 4c 5d 6h", "Th Js Qc Kd Ah"))
    # classic: A-2-3-4-5 is the second-highest straight
    assert rank5(broadway, "second") > rank5(wheel, "second") > rank5(king_high, "second")
    # other presets: the lowest
    assert rank5(wheel, "lowest") < rank5(six_high, "lowest")
    sf_wheel, sf_king = parse_cards("Ad 2d 3d 4d 5d"), parse_cards("9c Tc Jc Qc Kc")
    assert rank5(sf_wheel, "second") > rank5(sf_king, "second")
    assert rank5(sf_wheel, "lowest") < rank5(sf_king, "lowest")


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        ("9s 9h 9d 9c 2s", "8s 8h 8d 8c As"),  # quad rank first
        ("9s 9h 9d 9c 3s", "9s 9h 9d 9c 2s"),  # then kicker (same ranks, fictional)
        ("9s 9h 9d 2c 2s", "8s 8h 8d Ac As"),  # full house: trips rank first
        ("Ah 9h 7h 4h 3h", "Ad 9d 7d 4d 2d"),  # flush: high to low
        ("Ks Kh 3d 3c 2s", "Ks Kh 2d 2c As"),  # two pair: low pair before kicker
        ("Ks Kh Qd 3c 2s", "Ks Kh Jd Tc 9s"),  # pair: then kickers
        ("Ah Qs Jd 9c 8s", "Ah Qs Jd 9c 7s"),  # high card: down to the last card
    ],
)
def test_tie_breaks(stronger: str, weaker: str) -> None:
    assert rank5(parse_cards(stronger)) > rank5(parse_cards(weaker))


def test_suits_never_break_ties() -> None:
    assert rank5(parse_cards("Ah Kh 7d 4c 3s")) == rank5(parse_cards("As Kd 7h 4s 3c"))
    assert rank3(parse_cards("Ah Kh 7d")) == rank3(parse_cards("As Kd 7h"))


def test_all_five_card_hands_by_category() -> None:
    hands = np.array(list(combinations(range(52), 5)), dtype=np.int64)
    values = rank5_batch(hands)
    counts = np.bincount(values >> 20, minlength=9)
    expected = [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40]
    assert counts.tolist() == expected
    assert len(np.unique(values)) == 7462


def test_batch_matches_scalar() -> None:
    rng = np.random.default_rng(RNG_SEED)
    hands = np.array([rng.choice(52, 5, replace=False) for _ in range(2000)])
    for wheel in ("second", "lowest"):
        batch = rank5_batch(hands, wheel)
        scalar = [rank5([DECK[i] for i in h], wheel) for h in hands]
        assert batch.tolist() == scalar
    heads = hands[:, :3]
    assert rank3_batch(heads).tolist() == [rank3([DECK[i] for i in h]) for h in heads]


def _eval7_values(hands: np.ndarray) -> np.ndarray:
    deck = [eval7.Card(str(c)) for c in DECK]
    return np.array([eval7.evaluate([deck[i] for i in h]) for h in hands], dtype=np.int64)


@pytest.mark.parametrize("size", [5, 3])
def test_differential_against_eval7(size: int) -> None:
    """≥ 100,000 random pairs ordered the same way as eval7 (wheel lowest, as eval7 plays it)."""
    rng = np.random.default_rng(RNG_SEED + size)
    n = 100_000
    hands = np.argsort(rng.random((2 * n, 52)), axis=1)[:, :size]
    ours = rank5_batch(hands, "lowest") if size == 5 else rank3_batch(hands)
    theirs = _eval7_values(hands)
    a, b = slice(0, n), slice(n, 2 * n)
    ours_order = np.sign(ours[a] - ours[b])
    theirs_order = np.sign(theirs[a] - theirs[b])
    mismatches = np.flatnonzero(ours_order != theirs_order)
    assert mismatches.size == 0, [(hands[i].tolist(), hands[n + i].tolist()) for i in mismatches[:5]]


@pytest.mark.parametrize(
    ("rows", "fouled", "reason"),
    [
        ("2c 3d 5h | 6s 6h 8c 9d Tc | Js Jh Jd 4c 4d", False, None),
        ("Ah Ad 2c | Kh Kd 3c 4s 5s | 9s 9h 9d 7c 8c", True, "head (pair AA) beats middle (pair KK)"),
        ("2c 3d 5h | Js Jh Jd 4c 4d | 6s 6h 8c 9d Tc", True, "middle (full_house JJJ 44) beats tail (pair 66)"),
        # head and middle compared over the head's cards: Q Q 5 vs Q Q 5 x x -> equal, allowed
        ("Qs Qh 5d | Qc Qd 5s 3c 2d | As Ks 9s 7s 4s", False, None),
        # ... but the head's kicker above the middle's first kicker is a foul
        ("Qs Qh 6d | Qc Qd 5s 3c 2d | As Ks 9s 7s 4s", True, "head (pair QQ) beats middle (pair QQ)"),
        # high card: three top cards compared
        ("Ah Kd 9c | As Ks 9d 3c 2d | 5h 5d 7s 8s 4s", False, None),
        ("Ah Kd Tc | As Ks 9d 3c 2d | 5h 5d 7s 8s 4s", True, "head (high_card) beats middle (high_card)"),
    ],
)
def test_foul_check(rows: str, fouled: bool, reason: str | None) -> None:
    report = analyse(parse_arrangement(rows), load_ruleset("classic"))
    assert report.foul is fouled
    assert report.foul_reason == reason


def test_strict_order_makes_equal_rows_a_foul() -> None:
    rows = parse_arrangement("Qs Qh 5d | Qc Qd 5s 3c 2d | As Ks 9s 7s 4s")
    assert not analyse(rows, load_ruleset("popular")).foul
    reason = analyse(rows, load_ruleset("shisandao")).foul_reason
    assert reason is not None and "equals middle" in reason
