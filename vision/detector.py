"""Find the cards in a photo: index detector (ONNX) + index classifier (ONNX), no torch.

Stage 1 finds corner-index regions (one class) in overlapping 640 px tiles of the
photo resized so its long side is at most ``work_side`` (indices then measure about
15-70 px, the training range), plus one whole-image pass for photos whose indices are
large. Stage 2 classifies a square crop of each found index (taken from the
full-resolution photo) in its four quarter turns; the best turn gives the identity
and the index's orientation; the reject class ``zz_bg`` and low scores drop clutter. Where
``index_cls2.onnx`` is present, a second reader reads the same crops of the indices the first
reads below ``SECOND_OPINION_BELOW``, and the mean of the two decides.
Finally ``vision.join`` pairs a card's two corners by geometry, reads them together,
resolves identities read twice (one deck has each card once), and lets an index read
below the threshold count only when the identities still free make its reading clear.
Where a seat short of cards shows a hole in a row (two neighbours a whole number of spacings
apart, ``vision.holes``), the readers are asked about the places between them, and the indices
read there join the others.

>>> CardDetector.available() in (True, False)
True
"""

from __future__ import annotations

import ast
import json
import os
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import Card

from .holes import hole_boxes
from .ink import plainly_black
from .join import READ_FLOOR, IndexHit, join_indices, overlap
from .specks import SPECKLED_SHARE, without_specks
from .stretch import SAMPLE, Stretch, choose_stretch
from .tiles import BG_CLASS, CROP_SIZE, crop_square, nms
from .turn import card_turn
from .types import Box, CardDetection, Detections

MODELS = Path(__file__).resolve().parent.parent / "models"
DET_MODEL = "index_det.onnx"
CLS_MODEL = "index_cls.onnx"
CALIBRATION = "reader_calibration.json"  # optional: readers' temperature, fitted on real photos (training.calibrate)
HOLE_SCORE = 0.5  # the stage-1 score given an index read at a hole in a row (vision.holes): none was found there
SECOND_READER = "index_cls2.onnx"  # optional: a second reader asked about the indices the first is unsure of
# An index this many px long or more (in the photo as read) has its own test-time crops (CardDetector.tta_large): its
# second crop 1.05 of the square instead of 1.15, the edge of the readers' training crops (scaled 0.9-1.15), which
# takes in more of a large index's sharp neighbours and reads it worst of the five. The first reader's sure reads of
# the phone-held tables' 2,722 indices 60 px or more: 2,514 -> 2,540, 2 wrong either way; of the 200 test tables'
# indices under 60 px the same change makes 44 more sure right and 5 more sure wrong (benchmarks/test_time_crops.py),
# so they keep 1.15. Tables settled: validation 88 -> 90, 135 -> 137, 97 -> 98, bowed 58 -> 59, phone-held 23 -> 24
# and (train families) 35 -> 38, tight rows 3 -> 2, test 126 and phone-held test 35 as before, 0 wrong (MODEL_CARD.md)
LARGE_INDEX_PX = 60.0
SECOND_OPINION_BELOW = 0.9  # the first reader's best reading below this: the two readers' mean decides
#   (validation photo tables, 120 + 200: first reader alone 67 + 98 right, below 0.9 69 + 100, below 0.98
#   69 + 101, all 0 wrong; 0.9 keeps a 12 MP photo at 835 ms end to end against 953 ms for 0.98)
# A square photo read widened back to one camera frame (vision.stretch): an index both readers leave below this
# is also read in the other frame (4:3 <-> 16:9), the two frames' mean its reading. On the cardcounter val and
# train blocks, confident reads wrong 1 + 1 -> 0 + 0 (a 2c read 2s at 0.95 now read right), confident reads right
# 95 + 348 -> 95 + 349, cards read 102 + 367 -> 101 + 367; photos in their own shape are never asked (the
# validation tables 88 + 128 as before). The weight is the plain mean: 0.3 of the other frame kept one of the two.
OTHER_FRAME_BELOW = 0.9
# An index whose card lies turned this many degrees or more from the photo's axes (vision.turn.card_turn) is also read
# in crops turned upright; where both readings find the index in one quarter turn, their mean is its reading, and from
# TURN_ONLY_FROM degrees the turned one alone (the readers were trained on turns up to 30 degrees). Chosen on the
# validation tables, the phone-held validation tables and the real photos turned (benchmarks/real_turned.py): see
# the model card's "Turned cards".
TURN_MEAN_FROM = 12.0
TURN_ONLY_FROM = 30.0
# An index read best as a heart or a diamond whose ink is plainly black (vision.ink) has its red readings scaled by
# this: a strip of a spade is no diamond. On the held-out real indices covered as a tight row covers them
# (benchmarks/real_covered.py), confident reads wrong 4 -> 3 with 80 % of the width showing and 11 -> 10 at 70 %
# fanned 12 deg, the real photos turned 20 deg 3 -> 2; the phone-held test tables 34 -> 35, the validation, fan and
# test tables and the 86 real photos as before. Red ink is not told (vision.ink: a dim webcam's red is barely redder
# than its black).
RED_ON_BLACK_INK = 0.1

F32 = npt.NDArray[np.float32]
READ_BATCH = 64  # crops per reader run: a 12 MP photo's 1,720 crops in 348 ms against 454 ms in one run (the
#                 activations of a smaller batch stay in the CPU's caches), the output bit for bit the same
# Stage 1's floor. A box scored under UNREAD_INDEX is faint: its read is kept only at FAINT_READ or more, of a card no
# surer box reads, and only aside (Detections.faint), for a hand one card short (vision.layout). The held-out real
# strips left 70 % of their width (benchmarks/real_covered.py) read 0.783 at a 0.25 floor, 0.805 / 0.819 / 0.827 at
# 0.1 / 0.05 / 0.02 with the faint reads as cards; so taken they cost validation tables (eval_val 92 -> 88 at 0.05:
# a court card's picture read as a card joins a hand), kept aside none (341 -> 344 of 470, the rest as before)
FAINT_INDEX = 0.05
UNREAD_INDEX = 0.25  # a box found at least this surely and read as no card is an unread index region (vision.layout)
FAINT_READ = 0.5  # (0.85: the strips above 0.788 at a 0.05 floor; 0.5: 0.819, no confident misread more at 70 %)
SURE_INDEX = 0.35  # a stage-1 score at least this: an index sure enough to measure the photo by (zoom, stretch)


def _session(path: Path, threads: int) -> Any:
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    import onnxruntime as ort

    if not path.exists():
        raise FileNotFoundError(f"model file {path} is missing (train it with python -m training.train)")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])


def reader_temperature(models: Path) -> float:
    """The temperature the readers' probabilities are sharpened or softened by (1.0: none), from
    ``models/reader_calibration.json`` (written by ``python -m training.calibrate``)."""
    path = models / CALIBRATION
    if not path.exists():
        return 1.0
    t = float(json.loads(path.read_text())["temperature"])
    if not 0.05 <= t <= 20:
        raise ValueError(f"{path}: temperature {t} is not a calibration")
    return t


def tempered(probs: F32, temperature: float) -> F32:
    """Probabilities (..., classes) raised to 1 / ``temperature`` and normalised again: the softmax of the
    logits divided by the temperature (log-probabilities are the logits up to a constant).

    >>> p = np.array([[0.9, 0.1]], np.float32)
    >>> [round(float(v), 3) for v in tempered(p, 2.0)[0]]
    [0.75, 0.25]
    """
    if temperature == 1.0:
        return probs
    logp = np.log(np.maximum(probs, 1e-12)) / temperature
    logp -= logp.max(axis=-1, keepdims=True)
    e = np.exp(logp)
    return np.asarray(e / e.sum(axis=-1, keepdims=True), np.float32)


def _names(session: Any) -> list[str]:
    meta = session.get_modelmeta().custom_metadata_map
    raw = meta.get("names")
    if raw:
        names = ast.literal_eval(raw)
        return [str(names[i]) for i in sorted(names)]
    return sorted([str(Card.parse(c)) for c in _all_cards()] + [BG_CLASS])


def _all_cards() -> list[str]:
    from referee.cards import DECK

    return [str(c) for c in DECK]


class CardDetector:
    """The two ONNX models and the glue between them. Build once (``get_detector()`` caches)."""

    def __init__(self, models: Path = MODELS, *, det_conf: float = FAINT_INDEX, cls_conf: float = READ_FLOOR,
                 work_side: int = 1600, tile: int = 640, threads: int = 2) -> None:
        self.det = _session(models / DET_MODEL, threads)
        self.cls = _session(models / CLS_MODEL, threads)
        self.names = _names(self.cls)
        self.second = _session(models / SECOND_READER, threads) if (models / SECOND_READER).exists() else None
        if self.second is not None and _names(self.second) != self.names:
            raise ValueError(f"{models / SECOND_READER} reads other classes than {models / CLS_MODEL}")
        self.bg = self.names.index(BG_CLASS) if BG_CLASS in self.names else -1
        self.ink = True             # a red read of plainly black ink weighed down (RED_ON_BLACK_INK)
        self._is_card = np.array([n != BG_CLASS for n in self.names])
        self._red = np.array([n != BG_CLASS and Card.parse(n).suit.is_red for n in self.names])
        self.temperature = reader_temperature(models)
        self.det_conf = det_conf
        self.unread_conf = UNREAD_INDEX  # boxes scored under this, read as no card, are not unread index regions
        self.faint_read = FAINT_READ  # ... and read as a card less probably than this, no read either
        self.cls_conf = cls_conf
        self.weak_conf = 0.15       # weaker reads are kept for the deck's elimination (vision.join.by_elimination)
        self.work_side = work_side
        self.tile = tile
        self.big_index = 22.0
        self.holes = True           # the readers asked where a row shows a card not found (vision.holes)
        self.hole_ends = True       # ... and past the ends of a row the seat's other rows say is short
        self.speckled_share = SPECKLED_SHARE  # a photo with more specks than this is read median-filtered
        #                                      (vision.specks: all 86 cardcounter photos 0.972 -> 0.986)
        self.unstretch = True       # square photos squashed from 4:3 or 16:9 are read un-stretched (vision.stretch)
        self.other_frame = True     # ... and their unsure indices read in the other frame too (OTHER_FRAME_BELOW)
        self.zoom = True            # crop-and-zoom pass for small indices
        self.zoom_below = 32.0      # median index long side (working-scale px) that triggers it (20 -> 32:
        #                             validation families at 1000 px, recall 0.856 -> 0.867, same precision)
        self.zoom_target = 34.0     # index long side after zooming (the training scenes' median)
        self.zoom_gain = 1.5        # a group is searched again only when zoomed at least this much more than the first
        #                             pass (1.2 -> 1.5: validation tables 86 + 125 -> 87 + 126, the real photos alike to
        #                             the card; a 12 MP table's zoom pass no longer re-reads most of the table at 1.2x)
        # test-time crops (dx, dy, scale): the mean of their probabilities is the reading
        # (5 crops: validation-family precision 0.921 -> 0.955 at equal recall; ~+0.25 s on 52 cards)
        self.tta: tuple[tuple[float, float, float], ...] = (
            (0.0, 0.0, 1.0), (0.0, 0.0, 1.15), (0.0, 0.0, 0.9), (0.05, 0.05, 1.0), (-0.05, -0.05, 1.0))
        # an index at least large_index px long (as read): its second crop at 1.05 instead of 1.15, which takes in
        # more of the sharp neighbours of a large index and reads it worst of the five (benchmarks/test_time_crops.py)
        self.large_index = LARGE_INDEX_PX
        self.tta_large: tuple[tuple[float, float, float], ...] = (
            (0.0, 0.0, 1.0), (0.0, 0.0, 1.05), (0.0, 0.0, 0.9), (0.05, 0.05, 1.0), (-0.05, -0.05, 1.0))
        self.turns_read = 2         # the turns the test-time crops after the first are read in (``_read_turns``)
        self.turned = True          # indices of turned cards also read turned upright (``_read_pair``)
        self.turn_mean_from = TURN_MEAN_FROM
        self.turn_only_from = TURN_ONLY_FROM
        self._det_input = self.det.get_inputs()[0].name

    @staticmethod
    def available(models: Path = MODELS) -> bool:
        return (models / DET_MODEL).exists() and (models / CLS_MODEL).exists()

    # ------------------------------------------------------------------ stage 1
    def _run_det(self, image: npt.NDArray[np.uint8], min_side: float) -> tuple[F32, F32]:
        """Run stage 1 on a whole image (padded to a multiple of 32): boxes (n, 4) in its pixels, scores."""
        h, w = image.shape[:2]
        ph, pw = -(-h // 32) * 32, -(-w // 32) * 32
        pad = np.full((ph, pw, 3), 114, np.uint8)
        pad[:h, :w] = image
        out = np.asarray(self.det.run(None, {self._det_input: _as_input(pad[None])})[0], np.float32)
        p = out[0].T  # (anchors, 5): cx, cy, w, h, score
        p = p[p[:, 4] >= self.det_conf]
        if min_side:
            p = p[np.maximum(p[:, 2], p[:, 3]) >= min_side]
        boxes = np.stack([p[:, 0] - p[:, 2] / 2, p[:, 1] - p[:, 3] / 2, p[:, 0] + p[:, 2] / 2,
                          p[:, 1] + p[:, 3] / 2], axis=1)
        return boxes.astype(np.float32), p[:, 4].astype(np.float32)

    def find_indices(self, image: npt.NDArray[np.uint8]) -> tuple[F32, F32]:
        """Index boxes (n, 4) in image pixels and their scores (n,).

        Pass 1: the photo resized to a long side of at most ``work_side`` (the training
        scale: indices ~15-70 px), in one fully-convolutional run (the same as tiling it,
        without the overlap). Pass 2, for photos larger than 1.5 ``tile``: the same at half
        size, keeping only boxes of at least ``big_index`` px there (indices larger than the
        training scenes mostly show: close-up photos of few cards).
        """
        h, w = image.shape[:2]
        f = min(1.0, self.work_side / max(h, w))
        work = _resize(image, f)
        b1, s1 = self._run_det(work, 0.0)
        parts = [(b1 / f, s1)]
        if max(work.shape[:2]) >= 1.5 * self.tile:
            g = 0.4
            b2, s2 = self._run_det(_resize(work, g), self.big_index)
            parts.append((b2 / (f * g), s2))
        allb = np.concatenate([p[0] for p in parts]).astype(np.float32)
        alls = np.concatenate([p[1] for p in parts]).astype(np.float32)
        if self.zoom:
            zb, zs = self._zoom_pass(image, allb, alls, f)
            allb, alls = np.concatenate([allb, zb]), np.concatenate([alls, zs])
        keep = nms(allb, alls, 0.45)
        allb = allb[keep]
        allb[:, [0, 2]] = allb[:, [0, 2]].clip(0, w)
        allb[:, [1, 3]] = allb[:, [1, 3]].clip(0, h)
        return allb, alls[keep]

    def _zoom_pass(self, image: npt.NDArray[np.uint8], boxes: F32, scores: F32, f: float) -> tuple[F32, F32]:
        """Crop-and-zoom: when the indices found are small at the working scale, search each group
        of them again in a crop of the full-resolution photo enlarged to the training scale."""
        empty = (np.zeros((0, 4), np.float32), np.zeros(0, np.float32))
        good = scores >= SURE_INDEX
        if good.sum() < 3:
            return empty
        b = boxes[good]
        med = float(np.median(np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])))  # original px
        if med * f >= self.zoom_below:
            return empty
        h, w = image.shape[:2]
        z = self.zoom_target / med  # original px -> zoomed px
        # groups: the boxes grown by a few index sizes, joined on a coarse mask
        q = max(1.0, med)
        mask = np.zeros((int(h / q) + 1, int(w / q) + 1), np.uint8)
        for x1, y1, x2, y2 in b / q:
            cv2.rectangle(mask, (int(x1 - 4), int(y1 - 4)), (int(x2 + 4), int(y2 + 4)), 255, -1)
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        out_b, out_s = [], []
        for i in range(1, n):
            x, y, bw, bh = (float(v) * q for v in stats[i, :4])
            x1, y1, x2, y2 = max(0, int(x)), max(0, int(y)), min(w, int(x + bw)), min(h, int(y + bh))
            crop = image[y1:y2, x1:x2]
            zz = min(z, self.work_side / max(crop.shape[:2]))
            if zz <= self.zoom_gain * f:  # not really larger than the first pass
                continue
            big = cv2.resize(crop, (round(crop.shape[1] * zz), round(crop.shape[0] * zz)),
                             interpolation=cv2.INTER_CUBIC if zz > 1 else cv2.INTER_AREA)
            zb, zs = self._run_det(np.asarray(big, np.uint8), 0.0)
            out_b.append(zb / zz + np.array([x1, y1, x1, y1], np.float32))
            out_s.append(zs)
        if not out_b:
            return empty
        return np.concatenate(out_b).astype(np.float32), np.concatenate(out_s).astype(np.float32)

    # ------------------------------------------------------------------ stage 2
    def read_boxes(self, image: npt.NDArray[np.uint8], boxes: F32, other: Stretch | None = None,
                   turns: npt.NDArray[np.float64] | None = None) -> F32:
        """The readers' probabilities (n, 4 quarter turns, classes) of the index in each box, calibrated:
        the mean over the test-time crops (``_read_turns``), the second reader's opinion where the first is
        unsure, the other camera frame's where both are (``other``: ``Stretch.other_frame`` of a photo read
        widened back, ``_in_other_frame``), then the temperature (``reader_temperature``). ``turns``: the cards' turns
        around the boxes (``card_turns``), when measured already."""
        probs = self._read_pair(image, boxes, turns=turns)
        if other is not None:
            probs = self._in_other_frame(image, boxes, probs, other)
        return tempered(probs, self.temperature)

    def card_turns(self, image: npt.NDArray[np.uint8], boxes: F32, stretch: Stretch | None = None
                   ) -> npt.NDArray[np.float64]:
        """How far the card around each box lies turned (``vision.turn.card_turn``; 0: not told), in ``image`` widened
        by ``stretch``."""
        s = (1.0, 1.0) if stretch is None else (stretch.sx, stretch.sy)
        return np.array([card_turn(image, (float(b[0]), float(b[1]), float(b[2]), float(b[3])), s) for b in boxes],
                        np.float64)

    def _read_pair(self, image: npt.NDArray[np.uint8], boxes: F32, stretch: Stretch | None = None,
                   turns: npt.NDArray[np.float64] | None = None) -> F32:
        """The readers' probabilities (n, 4 turns, classes) before the temperature: the first reader's over the
        test-time crops, the two readers' mean where the first is unsure; the crops cut from ``image`` widened
        by ``stretch`` (without resampling the whole image). An index whose card lies turned (``card_turn``)
        ``turn_mean_from`` degrees or more is also read turned upright, and where that reads it in the same quarter
        turn, the two readings' mean is its reading; from ``turn_only_from`` degrees the turned reading alone,
        whichever quarter turn it reads."""
        s = (1.0, 1.0) if stretch is None else (stretch.sx, stretch.sy)
        listed = [(float(b[0]), float(b[1]), float(b[2]), float(b[3])) for b in boxes]
        if not self.turned:
            turns = np.zeros(len(listed))
        elif turns is None:
            turns = self.card_turns(image, boxes, stretch)
        only = np.abs(turns) >= self.turn_only_from
        asked = np.flatnonzero(np.abs(turns) >= min(self.turn_mean_from, self.turn_only_from))
        plain = np.flatnonzero(~only)   # past the trained turns, the upright crops' reading is not used at all
        probs = np.zeros((len(listed), 4, len(self.names)), np.float32)
        if len(plain):
            probs[plain] = self._read_crops_of(image, [listed[i] for i in plain], np.zeros(len(plain)), s)
        if len(asked):
            upright = self._read_crops_of(image, [listed[i] for i in asked], turns[asked], s)
            same = self._best_card(upright).argmax(axis=1) == self._best_card(probs[asked]).argmax(axis=1)
            for j, i in enumerate(asked):
                if only[i]:
                    probs[i] = upright[j]
                elif same[j]:
                    probs[i] = (probs[i] + upright[j]) / 2
        return probs

    def _read_crops_of(self, image: npt.NDArray[np.uint8], boxes: list[Box], turns: npt.NDArray[np.float64],
                       s: tuple[float, float]) -> F32:
        """The first reader's probabilities (n, 4 turns, classes) over the test-time crops of ``boxes``, each crop
        turned ``turns`` degrees, with the two readers' mean where the first is unsure."""
        x = TurnedCrops([crop_square(image, b, jitter=jit, stretch=s, turn=float(t))
                         for b, t in zip(boxes, turns, strict=True) for jit in self.crops_for(b, s)])
        probs = self._read_turns(self.cls, x, np.arange(len(boxes)))
        return self._second_opinion(probs, lambda rows: self._read_turns(self.second, x, rows))

    def crops_for(self, box: Box, s: tuple[float, float] = (1.0, 1.0)) -> tuple[tuple[float, float, float], ...]:
        """The test-time crops (dx, dy, scale) of the index in ``box``, the photo widened ``s`` as read: ``tta``, or
        ``tta_large`` for an index at least ``large_index`` px long (as many crops either way)."""
        long_side = max((box[2] - box[0]) * s[0], (box[3] - box[1]) * s[1])
        return self.tta_large if long_side >= self.large_index else self.tta

    def _in_other_frame(self, image: npt.NDArray[np.uint8], boxes: F32, probs: F32, other: Stretch) -> F32:
        """``probs`` with the mean of their reading and the other camera frame's where the best card is below
        ``OTHER_FRAME_BELOW``: the squashed webcam's clubs and spades read alike in one frame may not in the other."""
        unsure = np.flatnonzero(self._best_card(probs).max(axis=1) < OTHER_FRAME_BELOW)
        if len(unsure):
            probs[unsure] = (probs[unsure] + self._read_pair(image, boxes[unsure], other)) / 2
        return probs

    def read_crops(self, crops: list[npt.NDArray[np.uint8]]) -> F32:
        """The readers' probabilities (n, 4 quarter turns, classes) of upright BGR crops as ``read_boxes`` reads an
        index, but each crop read once (no test-time crops): the first reader, the second's opinion where the first
        is unsure, the temperature."""
        x = TurnedCrops(crops)
        probs = self._read(self.cls, x.all(), len(crops), 1)
        probs = self._second_opinion(
            probs, lambda rows: self._read(self.second, x[(rows[:, None] * 4 + np.arange(4)[None]).ravel()],
                                           len(rows), 1))
        return tempered(probs, self.temperature)

    def _second_opinion(self, probs: F32, read_second: Callable[[npt.NDArray[np.intp]], F32]) -> F32:
        """``probs`` (n, 4 turns, classes), the first reader's, with the mean of the two readers where the first is
        unsure (its best card below ``SECOND_OPINION_BELOW``); ``read_second(rows)``: the second reader's of those."""
        if self.second is not None:
            unsure = np.flatnonzero(self._best_card(probs).max(axis=1) < SECOND_OPINION_BELOW)
            if len(unsure):
                probs[unsure] = (probs[unsure] + read_second(unsure)) / 2
        return probs

    def _read_turns(self, session: Any, x: TurnedCrops, which: npt.NDArray[np.intp]) -> F32:
        """A reader's probabilities (len(which), 4 turns, classes) of the boxes ``which`` of ``x`` (each box's
        test-time crops in their four turns, as ``read_boxes`` lays them out). With ``turns_read`` < 4 the first
        crop is read in its four turns and the other crops only in the ``turns_read`` turns that read it surest;
        the turns left out read 0 (an index lies in one turn: the others only compete with it)."""
        t, m = len(self.tta), len(which)
        base = which * (t * 4)
        if self.turns_read >= 4 or t == 1:
            return self._read(session, x[(base[:, None] + np.arange(t * 4)[None]).ravel()], m, t)
        first = self._read(session, x[(base[:, None] + np.arange(4)[None]).ravel()], m, 1)
        kept = np.argsort(-self._best_card(first), axis=1, kind="stable")[:, :self.turns_read]  # (m, turns_read)
        rows = base[:, None, None] + 4 * np.arange(1, t)[None, :, None] + kept[:, None, :]   # (m, t - 1, turns_read)
        rest = self._run(session, x[rows.ravel()]).reshape(m, t - 1, self.turns_read, -1)
        crops = np.concatenate([np.take_along_axis(first, kept[:, :, None], axis=1)[:, None], rest], axis=1)
        out = np.zeros_like(first)
        np.put_along_axis(out, kept[:, :, None], crops.mean(axis=1, dtype=np.float32), axis=1)
        return out

    def _best_card(self, probs: F32) -> F32:
        """The best card's probability (n, 4) in each turn of readings (n, 4 turns, classes): the reject class
        left out."""
        cards = np.delete(probs, self.bg, axis=2) if self.bg >= 0 else probs
        return np.asarray(cards.max(axis=2), np.float32)

    def classify(self, image: npt.NDArray[np.uint8], boxes: F32, scores: F32,
                 other: Stretch | None = None) -> list[IndexHit]:
        if len(boxes) == 0:
            return []
        turns = self.card_turns(image, boxes)
        probs = self.read_boxes(image, boxes, other, turns)
        if self.ink:
            self._black_ink(image, boxes, probs)
        hits: list[IndexHit] = []
        for b, s, p, t in zip(boxes, scores, probs, turns, strict=True):
            cards = p.copy()
            if self.bg >= 0:
                cards[:, self.bg] = -1
            k, c = (int(v) for v in np.unravel_index(int(np.argmax(cards)), cards.shape))
            prob = float(cards[k, c])
            if prob < self.weak_conf or (self.bg >= 0 and p[k, self.bg] > prob):
                continue
            if s < self.unread_conf and prob < self.faint_read:
                continue
            box = (float(b[0]), float(b[1]), float(b[2]), float(b[3]))
            hits.append(IndexHit(box=box, det_score=float(s), card=self.names[c], cls_prob=prob,
                                 glyph_up=float(90 * k % 360), probs=np.maximum(cards[k], 0.0),
                                 turn=float(t) if t != 0.0 else None))
        return hits

    def faint_apart(self, hits: list[IndexHit]) -> tuple[list[IndexHit], list[IndexHit]]:
        """``hits`` split into those of boxes found surely and the faint ones (stage 1 scored their box under
        ``unread_conf``), less the faint ones read as a card a surely found box is read as too: that card is found
        already, and a faint box of its identity is mostly its own picture or pips read again."""
        sure = [h for h in hits if h.det_score >= self.unread_conf]
        found = {h.card for h in sure}
        return sure, [h for h in hits if h.det_score < self.unread_conf and h.card not in found]

    def _black_ink(self, image: npt.NDArray[np.uint8], boxes: F32, probs: F32) -> None:
        """Scale the red readings (``RED_ON_BLACK_INK``) of each index read best as a heart or a diamond whose ink is
        plainly black (``vision.ink.plainly_black``), in place."""
        for i, b in enumerate(boxes):
            best = int(np.argmax(np.where(self._is_card, probs[i], -1.0)) % probs.shape[2])
            if self._red[best] and plainly_black(image, (float(b[0]), float(b[1]), float(b[2]), float(b[3]))):
                probs[i][:, self._red] *= RED_ON_BLACK_INK

    def _run(self, session: Any, x: F32) -> F32:
        """A reader's output for each input of ``x``, in batches of READ_BATCH crops (the same numbers, sooner)."""
        name = session.get_inputs()[0].name
        parts = [np.asarray(session.run(None, {name: x[i:i + READ_BATCH]})[0], np.float32)
                 for i in range(0, len(x), READ_BATCH)] or [np.asarray(session.run(None, {name: x})[0], np.float32)]
        return np.concatenate(parts)

    def _read(self, session: Any, x: F32, n: int, crops_per_box: int) -> F32:
        """A reader's probabilities (n, 4 turns, classes), the mean over each box's ``crops_per_box`` crops."""
        return np.asarray(self._run(session, x).reshape(n, crops_per_box, 4, -1).mean(axis=1), np.float32)

    def first_reading(self, crops: list[npt.NDArray[np.uint8]]) -> F32:
        """The first reader's raw probabilities (n, 4 quarter turns, classes) of upright crops, each read once
        in its four turns (no test-time crops, no temperature)."""
        return self._read(self.cls, TurnedCrops(crops).all(), len(crops), 1)

    # ------------------------------------------------------------------ cards
    def read_holes(self, image: npt.NDArray[np.uint8], cards: list[CardDetection],
                   other: Stretch | None = None) -> list[IndexHit]:
        """The indices read where a row shows a card the finder missed (``vision.holes``): each place read as
        an index, kept when read the way its neighbours face as an identity no card holds; of a group of
        places that are alternatives, the surest ``room``."""
        holes = hole_boxes(cards, ends=self.hole_ends)
        if not holes:
            return []
        held = {str(c.card) for c in cards}
        boxes = np.array([h.box for h in holes], np.float32)
        hits = self.classify(image, boxes, np.full(len(boxes), HOLE_SCORE, np.float32), other)
        hole_at = {tuple(float(v) for v in b): h for b, h in zip(boxes, holes, strict=True)}  # a hit keeps its box
        kept: list[IndexHit] = []
        taken: dict[int, int] = {}
        for hit in sorted(hits, key=lambda h: -h.cls_prob):
            hole = hole_at[hit.box]
            faces = abs((hit.glyph_up - hole.facing) % 360) < 1
            if hit.card in held or not faces or taken.get(hole.group, 0) >= hole.room:
                continue
            taken[hole.group] = taken.get(hole.group, 0) + 1
            kept.append(hit)
        return kept

    def join(self, hits: list[IndexHit]) -> list[CardDetection]:
        """One detection per physical card (``vision.join``)."""
        return join_indices(hits, self.names, self.cls_conf)

    def sureness(self, image: npt.NDArray[np.uint8], boxes: F32, stretch: Stretch) -> float:
        """The first reader's mean best card probability over ``boxes``, each read once (four turns) in the
        photo stretched by ``stretch`` (``vision.stretch``)."""
        crops = [crop_square(image, (float(b[0]), float(b[1]), float(b[2]), float(b[3])),
                             stretch=(stretch.sx, stretch.sy)) for b in boxes]
        probs = tempered(self.first_reading(crops), self.temperature)
        return float(self._best_card(probs).max(axis=1).mean())

    def pick_stretch(self, image: npt.NDArray[np.uint8], boxes: F32, scores: F32) -> Stretch:
        """How to widen the photo before reading it: not at all unless it is a square one squashed from a
        camera's 4:3 or 16:9 frame, judged on its ``SAMPLE`` surest indices (``vision.stretch``)."""
        h, w = image.shape[:2]
        sure = np.argsort(-scores)[:SAMPLE]
        sample = boxes[sure[scores[sure] >= SURE_INDEX]]
        return choose_stretch(lambda s: self.sureness(image, sample, s), w, h, len(sample))

    def find_as_read(self, image: npt.NDArray[np.uint8]) -> tuple[Stretch, npt.NDArray[np.uint8], F32, F32]:
        """The photo as it is read (widened back when ``pick_stretch`` takes it for a squashed one: the
        stretch, the widened photo) and the index boxes and scores found in it, in its pixels. A photo speckled
        with salt-and-pepper noise is read median-filtered (``vision.specks``)."""
        image = without_specks(image, self.speckled_share)
        boxes, scores = self.find_indices(image)
        stretch = self.pick_stretch(image, boxes, scores) if self.unstretch else Stretch()
        if stretch.identity:
            return stretch, image, boxes, scores
        widened = stretch.apply(image)  # found again in the camera's own shape
        return (stretch, widened, *self.find_indices(widened))

    def detect(self, image: npt.NDArray[np.uint8]) -> Detections:
        t0 = time.perf_counter()
        h, w = image.shape[:2]
        stretch, image, boxes, scores = self.find_as_read(image)
        t1 = time.perf_counter()
        other = stretch.other_frame() if self.other_frame else None
        hits, faint = self.faint_apart(self.classify(image, boxes, scores, other))
        t2 = time.perf_counter()
        cards = self.join(hits)
        if self.holes:
            at_holes = self.read_holes(image, cards, other)
            if at_holes:
                hits += at_holes
                cards = self.join(hits)
        t3 = time.perf_counter()
        timing = {"index_detect": (t1 - t0) * 1e3, "classify": (t2 - t1) * 1e3, "join": (t3 - t2) * 1e3,
                  "total": (t3 - t0) * 1e3}
        found = Detections(width=image.shape[1], height=image.shape[0], cards=tuple(cards), timing_ms=timing,
                           unread=unread_regions(boxes[scores >= self.unread_conf], cards),
                           faint=tuple(self.join(faint)))
        return stretch.to_photo(found, w, h)


def _as_input(images: npt.NDArray[np.uint8]) -> F32:
    """BGR uint8 images (N x H x W x 3) as the models' input: RGB 0..1, N x 3 x H x W (the colour planes
    laid out in uint8 first, then divided once: a third of the time of converting the BGR array)."""
    planes = np.ascontiguousarray(images.transpose(0, 3, 1, 2)[:, ::-1])
    return np.divide(planes, np.float32(255), dtype=np.float32)


class TurnedCrops:
    """Upright BGR uint8 crops as the readers' input, each in its four quarter turns (``np.rot90`` k = 0..3, the
    turn innermost: row ``4 * crop + k``), made only for the rows asked for (``x[rows]``: RGB 0..1, len(rows) x 3 x
    H x W); the readers read 12 of each index's 20."""

    def __init__(self, crops: list[npt.NDArray[np.uint8]]) -> None:
        self.upright = np.stack(crops)

    def __len__(self) -> int:
        return 4 * len(self.upright)

    def __getitem__(self, rows: npt.NDArray[np.intp]) -> F32:
        rows = np.asarray(rows, np.intp)
        _, h, w, _ = self.upright.shape
        out = np.empty((len(rows), 3, h, w), np.float32)
        crop, turn = rows // 4, rows % 4
        for k in range(4):
            at = np.flatnonzero(turn == k)
            if len(at):
                out[at] = _as_input(np.rot90(self.upright[crop[at]], k, axes=(1, 2)))
        return out

    def all(self) -> F32:
        """Every crop in its four turns, 4N x 3 x H x W."""
        return self[np.arange(len(self))]


def unread_regions(boxes: F32, cards: list[CardDetection]) -> tuple[Box, ...]:
    """The index regions found (``boxes``) that no card was read from: not overlapping any card's index boxes."""
    read = [b for c in cards for b in c.index_boxes]
    out: list[Box] = []
    for b in boxes:
        box = (float(b[0]), float(b[1]), float(b[2]), float(b[3]))
        if all(overlap(box, r) <= 0.3 for r in read):
            out.append(box)
    return tuple(out)


def _resize(image: npt.NDArray[np.uint8], f: float) -> npt.NDArray[np.uint8]:
    if f >= 1:
        return image
    h, w = image.shape[:2]
    return np.asarray(cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA), np.uint8)


@cache
def get_detector(models: Path = MODELS) -> CardDetector:
    """The shared detector (models loaded once per process)."""
    return CardDetector(models)


__all__ = ["CROP_SIZE", "CardDetector", "IndexHit", "get_detector"]
