"""The deck's own proportions: outlines of a deck with large indices, measured from its cards seen by both corners."""

from __future__ import annotations

import pytest

from referee.cards import Card
from vision.layout import layout_table
from vision.proportion import deck_factor, outline_of, size_factor, with_deck_proportions
from vision.tiles import CARD_GEOMETRY
from vision.types import Box, CardDetection

UNIT = 30.0  # index height in pixels
ROWS = "2c 3d 5h | 6s 6h 8c 9d Tc | Js Jh Jd 4c 4d"


def index_at(x: float, y: float) -> Box:
    return (x - 0.35 * UNIT, y - 0.5 * UNIT, x + 0.35 * UNIT, y + 0.5 * UNIT)


def read_card(name: str, tl: tuple[float, float], factor: float, corners: str) -> CardDetection:
    """An upright card of a deck ``factor`` times the mean card's size whose top-left corner lies at ``tl``, read by
    its top-left index, its bottom-right one or both (``corners``: "tl", "br", "both"), its outline estimated as
    ``vision.join`` estimates it (the mean card's proportions)."""
    g = CARD_GEOMETRY
    w, h = g["w"] * factor * UNIT, g["h"] * factor * UNIT
    top_left = index_at(tl[0] + g["cx"] * UNIT, tl[1] + g["cy"] * UNIT)
    bottom_right = index_at(tl[0] + w - g["cx"] * UNIT, tl[1] + h - g["cy"] * UNIT)
    boxes = {"tl": (top_left,), "br": (bottom_right,), "both": (top_left, bottom_right)}[corners]
    up = 180.0 if corners == "br" else 0.0
    card = CardDetection(card=Card.parse(name), confidence=0.99, box=boxes[0], index_boxes=boxes, up=up,
                         up_either_way=corners == "both")
    return CardDetection(card=card.card, confidence=0.99, box=card.box, index_boxes=boxes,
                         outline=outline_of(card, CARD_GEOMETRY), up=up, up_either_way=card.up_either_way)


def seat(factor: float, only_bottom_right: str = "Tc") -> list[CardDetection]:
    """Three rows apart, cards overlapped so that the next card leaves the index showing: each row's last card shows
    both corners, but ``only_bottom_right`` was read by its bottom-right index alone."""
    h = CARD_GEOMETRY["h"] * factor * UNIT
    out = []
    for k, row in enumerate(part.split() for part in ROWS.split("|")):
        for i, name in enumerate(row):
            corners = "both" if i == len(row) - 1 else "tl"
            corners = "br" if name == only_bottom_right else corners
            out.append(read_card(name, (300.0 + 1.3 * UNIT * i, 400.0 + 1.1 * h * k), factor, corners))
    return out


@pytest.mark.parametrize("factor", [0.55, 0.8, 1.0, 1.3])
def test_a_card_seen_by_both_corners_measures_its_deck(factor: float) -> None:
    card = read_card("As", (100.0, 100.0), factor, "both")
    assert size_factor(card) == pytest.approx(factor, rel=1e-6)
    assert size_factor(read_card("As", (100.0, 100.0), factor, "tl")) is None


def test_outlines_follow_the_deck_where_its_cards_are_not_the_mean_card() -> None:
    cards = seat(0.57)
    assert deck_factor(cards) == pytest.approx(0.57)
    ten = next(c for c in with_deck_proportions(cards) if str(c.card) == "Tc")
    truth = read_card("Tc", (300.0 + 1.3 * UNIT * 4, 400.0 + 1.1 * CARD_GEOMETRY["h"] * 0.57 * UNIT), 0.57, "tl")
    assert ten.outline is not None and truth.outline is not None
    far = ten.outline[2]  # the card read upside down: its far corner is its top-left
    assert abs(far[0] - truth.outline[0][0]) < 1e-6 and abs(far[1] - truth.outline[0][1]) < 1e-6
    # a deck of about the mean card's size is left as read
    usual = seat(1.1)
    assert with_deck_proportions(usual) == usual
    assert with_deck_proportions(cards[:3] + [c for c in cards if not c.up_either_way][:5]) == \
        cards[:3] + [c for c in cards if not c.up_either_way][:5]  # one card seen by both corners: not measured


def test_a_large_index_decks_card_read_by_its_far_corner_lies_in_its_row() -> None:
    cards = seat(0.57)
    as_read = layout_table(cards)  # one seat (the round's count of players is not checked here)
    # placed by the mean card, the 10 of clubs is anchored at the 9 of diamonds' place in its row
    assert [p.kind for p in as_read.problems if p.seat == "bottom"] == ["row_size"]
    laid = layout_table(with_deck_proportions(cards))
    assert not [p for p in laid.problems if p.seat is not None]
    (only,) = laid.seats
    assert only.rows is not None
    assert " | ".join(" ".join(str(c.card) for c in row) for row in only.rows) == ROWS
