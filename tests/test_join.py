"""Joining classified corner indices into physical cards (vision.join), on hand-made geometry."""

from __future__ import annotations

import numpy as np

from vision.join import ALT_FLOOR, IndexHit, join_indices
from vision.tiles import outline_from_index
from vision.types import MIN_CONFIDENCE, Box

NAMES = ["Ac", "4c", "Kd", "5s", "zz_bg"]


def probs(**p: float) -> np.ndarray:
    v = np.zeros(len(NAMES), np.float32)
    for name, value in p.items():
        v[NAMES.index(name)] = value
    return v


def hit(box: Box, up: float = 0.0, det: float = 0.9, **p: float) -> IndexHit:
    v = probs(**p)
    best = NAMES[int(np.argmax(v))]
    return IndexHit(box=box, det_score=det, card=best, cls_prob=float(v.max()), glyph_up=up, probs=v)


def twin_box(box: Box) -> Box:
    """The box of the bottom-right index of the card whose top-left index is ``box`` (glyph up 0)."""
    o = outline_from_index(box, 0.0)
    cx, cy = sum(p[0] for p in o) / 4, sum(p[1] for p in o) / 4
    bx, by = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    mx, my = 2 * cx - bx, 2 * cy - by
    hw, hh = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2
    return (mx - hw, my - hh, mx + hw, my + hh)


TL: Box = (100.0, 100.0, 120.0, 140.0)


def test_the_two_corners_of_one_card_read_differently_become_the_reading_both_support() -> None:
    a = hit(TL, 0.0, Ac=0.6, **{"4c": 0.4})
    b = hit(twin_box(TL), 180.0, Ac=0.45, **{"4c": 0.55})
    cards = join_indices([a, b], NAMES)
    assert [str(c.card) for c in cards] == ["Ac"]  # best read Ac and 4c: their mean, 0.525 against 0.475
    assert len(cards[0].index_boxes) == 2
    assert cards[0].up_either_way  # both corners seen: the card may face either way


def test_two_corners_read_alike_make_their_card_surer_than_either() -> None:
    # Each corner leans 4c (0.67 and 0.51): together 0.67 x 0.51 against 0.26 x 0.10 for the Ac.
    a = hit(TL, 0.0, **{"4c": 0.67}, Ac=0.26)
    b = hit(twin_box(TL), 180.0, **{"4c": 0.51}, Ac=0.10)
    [card] = join_indices([a, b], NAMES)
    assert str(card.card) == "4c" and card.confidence > 0.9


def test_two_corners_read_as_different_cards_leave_their_card_unsure() -> None:
    # A real webcam's ace of clubs: one corner read Ac 0.70 / As 0.24, the other As 0.94 / Ac 0.02. Their product
    # would make it a sure As (0.24 x 0.94 against 0.70 x 0.02: 0.94); the mean of two witnesses who disagree
    # leaves it at 0.59, below the confidence floor, for the referee to ask about.
    a = hit(TL, 0.0, Ac=0.70, **{"5s": 0.24})
    b = hit(twin_box(TL), 180.0, **{"5s": 0.94}, Ac=0.02)
    [card] = join_indices([a, b], NAMES)
    assert str(card.card) == "5s" and len(card.index_boxes) == 2
    assert abs(card.confidence - (0.24 + 0.94) / (0.70 + 0.24 + 0.94 + 0.02)) < 1e-5
    assert card.confidence < MIN_CONFIDENCE
    assert {str(c): round(p, 3) for c, p in card.alternatives} == {"5s": 0.621, "Ac": 0.379}


def test_a_card_read_from_one_corner_faces_one_way() -> None:
    cards = join_indices([hit(TL, 90.0, Ac=0.9)], NAMES)
    assert cards[0].up == 90.0 and not cards[0].up_either_way


def test_corners_that_disagree_completely_stay_two_cards() -> None:
    a = hit(TL, 0.0, Ac=0.99, **{"4c": 0.01})
    b = hit(twin_box(TL), 180.0, Kd=0.99, Ac=0.01)
    assert sorted(str(c.card) for c in join_indices([a, b], NAMES)) == ["Ac", "Kd"]


def test_neighbouring_top_left_indices_of_an_overlapped_row_are_separate_cards() -> None:
    a = hit(TL, Ac=0.9)
    b = hit((TL[0] + 25, TL[1], TL[2] + 25, TL[3]), Kd=0.9)
    c = hit((TL[0] + 50, TL[1], TL[2] + 50, TL[3]), **{"5s": 0.9})
    assert [str(x.card) for x in sorted(join_indices([a, b, c], NAMES), key=lambda d: d.box[0])] == ["Ac", "Kd", "5s"]


def test_the_same_index_found_twice_is_one_card() -> None:
    a = hit(TL, Ac=0.9)
    b = hit((TL[0] + 2, TL[1] + 2, TL[2] + 2, TL[3] + 2), Ac=0.8)
    cards = join_indices([a, b], NAMES)
    assert len(cards) == 1 and len(cards[0].index_boxes) == 1


def test_a_twin_corner_the_outline_estimate_misplaces_still_joins_its_card() -> None:
    # at strong tilt the outline estimates are rough: the twin lies half a card height off where the top-left
    # index puts it, too far to pair, yet across the card from it and read the same: one card
    tx1, ty1, tx2, ty2 = twin_box(TL)
    shift = 0.5 * 6 * (TL[3] - TL[1])
    b = hit((tx1 + shift, ty1, tx2 + shift, ty2), 180.0, Ac=0.8)
    cards = join_indices([hit(TL, 0.0, Ac=0.9), b], NAMES)
    assert len(cards) == 1 and len(cards[0].index_boxes) == 2


def test_a_misplaced_twin_read_with_another_suit_joins_its_card() -> None:
    # the same misplaced twin, read 4c (0.67) with Ac its second reading (0.25): one card, and the two corners
    # together read it Ac (0.9 x 0.25 against 0.05 x 0.67), not a second, deck-boosted card of another identity
    tx1, ty1, tx2, ty2 = twin_box(TL)
    shift = 0.5 * 6 * (TL[3] - TL[1])
    b = hit((tx1 + shift, ty1, tx2 + shift, ty2), 180.0, Ac=0.25, **{"4c": 0.67})
    cards = join_indices([hit(TL, 0.0, Ac=0.9, **{"4c": 0.05}), b], NAMES)
    assert [str(c.card) for c in cards] == ["Ac"] and len(cards[0].index_boxes) == 2


def test_two_tight_rows_head_to_head_read_alike_are_two_cards() -> None:
    # a row of upright cards (top-left indices) under a row laid upside down whose indices face it: the index
    # just above, read 5s at 0.74 (4c 0.2), lies behind the 5s index, never across its card: two cards, and
    # the deck makes the weaker the 4c
    low = hit(TL, 0.0, **{"5s": 0.85})
    high = hit((TL[0] + 5, TL[1] - 70, TL[2] + 5, TL[3] - 70), 180.0, **{"5s": 0.74, "4c": 0.2})
    cards = sorted(join_indices([low, high], NAMES), key=lambda c: c.box[1])
    assert [str(c.card) for c in cards] == ["4c", "5s"]
    assert cards[0].confidence < 0.85   # a second choice: shown as unsure


def test_one_deck_gives_a_weak_duplicate_its_plausible_alternative() -> None:
    strong = hit(TL, det=0.95, **{"4c": 0.97})
    far = (900.0, 500.0, 920.0, 540.0)
    weak = hit(far, det=0.9, **{"4c": 0.6}, Ac=0.25)  # 0.15 reject
    cards = {str(c.card): c for c in join_indices([strong, weak], NAMES)}
    assert set(cards) == {"4c", "Ac"}
    assert cards["Ac"].box == far
    assert cards["Ac"].confidence < cards["4c"].confidence
    # from the alternative's probability as read: without 4c it is only 0.25 / (0.25 + 0.15) sure
    assert abs(cards["Ac"].confidence - 0.25) < 1e-6


def test_one_deck_trusts_a_second_choice_the_deck_makes_clear() -> None:
    # The same, with almost nothing left to the reject class: without 4c, Ac is 0.395 / 0.4 sure.
    strong = hit(TL, det=0.95, **{"4c": 0.97})
    weak = hit((900.0, 500.0, 920.0, 540.0), det=0.9, **{"4c": 0.6}, Ac=0.395)
    cards = {str(c.card): c for c in join_indices([strong, weak], NAMES)}
    assert abs(cards["Ac"].confidence - 0.395 / 0.4) < 1e-6


def test_one_deck_leaves_a_duplicate_without_a_plausible_alternative_for_the_referee() -> None:
    strong = hit(TL, **{"4c": 0.97})
    weak = hit((900.0, 500.0, 920.0, 540.0), **{"4c": 0.9}, Ac=ALT_FLOOR / 2)
    assert [str(c.card) for c in join_indices([strong, weak], NAMES)] == ["4c", "4c"]


def test_one_deck_never_takes_an_alternative_another_card_holds() -> None:
    a = hit(TL, **{"4c": 0.97})
    b = hit((400.0, 100.0, 420.0, 140.0), Ac=0.95)
    c = hit((900.0, 500.0, 920.0, 540.0), **{"4c": 0.6}, Ac=0.3)
    assert sorted(str(x.card) for x in join_indices([a, b, c], NAMES)) == ["4c", "4c", "Ac"]


def _at(x: float, y: float) -> Box:
    return (x, y, x + 20.0, y + 40.0)


def _claimed() -> list[IndexHit]:
    """Three cards read clearly, far apart: Ac, Kd and 5s are taken."""
    return [hit(_at(100, 100), Ac=0.95), hit(_at(500, 100), Kd=0.95), hit(_at(900, 100), **{"5s": 0.95})]


def test_an_unsure_index_is_read_by_elimination() -> None:
    # The reader hesitated between Ac, 4c and 5s (0.44 / 0.43 / 0.125; 0.005 reject), below the reading floor.
    # Ac and 5s are other cards': of the identities still free, 4c takes 0.43 / (0.43 + 0.005) = 0.99 of what is left.
    unsure = hit(_at(500, 700), Ac=0.44, **{"4c": 0.43, "5s": 0.125})
    cards = {str(c.card): c for c in join_indices([*_claimed(), unsure], NAMES)}
    assert sorted(cards) == ["4c", "5s", "Ac", "Kd"]
    assert cards["4c"].index_boxes == (unsure.box,)


def test_an_unsure_index_stays_out_while_the_deck_leaves_doubt() -> None:
    # Nobody holds Ac: it stays a 0.44 / 0.43 guess, no card.
    unsure = hit(_at(500, 700), Ac=0.44, **{"4c": 0.43, "5s": 0.125})
    others = [h for h in _claimed() if h.card != "Ac"]
    assert sorted(str(c.card) for c in join_indices([*others, unsure], NAMES)) == ["5s", "Kd"]


def test_an_unsure_index_the_reader_mostly_rejected_stays_out() -> None:
    # Half the probability went to the reject class (a pip, a chip): 4c gets 0.2 / (0.2 + 0.5).
    unsure = hit(_at(500, 700), Ac=0.3, **{"4c": 0.2})
    assert sorted(str(c.card) for c in join_indices([*_claimed(), unsure], NAMES)) == ["5s", "Ac", "Kd"]


def test_a_reading_is_surer_when_the_other_cards_hold_its_rivals() -> None:
    # 4c at 0.60, its rival Ac at 0.35 (0.05 reject). Alone on the table the card keeps that doubt;
    # beside a clear Ac it is 0.60 / (0.60 + 0.05) sure, and its confidence says so.
    unsure = hit(_at(500, 700), det=0.6, Ac=0.35, **{"4c": 0.60})
    alone = {str(c.card): c.confidence for c in join_indices([unsure], NAMES)}
    beside = {str(c.card): c.confidence for c in join_indices([hit(_at(100, 100), Ac=0.95), unsure], NAMES)}
    assert beside["4c"] > alone["4c"] + 0.05
    assert abs(beside["4c"] - 0.60 / 0.65) < 1e-6 and abs(alone["4c"] - 0.60) < 1e-6


def test_two_cards_read_crosswise_are_not_made_sure_by_each_other() -> None:
    # A real webcam's 4c/5s pair (the cardcounter 9c/9s kind): one index read 4c/5s at 0.47/0.47, the other
    # 5s at 0.78 with 4c at 0.2. Each identity taken as given, the other card would be sure (0.47 / 0.5 and
    # 0.78 / 0.8); but the two may as well be swapped, with odds 0.47 x 0.2 / (0.47 x 0.78) = 0.26: neither is sure.
    a = hit(_at(100, 100), **{"4c": 0.47, "5s": 0.47}, Kd=0.03)
    b = hit(_at(500, 100), **{"5s": 0.78, "4c": 0.2})
    cards = {str(c.card): c for c in join_indices([a, b], NAMES)}
    assert sorted(cards) == ["4c", "5s"]
    assert all(c.confidence < 0.85 for c in cards.values())
    odds = 0.47 * 0.2 / (0.47 * 0.78)
    b_card = next(c for c in cards.values() if c.box == b.box)
    assert abs(b_card.confidence - 1 / (0.8 / 0.78 + odds)) < 1e-5


def test_clear_reads_of_each_others_rivals_stay_sure() -> None:
    # The same two identities read clearly (0.97, with 0.02 of the other): the swap's odds are 4e-4.
    a = hit(_at(100, 100), **{"4c": 0.97, "5s": 0.02})
    b = hit(_at(500, 100), **{"5s": 0.97, "4c": 0.02})
    assert all(c.confidence > 0.97 for c in join_indices([a, b], NAMES))


def _strip(x: float, card: str, p_top: float, p_bottom: float) -> list[IndexHit]:
    """The right-hand strip of a covered card of a four-index deck, photographed upside down: its bottom-right index
    (glyph up 180) and above it its top-right one, which the readers read facing the same way (as real four-index
    decks' top-right indices were read on phone-held tables)."""
    bottom = (x - 10, 280.0, x + 10, 320.0)
    top = (x - 10, 146.0, x + 10, 186.0)   # (4.59 - 2 x 0.63) index heights above: the card's other short edge
    return [hit(bottom, 180.0, **{card: p_bottom}), hit(top, 180.0, **{card: p_top})]


def test_a_four_index_decks_corners_of_one_card_are_one_card_read_by_both() -> None:
    """Three covered cards each show two indices of their identity along one edge. Three such pairs on a photo: the
    deck has indices in all four corners, and each pair is one card whose outline the bottom-right index gives."""
    hits = _strip(300.0, "Ac", 0.7, 0.8) + _strip(500.0, "Kd", 0.75, 0.75) + _strip(700.0, "4c", 0.8, 0.7)
    cards = join_indices(hits, NAMES)
    assert sorted(str(c.card) for c in cards) == ["4c", "Ac", "Kd"]
    bottoms = {"Ac": hits[0].box, "Kd": hits[2].box, "4c": hits[4].box}
    for c in cards:
        assert c.index_boxes == (bottoms[str(c.card)],)
        assert c.confidence > 0.9   # two witnesses: surer than either corner alone
        assert not c.up_either_way


def test_identities_read_twice_beside_themselves_twice_are_not_a_four_index_deck() -> None:
    """Two such pairs are as often identities misread beside themselves in a two-index deck (a real webcam photo of a
    pile had two): they stay two reads each (one deck then reports the duplicates), as before."""
    hits = _strip(300.0, "Ac", 0.7, 0.8) + _strip(500.0, "Kd", 0.75, 0.75)
    cards = join_indices(hits, NAMES)
    assert sorted(str(c.card) for c in cards) == ["Ac", "Ac", "Kd", "Kd"]


def test_a_card_keeps_the_turn_measured_around_its_index() -> None:
    # the layout tells rows laid as fans by the cards' own turns (vision.rows); a turn not told stays unknown
    turned = IndexHit(box=TL, det_score=0.9, card="Ac", cls_prob=0.99, glyph_up=0.0, probs=probs(Ac=0.99), turn=7.5)
    plain = IndexHit(box=(300.0, 100.0, 320.0, 140.0), det_score=0.9, card="Kd", cls_prob=0.99, glyph_up=0.0,
                     probs=probs(Kd=0.99))
    cards = {str(c.card): c for c in join_indices([turned, plain], NAMES)}
    assert cards["Ac"].turn == 7.5 and cards["Kd"].turn is None


FOURS = ["4c", "4d", "4h", "4s", "Kd", "zz_bg"]


def _fours_read(box: Box, **p: float) -> IndexHit:
    v = np.zeros(len(FOURS), np.float32)
    for name, value in p.items():
        v[FOURS.index(name)] = value
    return IndexHit(box=box, det_score=0.7, card=FOURS[int(np.argmax(v))], cls_prob=float(v.max()), glyph_up=0.0,
                    probs=v)


def test_a_strip_whose_rank_is_clear_but_not_its_suit_is_an_unsure_card_of_that_rank() -> None:
    # A tight row's strip: the 4 plain, its suit a sliver (4c 0.40, 4s 0.35, 4d 0.15: the rank 0.9 probable).
    strip = _fours_read(_at(500, 700), **{"4c": 0.40, "4s": 0.35, "4d": 0.15, "Kd": 0.05})
    [card] = join_indices([strip], FOURS)
    assert str(card.card) == "4c"
    assert abs(card.confidence - 0.40) < 1e-6 and card.confidence < MIN_CONFIDENCE
    assert {str(c) for c, _ in card.alternatives} >= {"4c", "4s", "4d"}   # what the referee tries it as


def test_a_strip_of_no_clear_rank_stays_unread() -> None:
    # 4c 0.40, Kd 0.35: the reader does not know the rank either.
    assert join_indices([_fours_read(_at(500, 700), **{"4c": 0.40, "4s": 0.1, "Kd": 0.35})], FOURS) == []


def test_a_strip_takes_the_likeliest_free_identity_of_its_rank_without_the_deck_making_it_sure() -> None:
    # 4c is another card's: the strip is the 4s, still only 0.35 probable (not 0.35 / 0.6 of what is left).
    sure = _fours_read(_at(100, 100), **{"4c": 0.97})
    strip = _fours_read(_at(500, 700), **{"4c": 0.40, "4s": 0.35, "4d": 0.15, "Kd": 0.05})
    cards = {str(c.card): c for c in join_indices([sure, strip], FOURS)}
    assert set(cards) == {"4c", "4s"}
    assert abs(cards["4s"].confidence - 0.35) < 1e-6
    assert cards["4s"].index_boxes == (strip.box,)


def test_two_weak_corners_agreeing_on_a_rank_are_left_to_the_deck() -> None:
    # A tight row's strip shows one corner; two corners of one card each read weakly (a court's artwork, a pip pair on
    # a single-card photo read so) stay as they were: no card unless one deck makes it clear (by_elimination).
    p = {"4c": 0.40, "4s": 0.35, "4d": 0.15, "Kd": 0.05}
    a = _fours_read(TL, **p)
    b = _fours_read(twin_box(TL), **p)
    b = IndexHit(box=b.box, det_score=b.det_score, card=b.card, cls_prob=b.cls_prob, glyph_up=180.0, probs=b.probs)
    assert join_indices([a, b], FOURS) == []
