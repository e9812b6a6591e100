"""Artwork read as cards is set aside by the table's scale (``vision.clutter.without_artwork``), and nothing else is."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_layout import HANDS, card_at, rows_of, table

from referee.cards import Card
from training.evaluate_real import lies_on
from training.realsets import CARDCOUNTER, cardcounter
from vision.clutter import without_artwork
from vision.detector import CardDetector
from vision.image_io import read_image
from vision.layout import layout_table
from vision.seats import card_size
from vision.types import CardDetection, Problem

SEATS = (["bottom", "top"], ["bottom", "left", "top"], ["bottom", "right", "top", "left"])
MIDDLE = (500.0, 500.0)  # the tables of test_layout lie in 1000 x 1000 px


def scaled(d: CardDetection, f: float) -> CardDetection:
    """The card ``f`` times its size about its own centre."""
    assert d.outline is not None
    cx, cy = d.center
    o = tuple((cx + (x - cx) * f, cy + (y - cy) * f) for x, y in d.outline)
    xs, ys = [p[0] for p in o], [p[1] for p in o]
    return replace(d, outline=o, box=(min(xs), min(ys), max(xs), max(ys)))  # type: ignore[arg-type]


def tilt(direction: float, ratio: float) -> tuple[float, float, float]:
    """A camera's tilt as the size factor's gradient: cards ``ratio`` times larger at the photo's near edge (toward
    ``direction``, degrees) than at its far edge, 1000 px apart."""
    a = math.radians(direction)
    return math.cos(a), math.sin(a), math.log(ratio) / 1000


def size_at(x: float, y: float, t: tuple[float, float, float]) -> float:
    ux, uy, g = t
    return math.exp(g * ((x - MIDDLE[0]) * ux + (y - MIDDLE[1]) * uy))


def tilted(cards: list[CardDetection], t: tuple[float, float, float], jitter: list[float]) -> list[CardDetection]:
    return [scaled(c, size_at(*c.center, t) * j) for c, j in zip(cards, jitter, strict=False)]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(SEATS), st.floats(0, 360), st.floats(1.0, 4.0),
       st.lists(st.floats(0.9, 1.1), min_size=52, max_size=52))
def test_no_card_of_a_hand_is_taken_for_artwork_however_the_camera_is_tilted(
        seats: list[str], direction: float, ratio: float, jitter: list[float]) -> None:
    # A camera tilted any way makes the far cards up to 4 times smaller than the near ones (beyond what the seats'
    # grouping itself takes), and each card's size as read errs by up to 10 %: every read is kept.
    cards = tilted(table(seats), tilt(direction, ratio), jitter)
    problems: list[Problem] = []
    assert without_artwork(cards, problems) == cards and not problems


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(SEATS), st.floats(0, 360), st.floats(1.0, 2.0),
       st.sampled_from([(110.0, 110.0), (890.0, 110.0), (110.0, 890.0), (890.0, 890.0)]), st.floats(0.2, 0.5),
       st.floats(-90, 90))
def test_a_card_backs_pictured_aces_beside_the_hands_are_set_aside(
        seats: list[str], direction: float, ratio: float, back: tuple[float, float], small: float, turn: float) -> None:
    # The deck's stack lies in a corner of the table, its back showing a fan of the four aces, each read surely:
    # at 0.2-0.5 of the size of a card lying there, they are set aside as artwork, and only they.
    t = tilt(direction, ratio)
    cards = tilted(table(seats), t, [1.0] * 52)
    f = small * size_at(*back, t)
    aces = [scaled(card_at(Card.parse(a), back[0] + f * 30 * (k - 1.5), back[1], turn + 12 * (k - 1.5),
                           confidence=0.97), f)
            for k, a in enumerate(("As", "Ah", "Ad", "Ac"))]
    problems: list[Problem] = []
    assert without_artwork(cards + aces, problems) == cards
    assert sorted(str(p.card) for p in problems) == ["Ac", "Ad", "Ah", "As"] and not any(p.blocking for p in problems)
    result = layout_table(cards + aces)
    assert not result.blocked
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {s: HANDS[s] for s in seats}


def squashed(d: CardDetection, f: float) -> CardDetection:
    """The card as a frame squashed ``f`` times along x stores it."""
    assert d.outline is not None
    o = tuple((x / f, y) for x, y in d.outline)
    xs, ys = [p[0] for p in o], [p[1] for p in o]
    return replace(d, outline=o, box=(min(xs), min(ys), max(xs), max(ys)),  # type: ignore[arg-type]
                   index_boxes=tuple((b[0] / f, b[1], b[2] / f, b[3]) for b in d.index_boxes))


def test_a_card_across_a_squashed_frame_measures_as_one_along_it() -> None:
    # A 16:9 webcam frame stored square squashes x 16:9 times: a card lying across the squash is stored 0.67 as long
    # as one lying along it. Measured as the photo was read (widened back), the two are one size.
    f = 16 / 9
    along = squashed(card_at(Card.parse("2c"), 300, 400, 0.0), f)
    across = squashed(card_at(Card.parse("8s"), 400, 400, 90.0), f)
    assert card_size(across, (f, 1.0)) == pytest.approx(card_size(along, (f, 1.0)))
    assert card_size(across) == pytest.approx(card_size(along) / 1.5)


needs_cardcounter = pytest.mark.skipif(not (CARDCOUNTER / "images").is_dir() or not CardDetector.available(),
                                       reason="shared/realcards/cardcounter is not beside the checkout")


@needs_cardcounter
def test_no_card_of_the_real_held_out_webcam_photos_is_taken_for_artwork() -> None:
    # The held-out cardcounter blocks (17 webcam frames stored as 640 x 640, read widened back): piles, rows and fans,
    # cards lying across the squash among cards along it. No read lying on a labelled index of its own card is set
    # aside.
    detector = CardDetector()
    for photo in cardcounter("test"):
        found = detector.detect(read_image(photo.path))
        cards = list(found.cards)
        kept = without_artwork(cards, [], found.widened)
        right = [c for c in cards if any(ix.card == str(c.card) and lies_on(b, ix.box)
                                         for ix in photo.indices for b in c.index_boxes)]
        assert all(c in kept for c in right), photo.path.name
