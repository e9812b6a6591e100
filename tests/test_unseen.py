"""Cards missing from a known row do not stop the round when the scores do not depend on them (vision.unseen)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_layout import CENTRES, HANDS, seat_cards, table
from test_unsure import RULES, photo, scores, unsure

from referee.cards import DECK, Card
from vision.layout import layout_table
from vision.pipeline import read_photo
from vision.thresholds import THRESHOLDS
from vision.types import CardDetection, Detections

FOUR = ["bottom", "right", "top", "left"]


def dealt(order: list[int], players: int, jitter: float = 3.0) -> list[CardDetection]:
    """The deck in ``order`` dealt to ``players`` seats, each hand laid in rows (3 + 5 + 5, as dealt); ``jitter``:
    degrees each seat's cards turn at random (0: laid exactly)."""
    deck = [str(c) for c in DECK]
    seats = FOUR[:players] if players != 3 else ["bottom", "left", "top"]
    cards: list[CardDetection] = []
    for k, seat in enumerate(seats):
        hand = [deck[i] for i in order[13 * k: 13 * k + 13]]
        rows = " | ".join(" ".join(r) for r in (hand[:3], hand[3:8], hand[8:]))
        cards += seat_cards(rows, seat, CENTRES[seat], jitter=jitter, rng=np.random.default_rng(order[0]))
    return cards


def without(cards: list[CardDetection], *names: str) -> list[CardDetection]:
    return [c for c in cards if str(c.card) not in names]


@pytest.mark.parametrize(("seat", "card", "row"), [
    ("bottom", "3d", "head"), ("right", "7s", "middle"), ("top", "As", "tail"), ("left", "8h", "tail"),
])
def test_with_four_players_the_card_not_seen_is_the_one_left_in_the_deck(seat: str, card: str, row: str) -> None:
    full = table(FOUR)
    cards = without(full, card)
    reading = photo(cards)
    assert scores(cards) == scores(full) is not None
    notes = [p for p in reading.problems if p.kind in ("card_count", "row_size")]
    assert [(p.seat, p.card, p.blocking) for p in notes] == [(seat, card, False)]
    assert notes[0].message == (f"{seat}: a card of the {row} is not seen; it must be {card}, "
                                "the one card of the deck not seen (check it)")
    shown = next(s for s in reading.layout.seats if s.seat == seat)
    assert shown.rows is not None and card in [str(c.card) for c in shown.rows[("head", "middle", "tail").index(row)]]
    assert shown.confidence == 0.0  # the seat shows a card that was not seen


def test_two_cards_not_seen_in_one_row_are_scored_whichever_is_where() -> None:
    full = table(FOUR)
    cards = without(full, "6s", "8c")  # both from bottom's middle: which is which does not matter
    reading = photo(cards)
    assert scores(cards) == scores(full)
    notes = [p for p in reading.problems if p.kind == "card_count"]
    assert len(notes) == 2 and not any(p.blocking for p in notes)
    assert "the cards not seen are 6s, 8c (every card is dealt)" in notes[0].message


def test_a_card_not_seen_that_could_change_the_score_blocks_and_names_its_row() -> None:
    # bottom's middle 6s 6h 8c _ Tc: a 6 would make three sixes and beat top's two pair
    reading = photo(without(table(["bottom", "top"]), "9d"))
    assert reading.settlement is None
    blocking = sorted((p.kind, p.seat) for p in reading.problems if p.blocking)
    assert blocking == [("card_count", "bottom"), ("row_size", "bottom")]
    assert "bottom: 12 cards found, a hand has 13 (the middle is 1 short)" in [p.message for p in reading.problems]
    # the JSON (and the app's editable rows) shows the rows as laid, for the user to add the card to
    bottom = next(s for s in reading.to_json()["seats"] if s["seat"] == "bottom")
    assert (bottom["shape"], bottom["head"], bottom["middle"]) == ("rows", ["2c", "3d", "5h"], ["6s", "6h", "8c", "Tc"])


def test_a_forced_reading_fills_what_the_scores_do_not_depend_on() -> None:
    # the app reads with force=True: a card not seen that changes nothing still completes its seat
    full = table(FOUR)
    detections = Detections(width=1000, height=1000, cards=tuple(without(full, "7s")))
    forced = read_photo(np.zeros((8, 8, 3), np.uint8), RULES, force=True, detector=lambda _image: detections)
    assert forced.settlement is not None and len(forced.settlement.players) == 4
    assert {p.name: p.score for p in forced.settlement.players} == scores(full)


def test_a_card_not_seen_that_changes_nothing_is_scored_whatever_it_is() -> None:
    full = table(["bottom", "top"])
    cards = without(full, "Kc")  # top's head Ah _ 3c beats bottom's 2c 3d 5h whatever the card is
    reading = photo(cards)
    assert scores(cards) == scores(full) is not None
    note = next(p for p in reading.problems if p.kind == "card_count")
    assert not note.blocking
    assert note.message.startswith("top: a card of the head is not seen; the scores are the same whichever of "
                                   "the 27 cards not seen it is (shown as ")


def test_rows_that_could_be_completed_two_ways_block() -> None:
    # bottom shows 3 + 5 + 3: the head may be the far row or the near one
    cards = without(table(["bottom", "top"]), "4c", "4d")
    laid = layout_table(cards)
    assert next(s for s in laid.seats if s.seat == "bottom").short_rows is None
    reading = photo(cards)
    assert reading.settlement is None
    assert "bottom: 11 cards found, a hand has 13" in [p.message for p in reading.problems if p.blocking]


def test_more_cards_missing_than_are_tried_block() -> None:
    full = table(FOUR)
    gone = ["3d", "7s", "As", "8h", "2h"][: THRESHOLDS.max_unseen + 1]
    reading = photo(without(full, *gone))
    assert reading.settlement is None
    assert {p.seat for p in reading.problems if p.kind == "card_count" and p.blocking} >= {"bottom", "right"}


def test_a_short_seat_knows_its_rows() -> None:
    laid = layout_table(without(table(["bottom", "top"]), "Jd"))
    bottom = next(s for s in laid.seats if s.seat == "bottom")
    assert bottom.rows is None and bottom.short_rows is not None
    assert [" ".join(str(c.card) for c in row) for row in bottom.short_rows] == ["2c 3d 5h", "6s 6h 8c 9d Tc",
                                                                               "Js Jh 4c 4d"]


def test_a_card_not_seen_and_an_unsure_card_are_tried_together() -> None:
    full = table(FOUR)
    # right's tail 5c 6c _ Jc Ac is missing the 7c, and bottom's 3d is read unsurely: the identities it may have
    # that no sure card holds are its own and the 7c, so each of the two is tried in each place
    cards = unsure(without(full, "7c"), "3d", ("3d", 0.6), ("8d", 0.3), ("7c", 0.1))
    reading = photo(cards)
    assert reading.settlement is None  # a 3d in right's tail would break its flush
    assert any(p.kind == "card_count" and p.blocking for p in reading.problems)
    # when the card held surely elsewhere (8d) is its only other reading, it is the 3d, and the gap the 7c
    cards = unsure(without(full, "7c"), "3d", ("3d", 0.6), ("8d", 0.4))
    assert scores(cards) == scores(full)


@settings(max_examples=150, deadline=None)
@given(st.permutations(range(52)), st.integers(2, 4), st.lists(st.integers(0, 51), min_size=1, max_size=3, unique=True))
def test_cards_not_seen_never_change_a_score(order: list[int], players: int, gone: list[int]) -> None:
    # any deal, laid in rows; take away 1 to 3 of the cards on the table: the reading is the full table's
    # settlement, or it is not scored (never another score)
    cards = dealt(order, players)
    full = scores(cards)
    assert full is not None
    missing = {str(cards[i % len(cards)].card) for i in gone}
    assert scores(without(cards, *missing)) in (None, full)


def test_when_the_cards_not_seen_matter_the_problem_names_them_if_few() -> None:
    # 4 players, right's 7s (middle) and top's As (tail) not seen: whichever is where changes the score
    reading = photo(without(table(FOUR), "7s", "As"))
    assert reading.settlement is None
    counts = {p.seat: p.message for p in reading.problems if p.kind == "card_count" and p.blocking}
    assert counts == {"right": "right: 12 cards found, a hand has 13 (the middle is 1 short); what is missing is among "
                               "7s, As",
                      "top": "top: 12 cards found, a hand has 13 (the tail is 1 short); what is missing is among "
                             "7s, As"}


def test_a_sure_card_that_may_be_the_card_not_seen_is_tried_in_its_place() -> None:
    # 4 players, right's 7s not seen. Top's As was read surely, but its reader also gave the 7s 5 %: if it is the
    # 7s, the gap is the As, and top's tail 7s Ad 9s 9h 9c (trips, not a full house) loses to right's flush
    full = table(FOUR)

    def read_as(p_7s: float) -> list[CardDetection]:
        return [replace(c, alternatives=((c.card, 0.9), (Card.parse("7s"), p_7s))) if str(c.card) == "As" else c
                for c in without(full, "7s")]

    assert scores(read_as(0.05)) is None
    assert scores(read_as(THRESHOLDS.may_be / 2)) == scores(full)  # the reader's floor: not a card it may be


def test_a_short_seat_whose_full_row_shows_a_hole_is_not_filled() -> None:
    # bottom's middle card Tc lies at the end of the tail and the tail's Jh is not seen: the count says the middle is
    # short, the hole in the tail says a card not seen lies there; which row the card not seen is in is not known
    bottom = without(seat_cards("2c 3d 5h | 6s 6h 8c 9d | Js Jh Jd 4c 4d Tc", "bottom", CENTRES["bottom"]), "Jh")
    cards = bottom + [c for s in FOUR[1:] for c in seat_cards(HANDS[s], s, CENTRES[s])]
    assert len(cards) == 51
    reading = photo(cards)
    assert reading.settlement is None
    blocking = sorted((p.kind, p.seat) for p in reading.problems if p.blocking)
    assert blocking == [("card_count", "bottom"), ("row_size", "bottom")]
    # laid as dealt, with the hole at the tail's end instead, the same card not seen is filled in
    full_tail = without(seat_cards("2c 3d 5h | 6s 6h 8c 9d | Jd 4c 4d Tc Jh", "bottom", CENTRES["bottom"]), "Jh")
    assert photo(full_tail + cards[len(bottom):]).settlement is not None


def test_a_turned_card_of_a_short_seat_does_not_decide_which_row_is_short() -> None:
    # a card read from one corner turned to its seat is placed by an outline estimate, which can be a row off: with
    # two rows short without it (its middle and the tail, a card not seen), its row is its estimate's word alone
    from vision.rows import short_rows, split_rows

    cards = [replace(c, index_boxes=((c.box[0], c.box[1], c.box[0] + 10, c.box[1] + 16),))
             for c in seat_cards(HANDS["bottom"], "bottom", CENTRES["bottom"])]
    read_up = {c.index_boxes[0]: (180.0 if str(c.card) == "8c" else c.up) for c in cards}

    def rows(missing: str) -> object:
        group = without(cards, missing)
        return short_rows(split_rows(group, 0.0), group, 0.0, read_up)

    assert rows("Js") is None          # without 8c: middle and tail short
    assert rows("9d") is not None      # without 8c: only the middle short, 8c's row is not in question

