"""Every special-hand predicate of the RULES.md catalogue, with a hand that has it and one that just misses."""

from __future__ import annotations

import pytest

from referee import load_ruleset, parse_arrangement, parse_cards
from referee.hand import analyse
from referee.specials import PREDICATES

# key: (13 cards that qualify, 13 cards that just miss)
ON_CARDS = {
    "dragon_flush": ("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Ks"),
    "dragon": ("Ah 2s 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", "Ah 2s 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Qs"),
    "royals_all": ("Ah As Ad Kh Ks Kd Qh Qs Qd Jh Js Jd Jc", "Ah As Ad Kh Ks Kd Qh Qs Qd Jh Js Jd Tc"),
    "royals_12faces": ("Kh Ks Kd Kc Qh Qs Qd Qc Jh Js Jd Jc 2c", "Kh Ks Kd Kc Qh Qs Qd Qc Jh Js Jd Ac Ad"),
    "royals_12": ("Ah As Ad Kh Ks Kd Qh Qs Qd Jh Js Jd 2c", "Ah As Ad Kh Ks Kd Qh Qs Qd Jh Js 3d 2c"),
    "three_quads": ("2h 2s 2d 2c 5h 5s 5d 5c 9h 9s 9d 9c Kh", "2h 2s 2d 2c 5h 5s 5d 5c 9h 9s 9d Kc Kh"),
    "all_high_8": ("8h 9s Td Jc Qh Ks Ad 8c 9h Ts Jd Qc Kh", "7h 9s Td Jc Qh Ks Ad 8c 9h Ts Jd Qc Kh"),
    "all_low_8": ("2h 3s 4d 5c 6h 7s 8d 2c 3h 4s 5d 6c 7h", "2h 3s 4d 5c 6h 7s 8d 2c 3h 4s 5d 6c 9h"),
    "one_color": ("2h 3d 4h 5d 6h 7d 8h 9d Th Jd Qh Kd Ah", "2h 3d 4h 5d 6h 7d 8h 9d Th Jd Qh Kd As"),
    "one_color_but_one": ("2h 3d 4h 5d 6h 7d 8h 9d Th Jd Qh Kd As", "2h 3d 4h 5d 6h 7d 8h 9d Th Jd Qh Ks As"),
    "three_trips_and_quad": ("2h 2s 2d 3c 3h 3s 4d 4c 4h 5s 5d 5c 5h", "2h 2s 2d 3c 3h 3s 4d 4c 4h 5s 5d 5c 6h"),
    "four_trips": ("2h 2s 2d 3c 3h 3s 4d 4c 4h 5s 5d 5c 6h", "2h 2s 2d 3c 3h 3s 4d 4c 4h 5s 5d 6c 6h"),
    "five_pairs_trips": ("2h 2s 3d 3c 4h 4s 5d 5c 6h 6s 7d 7c 7h", "2h 2s 3d 3c 4h 4s 5d 5c 6h 6s 7d 7c 8h"),
    "six_pairs": ("2h 2s 3d 3c 4h 4s 5d 5c 6h 6s 7d 7c 8h", "2h 2s 3d 3c 4h 4s 5d 5c 6h 6s 7d 8c 9h"),
    "high_5_no_ace": ("5h 6s 7d 8c 9h Ts Jd Qc Kh 5s 6d 7c 8h", "5h 6s 7d 8c 9h Ts Jd Qc Kh 5s 6d 7c Ah"),
    "high_5_one_ace": ("5h 6s 7d 8c 9h Ts Jd Qc Kh 5s 6d 7c Ah", "5h 6s 7d 8c 9h Ts Jd Qc Kh 5s 6d Ac Ah"),
    "low_10_no_ace": ("2h 3s 4d 5c 6h 7s 8d 9c Th 2s 3d 4c 5h", "2h 3s 4d 5c 6h 7s 8d 9c Th 2s 3d 4c Jh"),
    "low_10_one_ace": ("2h 3s 4d 5c 6h 7s 8d 9c Th 2s 3d 4c Ah", "2h 3s 4d 5c 6h 7s 8d 9c Th 2s 3d Ac Ah"),
}


@pytest.mark.parametrize("key", sorted(ON_CARDS))
def test_card_predicates(key: str) -> None:
    has, misses = ON_CARDS[key]
    assert PREDICATES[key].test(parse_cards(has), None)
    assert not PREDICATES[key].test(parse_cards(misses), None)


def test_quad_counts_as_two_pairs_and_trips_do_not() -> None:
    quad_and_four_pairs = parse_cards("2h 2s 2d 2c 4h 4s 5d 5c 6h 6s 7d 7c 8h")
    assert PREDICATES["six_pairs"].test(quad_and_four_pairs, None)
    assert not PREDICATES["six_pairs"].test(parse_cards(ON_CARDS["five_pairs_trips"][0]), None)
    assert PREDICATES["six_pairs_or_five_pairs_trips"].test(parse_cards(ON_CARDS["five_pairs_trips"][0]), None)
    three_quads = parse_cards(ON_CARDS["three_quads"][0])
    assert not PREDICATES["six_pairs"].test(three_quads, None)
    assert not PREDICATES["four_trips"].test(parse_cards(ON_CARDS["three_trips_and_quad"][0]), None)


ON_ROWS = {
    "three_flushes": ("2h 5h 9h | 2s 4s 7s 9s Js | 3c 6c 8c Tc Qc", "2h 5h 9d | 2s 4s 7s 9s Js | 3c 6c 8c Tc Qc"),
    "three_straights": ("Ah 2c 3d | 4h 5s 6d 7c 8c | 9s Tc Jh Qd Kd", "Ah 2c 4d | 3h 5s 6d 7c 8c | 9s Tc Jh Qd Kd"),
    "three_straight_flushes": ("Qh Kh Ah | 2c 3c 4c 5c 6c | 9s Ts Js Qs Ks",
                               "Qh Kh Ad | 2c 3c 4c 5c 6c | 9s Ts Js Qs Ks"),
}


@pytest.mark.parametrize("key", sorted(ON_ROWS))
def test_arrangement_predicates_on_laid_rows(key: str) -> None:
    has, misses = (parse_arrangement(t) for t in ON_ROWS[key])
    assert PREDICATES[key].test([c for r in has for c in r], has)
    assert not PREDICATES[key].test([c for r in misses for c in r], misses)


def test_highest_special_only_no_stacking() -> None:
    # A dragon in one suit is also a dragon, one colour, three straight flushes...: only the top one counts.
    report = analyse(parse_arrangement("Ah 2h 3h | 4h 5h 6h 7h 8h | 9h Th Jh Qh Kh"), load_ruleset("classic"))
    assert report.special == "dragon_flush"
    assert report.missed_special is None


def test_fouled_rows_cannot_claim_an_arrangement_special_and_it_is_reported_missed() -> None:
    # Three flushes laid with the middle above the tail: fouled, so no 三同花 - but it was possible.
    rows = parse_arrangement("2h 5h 9h | 3c 6c 8c Tc Qc | 2s 4s 7s 9s Js")
    report = analyse(rows, load_ruleset("popular"))
    assert report.foul
    assert report.special is None
    assert report.missed_special == "three_flushes"


def test_missed_special_when_laid_as_normal_rows() -> None:
    # 3 hearts + 5 clubs + 5 spades laid mixed: not 三同花 as laid, but the cards could be.
    rows = parse_arrangement("2h 5h 2s | 3c 6c 8c Tc Qc | 9h 4s 7s 9s Js")
    report = analyse(rows, load_ruleset("popular"))
    assert report.special is None
    assert report.missed_special == "three_flushes"


def test_special_keys_of_each_preset_exist() -> None:
    for name in ("classic", "classic-regional", "popular", "fuzhou", "shisandao"):
        for hand in load_ruleset(name).special.hands:
            assert hand.key in PREDICATES
