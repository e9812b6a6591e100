"""Table geometry on laid-out cards: seats, rows, and every problem it must report."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from referee import load_ruleset, parse_cards
from referee.cards import Card
from vision.layout import layout_table
from vision.pipeline import read_photo
from vision.types import CardDetection, Detections

W, H = 60.0, 90.0  # card size in pixels
UP = {"bottom": 0.0, "left": 90.0, "top": 180.0, "right": 270.0}  # facing of each seat's cards


def card_at(card: Card, cx: float, cy: float, up: float, confidence: float = 0.99) -> CardDetection:
    a = math.radians(up)
    ux, uy = math.sin(a), -math.cos(a)  # toward the card's top
    rx, ry = -uy, ux  # toward the card's right
    corners = []
    for sx, sy in ((-1, 1), (1, 1), (1, -1), (-1, -1)):  # TL, TR, BR, BL
        corners.append((cx + sx * rx * W / 2 + sy * ux * H / 2, cy + sx * ry * W / 2 + sy * uy * H / 2))
    xs = [p[0] for p in corners]
    ys = [p[1] for p in corners]
    return CardDetection(card=card, confidence=confidence, box=(min(xs), min(ys), max(xs), max(ys)),
                         outline=tuple(corners), up=up)  # type: ignore[arg-type]


def seat_cards(rows_text: str, seat: str, centre: tuple[float, float], overlap: float = 0.35,
               jitter: float = 0.0, rng: np.random.Generator | None = None, slant: float = 0.0,
               apart: float = 1.15) -> list[CardDetection]:
    """Three rows laid facing ``seat``'s player, head farthest, around ``centre``; ``slant``: each card lies that
    share of its step along the row nearer the player than the one before (the rows run atan(slant) off the cards' own
    direction); ``apart``: the rows' distance in card heights."""
    up = UP[seat] + (rng.normal(0, jitter) if rng is not None else 0.0)
    a = math.radians(up)
    ux, uy = math.sin(a), -math.cos(a)
    rx, ry = -uy, ux
    out = []
    for k, row in enumerate(part.split() for part in rows_text.split("|")):
        far = (1 - k) * H * apart
        for i, token in enumerate(row):
            along = (i - (len(row) - 1) / 2) * W * overlap
            near = far - slant * along
            out.append(card_at(Card.parse(token), centre[0] + along * rx + near * ux,
                               centre[1] + along * ry + near * uy, up))
    return out


HANDS = {
    "bottom": "2c 3d 5h | 6s 6h 8c 9d Tc | Js Jh Jd 4c 4d",
    "top": "Ah Kc 3c | 7h 7d Qc Qd 2d | As Ad 9s 9h 9c",
    "left": "4h 5d 6d | Th Td Ts 2s 3s | Kd Kh Ks 8d 8h",
    "right": "2h 3h 4s | 5s 7s 8s Qs Qh | 5c 6c 7c Jc Ac",
}
CENTRES = {"bottom": (500.0, 800.0), "top": (500.0, 200.0), "left": (160.0, 500.0), "right": (840.0, 500.0)}


def table(seats: list[str], **kw: float) -> list[CardDetection]:
    rng = np.random.default_rng(3)
    return [c for s in seats for c in seat_cards(HANDS[s], s, CENTRES[s], rng=rng, **kw)]  # type: ignore[arg-type]


def rows_of(layout_seat: object) -> list[str]:
    return [" ".join(str(c.card) for c in row) for row in layout_seat.rows]  # type: ignore[attr-defined]


@pytest.mark.parametrize("seats", [["bottom", "top"], ["bottom", "left", "top"], ["bottom", "right", "top", "left"]])
@pytest.mark.parametrize("overlap", [0.35, 1.1])
def test_seats_and_rows(seats: list[str], overlap: float) -> None:
    layout = table(seats, overlap=overlap, jitter=4.0)
    result = layout_table(layout)
    assert not result.problems
    assert sorted(s.seat for s in result.seats) == sorted(seats)
    for seat in result.seats:
        assert " | ".join(rows_of(seat)) == HANDS[seat.seat]


def test_whole_photo_rotated_90_degrees() -> None:
    dets = table(["bottom", "top"])
    rotated = []
    for d in dets:  # rotate the picture by 90° clockwise: (x, y) -> (1000 - y, x)
        assert d.outline is not None and d.up is not None
        outline = tuple((1000 - y, x) for x, y in d.outline)
        rotated.append(card_at(d.card, sum(p[0] for p in outline) / 4, sum(p[1] for p in outline) / 4, d.up + 90))
    result = layout_table(rotated)
    assert not result.problems
    assert sorted(s.seat for s in result.seats) == ["left", "right"]
    left = next(s for s in result.seats if s.seat == "left")
    assert " | ".join(rows_of(left)) == HANDS["bottom"]


def test_missing_card_is_reported_with_its_seat() -> None:
    dets = [d for d in table(["bottom", "top"]) if str(d.card) != "9d"]
    result = layout_table(dets)
    kinds = {(p.kind, p.seat) for p in result.problems}
    assert ("card_count", "bottom") in kinds
    assert any(p.kind == "row_size" and p.seat == "bottom" for p in result.problems)
    assert result.blocked


def test_card_seen_twice_low_confidence_and_stray_cards() -> None:
    dets = table(["bottom", "top"])
    dets.append(card_at(Card.parse("9d"), 950, 60, 0.0))  # a second 9d, far from every seat
    dets[0] = card_at(dets[0].card, *dets[0].center, 0.0, confidence=0.2)
    result = layout_table(dets)
    kinds = {p.kind: p for p in result.problems}
    assert kinds["duplicate_card"].card == "9d"
    assert kinds["low_confidence"].card == "2c"
    assert result.blocked


def in_a_circle(text: str) -> list[CardDetection]:
    """13 cards laid in a ring in front of the bottom player: no rows at all."""
    return [card_at(c, 500 + 190 * math.cos(2 * math.pi * i / 13), 720 + 170 * math.sin(2 * math.pi * i / 13), 0.0)
            for i, c in enumerate(parse_cards(text))]


def test_thirteen_cards_in_a_free_shape_with_a_special_are_scored() -> None:
    dets = in_a_circle("Ac 2c 3d 4h 5d 6s 7s 8c 9d Th Js Qh Kd") + seat_cards(HANDS["top"], "top", CENTRES["top"])
    layout = layout_table(dets)
    assert [p.kind for p in layout.problems] == ["no_rows"]
    reading = read_photo(np.zeros((1000, 1000, 3), np.uint8), load_ruleset("classic"),
                         detector=lambda img: Detections(width=1000, height=1000, cards=tuple(dets)))
    assert reading.settlement is not None
    assert {p.name: p.report.special for p in reading.settlement.players}["bottom"] == "dragon"
    assert reading.settlement.score_of("bottom") == 36


def test_free_shape_special_blocks_where_the_rows_are_compared_too() -> None:
    # fuzhou: a special is a bonus on top of the rows, so rows the photo does not show cannot be scored
    dets = in_a_circle("Ac 2c 3d 4h 5d 6s 7s 8c 9d Th Js Qh Kd") + seat_cards(HANDS["top"], "top", CENTRES["top"])
    detector = lambda img: Detections(width=1000, height=1000, cards=tuple(dets))
    image = np.zeros((1000, 1000, 3), np.uint8)
    reading = read_photo(image, load_ruleset("fuzhou"), banker="top", detector=detector)
    assert reading.settlement is None
    stop = [p for p in reading.problems if p.blocking]
    assert [(p.kind, p.seat) for p in stop] == [("no_rows", "bottom")]
    assert "under fuzhou a special is a bonus on top of the rows" in stop[0].message
    forced = read_photo(image, load_ruleset("fuzhou"), banker="top", detector=detector, force=True)
    assert forced.settlement is not None and forced.settlement.players[0].report.special == "dragon"


def test_free_shape_special_judged_on_the_rows_blocks() -> None:
    # three flushes (三同花) is judged on the rows as laid: cards in a ring show none, so they are not scored as
    # it (a hand laid in rows that the layout did not find would otherwise be given a special it may not show)
    dets = in_a_circle("2h 5h 8h 3s 6s 8s Js Ks 4c 7c Tc Jc 2c") + seat_cards(HANDS["top"], "top", CENTRES["top"])
    detector = lambda img: Detections(width=1000, height=1000, cards=tuple(dets))
    image = np.zeros((1000, 1000, 3), np.uint8)
    reading = read_photo(image, load_ruleset("classic"), detector=detector)
    assert reading.settlement is None
    stop = [p for p in reading.problems if p.blocking]
    assert [(p.kind, p.seat) for p in stop] == [("no_rows", "bottom")]
    assert "three_flushes is judged on the rows as laid: lay them in rows" in stop[0].message
    forced = read_photo(image, load_ruleset("classic"), detector=detector, force=True)
    assert forced.settlement is not None and forced.settlement.players[0].report.special == "three_flushes"


def test_free_shape_without_a_special_blocks_scoring() -> None:
    dets = in_a_circle("Ac 2c 3d 4h 5d 6s 7s 8c 9d Th Js Qh Qs") + seat_cards(HANDS["top"], "top", CENTRES["top"])
    reading = read_photo(np.zeros((1000, 1000, 3), np.uint8), load_ruleset("classic"),
                         detector=lambda img: Detections(width=1000, height=1000, cards=tuple(dets)))
    assert reading.settlement is None
    assert any(p.kind == "row_size" and p.seat == "bottom" and p.blocking for p in reading.problems)


def test_banker_mode_needs_a_banker_seat() -> None:
    dets = table(["bottom", "top"])
    det = lambda img: Detections(width=1000, height=1000, cards=tuple(dets))
    image = np.zeros((1000, 1000, 3), np.uint8)
    reading = read_photo(image, load_ruleset("fuzhou"), detector=det)
    assert reading.settlement is None and [p.kind for p in reading.problems] == ["banker"]
    reading = read_photo(image, load_ruleset("fuzhou"), banker="top", detector=det)
    assert reading.settlement is not None and reading.settlement.total == 0


def upside_down(d: CardDetection) -> CardDetection:
    """The same card as read from its bottom-right index: facing and corners turned half round."""
    assert d.outline is not None and d.up is not None
    o = d.outline
    return CardDetection(card=d.card, confidence=d.confidence, box=d.box, outline=(o[2], o[3], o[0], o[1]),
                         up=(d.up + 180) % 360)


def test_a_card_read_from_its_bottom_right_index_joins_its_seat_and_row() -> None:
    dets = table(["bottom", "top"])
    # bottom's middle-row 9d: only its bottom-right index was read
    result = layout_table([upside_down(d) if str(d.card) == "9d" else d for d in dets])
    assert not result.problems
    bottom = next(s for s in result.seats if s.seat == "bottom")
    assert " | ".join(rows_of(bottom)) == HANDS["bottom"]


def test_a_row_read_from_its_bottom_right_indices_stays_in_its_seat() -> None:
    # bottom's tail spread out: all five cards read from their bottom-right corners (enough
    # cards facing "the other way" to look like a player of their own)
    tail = HANDS["bottom"].split("|")[2].split()
    result = layout_table([upside_down(d) if str(d.card) in tail else d for d in table(["bottom", "top", "left"])])
    assert not result.problems
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {
        "bottom": HANDS["bottom"], "top": HANDS["top"], "left": HANDS["left"]}


def test_a_row_read_from_its_bottom_right_indices_next_to_the_other_player_returns_to_its_seat() -> None:
    # Two players sitting close: bottom's far row (its head, laid right to left: each card read from its
    # bottom-right index) lies within reach of top's near row, and faces the way top's cards face. It is past
    # the table's middle on bottom's side, so it goes back to bottom.
    head = HANDS["bottom"].split("|")[0].split()
    dets = seat_cards(HANDS["top"], "top", (500.0, 330.0)) + [
        upside_down(d) if str(d.card) in head else d for d in seat_cards(HANDS["bottom"], "bottom", (500.0, 670.0))]
    result = layout_table(dets)
    assert not result.blocked
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}


def test_a_seat_read_upside_down_keeps_its_place() -> None:
    # Every card of the top player read from the wrong end (an index turned half round looks alike):
    # the seat must still be "top", not swapped with the bottom player.
    top = HANDS["top"].split()
    result = layout_table([upside_down(d) if str(d.card) in top else d for d in table(["bottom", "top"])])
    assert not result.problems
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}


def either_way(d: CardDetection, flip: bool) -> CardDetection:
    """A card that showed both corners: its facing may have been read from either one."""
    return replace(upside_down(d) if flip else d, up_either_way=True)


def test_cards_showing_both_corners_face_the_middle_of_the_table() -> None:
    # Rows spread out: every card of the top player shows both corners, and about half were
    # read from the bottom-right one (facing the bottom player). Next to the bottom player's
    # overlapped (one-corner) cards they must still make the top player's hand.
    bottom = seat_cards(HANDS["bottom"], "bottom", CENTRES["bottom"])
    near = (CENTRES["bottom"][0], CENTRES["bottom"][1] - 3.7 * H)  # head rows a card height apart
    top = seat_cards(HANDS["top"], "top", near, overlap=1.1)
    mixed = bottom + [either_way(d, flip=i % 2 == 0) for i, d in enumerate(top)]
    result = layout_table(mixed)
    assert not result.problems
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}


def _seen_from_afar(cards: list[CardDetection], centre: tuple[float, float], f: float) -> list[CardDetection]:
    """The cards as a tilted camera sees a far seat: shrunk by ``f`` around ``centre``."""
    cx, cy = centre
    out = []
    for d in cards:
        assert d.outline is not None
        o = tuple((cx + (x - cx) * f, cy + (y - cy) * f) for x, y in d.outline)
        xs, ys = [p[0] for p in o], [p[1] for p in o]
        out.append(replace(d, outline=o, box=(min(xs), min(ys), max(xs), max(ys))))  # type: ignore[arg-type]
    return out


def test_a_two_corner_card_read_the_wrong_way_goes_back_to_its_player() -> None:
    # A tilted photo: the far (top) hand is small, the near (bottom) hand spread out, so the average
    # of all cards' centres lies below the bottom player's head row. The head's right card showed both
    # corners and was read from its bottom-right one (facing the top player): toward that "middle" it
    # went to the top player (14 cards against 12). It lies nearer the bottom player's cards: it is theirs.
    bottom = seat_cards(HANDS["bottom"], "bottom", CENTRES["bottom"], overlap=1.1)
    bottom = [either_way(c, flip=i == 2) if i < 8 else c for i, c in enumerate(bottom)]
    far = (CENTRES["bottom"][0], CENTRES["bottom"][1] - 250.0)
    top = _seen_from_afar(seat_cards(HANDS["top"], "top", far), far, 0.45)
    result = layout_table(bottom + top)
    assert not result.problems
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}


def _slanted_photo(overlap: float) -> tuple[list[CardDetection], list[CardDetection]]:
    """The bottom and top hands on a photo taken at a slant: the near (bottom) hand, its rows overlapped by
    ``overlap``, drawn twice its size, the far (top) one 0.45 of it."""
    bottom = _seen_from_afar(seat_cards(HANDS["bottom"], "bottom", CENTRES["bottom"], overlap=overlap),
                             CENTRES["bottom"], 2.0)
    far = (CENTRES["bottom"][0], CENTRES["bottom"][1] - 380.0)
    return bottom, _seen_from_afar(seat_cards(HANDS["top"], "top", far), far, 0.45)


def test_a_near_hand_spread_out_in_a_slanted_photo_faces_the_middle_of_the_table() -> None:
    # A photo taken at a slant draws the near (bottom) hand large and the far one small, so the plain
    # mean of all cards lies inside the near hand, past its head row. Every near card showed both
    # corners, half read from the bottom-right one: the head row's cards must still face the far
    # player, toward the table's middle, which a card's size in the photo places (its depth).
    bottom, top = _slanted_photo(overlap=1.1)
    bottom = [replace(either_way(c, flip=i % 2 == 0), box=c.box) for i, c in enumerate(bottom)]
    result = layout_table(bottom + top)
    assert not result.problems
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}


def test_cards_read_the_wrong_way_round_go_to_the_player_of_their_size() -> None:
    # The same slanted photo, rows overlapped: the far player's nearest card (its tail's first) was read from
    # its bottom-right index, so it seems to face the near player and lies beside their head row; the near
    # player's head card was read so too, and seems to face the far player. Each seat then holds 13 cards,
    # one of them the other's. A card far smaller (or larger) than the cards around it is not theirs: it goes
    # to the seat whose cards are its size, and that seat gives back the card it faces once turned.
    bottom, top = _slanted_photo(overlap=0.35)
    bottom[0] = upside_down(bottom[0])  # 2c, the head's first card
    top[8] = upside_down(top[8])  # As, the first card of the tail, the row nearest the bottom player
    result = layout_table(bottom + top)
    assert not result.problems
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}


def _top_left_index(d: CardDetection) -> tuple[float, float, float, float]:
    """The top-left index box of a bottom-seat card (facing 0 degrees) whose outline is exact: where the
    mean card geometry puts it."""
    from vision.tiles import CARD_GEOMETRY

    assert d.outline is not None and d.up == 0.0
    (ox, oy), unit = d.outline[0], H / CARD_GEOMETRY["h"]
    cx, cy = ox + CARD_GEOMETRY["cx"] * unit, oy + CARD_GEOMETRY["cy"] * unit
    return (cx - unit / 3, cy - unit / 2, cx + unit / 3, cy + unit / 2)


def test_a_card_seen_by_both_corners_stays_in_its_row() -> None:
    # The last tail card shows both corners; its outline, averaged from the two index estimates,
    # sits 0.9 card heights too far up (a deck whose index-to-card proportions differ from the
    # average: each estimate is off, the other way round). Its neighbours, seen by the top-left
    # index only, are off by the same amount as that index's own estimate. Anchored by that
    # index, the card stays in the tail row instead of falling between middle and tail.
    from vision.tiles import outline_from_index

    cards = seat_cards(HANDS["bottom"], "bottom", CENTRES["bottom"])
    last = cards[-1]
    assert last.outline is not None
    top_left = _top_left_index(last)
    assert math.dist(outline_from_index(top_left, 0.0)[0], last.outline[0]) < 1e-6
    far = tuple((x, y - 0.9 * H) for x, y in last.outline)
    cards[-1] = replace(last, outline=far, index_boxes=(top_left, (0.0, 0.0, 1.0, 1.0)), up_either_way=True)  # type: ignore[arg-type]
    result = layout_table(cards + seat_cards(HANDS["top"], "top", CENTRES["top"]))
    assert not result.problems
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}


def test_a_one_corner_card_read_from_its_far_corner_goes_back_to_its_player() -> None:
    # The same tilted table, the bottom player's right head card read from its bottom-right index only
    # (a lone index looks the same turned half round): it seems to face the top player and joins them.
    bottom = seat_cards(HANDS["bottom"], "bottom", CENTRES["bottom"], overlap=1.1)
    bottom[2] = upside_down(bottom[2])
    far = (CENTRES["bottom"][0], CENTRES["bottom"][1] - 250.0)
    top = _seen_from_afar(seat_cards(HANDS["top"], "top", far), far, 0.45)
    result = layout_table(bottom + top)
    assert not result.problems
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}


def _one_corner(d: CardDetection) -> CardDetection:
    """A bottom-seat card (facing 0 degrees) as read from its top-left index alone: one index box,
    the outline estimated from it."""
    from vision.tiles import outline_from_index

    box = _top_left_index(d)
    return replace(d, index_boxes=(box,), outline=outline_from_index(box, 0.0))


@pytest.mark.parametrize("off", [90.0, 270.0])
def test_an_index_read_a_quarter_turn_off_keeps_its_row(off: float) -> None:
    # A card lying near 45 degrees reads almost as well in two quarter turns of its index; read one
    # turn off, its outline (estimated from the index) points sideways and its row is lost. Its
    # seat's facing settles the turn: the middle row's 8c takes the turn of its neighbours.
    from vision.tiles import outline_from_index

    bottom = [_one_corner(d) for d in seat_cards(HANDS["bottom"], "bottom", CENTRES["bottom"])]
    i = next(k for k, d in enumerate(bottom) if str(d.card) == "8c")
    box = bottom[i].index_boxes[0]
    bottom[i] = replace(bottom[i], up=off, outline=outline_from_index(box, off))
    result = layout_table(bottom + seat_cards(HANDS["top"], "top", CENTRES["top"]))
    assert not result.problems
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}
    seat = next(s for s in result.seats if s.seat == "bottom")
    turned = next(c for row in seat.rows for c in row if str(c.card) == "8c")  # type: ignore[union-attr]
    assert turned.up == 0.0 and turned.outline is not None
    assert math.dist(turned.outline[2], bottom[i].index_boxes[0][:2]) > H / 2, "the outline now runs down the card"


@pytest.mark.parametrize("off", [90.0, 270.0])
def test_a_two_corner_card_read_a_quarter_turn_off_keeps_its_row(off: float) -> None:
    # The head row's first card shows both corners, and both were read a quarter turn off (its
    # outline, estimated at that turn, lies across the middle row). The seat's facing settles the
    # turn, and its top-left index (the one toward the seat's facing) anchors it in the head row.
    from vision.tiles import outline_from_index

    bottom = [_one_corner(d) for d in seat_cards(HANDS["bottom"], "bottom", CENTRES["bottom"])]
    first = bottom[0]
    tl = first.index_boxes[0]
    cx, cy = first.center
    br = (2 * cx - tl[2], 2 * cy - tl[3], 2 * cx - tl[0], 2 * cy - tl[1])  # the same index, half round
    wrong_top = tl if off == 270.0 else br  # the index that would be the top-left at that turn
    bottom[0] = replace(first, index_boxes=(tl, br), up=off, up_either_way=True,
                        outline=outline_from_index(wrong_top, off))
    result = layout_table(bottom + seat_cards(HANDS["top"], "top", CENTRES["top"]))
    assert not [p for p in result.problems if p.blocking]
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}


def test_an_identity_read_twice_at_one_turn_is_anchored_where_its_row_is() -> None:
    # The tail's first card (Js) is read from its index, and a pip of the middle row's card in front of
    # it was misread as Js too, at the same turn: the two reads join as one card (two indices facing
    # the same way are not one card's two corners), the misread first. Anchored at the misread, the
    # card would fall into the middle row; the rows decide which of the two is its corner.
    from vision.tiles import outline_from_index

    bottom = [_one_corner(d) for d in seat_cards(HANDS["bottom"], "bottom", CENTRES["bottom"])]
    i = next(k for k, d in enumerate(bottom) if str(d.card) == "Js")
    true_box = bottom[i].index_boxes[0]
    phantom = (true_box[0] + 0.2 * W, true_box[1] - 1.1 * H, true_box[2] + 0.2 * W, true_box[3] - 1.1 * H)
    bottom[i] = replace(bottom[i], index_boxes=(phantom, true_box), outline=outline_from_index(phantom, 0.0))
    result = layout_table(bottom + seat_cards(HANDS["top"], "top", CENTRES["top"]))
    assert not [p for p in result.problems if p.blocking]
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}


def in_a_fan(text: str) -> list[CardDetection]:
    """13 cards fanned through a quarter turn in front of the right player, each read from one index:
    an index reads in quarter turns only, so nine cards seem to face left (the right player's way)
    and the last four up (the top player's way)."""
    out = []
    for i, c in enumerate(parse_cards(text)):
        theta = math.radians(180 + 90 * i / 12)  # around a point at the right of the table
        up = 270.0 if i < 9 else 180.0
        out.append(card_at(c, 980 + 230 * math.cos(theta), 620 + 230 * math.sin(theta), up))
    return out


def test_thirteen_cards_in_a_fan_are_one_players_special() -> None:
    dets = in_a_fan("Ac 2c 3d 4h 5d 6s 7s 8c 9d Th Js Qh Kd") + seat_cards(HANDS["top"], "top", CENTRES["top"])
    layout = layout_table(dets)
    assert sorted(s.seat for s in layout.seats) == ["right", "top"]
    assert [p.kind for p in layout.problems] == ["no_rows"]
    reading = read_photo(np.zeros((1000, 1000, 3), np.uint8), load_ruleset("classic"),
                         detector=lambda img: Detections(width=1000, height=1000, cards=tuple(dets)))
    assert reading.settlement is not None
    assert {p.name: p.report.special for p in reading.settlement.players}["right"] == "dragon"


def test_a_surer_read_of_a_card_away_from_every_hand_is_left_out() -> None:
    # The artwork of a card back (four aces) or a patterned table reads as 9d, surer than the real 9d
    # in the bottom player's middle row. Kept, it would leave that hand a card short and lie apart
    # from every hand; left out, every hand is complete: the real one is the card, the other noted.
    dets = table(["bottom", "top"])
    dets.append(card_at(Card.parse("9d"), 950, 60, 0.0, confidence=1.0))
    result = layout_table(dets)
    assert not result.blocked
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}
    [note] = [p for p in result.problems if p.kind == "duplicate_card"]
    assert note.card == "9d" and not note.blocking and "(950, 60)" in note.message


@pytest.mark.parametrize(("scale", "what"), [(0.4, "smaller"), (2.2, "larger")])
def test_artwork_read_as_a_card_far_out_of_scale_with_its_seats_cards_is_left_out(scale: float, what: str) -> None:
    # Artwork among the bottom player's cards (a card back showing four aces, a court card's picture) is read
    # as a card no one holds. Its size in the photo says it is not one of the hand's cards.
    identity = "Ks"
    dets = table(["bottom", "top"])
    x, y = CENTRES["bottom"]
    art = _seen_from_afar([card_at(Card.parse(identity), x + 20, y - 40, 0.0, confidence=1.0)], (x + 20, y - 40), scale)
    result = layout_table(dets + art)
    assert not result.blocked
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}
    [note] = [p for p in result.problems if p.card == identity]
    assert note.kind == "unassigned_card" and not note.blocking
    assert note.message.endswith(f"is ignored: far {what} than the cards around it (artwork read as a card)")


@pytest.mark.parametrize("scale", [0.4, 2.2])
def test_a_hands_card_boxed_out_of_scale_in_its_row_is_kept_when_the_hand_is_short_without_it(scale: float) -> None:
    # A card of a tight row shows only a strip of its index, and the strip is boxed far smaller (or, merged with its
    # neighbour's, far larger) than the hand's other cards: taken for artwork, it would leave the hand a card short.
    # It lies in its row's place, and with it the hand lies in 3 + 5 + 5 rows: it is kept, and noted.
    dets = table(["bottom", "top"])
    i = next(k for k, d in enumerate(dets) if str(d.card) == "8c")
    assert dets[i].outline is not None
    dets[i:i + 1] = _seen_from_afar([dets[i]], dets[i].outline[0], scale)  # boxed around its index's corner
    result = layout_table(dets)
    assert not result.blocked
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}
    [note] = [p for p in result.problems if p.card == "8c"]
    assert note.kind == "card_count" and not note.blocking and "is kept" in note.message


def test_artwork_out_of_scale_beside_a_hand_a_card_short_is_not_taken_for_its_missing_card() -> None:
    # The bottom player's 8c was not found, and artwork far smaller than the cards (a court card's picture) beside the
    # middle row is read as Ks, which no one holds. With it the hand would be 13 cards, but not laid in rows: it stays
    # artwork, and the hand a card short blocks the round.
    dets = [d for d in table(["bottom", "top"]) if str(d.card) != "8c"]
    x, y = CENTRES["bottom"]
    art = _seen_from_afar([card_at(Card.parse("Ks"), x + 20, y - 40, 0.0, confidence=1.0)], (x + 20, y - 40), 0.4)
    result = layout_table(dets + art)
    assert result.blocked
    assert any(p.kind == "card_count" and p.seat == "bottom" and p.blocking for p in result.problems)
    [note] = [p for p in result.problems if p.card == "Ks"]
    assert note.kind == "unassigned_card" and not note.blocking and "artwork" in note.message


def test_a_hands_card_found_only_faintly_completes_the_hand_it_alone_lays_in_rows() -> None:
    # The bottom player's 8c shows only a strip of its index, which the index finder found only faintly (the reads of
    # such boxes are set aside: Detections.faint). Without it the hand is a card short; with it the hand lies in
    # 3 + 5 + 5 rows: it is taken, unsure as it was read, and noted.
    dets = table(["bottom", "top"])
    faint = [replace(d, confidence=0.6) for d in dets if str(d.card) == "8c"]
    result = layout_table([d for d in dets if str(d.card) != "8c"], faint=faint)
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}
    [note] = [p for p in result.problems if p.card == "8c" and p.kind == "card_count"]
    assert not note.blocking and "is kept, though its index was found only faintly" in note.message


def test_faint_reads_are_left_aside_where_no_hand_is_short_or_they_lie_off_its_rows() -> None:
    # Faint reads are mostly a card's own picture or pips read again. Where every hand is complete they change
    # nothing; beside a hand a card short but off its rows (a court card's picture) they do not complete it.
    dets = table(["bottom", "top"])
    x, y = CENTRES["bottom"]
    picture = card_at(Card.parse("Ks"), x + 20, y - 40, 0.0, confidence=0.9)
    complete = layout_table(dets, faint=[picture])
    assert not complete.blocked and complete == layout_table(dets)
    short = layout_table([d for d in dets if str(d.card) != "8c"], faint=[picture])
    assert short.blocked and not any(c.card == picture.card for s in short.seats for c in s.cards)
    assert any(p.kind == "card_count" and p.seat == "bottom" and p.blocking for p in short.problems)


@pytest.mark.parametrize("far", [1.0, 0.7])
def test_aces_pictured_on_a_card_back_beside_the_hands_are_left_out(far: float) -> None:
    # A card back whose artwork is a fan of four aces lies beside the hands, and each pictured ace is read surely:
    # two of them are cards the top player holds, two lie apart from every hand. Far smaller than the cards around
    # them, they are artwork, noted and left out, and every hand is laid out as dealt, also when the camera's tilt
    # shows the far (top) player's cards smaller than the near one's.
    top = seat_cards(HANDS["top"], "top", CENTRES["top"])
    dets = seat_cards(HANDS["bottom"], "bottom", CENTRES["bottom"]) + _seen_from_afar(top, CENTRES["top"], far)
    back = (880.0, 520.0)
    aces = [card_at(Card.parse(a), back[0] - 45 + 30 * k, back[1] + 4 * k, 10.0 * k - 15, confidence=c)
            for k, (a, c) in enumerate((("As", 1.0), ("Ah", 0.97), ("Ad", 0.98), ("Ac", 0.95)))]
    result = layout_table(dets + _seen_from_afar(aces, back, 0.4))
    assert not result.blocked
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}
    notes = [p for p in result.problems if p.kind == "unassigned_card"]
    assert sorted(p.card for p in notes) == ["Ac", "Ad", "Ah", "As"] and not any(p.blocking for p in notes)
    assert all(p.message.endswith("is ignored: far smaller than the cards around it (artwork read as a card)")
               for p in notes)


@pytest.mark.parametrize("far", [0.5, 0.35])
def test_a_far_seats_hand_far_smaller_than_the_near_ones_is_no_artwork(far: float) -> None:
    # Seen by a steeply tilted camera, the far player's cards are half the near player's size or less: a whole hand
    # of them is more reads together than any artwork shows, so none is left out.
    top = _seen_from_afar(seat_cards(HANDS["top"], "top", CENTRES["top"]), CENTRES["top"], far)
    result = layout_table(seat_cards(HANDS["bottom"], "bottom", CENTRES["bottom"]) + top)
    assert not result.blocked and not result.problems
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}


def test_a_card_read_as_another_players_card_still_blocks() -> None:
    # The top player's Qc misread as 9d, which the bottom player holds: whichever read is kept, a
    # hand is a card short, so neither is guessed.
    dets = table(["bottom", "top"])
    i = next(k for k, d in enumerate(dets) if str(d.card) == "Qc")
    dets[i] = replace(dets[i], card=Card.parse("9d"))
    result = layout_table(dets)
    assert result.blocked
    assert any(p.kind == "duplicate_card" and p.card == "9d" and p.blocking for p in result.problems)


def test_a_card_read_twice_in_its_own_row_scores_the_same_either_way() -> None:
    # A pip beside the real 9d, in the same row, also reads as 9d: keeping either read lays out the
    # same hands, so the table is scored and the other read noted.
    dets = table(["bottom", "top"])
    real = next(d for d in dets if str(d.card) == "9d")
    x, y = real.center
    dets.append(card_at(real.card, x + 0.9 * H, y, 0.0, confidence=0.97))
    result = layout_table(dets)
    assert not result.blocked
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}
    assert [p.card for p in result.problems if p.kind == "duplicate_card"] == ["9d"]


def test_a_card_read_twice_beside_an_unsure_card_is_resolved_and_the_unsure_card_tried() -> None:
    # The pip beside the real 9d read as 9d again, and the bottom player's 3d read unsurely: the spare 9d is set aside
    # as without the unsure card, and the 3d, whichever of 3d, 3h, 8d it is, leaves the scores as they are.
    dets = table(["bottom", "top"])
    x, y = next(d for d in dets if str(d.card) == "9d").center
    dets = [_unsure(d, 0.6, ("3h", 0.3), ("8d", 0.1)) if str(d.card) == "3d" else d for d in dets]
    dets.append(card_at(Card.parse("9d"), x + 0.9 * H, y, 0.0, confidence=0.97))
    layout = layout_table(dets)
    assert [(p.kind, p.card, p.blocking) for p in layout.problems] == [
        ("duplicate_card", "9d", False), ("low_confidence", "3d", True)]
    reading = read_photo(np.zeros((1000, 1000, 3), np.uint8), load_ruleset("classic"),
                         detector=lambda img: Detections(width=1000, height=1000, cards=tuple(dets)))
    assert reading.settlement is not None and not any(p.blocking for p in reading.problems)


def test_a_card_read_twice_keeps_the_read_that_lays_every_hand_in_rows() -> None:
    # A misread corner at the end of bottom's middle row also reads as the Js of its tail. Keeping it (and
    # dropping the real Js) leaves 13 cards in no 3 + 5 + 5 rows, which a special laid out would be; keeping
    # the real one lays every hand in rows: that is the card.
    dets = table(["bottom", "top"])
    dets.append(card_at(Card.parse("Js"), 500 + 3 * W * 0.35, 800, 0.0, confidence=0.97))
    result = layout_table(dets)
    assert not result.blocked
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}
    assert [p.card for p in result.problems if p.kind == "duplicate_card"] == ["Js"]


def _unsure(card: CardDetection, confidence: float, *others: tuple[str, float]) -> CardDetection:
    return replace(card, confidence=confidence,
                   alternatives=((card.card, confidence), *((Card.parse(c), p) for c, p in others)))


def test_an_identity_read_twice_unsurely_keeps_the_read_that_completes_every_hand() -> None:
    # Four players. The top player's As is read unsurely (0.82), and the bottom player's 4d, read surely, is read a
    # second time from a pip on it as an As (0.75). Keeping the pip's read leaves the top hand a card short; keeping
    # the top player's read completes every hand: the pip's read is ignored with a note, and the As, the one card of
    # the deck no sure read holds, is scored as read.
    dets = table(["bottom", "right", "top", "left"])
    i = next(k for k, d in enumerate(dets) if str(d.card) == "As")
    dets[i] = _unsure(dets[i], 0.82, ("Ac", 0.12))
    x, y = next(d for d in dets if str(d.card) == "4d").center
    dets.append(_unsure(card_at(Card.parse("As"), x, y + 20, 0.0), 0.75, ("Ks", 0.06), ("Ac", 0.04)))
    layout = layout_table(dets)
    assert {s.seat: " | ".join(rows_of(s)) for s in layout.seats} == HANDS
    assert [(p.kind, p.card, p.blocking) for p in layout.problems] == [
        ("duplicate_card", "As", False), ("low_confidence", "As", True)]
    reading = read_photo(np.zeros((1000, 1000, 3), np.uint8), load_ruleset("classic"),
                         detector=lambda img: Detections(width=1000, height=1000, cards=tuple(dets)))
    assert reading.settlement is not None
    assert not any(p.blocking for p in reading.problems)


def test_an_identity_read_twice_unsurely_on_two_cards_of_their_own_still_blocks() -> None:
    # The top player's Qc misread as 9d (0.7) and the bottom player's 9d read unsurely (0.8): whichever read is kept, a
    # hand is a card short, so neither is guessed.
    dets = table(["bottom", "top"])
    i = next(k for k, d in enumerate(dets) if str(d.card) == "Qc")
    dets[i] = _unsure(replace(dets[i], card=Card.parse("9d")), 0.7, ("Qc", 0.2))
    j = next(k for k, d in enumerate(dets) if str(d.card) == "9d" and k != i)
    dets[j] = _unsure(dets[j], 0.8, ("9h", 0.1))
    result = layout_table(dets)
    assert any(p.kind == "duplicate_card" and p.card == "9d" and p.blocking for p in result.problems)


def test_a_seat_one_read_too_many_drops_the_read_without_which_alone_it_lies_in_rows() -> None:
    # Something printed beyond the bottom player's head row read as a 7s: 14 cards, in no rows. Without the 7s the
    # hand lies in 3 + 5 + 5 rows, and without any other read it does not: the 7s is set aside with a note.
    dets = table(["bottom", "top"])
    result = layout_table([*dets, card_at(Card.parse("7s"), 480.0, 696 - 1.15 * H, 0.0, confidence=0.95)])
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}
    [note] = result.problems
    assert note.kind == "card_count" and note.card == "7s" and not note.blocking


def test_a_seat_one_read_too_many_in_a_row_blocks_unless_it_alone_is_unsure() -> None:
    # A 7s read surely at the end of the tail row: leaving out any card of the tail lays the hand in rows, so which
    # read is no card is not known. Read unsurely among sure reads, it is the one set aside.
    dets = table(["bottom", "top"])
    result = layout_table([*dets, card_at(Card.parse("7s"), 500 + 3 * W * 0.35, 800 + 1.15 * H, 0.0)])
    assert result.blocked
    assert any(p.kind == "card_count" and p.seat == "bottom" and p.blocking for p in result.problems)
    weak = card_at(Card.parse("7s"), 500 + 3 * W * 0.35, 800 + 1.15 * H, 0.0, confidence=0.6)
    result = layout_table([*dets, weak])
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}
    assert [(p.kind, p.card, p.blocking) for p in result.problems] == [("card_count", "7s", False)]


def test_a_confident_card_apart_from_complete_hands_blocks() -> None:
    # It may be the one card read of a third player whose other cards were not even found as corners
    # (no unread regions to show for them): the round of two is not scored.
    dets = [*table(["bottom", "top"]), card_at(Card.parse("2h"), 950, 60, 0.0, confidence=0.99)]
    result = layout_table(dets)
    assert result.blocked
    assert [p.card for p in result.problems if p.kind == "unassigned_card" and p.blocking] == ["2h"]


@pytest.mark.parametrize("up", [90.0, 180.0, 45.0])
def test_a_sure_read_lying_on_a_complete_hands_card_is_printed_on_it(up: float) -> None:
    # A pip or a court card's picture in the bottom player's tail row read as a 7s facing another way: it lies apart
    # from every hand's reads, but on the bottom player's cards, and every hand is complete, so it is no card of its
    # own (a fourth player's hand does not lie on another's cards).
    dets = table(["bottom", "top"])
    x, y = next(d for d in dets if str(d.card) == "4d").center
    result = layout_table([*dets, card_at(Card.parse("7s"), x, y + 20, up, confidence=0.98)])
    assert not result.blocked
    assert {s.seat: " | ".join(rows_of(s)) for s in result.seats} == {"bottom": HANDS["bottom"], "top": HANDS["top"]}
    [note] = [p for p in result.problems if p.kind == "unassigned_card"]
    assert note.card == "7s" and not note.blocking and "bottom player's cards" in note.message


def test_a_sure_read_lying_on_a_hands_card_blocks_while_a_hand_is_short() -> None:
    # The bottom player's hand is a card short: the read may be that card, however it came to lie where it does.
    dets = [d for d in table(["bottom", "top"]) if str(d.card) != "Jd"]
    x, y = next(d for d in dets if str(d.card) == "As").center
    result = layout_table([*dets, card_at(Card.parse("7s"), x, y - 20, 90.0, confidence=0.98)])
    assert any(p.kind == "unassigned_card" and p.card == "7s" and p.blocking for p in result.problems)
    assert any(p.kind == "card_count" and p.seat == "bottom" for p in result.problems)


def test_two_reads_at_one_place_in_a_row_are_reported_not_a_crash() -> None:
    # A read facing the other way on the bottom player's 4d, that hand a card short: the rows' neighbours along a row
    # once compared two cards at one place as objects (a TypeError).
    dets = [d for d in table(["bottom", "top"]) if str(d.card) != "Jd"]
    x, y = next(d for d in dets if str(d.card) == "4d").center
    result = layout_table([*dets, card_at(Card.parse("7s"), x, y + 20, 180.0, confidence=0.98)])
    assert result.blocked
    assert [p.kind for p in result.problems if p.blocking] == ["row_size"]


def test_a_lone_card_beside_an_incomplete_hand_blocks() -> None:
    dets = table(["bottom", "top"])
    i = next(k for k, d in enumerate(dets) if str(d.card) == "Qc")
    dets[i] = card_at(dets[i].card, 950, 60, 180.0)  # the top player's Qc lies far from their hand
    result = layout_table(dets)
    assert result.blocked
    assert any(p.kind == "unassigned_card" and p.card == "Qc" and p.blocking for p in result.problems)
    assert any(p.kind == "card_count" and p.seat == "top" for p in result.problems)


def test_a_hand_left_unread_blocks_the_round() -> None:
    # Two complete hands, and the corners of a third player's 13 cards found but none read: scored as
    # a round of two, the third player's result would be lost. Scattered unread regions do not block.
    dets = table(["bottom", "top"])
    hand = [(800.0 + 14 * k, 450.0 + 20 * (k % 3), 815.0 + 14 * k, 475.0 + 20 * (k % 3)) for k in range(13)]
    result = layout_table(dets, unread=hand)
    assert result.blocked
    assert [p.kind for p in result.problems if p.blocking] == ["unread_cards"]
    scattered = [(60.0 + 300 * k, 40.0 + 70 * k, 75.0 + 300 * k, 65.0 + 70 * k) for k in range(4)]
    assert not layout_table(dets, unread=scattered).blocked


def test_a_hand_read_only_weakly_blocks_the_round() -> None:
    # A third player's hand under glare: of its 13 indices, 8 found but read as no card, 3 read only weakly (each a
    # different card, below the floor), 2 not found. Weak reads apart from every hand are no cards of the round, but
    # like index regions read as no card they say a player's cards lie there: 11 together block, as 11 unread regions
    # would; scored as a round of two, that player's result would be lost. The 8 unread regions alone do not block.
    dets = table(["bottom", "top"])
    regions = [(800.0 + 14 * k, 450.0 + 20 * (k % 3), 815.0 + 14 * k, 475.0 + 20 * (k % 3)) for k in range(11)]
    weak = [replace(card_at(Card.parse(c), (b[0] + b[2]) / 2, (b[1] + b[3]) / 2 + 30, 90.0, confidence=0.3),
                    index_boxes=(b,)) for c, b in zip(("5s", "Qh", "Jc"), regions[8:], strict=True)]
    result = layout_table(dets + weak, unread=regions[:8])
    assert result.blocked
    assert [p.kind for p in result.problems if p.blocking] == ["unread_cards"]
    assert not layout_table(dets, unread=regions[:8]).blocked


def test_unread_regions_far_smaller_than_the_tables_indices_are_no_hand() -> None:
    # A card back's pattern beside the hands found as 13 index regions a third of the size of the hands' indices and
    # read as no card: no player's cards are there. At the hands' index size, the same regions block.
    dets = [replace(c, index_boxes=((c.box[0] + 2, c.box[1] + 2, c.box[0] + 16, c.box[1] + 27),))
            for c in table(["bottom", "top"])]
    def regions(w: float, h: float) -> list[tuple[float, float, float, float]]:
        return [(800.0 + 14 * k, 450.0 + 20 * (k % 3), 800.0 + 14 * k + w, 450.0 + 20 * (k % 3) + h) for k in range(13)]

    assert not layout_table(dets, unread=regions(7.0, 8.0)).problems
    assert [p.kind for p in layout_table(dets, unread=regions(15.0, 25.0)).problems] == ["unread_cards"]


def _read_from_a_far_corner(cards: list[CardDetection], names: set[str]) -> tuple[list[CardDetection], dict]:
    """Each card one index box; the ``names`` read facing the other way (the layout turned them)."""
    out, read_up = [], {}
    for c in cards:
        box = (c.box[0], c.box[1], c.box[0] + 10, c.box[1] + 15)
        out.append(replace(c, index_boxes=(box,)))
        read_up[box] = (c.up + 180) % 360 if str(c.card) in names else c.up
    return out, read_up


def test_cards_turned_by_the_layout_need_the_other_cards_to_agree_on_their_row() -> None:
    from vision.rows import split_rows, turned_unclear

    bottom = seat_cards(HANDS["bottom"], "bottom", CENTRES["bottom"])
    # two tail cards read from their far corners: without them the rows are 3 + 5 + 3, and the two could
    # complete the head's end as well as the tail's, so where they were estimated to lie decides alone
    cards, read_up = _read_from_a_far_corner(bottom, {"4c", "4d"})
    bands = split_rows(cards, 0.0)
    assert bands is not None
    unclear = turned_unclear(read_up, cards, 0.0, bands)
    assert unclear is not None and str(unclear.card) in {"4c", "4d"}
    # one such card: the others show its row (3 + 5 + 4 can only become 3 + 5 + 5 one way)
    cards, read_up = _read_from_a_far_corner(bottom, {"4d"})
    assert turned_unclear(read_up, cards, 0.0, split_rows(cards, 0.0)) is None  # type: ignore[arg-type]


def test_a_short_seat_with_turned_cards_knows_its_rows_only_when_the_other_cards_agree() -> None:
    from vision.rows import short_rows, split_rows

    bottom = [c for c in seat_cards(HANDS["bottom"], "bottom", CENTRES["bottom"]) if str(c.card) != "9d"]
    # the middle's 9d is not seen and the middle's 8c was read from its far corner: the others, split on
    # their own (3 + 3 + 5), can become 3 + 5 + 5 one way, the middle the one row short: the 8c's row is known
    cards, read_up = _read_from_a_far_corner(bottom, {"8c"})
    rows = short_rows(split_rows(cards, 0.0), cards, 0.0, read_up)
    assert rows is not None and [len(r) for r in rows] == [3, 4, 5]
    # the tail's 4d so instead: the others (3 + 4 + 4) leave the middle and the tail short, and which of them
    # the 4d is in would be its outline estimate's word alone (an estimate a row off fills the wrong row)
    cards, read_up = _read_from_a_far_corner(bottom, {"4d"})
    assert short_rows(split_rows(cards, 0.0), cards, 0.0, read_up) is None
    # the tail's 4c and 4d both so: the others show 3 + 4 + 3, which the three missing complete two ways
    cards, read_up = _read_from_a_far_corner(bottom, {"4c", "4d"})
    assert short_rows(split_rows(cards, 0.0), cards, 0.0, read_up) is None


def test_a_short_seat_with_two_cards_at_one_place_in_a_row_does_not_know_its_rows() -> None:
    from vision.rows import short_rows, split_rows

    # bottom's middle 9d is not seen, and the tail's 4c was anchored into the middle row, on the 8c's place:
    # the rows look like 3 + 5 + 4 (the tail short), but the middle holds two cards at one place
    bottom = [c for c in seat_cards(HANDS["bottom"], "bottom", CENTRES["bottom"]) if str(c.card) != "9d"]
    eight = next(c for c in bottom if str(c.card) == "8c")
    moved = [card_at(c.card, eight.center[0] + 2.0, eight.center[1], 0.0) if str(c.card) == "4c" else c for c in bottom]
    bands = split_rows(moved, 0.0)
    assert bands is not None and [len(b) for b in bands] == [3, 5, 4]
    assert short_rows(bands, moved, 0.0, {}) is None
    assert short_rows(split_rows(bottom, 0.0), bottom, 0.0, {}) is not None  # as laid, the rows are known


def test_a_read_at_another_cards_place_in_a_row_blocks_even_when_it_completes_the_hand() -> None:
    # bottom's 9d was not found, and a pip of the 8c reads as a 7c at the 8c's place: 13 cards in 3 + 5 + 5
    # rows, but one of the middle's cards is not a card of that row
    dets = [d for d in table(["bottom", "top"]) if str(d.card) != "9d"]
    eight = next(d for d in dets if str(d.card) == "8c")
    dets.append(card_at(Card.parse("7c"), eight.center[0] + 3.0, eight.center[1] + 2.0, 0.0, confidence=0.95))
    result = layout_table(dets)
    stop = [p for p in result.problems if p.blocking]
    assert [(p.kind, p.seat) for p in stop] == [("row_size", "bottom")]
    assert "lie at one place in a row" in stop[0].message and {"8c", "7c"} <= set(stop[0].message.split())


def test_a_short_seat_does_not_know_its_rows_when_a_card_read_twice_may_lie_in_either_of_two() -> None:
    from vision.rows import either_row, short_rows, split_rows

    # bottom's 9d (middle) was not read, and its index read as Js, the tail's card below it: one card with
    # two indices at one turn, anchored at either. Which row is short then depends on which read is the Js.
    laid = seat_cards(HANDS["bottom"], "bottom", CENTRES["bottom"])
    nine = next(c for c in laid if str(c.card) == "9d")
    corner = lambda c: (c.outline[0][0] + 1, c.outline[0][1] + 1, c.outline[0][0] + 11, c.outline[0][1] + 16)
    cards = [replace(c, index_boxes=(corner(c), corner(nine)) if str(c.card) == "Js" else (corner(c),))
             for c in laid if c is not nine]
    bands = split_rows(cards, 0.0)
    assert bands is not None and sorted(len(b) for b in bands) == [3, 4, 5]
    assert either_row(bands, 0.0) and short_rows(bands, cards, 0.0, {}) is None
    alone = [replace(c, index_boxes=(corner(c),)) for c in laid if c is not nine]  # read once: the middle is short
    bands = split_rows(alone, 0.0)
    assert bands is not None and not either_row(bands, 0.0) and short_rows(bands, alone, 0.0, {}) is not None


@pytest.mark.parametrize("slant", [-1.1, -0.7, 0.7, 1.1])
def test_rows_laid_stepped_toward_the_player_are_found_whole_and_short_of_a_card(slant: float) -> None:
    # each next card of a row laid a little nearer the player (up to 48 deg off the cards' own direction: a validation
    # table's seat laid so was stopped, and with a card not seen its other 12 cards were taken for rows across them)
    laid = seat_cards(HANDS["bottom"], "bottom", CENTRES["bottom"], overlap=0.45, slant=slant, apart=0.6)
    seat = next(s for s in layout_table(laid).seats if s.seat == "bottom")
    assert seat.rows is not None and " | ".join(rows_of(seat)) == HANDS["bottom"]
    for gone in ("3d", "9d", "Jh"):
        result = layout_table([c for c in laid if str(c.card) != gone])
        short = next(s for s in result.seats if s.seat == "bottom").short_rows
        want = [row.replace(gone, "").split() for row in HANDS["bottom"].split("|")]
        assert short is not None and [[str(c.card) for c in row] for row in short] == want


# the left seat of validation table s78_000066 as the detector read it: each card's top-left corner (its facing
# +x); rows laid stepped, 46 deg off the cards' own direction
STEPPED_SEAT = {"Ks": (711, 125), "As": (764, 168), "Js": (649, 186), "Qs": (696, 227), "Jd": (585, 250),
                "9d": (738, 260), "Th": (630, 292), "Jc": (516, 318), "7c": (676, 322), "6h": (557, 353),
                "3c": (608, 389), "6c": (480, 430), "3d": (453, 386)}
STEPPED_ROWS = "9d 7c 3c | As Qs Th 6h 6c | Ks Js Jd Jc 3d"


def test_a_real_seat_laid_stepped_is_read_as_its_rows_and_short_of_a_card_not_as_rows_across_them() -> None:
    from vision.rows import seat_layout

    def card(name: str, ax: float, ay: float) -> CardDetection:
        w, h = 140.0, 210.0  # the card's size in that photo; the top-left corner (ax, ay) of a card facing +x
        outline = ((ax, ay), (ax, ay + w), (ax - h, ay + w), (ax - h, ay))
        return CardDetection(card=Card.parse(name), confidence=0.99, box=(ax - h, ay, ax, ay + w), outline=outline,
                             up=90.0)

    cards = [card(name, *at) for name, at in STEPPED_SEAT.items()]
    seat = seat_layout("left", cards, 90.0, [], {})
    assert seat.rows is not None and " | ".join(rows_of(seat)) == STEPPED_ROWS
    # with its 7c not seen, the other 12 once passed as rows of 3 + 5 + 4 across the real ones: 3d 6c | Jd Jc Th 6h
    # 3c | Ks Js As Qs 9d, and the table was scored
    short = seat_layout("left", [c for c in cards if str(c.card) != "7c"], 90.0, [], {}).short_rows
    assert short is not None
    assert [" ".join(str(c.card) for c in row) for row in short] == ["9d 3c", "As Qs Th 6h 6c", "Ks Js Jd Jc 3d"]



# the bottom seat of the fanned-rows validation table s87_000026 (`datasets.synth --fan 1`) as the detector read it:
# each card's top-left corner and its card's height (px); every row laid as a fan, each card turned up to ~8 deg
# further than the one before, so the rows are arcs and no straight split is clear
FANNED_SEAT = {"4h": (389, 714, 145), "2c": (524, 721, 146), "5c": (244, 732, 153), "7s": (366, 776, 158),
               "3h": (513, 777, 157), "3c": (656, 798, 165), "Qh": (217, 799, 156), "6d": (537, 837, 177),
               "Ks": (64, 837, 176), "6s": (381, 846, 178), "6c": (683, 860, 182), "Kc": (230, 867, 189),
               "Ac": (75, 919, 182)}
FANNED_ROWS = "5c 4h 2c | Ks Qh 7s 3h 3c | Ac Kc 6s 6d 6c"


def test_a_real_seat_laid_in_fanned_rows_is_read_as_its_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.rows
    from vision.rows import seat_layout

    def card(name: str, ax: float, ay: float, h: float) -> CardDetection:
        w = 0.7 * h  # upright, as the detector's outline from an index: the top-left corner (ax, ay)
        outline = ((ax, ay), (ax + w, ay), (ax + w, ay + h), (ax, ay + h))
        return CardDetection(card=Card.parse(name), confidence=0.99, box=(ax, ay, ax + w, ay + h), outline=outline,
                             up=0.0)

    cards = [card(name, *at) for name, at in FANNED_SEAT.items()]
    seat = seat_layout("bottom", cards, 0.0, [], {})
    assert seat.rows is not None and " | ".join(rows_of(seat)) == FANNED_ROWS
    # searched along straight lines only, its rows are not clear
    monkeypatch.setattr(vision.rows, "_fanned_rows", lambda group, up: None)
    assert seat_layout("bottom", cards, 0.0, [], {}).rows is None


# the bottom seat of the test-family fan table s89_000020 (`datasets.synth --fan 1 --seed 89 --split test`), ground
# truth: each card's top-left corner, its height and its turn (degrees, as vision.turn measures it). With the Td
# or the 7h left out, the other 12 lie in clear straight rows that put the Td in the tail: as a straight hand with a
# card pushed out of its row would. The cards' turns, growing card by card along each row, say it is a fan.
TURNED_FAN = {"9c": (509, 380, 182, -12.1), "7c": (682, 345, 179, -1.9), "2d": (834, 331, 176, -3.3),
              "Ah": (333, 500, 202, -12.1), "Kh": (509, 448, 197, -7.2), "Js": (683, 419, 194, -4.5),
              "Th": (844, 403, 190, -3.1), "Td": (1018, 404, 188, 4.5), "Jc": (329, 592, 220, -13.9),
              "Ts": (522, 522, 215, -4.8), "9s": (694, 491, 209, -4.2), "8c": (871, 474, 205, 0.1),
              "7h": (1041, 479, 203, 3.1)}


@pytest.mark.parametrize("turns", ["measured", "none", "all alike"])
def test_fanned_rows_the_straight_rows_disagree_with_are_taken_only_when_the_cards_turn_as_a_fan(turns: str) -> None:
    from vision.rows import seat_layout

    def card(name: str, ax: float, ay: float, h: float, turn: float) -> CardDetection:
        w = 0.7 * h
        outline = ((ax, ay), (ax + w, ay), (ax + w, ay + h), (ax, ay + h))
        told = {"measured": turn, "none": None, "all alike": -4.0}[turns]
        return CardDetection(card=Card.parse(name), confidence=0.99, box=(ax, ay, ax + w, ay + h), outline=outline,
                             up=0.0, turn=told)

    seat = seat_layout("bottom", [card(name, *at) for name, at in TURNED_FAN.items()], 0.0, [], {})
    if turns == "measured":
        assert seat.rows is not None and " | ".join(rows_of(seat)) == "9c 7c 2d | Ah Kh Js Th Td | Jc Ts 9s 8c 7h"
    else:
        assert seat.rows is None


@pytest.mark.parametrize("shape", ["line", "two lines", "arc"])
def test_thirteen_cards_laid_in_one_line_or_arc_are_not_taken_for_fanned_rows(shape: str) -> None:
    # a special hand shown in a free shape, each card a little off its place: searched along arcs, a few of these
    # split 1.5 clear into 3 + 5 + 5 (one after another along the line, or its ends and its middle)
    from vision.rows import _fanned_rows

    cards = parse_cards("Ac 2c 3d 4h 5d 6s 7s 8c 9d Th Js Qh Kd")
    for seed in range(300):
        rng = np.random.default_rng(seed)
        if shape == "line":
            places = [(200 + 30 * i, 500.0) for i in range(13)]
        elif shape == "two lines":
            places = [(200 + 30 * i, 450.0) for i in range(7)] + [(215 + 30 * i, 560.0) for i in range(6)]
        else:  # about a point toward the player, as the generator fans a special hand
            turns = [0.1 * (i - 6) for i in range(13)]
            places = [(500 + 300 * math.sin(a), 500 + 300 * (1 - math.cos(a))) for a in turns]
        laid = [card_at(c, x + rng.normal(0, 3), y + rng.normal(0, 6), 0.0)
                for c, (x, y) in zip(cards, places, strict=True)]
        assert _fanned_rows(laid, 0.0) is None, seed
