"""One synthetic table photo with its full ground truth.

``make_scene(seed, index, decks, ...)`` is a pure function of its arguments:
the random generator is seeded from ``(seed, index)``, so a scene can be
regenerated alone, in any process, byte for byte.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.cards import ROW_NAMES
from referee.hand import analyse
from referee.round import Round
from referee.settle import settle

from . import sprites
from .art_cache import CardArt
from .backgrounds import TEX_PX, table_texture
from .camera import Camera, frame_table, project
from .compose import OCCLUDER, Canvas, paste, polygon_visibility, shown_box
from .deal import DealtHand, deal_round, rules
from .effects import bent_card_light, finish
from .index_box import mirror_box_x, rotate_box_180
from .layout import CARD_W_MM, SEATS, CardPose, lay_table

Mat = NDArray[np.float64]
FREE_SHAPE_SPECIALS = {"six_pairs", "dragon", "all_low_8", "all_high_8", "one_color", "four_trips",
                       "five_pairs_trips"}
MIN_VISIBLE = 0.7     # share of an index's pixels that must show for it to count as visible
MIN_INSIDE = 0.9      # share of an index that must lie inside the image
CUT = 0.98            # below this share showing, an index's truth also says what of it shows (_strip_truth)


@dataclass
class Scene:
    image: NDArray[Any]
    truth: dict[str, Any]


SPLIT_KEYS = {"train": 0, "val": 1, "test": 2}


def scene_rng(seed: int, index: int, stream: int = 0, split: str = "train") -> np.random.Generator:
    """The generator of scene ``index`` of run ``seed`` in ``split`` (so equal seeds in two splits
    still give different tables); other ``stream`` s give independent side draws."""
    key = [int(seed), int(index), SPLIT_KEYS.get(split, zlib.crc32(split.encode())), int(stream)]
    return np.random.default_rng(np.random.SeedSequence(key))


def _seats(rng: np.random.Generator, n: int) -> list[str]:
    if n == 4:
        return list(SEATS)
    if n == 2 and rng.random() < 0.6:
        return ["bottom", "top"] if rng.random() < 0.7 else ["left", "right"]
    picked = sorted(rng.choice(4, n, replace=False).tolist())
    return [SEATS[i] for i in picked]


def card_homography(pose: CardPose, art_w: int, art_h: int, mm_per_px: float) -> Mat:
    """Card pixel -> table mm."""
    c, s = math.cos(pose.angle), math.sin(pose.angle)
    rot = np.array([[c * mm_per_px, -s * mm_per_px, pose.cx], [s * mm_per_px, c * mm_per_px, pose.cy], [0, 0, 1]])
    centre = np.array([[1, 0, -art_w / 2], [0, 1, -art_h / 2], [0, 0, 1.0]])
    out: Mat = rot @ centre
    return out


def _place(rng: np.random.Generator, extent: tuple[float, float, float, float], radius: float,
           avoid: list[tuple[float, ...]], tries: int = 20) -> tuple[float, float] | None:
    x0, y0, x1, y1 = extent
    for _ in range(tries):
        x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
        if all(not (b[0] - radius < x < b[2] + radius and b[1] - radius < y < b[3] + radius) for b in avoid):
            return x, y
    return None


def _sprite_homography(w_px: int, h_px: int, w_mm: float, x: float, y: float, angle: float) -> Mat:
    pose = CardPose(card=None, player=-1, row=None, position=0, cx=x, cy=y, angle=angle)  # type: ignore[arg-type]
    return card_homography(pose, w_px, h_px, w_mm / w_px)


def _surface(rng: np.random.Generator, cam: Camera, size: tuple[int, int], centre: tuple[float, float],
             textures: list[str], blur: float = 0.0) -> NDArray[Any]:
    tex, mm_per_px = table_texture(rng, textures)
    if blur > 0:
        tex = cv2.GaussianBlur(tex, (0, 0), blur)
    angle = rng.uniform(0, 2 * math.pi)
    c, s = math.cos(angle), math.sin(angle)
    m = np.array([[c * mm_per_px, -s * mm_per_px, centre[0]], [s * mm_per_px, c * mm_per_px, centre[1]], [0, 0, 1]])
    m = m @ np.array([[1, 0, -TEX_PX / 2], [0, 1, -TEX_PX / 2], [0, 0, 1.0]])
    return cv2.warpPerspective(tex, cam.homography @ m, size, flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT_101)


def _background(rng: np.random.Generator, cam: Camera, size: tuple[int, int], card_pts: NDArray[Any],
                textures: list[str]) -> NDArray[Any]:
    """The table top; sometimes its edge, with the floor (darker, out of focus) beyond."""
    lo, hi = card_pts.min(axis=0), card_pts.max(axis=0)
    centre = (float(lo[0] + hi[0]) / 2, float(lo[1] + hi[1]) / 2)
    table = _surface(rng, cam, size, centre, textures, 0.8 if rng.random() < 0.5 else 0.0)
    if rng.random() > 0.25:
        return table
    margins = rng.uniform(30, 400, 4)
    rect = np.array([[lo[0] - margins[0], lo[1] - margins[1]], [hi[0] + margins[2], lo[1] - margins[1]],
                     [hi[0] + margins[2], hi[1] + margins[3]], [lo[0] - margins[0], hi[1] + margins[3]]])
    w = rect @ cam.homography[2, :2] + cam.homography[2, 2]
    if np.any(w <= 0):
        return table
    quad = project(cam.homography, rect)
    floor = _surface(rng, cam, size, centre, textures, 3.0).astype(np.float32) * rng.uniform(0.35, 0.7)
    mask = np.zeros(size[::-1], np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad * 4).astype(np.int32), 255, cv2.LINE_AA, shift=2)
    alpha = (mask.astype(np.float32) / 255)[:, :, None]
    out = table.astype(np.float32) * alpha + floor * (1 - alpha)
    # the table's front edge: a darker band just outside the top
    rim = np.zeros(size[::-1], np.uint8)
    ref = project(cam.homography, np.array([[centre[0], centre[1]], [centre[0] + 10, centre[1]]]))
    thick = max(2, int(np.linalg.norm(ref[1] - ref[0]) * rng.uniform(0.8, 2.5)))
    cv2.polylines(rim, [np.round(quad).astype(np.int32)], True, 255, thick, cv2.LINE_AA)
    rim_f = (rim.astype(np.float32) / 255 * (1 - alpha[:, :, 0]))[:, :, None]
    out = out * (1 - 0.6 * rim_f)
    return np.clip(out, 0, 255).astype(np.uint8)


RANK_SHARE = 0.55  # the rank's share of an index's height (the suit below it), for a strip's truth


def _ink(face: NDArray[Any], box: tuple[float, float, float, float]) -> NDArray[np.float64]:
    """The art-pixel centres (x, y) of the marks printed in ``box`` of a card face: dark or coloured."""
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(face.shape[1], math.ceil(box[2])), min(face.shape[0], math.ceil(box[3]))
    patch = face[y0:y1, x0:x1, :3].astype(np.int16)
    mark = (patch.min(axis=2) < 150) | (patch.max(axis=2) - patch.min(axis=2) > 80)
    ys, xs = np.nonzero(mark)
    return np.stack([xs + x0 + 0.5, ys + y0 + 0.5], axis=1).astype(np.float64)


def _strip_truth(canvas: Canvas, face: NDArray[Any], box: tuple[float, float, float, float], quad: Mat,
                 rank_on_top: bool, h_img: Mat, obj_id: int) -> dict[str, Any]:
    """What a partly covered index shows: the share of its rank's and of its suit's printed marks on top
    (``box``: the index box in the card's art pixels; a top corner's rank is at the box's top, a bottom
    corner's, printed upside down, at its bottom; the rank is the box's ``RANK_SHARE``; ``quad``: the box in the
    image), and the box of its pixels that show."""
    y0, y1 = box[1], box[3]
    cut = y0 + (y1 - y0) * (RANK_SHARE if rank_on_top else 1 - RANK_SHARE)
    ink = _ink(face, box)
    on_top = np.zeros(len(ink), bool)
    if len(ink):
        p = np.round(project(h_img, ink)).astype(int)
        W, H = canvas.size
        inside = (p[:, 0] >= 0) & (p[:, 0] < W) & (p[:, 1] >= 0) & (p[:, 1] < H)
        on_top[inside] = canvas.idmap[p[inside, 1], p[inside, 0]] == obj_id
    upper = ink[:, 1] < cut if len(ink) else np.zeros(0, bool)
    rank, suit = (upper, ~upper) if rank_on_top else (~upper, upper)

    def share(part: NDArray[np.bool_]) -> float:
        return round(float(on_top[part].mean()), 3) if part.any() else 0.0

    shown = shown_box(canvas, quad, obj_id)
    return {"rank_unoccluded": share(rank), "suit_unoccluded": share(suit),
            "shown": None if shown is None else [round(v, 2) for v in shown]}


@dataclass(frozen=True)
class HeldTables:
    """Tables laid and photographed as a phone is held over them (``make_scene(held=True)``): the issue's
    check of real-card tables photographed "tilted 15-35 degrees, 15-25 % of each covered card showing"."""

    players: tuple[int, ...] = (2, 3)
    # of each covered card, in index extents: a real deck's index reaches about 0.16 of the card's width
    showing: tuple[float, float] = (0.95, 1.55)
    tilt_deg: tuple[float, float] = (15.0, 35.0)


HELD = HeldTables()


def make_scene(seed: int, index: int, decks: list[CardArt], textures: list[str], size: int = 1600,
               split: str = "train", effects: bool = True, soften: bool = True, tight: float = 0.0,
               bent: float = 0.0, real_look: bool = False, held: bool = False, fan: float = 0.0) -> Scene:
    """Scene ``index`` of ``seed``. ``effects=False``: the composite before the camera's look;
    ``soften=False``: the look without its softening effects (blur, depth of field, resolution
    loss). Neither changes the layout or the ground truth. ``tight``: the share of hands laid in
    tight rows where only a strip of each index shows (``datasets.layout``; 0: the scene is as before).
    ``bent``: the share of cards bowed a little, with the shading and glossy glare band that gives
    (``effects.bent_card_light``; drawn from its own stream, so 0 leaves the scene as before). ``real_look``: the
    softening, grain and JPEG measured on real photos (``effects.REAL_LOOK``) instead of the guessed ones.
    ``held``: the table as the phone-held check lays it (``HELD``): 2-3 players, every row overlapped with
    0.95-1.55 index extents of each covered card showing (15-25 % of a real deck's card), the camera tilted
    15-35 degrees (the scene is another table). ``fan``: the share of hands whose rows are laid as fans, each next
    card turned a little further (``datasets.layout``; drawn from its own stream: 0 leaves the scene as before)."""
    rng = scene_rng(seed, index, split=split)
    families = sorted({d.family for d in decks})            # a family first, then one of its decks,
    family = families[int(rng.integers(0, len(families)))]  # so 4-deck families do not dominate
    in_family = [d for d in decks if d.family == family]
    art = in_family[int(rng.integers(0, len(in_family)))]

    # --- the deal and the layout -----------------------------------------------------------
    n_players = int(rng.choice(HELD.players) if held else rng.choice([2, 3, 4], p=[0.25, 0.3, 0.45]))
    seats = _seats(rng, n_players)
    hands: list[DealtHand] = deal_round(rng, n_players)
    free = [h.mode == "special" and h.intended_special in FREE_SHAPE_SPECIALS and rng.random() < 0.35
            for h in hands]
    art_w, art_h = art.size
    mm_per_px = CARD_W_MM / art_w
    card_h_mm = art_h * mm_per_px
    index_w = float(art.boxes[:, 2].max()) * mm_per_px
    index_h = float(art.boxes[:, 3].max()) * mm_per_px
    tight_rng = scene_rng(seed, index, stream=3, split=split) if tight > 0 else None
    fan_rng = scene_rng(seed, index, stream=5, split=split) if fan > 0 else None
    poses, hand_boxes = lay_table([h.rows for h in hands], seats, free, CARD_W_MM, card_h_mm, index_w, index_h, rng,
                                  tight_rng, tight, HELD.showing if held else None, fan_rng, fan)
    xs = [b[0] for b in hand_boxes] + [b[2] for b in hand_boxes]
    ys = [b[1] for b in hand_boxes] + [b[3] for b in hand_boxes]
    pad = 0.25 * CARD_W_MM
    extent = (min(xs) + pad, min(ys) + pad, max(xs) - pad, max(ys) - pad)
    unit = np.array([[0, 0], [art_w, 0], [art_w, art_h], [0, art_h]], dtype=np.float64)
    card_pts = np.vstack([project(card_homography(p, art_w, art_h, mm_per_px), unit) for p in poses])
    span = card_pts.max(axis=0) - card_pts.min(axis=0)
    portrait = (span[1] > span[0]) != (rng.random() < 0.15)   # the phone is mostly turned to fit
    aspect = rng.choice([4 / 3, 16 / 9, 1.0], p=[0.7, 0.2, 0.1])
    long_side, short_side = size, int(round(size / aspect / 2) * 2)
    width, height = (short_side, long_side) if portrait else (long_side, short_side)
    cam = frame_table(card_pts, width, height, rng, tilt_range=HELD.tilt_deg if held else None)
    centre = ((extent[0] + extent[2]) / 2, (extent[1] + extent[3]) / 2)

    # --- background, shadows ----------------------------------------------------------------
    canvas = Canvas.from_background(_background(rng, cam, (width, height), card_pts, textures))
    ref = project(cam.homography, np.array([[centre[0], centre[1]], [centre[0] + 10, centre[1]]]))
    px_per_mm = float(np.linalg.norm(ref[1] - ref[0])) / 10
    light = rng.uniform(0, 2 * math.pi)
    lift = rng.uniform(0.3, 1.6) * px_per_mm
    shadow = (math.cos(light) * lift, math.sin(light) * lift, rng.uniform(0.5, 2.5) * px_per_mm,
              rng.uniform(0.15, 0.45))

    # --- distractors below the cards -------------------------------------------------------
    distractors: list[dict[str, Any]] = []
    around = (extent[0] - 120, extent[1] - 120, extent[2] + 120, extent[3] + 120)

    def put(kind: str, img: NDArray[Any], w_mm: float, at: tuple[float, float] | None, key: object = None,
            angle: float | None = None) -> None:
        if at is None:
            return
        h_img = cam.homography @ _sprite_homography(img.shape[1], img.shape[0], w_mm, at[0], at[1],
                                                    rng.uniform(0, 2 * math.pi) if angle is None else angle)
        if paste(canvas, img, h_img, OCCLUDER, key=key, shadow=shadow):
            quad = project(h_img, np.array([[0, 0], [img.shape[1], 0], [img.shape[1], img.shape[0]],
                                            [0, img.shape[0]]], dtype=np.float64))
            distractors.append({"kind": kind, "corners": np.round(quad, 1).tolist()})

    back = art.back
    if back is None:
        back = sprites.procedural_back(rng, art_w, art_h)
    else:
        back = np.ascontiguousarray(back)
    if n_players < 4 and rng.random() < 0.5:
        pile_at = _place(rng, around, 60, hand_boxes)
        if pile_at is not None:
            a = rng.uniform(0, 2 * math.pi)
            for k in range(int(rng.integers(2, 6))):
                put("card_back", back, CARD_W_MM, (pile_at[0] + k * 0.3, pile_at[1] - k * 0.3), key=(art.name, "back"),
                    angle=a + rng.normal(0, 0.05))
    for _ in range(int(rng.integers(0, 3))):
        put("card_back", back, CARD_W_MM, _place(rng, around, 50, hand_boxes), key=(art.name, "back"))
    if rng.random() < 0.25:
        img, w = sprites.score_note(rng)
        put("note", img, w, _place(rng, around, 60, hand_boxes))
    if rng.random() < 0.3:
        img, w = sprites.phone(rng)
        put("phone", img, w, _place(rng, around, 90, hand_boxes))
    for _ in range(int(rng.integers(0, 6))):
        img, w = sprites.coin(rng)
        put("coin", img, w, _place(rng, around, 15, hand_boxes))
    for _ in range(int(rng.integers(0, 9))):
        img, w = sprites.chip(rng)
        at = _place(rng, around, 22, hand_boxes)
        put("chip", img, w, at)
        if at is not None and rng.random() < 0.4:
            for k in range(1, int(rng.integers(2, 6))):
                put("chip", img, w, (at[0] + rng.normal(0, 1), at[1] - 2.5 * k))

    # --- the cards ------------------------------------------------------------------------------
    card_h: list[Mat] = []
    for obj_id, pose in enumerate(poses):
        h_img = cam.homography @ card_homography(pose, art_w, art_h, mm_per_px)
        card_h.append(h_img)
        pyramid = art.pyramid(pose.card.index)
        paste(canvas, pyramid[0], h_img, obj_id, key=(art.name, pose.card.index), shadow=shadow,
              gain=float(rng.uniform(0.92, 1.04)), pyramid=pyramid)

    if bent > 0:  # the light on bowed cards (own stream: the layout and every other draw stay as they were)
        bend_rng = scene_rng(seed, index, stream=4, split=split)
        for obj_id, h_img in enumerate(card_h):
            if bend_rng.random() < bent:
                bent_card_light(canvas.image, canvas.idmap, obj_id, h_img, art_w, art_h, bend_rng)

    # --- things above the cards ---------------------------------------------------------------
    if rng.random() < 0.12:
        img, w = sprites.chip(rng)
        put("chip", img, w, _place(rng, extent, 0, []))
    if rng.random() < 0.25:
        sprites.draw_finger(canvas.image, canvas.idmap, rng, OCCLUDER)
        distractors.append({"kind": "finger"})

    # --- ground truth ------------------------------------------------------------------------
    cards_truth = []
    for obj_id, (pose, h_img) in enumerate(zip(poses, card_h, strict=True)):
        corners = project(h_img, np.array([[0, 0], [art_w, 0], [art_w, art_h], [0, art_h]], dtype=np.float64))
        bx = art.boxes[pose.card.index]
        tl = (float(bx[0]), float(bx[1]), float(bx[2]), float(bx[3]))
        boxes = []
        corner_boxes = [("top_left", tl), ("bottom_right", rotate_box_180(tl, art_w, art_h))]
        if art.four_indices:
            tr = mirror_box_x(tl, art_w)
            corner_boxes += [("top_right", tr), ("bottom_left", rotate_box_180(tr, art_w, art_h))]
        for name, box in corner_boxes:
            x0, y0, x1, y1 = box
            quad = project(h_img, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64))
            inside, on_top = polygon_visibility(canvas, quad, obj_id)
            lo = np.clip(quad.min(axis=0), 0, (width, height))
            hi = np.clip(quad.max(axis=0), 0, (width, height))
            entry = {"corner": name, "quad": np.round(quad, 2).tolist(),
                     "box": [round(float(v), 2) for v in (*lo, *hi)],
                     "inside": round(inside, 3), "unoccluded": round(on_top, 3),
                     "visible": bool(inside >= MIN_INSIDE and on_top >= MIN_VISIBLE)}
            if 0 < on_top < CUT:  # partly covered: how much of the rank and of the suit shows, and where
                entry.update(_strip_truth(canvas, art.pyramid(pose.card.index)[0], box, quad,
                                          name.startswith("top"), h_img, obj_id))
            boxes.append(entry)
        cards_truth.append({"card": str(pose.card), "class": pose.card.index, "player": seats[pose.player],
                            "row": pose.row, "position": pose.position, "corners": np.round(corners, 2).tolist(),
                            "index": boxes})


    order = sorted(range(n_players), key=lambda i: SEATS.index(seats[i]))
    round_json: dict[str, Any] = {"players": [
        {"name": seats[i], **{r: " ".join(str(c) for c in row) for r, row in zip(ROW_NAMES, hands[i].rows,
                                                                                   strict=True)}}
        for i in order]}
    round_json["banker"] = seats[order[int(rng.integers(0, n_players))]]
    players_truth = []
    for i in order:
        report = analyse(hands[i].rows, rules())
        players_truth.append({"name": seats[i], "seat": seats[i], "mode": hands[i].mode,
                              "built_as": hands[i].intended_special, "laid": "free" if free[i] else "rows",
                              "foul": report.foul, "special": report.special})
    settlement = settle(Round.from_json(round_json), rules())
    truth: dict[str, Any] = {
        "seed": seed, "index": index, "split": split, "width": width, "height": height,
        "deck": art.name, "family": art.family,
        "camera": {"tilt_deg": round(cam.tilt_deg, 2), "yaw_deg": round(cam.yaw_deg, 2),
                   "roll_deg": round(cam.roll_deg, 2), "hfov_deg": round(cam.hfov_deg, 2),
                   "distance_mm": round(cam.distance_mm, 1),
                   "homography": np.round(cam.homography, 8).tolist()},
        "round": round_json, "players": players_truth,
        "scores_classic": {p: settlement.score_of(p) for p in (pl["name"] for pl in round_json["players"])},
        "cards": cards_truth, "distractors": distractors,
    }
    # the camera's look comes last, so it draws nothing that the ground truth depends on
    if effects:
        image = finish(canvas.image, canvas.idmap >= 0, rng, soften=soften, real=real_look)
    else:   # the composed scene before the camera's look (for tests and debugging)
        image = np.clip(canvas.image, 0, 255).astype(np.uint8)
    return Scene(image=image, truth=truth)
