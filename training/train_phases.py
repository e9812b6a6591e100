"""The training recipe as data: what each phase of the index finder (``DetPhase``) and of the reader
(``ClsPhase``, with the font-deck scene sets it adds, ``FontScenes``) trains on and how, the tables
``DET_PHASES`` and ``CLS_PHASES`` naming them (the ``--stages`` names), and ``READER_BUDGETS``, the
reader's later phases' default time budgets and epochs. A new phase is a new row here."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FontScenes:
    """A set of procedural font-deck scenes a reader phase adds crops of: the crops folder, the option
    giving how many scenes, the scenes folder and its seed (offset from ``--seed``; another seed, other decks)."""

    crops: str
    count: str
    scenes: str = "scenes_fonts"
    seed_offset: int = 60
    drawn_suits: bool = False  # the decks' suits drawn from parameters (datasets.suit_shapes), not a font's glyphs
    debian_fonts: bool = False  # the decks' fonts chosen among the Debian font packages' too (datasets.debian_fonts)


@dataclass(frozen=True)
class DetPhase:
    """One stage-1 phase: its tiles (folder, how many scenes, tile seed offset), time budget
    (the ``--<name>-hours`` option), learning rate, rotation augmentation and starting run."""

    tiles: str
    scenes: str           # the option giving how many training scenes: "scenes" or "ft_scenes"
    seed_offset: int
    lr: float
    warmup: float
    degrees: float
    init: str | None      # the run whose best weights it starts from (None: the model YAML)
    scale_range: tuple[float, float] = (0.5, 2.5)   # tile zoom range (index sizes seen)
    foreign: bool = False  # also tiles of --foreign-scenes scenes drawn from the tier B/C decks (see below)
    fonts: FontScenes | None = None  # also tiles of these procedural font-deck scenes
    v2: bool = False       # also tiles of the --v2-scenes scenes (train families, today's camera framing)
    real: bool = False     # also tiles of real photos (training.realtiles: cardcounter's train split; its val split
    #                        joins the validation tiles and so chooses the best epoch)
    tight: bool = False    # also tiles of the --det-tight-scenes tight-row scenes, their readable strips labelled
    held: bool = False     # also tiles of the --held-scenes / --held-font-scenes scenes (a phone held over the table),
    #                        their readable strips labelled
    tile: int = 256        # the tiles' side (train_data.DET_TILE; the finder is fully convolutional)
    freeze_bn: bool = False  # batch norms held (a start recovered from an ONNX export: training.recover)
    real_covered: str = ""   # also tiles of the real train photos with their cards covered in the photo
    #                          (training.realcover.build_covered_photos), made once into this work folder
    real_covered_copies: int = 2  # times each group of coverable cards is covered


@dataclass(frozen=True)
class ClsPhase:
    """One stage-2 phase: its crops, epochs/budget options, learning rate, start, turn augmentation."""

    crops: str
    scenes: str           # "scenes", "ft_scenes" or "ft2_scenes"
    seed_offset: int
    lr: float | None      # None: --cls-lr
    init: str | None      # the run it starts from; None: --cls-init (usually nothing)
    max_deg: float = 12.0
    blur_p: float = 0.3   # share of each batch blurred (shrunk and enlarged back)
    blur_min: float = 0.35  # the strongest shrink
    foreign: bool = False  # also the number cards of the --foreign-scenes scenes (crops_foreign)
    small: bool = False    # also the crops of the --small-scenes scenes (crops_small): photos of fewer pixels
    fonts: FontScenes | None = None  # also crops of procedural font decks' scenes
    more_fonts: tuple[FontScenes, ...] = ()  # and of these further font-deck scene sets
    motion_p: float = 0.0  # share of each batch streaked by motion blur
    v2: bool = False       # also the crops of the --v2-scenes scenes (crops_v2)
    exports_as: str = "index_cls.onnx"  # or "index_cls2.onnx": the second reader (vision.detector)
    real: bool = False     # also crops of real photos (training.realcrops: cardcounter's train split; its val
    #                        split joins the validation crops and chooses the best epoch)
    real_crops: str = "crops_real"  # the folder of those crops (made with the index finder in models/ then)
    real_variants: int = 12  # crops cut around each labelled index of the real training photos
    real_as_read: bool = False  # those crops cut as the runtime reads each photo (squashed frames widened back)
    real_filtered: bool = False  # those crops cut from the photos median-filtered where speckled (vision.specks)
    real_shrunk: float = 0.0  # the share of those crops cut from the photos shrunk 0.4-0.8 and JPEG'd (a poorer camera)
    tight: bool = False    # also the crops of --tight-scenes / --tight-font-scenes scenes laid in tight rows, with
    #                        the strips a person reads (train_data.readable_strip) and sideways indices as background
    stretch_p: float = 0.0  # share of each batch stretched along one axis (webcam frames stored square)
    freeze_bn: bool = False  # batch norms held (a start recovered from an ONNX export: training.recover)
    neighbour_p: float = 0.0  # share of each batch given the cards of a tight row around it (training.neighbours)
    cut_p: float = 0.0     # share of those neighbours whose covering edge cuts into the index's ink (a tighter row)
    strip_p: float = 0.0   # share of each batch cut down to a strip of its index (training.neighbours.cut_strips)
    sharpen_p: float = 0.0  # share of the crops not blurred that are sharpened (real webcams: edges half as wide)
    bent: bool = False     # also the crops of the --bent-scenes scenes: bowed cards, glare bands across indices
    look: bool = False     # also the crops of the --look-scenes scenes: the camera look measured on real photos
    wide_p: float = 0.0    # share of each batch's index crops turned 30-42 deg (train_reader.WIDE_DEG): a fan's cards
    held: bool = False     # also the crops of the --held-scenes / --held-font-scenes scenes: tables as a phone held
    #                        over them sees them (datasets.synth --held: tilted 15-35 deg, rows overlapped, glare)
    fanned: bool = False   # also crops of the train and tight scenes' indices cut turned among their neighbours
    #                        (train_data.build_fanned_crops: FAN_DEG from a quarter turn, as a fan's cards lie)
    fan_rows: bool = False  # also the crops of the --fan-scenes / --fan-font-scenes scenes: every row laid as a fan
    #                         (datasets.synth --fan 1: each next card turned 3-10 deg further), readable strips too
    real_covered: str = ""  # also crops of the real train blocks with cards covered in the photo as a tight row's or
    #                         a fan's next card covers them (training.realcover), down to strips a person reads: their
    #                         folder ("": none)
    real_covered_copies: int = 3  # the times each group of coverable cards is covered for those crops
    tight_fans: bool = False  # also the crops of --tight-fan-scenes / --tight-fan-font-scenes scenes: the fans laid
    #                           mostly tight too (datasets.synth --fan 1 --tight 0.8: strips of the covered indices)


def _first_reader(lr: float, init: str, **more: Any) -> ClsPhase:
    """A reader phase on the first reader's (cls17's) data, as most later phases are: cls13's synthetic crops, the new
    font decks', the tight rows' with their strips; turns to 30 deg, half of each batch blurred or stretched, batch
    norms held. ``more``: what the phase adds or changes."""
    return ClsPhase("crops_r", "real_scenes", 900, lr, init, max_deg=30.0, blur_p=0.5, blur_min=0.22,
                    fonts=FontScenes("crops_fonts_r", "font_scenes_r", "scenes_fonts_r", 80), tight=True,
                    stretch_p=0.5, freeze_bn=True, **more)


def _second_reader(lr: float, init: str, real_crops: str = "crops_real2", **more: Any) -> ClsPhase:
    """A reader phase on the second reader's (cls19's) data: the first reader's and the real train blocks' crops
    (``real_crops``), half of each batch given the cards of a tight row around it; exported as the second reader."""
    return _first_reader(lr, init, real=True, real_crops=real_crops, neighbour_p=0.5, exports_as="index_cls2.onnx",
                         **more)


def _covered16_reader(lr: float, init: str, **more: Any) -> ClsPhase:
    """A reader phase on ``cls52``'s data: the first reader's, the fanned rows' and the real train blocks' cards covered
    16 times; exported as the second reader. ``more``: what the phase adds."""
    return _first_reader(lr, init, fan_rows=True, real_covered="crops_real_covered16", real_covered_copies=16,
                         exports_as="index_cls2.onnx", **more)


# further font-deck scene sets, each shared by a phase of each reader
DRAWN_SUIT_SCENES = FontScenes("crops_drawn_suits", "drawn_suit_scenes", "scenes_drawn_suits", 141, drawn_suits=True)
DEBIAN_FONT_SCENES = FontScenes("crops_debian_fonts", "debian_font_scenes", "scenes_debian_fonts", 142,
                                debian_fonts=True)

DET_PHASES = {
    "det": DetPhase("tiles", "scenes", 0, 0.002, 0.5, 0.0, None),
    "det2": DetPhase("tiles2", "ft_scenes", 100, 0.001, 0.2, 0.0, "det"),        # more scenes
    "det3": DetPhase("tiles2", "ft_scenes", 100, 0.0007, 0.2, 40.0, "det2"),     # turned up to 40 deg (not shipped)
    # all 2,800 scenes plus scenes of the decks with foreign index letters (German, French,
    # Italian, Cyrillic: an index is an index to stage 1), new tiles, smaller indices too, turned a little
    "det4": DetPhase("tiles3", "ft2_scenes", 300, 0.0007, 0.2, 10.0, "det2", scale_range=(0.4, 2.5),
                     foreign=True),
    # det4 went on improving to its last (budget-cut) epoch: the same tiles again, at a lower rate (on request)
    "det5": DetPhase("tiles3", "ft2_scenes", 300, 0.0004, 0.1, 10.0, "det4", scale_range=(0.4, 2.5),
                     foreign=True),
    # det4 on new tiles that add the procedural font decks' scenes: more index designs
    "det6": DetPhase("tiles4", "ft2_scenes", 400, 0.0005, 0.1, 10.0, "det4", scale_range=(0.4, 2.5),
                     foreign=True, fonts=FontScenes("", "font_scenes")),
    # det6 on new tiles that add train-family scenes framed as the generator frames tables now (cameras
    # further back than for the first 2,800 scenes: cards ~25 % smaller, like the evaluation tables')
    "det7": DetPhase("tiles5", "ft2_scenes", 500, 0.0004, 0.1, 10.0, "det6", scale_range=(0.4, 2.5),
                     foreign=True, fonts=FontScenes("", "font_scenes"), v2=True),
    # det6 (models/index_det6.pt, recovered from its ONNX export, when its run is not here) continued on tiles of
    # REAL photos (cardcounter's train split, 16 augmented tiles per photo, training.realtiles) beside 300
    # train-family and 250 font-deck scenes' tiles (cls13's scenes), at 416 px (the earlier phases: 256), batch
    # norms held: stage 1 had not located 13 % of the real test indices, large clear ones at any turn among them.
    # Shipped: the real test blocks' recall 0.713 -> 0.829, located 269 -> 303 of 311 (model card)
    "det8": DetPhase("tiles_r", "real_scenes", 900, 0.0003, 0.0, 10.0, "det6", scale_range=(0.4, 2.5),
                     fonts=FontScenes("", "font_scenes_r", "scenes_fonts_r", 80), real=True, tile=416, freeze_bn=True),
    # det8 (models/index_det.pt when its run is not here) continued on det8's tiles beside tiles of the tight-row scenes
    # (datasets.synth --tight) with the strips a person reads labelled around what shows of them: no index-finder
    # phase had seen a synthetic tight row, and on tight-row validation tables stage 1 did not locate an eighth of
    # the readable strips (the reader reads 80 % of them)
    "det9": DetPhase("tiles_t", "real_scenes", 900, 0.0002, 0.0, 10.0, "det8", scale_range=(0.4, 2.5),
                     fonts=FontScenes("", "font_scenes_r", "scenes_fonts_r", 80), real=True, tile=416, freeze_bn=True,
                     tight=True),
    # det8 (models/index_det.pt when its run is not here) continued on det8's tiles beside tiles of the tables laid and
    # photographed as a phone held over them sees them (datasets.synth --held), their readable strips labelled: of
    # the cards whose index shows and that no read found on the phone-held validation tables, a third had not been
    # located by stage 1 at all
    "det10": DetPhase("tiles_h", "real_scenes", 900, 0.0002, 0.0, 10.0, "det8", scale_range=(0.4, 2.5),
                      fonts=FontScenes("", "font_scenes_r", "scenes_fonts_r", 80), real=True, tile=416, freeze_bn=True,
                      held=True),
    # det8 (models/index_det.pt when its run is not here) continued on det8's tiles beside tiles of the real train
    # photos with their cards covered in the photo down to strips a person reads (as cls50's crops), the strips and
    # the covering cards' own indices labelled: on the held-out real photos covered so stage 1 located 287 of 343
    # indices with 70 % of the width showing, 208 with 60 %. On request, not shipped (session 46: located 308 and 237,
    # but only 4 and 1 cards more read; eval_val 93 -> 93, eval_val3 105 -> 104, eval_held 33 -> 31, eval_fan 40 -> 38
    # with 1 settled wrong)
    "det11": DetPhase("tiles_rc", "real_scenes", 1000, 0.0002, 0.0, 10.0, "det8", scale_range=(0.4, 2.5),
                      fonts=FontScenes("", "font_scenes_r", "scenes_fonts_r", 80), real=True, tile=416, freeze_bn=True,
                      real_covered="photos_real_covered", real_covered_copies=2),
}
SHIPPED_FINDER = "det8"  # the phase whose own weights are models/index_det.pt
CLS_PHASES = {
    "cls": ClsPhase("crops", "scenes", 0, None, None),
    "cls2": ClsPhase("crops", "scenes", 0, 1e-3, "cls"),          # the cosine schedule again, half the rate
    "cls3": ClsPhase("crops2", "ft_scenes", 100, 7e-4, "cls2"),   # twice the scenes
    "cls4": ClsPhase("crops3", "ft2_scenes", 200, 5e-4, "cls3", max_deg=30.0),  # 4x; cards between quarter turns
    # the same crops, more epochs, half of each batch blurred harder (small, soft indices)
    "cls5": ClsPhase("crops3", "ft2_scenes", 200, 4e-4, "cls4", max_deg=30.0, blur_p=0.5, blur_min=0.22),
    # plus the foreign-letter decks' number cards: more designs of 2-10 and of the suits
    # (on request only: better on validation families, not on the held-out ones; see the model card)
    "cls6": ClsPhase("crops3", "ft2_scenes", 200, 3e-4, "cls5", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                     foreign=True),
    # plus crops of scenes rendered at 800-1400 px (indices of 15-45 px drawn at that size, with the
    # JPEG and resampling of a small photo, not blurred after the fact): the reader's misses are small
    # indices (on request only: no better than cls5 on the validation-family tables; see the model card)
    "cls7": ClsPhase("crops3", "ft2_scenes", 200, 3e-4, "cls5", max_deg=30.0, blur_p=0.4, blur_min=0.25,
                     small=True),
    # plus crops of scenes whose cards are procedural decks drawn in the machine's fonts
    # (datasets.font_decks: a new index design every 10 scenes): the reader's misses are designs it never saw
    "cls8": ClsPhase("crops3", "ft2_scenes", 200, 3e-4, "cls5", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                     fonts=FontScenes("crops_fonts", "font_scenes")),
    # cls8 continued, with twice the font decks (their first 1,500 scenes and 1,500 new ones; new crops)
    "cls9": ClsPhase("crops3", "ft2_scenes", 200, 2e-4, "cls8", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                     fonts=FontScenes("crops_fonts2", "font_scenes2")),
    # cls9 continued with the crops of train-family scenes framed as the generator frames tables now
    # (cameras further back than for the first 2,800 scenes: smaller indices, like the evaluation tables')
    "cls10": ClsPhase("crops3", "ft2_scenes", 200, 2e-4, "cls9", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                      v2=True),
    # cls9 continued with 3,000 scenes of 300 new font decks (another seed; new crops): the second reader,
    # asked where cls9 is unsure (alone it reads no better than cls9; the two together do: model card)
    "cls11": ClsPhase("crops3", "ft2_scenes", 200, 1.5e-4, "cls9", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                      fonts=FontScenes("crops_fonts3", "font_scenes3", "scenes_fonts3", 61),
                      exports_as="index_cls2.onnx"),
    # cls9 continued on both font-deck crop sets (cls9's and cls11's) with a quarter of each batch streaked by
    # motion blur: a shaken photo's indices, which no earlier phase saw except where a scene had them
    # (on request only: worse than cls9 on the validation tables after 1 and 2 epochs; see the model card)
    "cls12": ClsPhase("crops3", "ft2_scenes", 200, 1.5e-4, "cls9", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                      fonts=FontScenes("crops_fonts2", "font_scenes2"),
                      more_fonts=(FontScenes("crops_fonts3", "font_scenes3", "scenes_fonts3", 61),), motion_p=0.25),
    # cls9 (then the first reader; models/index_cls9.pt when its run is not here) continued on crops of REAL photos
    # (cardcounter's train split, 12 crops per index) beside 300 train-family scenes and 250 new font-deck
    # scenes, a share stretched as webcam frames stored square are; the best epoch by the mean of the
    # synthetic and the real validation top-1 (the real photos' misreads were suits: clubs read as spades).
    # The second reader (alone as the first it settled 75 of the 120 validation tables against cls9's 83;
    # as the second 79, and it reads the real validation photos better either way: see the model card)
    "cls13": ClsPhase("crops_r", "real_scenes", 900, 1e-4, "cls9", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                      fonts=FontScenes("crops_fonts_r", "font_scenes_r", "scenes_fonts_r", 80), real=True,
                      stretch_p=0.5, freeze_bn=True, exports_as="index_cls2.onnx"),
    # cls13 (models/index_cls13.pt when its run is not here) continued on new crops of the real photos, cut around
    # det8's boxes as well as the labelled ones (det8 locates 97 % of the real test indices, det6 87 %), beside
    # cls13's synthetic crops: the real misses left are located strips of upside-down indices read below the floor.
    # On request: as the second reader 80 / 113 / 125 of the 520 tables (cls13: 79 / 113 / 124), the real val
    # blocks 0.885 either way, but a committed held-out real crop (a 4h) read as Kh a quarter turn off
    "cls14": ClsPhase("crops_r", "real_scenes", 900, 7e-5, "cls13", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                      fonts=FontScenes("crops_fonts_r", "font_scenes_r", "scenes_fonts_r", 80), real=True,
                      real_crops="crops_real2", stretch_p=0.5, freeze_bn=True, exports_as="index_cls2.onnx"),
    # cls13 (models/index_cls13.pt when its run is not here) continued on cls14's crops beside crops of 1,500 scenes
    # laid in TIGHT rows (datasets.synth --tight: the next card or row cuts through the index; the strips whose
    # rank shows whole and a quarter of whose suit shows are targets too, cut around what shows), 5 % of their
    # index crops also written a quarter turn off as background (cls14 read a 4h a quarter turn off as a Kh).
    # On request: as the first reader the real blocks read best (val 0.923, test 0.879) but 119 of the 200 test
    # tables settle (124 before); as the second, no better on the real photos (model card)
    "cls15": ClsPhase("crops_r", "real_scenes", 900, 7e-5, "cls13", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                      fonts=FontScenes("crops_fonts_r", "font_scenes_r", "scenes_fonts_r", 80), real=True,
                      real_crops="crops_real2", tight=True, stretch_p=0.5, freeze_bn=True),
    # cls15's data from cls9 (models/index_cls9.pt when its run is not here). On request: as the first reader real
    # val 0.923, but 115 of the 200 test tables (the real crops of one deck cost the unseen designs)
    "cls16": ClsPhase("crops_r", "real_scenes", 900, 7e-5, "cls9", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                      fonts=FontScenes("crops_fonts_r", "font_scenes_r", "scenes_fonts_r", 80), real=True,
                      real_crops="crops_real2", tight=True, stretch_p=0.5, freeze_bn=True),
    # cls9 (models/index_cls9.pt when its run is not here) continued on cls13's synthetic crops beside the crops of
    # the tight-row scenes (no real photos: the second reader, cls13, brings those). The first reader shipped:
    # validation tables 79 + 113 -> 84 + 114, real val blocks 0.885 -> 0.904 (model card)
    "cls17": _first_reader(7e-5, "cls9"),
    # cls17 (models/index_cls17.pt when its run is not here) continued on cls17's data,
    # half of each batch given the cards of a tight row around its index (training.neighbours: the covering card's
    # edge and index just past the ink, the next row from below, a strip of the card beneath). On request: as the
    # first reader (cls13 second) the real blocks read a little better (val 0.894, test 0.842) and the validation
    # tables 84 + 117, but 114 of the 200 test tables (unseen designs) settle, against cls17's 121
    "cls18": _first_reader(5e-5, "cls17", neighbour_p=0.5),
    # cls13 (models/index_cls13.pt when its run is not here) continued on cls15's data (cls13's synthetic and real
    # crops, the tight-row scenes, the real crops cut at det8's boxes too) with cls18's tight-row neighbours on
    # half of each batch. The second reader shipped: the real val blocks 0.904 -> 0.913, the validation tables
    # 84 + 114 -> 82 + 118, the test tables 121 either way (model card)
    "cls19": _second_reader(5e-5, "cls13"),
    # cls17 (models/index_cls17.pt when its run is not here) continued on cls17's data with 80 % of the crops not
    # blurred sharpened: the real indices' edges are about half as wide for their size as the synthetic ones. On
    # request: as the first reader (cls19 second) the validation tables 84 + 121 (cls17: 82 + 118), but the real
    # val blocks 0.894 (cls17: 0.913; confident wrong 1 against 2) and 119 of the 200 test tables (121)
    "cls20": _first_reader(5e-5, "cls17", sharpen_p=0.8),
    # cls13 (models/index_cls13.pt when its run is not here) continued as cls19, on real crops cut again with the
    # corrected labels (training/label_fixes.csv), 24 around each labelled index instead of 12. On request: as the
    # second reader (today's joining) the validation tables 84 + 124 (cls19: 86 + 125), real val blocks 0.933 either
    # way, test tables 122 (123)
    "cls21": _second_reader(5e-5, "cls13", real_crops="crops_real3", real_variants=24),
    # cls19 (models/index_cls19.pt when its run is not here) continued on cls21's data and the crops of bowed cards
    # with glare bands across their indices (--bent-scenes: datasets.synth --bent). On request: as the second reader
    # it settles one of the 120 validation tables wrong (85 right, 1 wrong; cls19: 86, 0), the 100 validation
    # tables of bowed cards 52 as cls19 does
    "cls22": _second_reader(3e-5, "cls19", real_crops="crops_real3", real_variants=24, bent=True),
    # cls19 (models/index_cls19.pt when its run is not here) continued on cls21's data with the real crops cut as
    # the runtime now reads cardcounter's squashed frames: widened back (vision.stretch). On request
    "cls23": _second_reader(5e-5, "cls19", real_crops="crops_real4", real_variants=24, real_as_read=True),
    # cls19 (models/index_cls19.pt when its run is not here) continued on cls21's data with the pasted tight-row
    # neighbours cutting INTO the ink in half of them (training.neighbours cut: up to a quarter of its width from
    # the side, a fifth from below): the strips of rows laid tighter than the pasted edges reached
    "cls24": _second_reader(5e-5, "cls19", real_crops="crops_real3", real_variants=24, cut_p=0.5),
    # cls17 (models/index_cls17.pt when its run is not here) continued on cls17's data beside the crops of scenes with
    # the camera look measured on real photos (datasets.synth --look real: the index edges as sharp as the real
    # photos', a fine grain as noisy, JPEG 70-95; half the hands in tight rows): the first reader's synthetic crops
    # were twice as soft for their size as real indices and a third as noisy (benchmarks/camera_look.py)
    "cls25": _first_reader(5e-5, "cls17", look=True),
    # cls19 (models/index_cls19.pt when its run is not here) continued on cls19's data with a third of each batch cut
    # down to a strip of its index (training.neighbours.cut_strips: the covering card's edge inside the ink, from the
    # side leaving 40-80 % of its width, from below 50-85 % of its height, slanted up to 15 deg as in a fan): on real
    # phone photos of tight rows and fans the reader, not the finder, misses the strips a person reads. On request:
    # with cls27 first, real strips read a little better and half as many read surely wrong, but the validation
    # tables 81 of 120 (cls17 + cls19: 88); with cls17 first 85 (model card, "Strips of real indices")
    "cls26": _second_reader(5e-5, "cls19", strip_p=0.35),
    # cls17 (models/index_cls17.pt when its run is not here) continued on cls17's data with cls26's strips: the first
    # reader's reading decides the strips it reads at 0.9 or more (benchmarks/real_strips.py). On request: with cls19
    # second the validation tables 84 of 120
    "cls27": _first_reader(5e-5, "cls17", strip_p=0.35),
    # cls27 and cls26 continued at four times their rate, half of each batch cut down to strips: the two gentler
    # phases halved the confident misreads of real strips but read hardly more of them (benchmarks/real_strips.py).
    # On request: together, real strips with 60 % of the ink's width showing read 0.35 -> 0.48, surely wrong 41 -> 10
    # of 414, the real val blocks 0.981 -> 0.990, but the validation tables 81 of 120 (88)
    "cls28": _first_reader(2e-4, "cls27", strip_p=0.5),
    "cls29": _second_reader(2e-4, "cls26", strip_p=0.5),
    # cls28 and cls29 continued at their first rate with a fifth of each batch cut down to strips: they read whole
    # synthetic indices less surely than cls17 and cls19 (validation tables 81 of 120 against 88). On request:
    # together, real strips at 60 % 0.46 (11 of 414 surely wrong), whole real indices 0.969 (0.959), the real test
    # blocks 0.980, but the train blocks 3 confident misreads (1) and the validation tables 83 of 120
    "cls30": _first_reader(5e-5, "cls28", strip_p=0.2),
    "cls31": _second_reader(5e-5, "cls29", strip_p=0.2),
    # cls19 (models/index_cls19.pt when its run is not here) and cls17 (models/index_cls17.pt) continued on their own
    # data with a third of each batch's index crops turned 30-42 deg instead of up to 30: the cards of a fan lie
    # between quarter turns, and the held-out real photos turned 45 deg lose a twentieth of their cards
    "cls33": _second_reader(5e-5, "cls19", wide_p=0.3),
    "cls34": _first_reader(5e-5, "cls17", wide_p=0.3),
    # cls17 continued on its data with crops of indices cut turned 25-42 deg among their neighbours beside it: in
    # a turned tight row the upright box around a strip holds its neighbours' ink too (benchmarks/real_turned.py)
    "cls35": _first_reader(5e-5, "cls17", fanned=True),
    # the same for the second reader: cls19 continued on its data beside those fanned crops
    "cls36": _second_reader(5e-5, "cls19", fanned=True),
    # cls17 (models/index_cls17.pt when its run is not here) and cls19 (models/index_cls19.pt) continued on their own
    # data beside the crops of tables laid and photographed as a phone held over them sees them (datasets.synth
    # --held): no reader had seen the camera tilted 15-35 deg over rows overlapped to 15-25 % of each card, and on
    # such tables right reads under the 0.85 floor stop more of them than cards missed
    "cls37": _first_reader(5e-5, "cls17", held=True),
    "cls38": _second_reader(5e-5, "cls19", held=True),
    # the readers' commonest confusion, real and synthetic, is a club and a spade: on real webcam photos most of the
    # cards missed, on unseen decks a plain trefoil read as a spade. The art and the fonts give the readers a handful
    # of suit shapes; these continue cls17 and cls19 on their own data beside the crops of --drawn-suit-scenes
    # font-deck scenes whose suits are drawn from parameters (datasets.suit_shapes: 100 decks, each its own club,
    # spade, heart and diamond)
    "cls39": _first_reader(5e-5, "cls17", more_fonts=(DRAWN_SUIT_SCENES,)),
    "cls40": _second_reader(5e-5, "cls19", more_fonts=(DRAWN_SUIT_SCENES,)),
    # cls19 (models/index_cls19.pt when its run is not here) continued on cls19's data with its real crops cut again
    # from the photos median-filtered where speckled, as the runtime now reads them (vision.specks)
    "cls41": _second_reader(5e-5, "cls19", real_crops="crops_real3", real_filtered=True),
    # the readers' unsure reads of unseen decks' whole, sharp indices are mostly one rank taken for another of like
    # shape (J/3, Q/9, 6/5, A/4): the font decks drew their ranks in about nine typeface families (DejaVu, URW
    # base35). These continue cls17 and cls19 on their own data beside the crops of --debian-font-scenes font-deck
    # scenes whose fonts are chosen among ~35 more families too (datasets.debian_fonts: 100 decks)
    "cls42": _first_reader(5e-5, "cls17", more_fonts=(DEBIAN_FONT_SCENES,)),
    "cls43": _second_reader(5e-5, "cls19", more_fonts=(DEBIAN_FONT_SCENES,)),
    # hands whose rows are laid as fans (datasets.synth --fan) lose most of their cards to the reader: indices turned
    # 10-45 deg, partly covered by the next card turned further. These continue cls17 (models/index_cls17.pt when its
    # run is not here) and cls19 on their own data beside the crops of --fan-scenes / --fan-font-scenes scenes laid
    # so, the readable strips among them. cls44 ships as the first reader (session 41: the 1,170 tables 740 -> 750
    # right, 0 wrong added); cls45 (on request) settled fewer validation tables beside either first reader
    "cls44": _first_reader(5e-5, "cls17", fan_rows=True),
    "cls45": _second_reader(5e-5, "cls19", fan_rows=True),
    # cls44 (models/index_cls44.pt when its run is not here) continued on its own data beside the crops of fans laid
    # tight as well, where only a strip of each covered index shows (the hidden phone photos of fans): on
    # request, not shipped (session 41: as many validation tables as cls44, the real val blocks 0.990 -> 0.971)
    "cls46": _first_reader(4e-5, "cls44", fan_rows=True, tight_fans=True),
    # cls44 (models/index_cls44.pt when its run is not here) continued on its own data beside crops of the real train
    # blocks, cut as the runtime reads them and half of them from the photos shrunk as a poorer camera leaves them
    # (training.realcrops.poorer): the first reader had seen no real pixels, and the held-out photos shrunk to
    # 384 px read 4 of 337 confident reads wrong, clubs and spades taken for each other (benchmarks/real_scaled.py).
    # On request, not shipped (session 42): the real val blocks at 640 / 480 / 384 / 320 px 0.981 / 0.962 / 0.971 /
    # 0.971 (cls44: 0.990 / 0.971 / 0.971 / 0.971), confident wrong 0 (cls44: 1 at 384 px); validation tables 94 + 31
    # + 40 of 120 + 60 + 60 (cls44: 95 + 31 + 40)
    "cls47": _first_reader(3e-5, "cls44", fan_rows=True, real=True, real_crops="crops_real_shrunk",
                           real_as_read=True, real_filtered=True, real_shrunk=0.5),
    # cls44 (models/index_cls44.pt when its run is not here) continued on its own data beside the crops of
    # --drawn-suit-scenes font-deck scenes whose suits are drawn from parameters (cls39's): the readers take the clubs
    # of designs they never saw for spades (benchmarks/check_readings.py suits: none on the train families). On
    # request, not shipped (session 42): the validation tables 92 + 32 + 40 + 107 of 120 + 60 + 60 + 150 (cls44: 95 +
    # 31 + 40 + 104), the court clubs of eval_val and eval_val3 taken for spades 21 + 29 (cls44: 24 + 26)
    "cls48": _first_reader(5e-5, "cls44", fan_rows=True, more_fonts=(DRAWN_SUIT_SCENES,)),
    # cls44 (models/index_cls44.pt when its run is not here) continued on its own data beside crops of the real train
    # blocks whose cards are covered in the photo down to strips, as the next card of a tight row or fan covers them
    # (training.realcover: a real index of another photo as the covering card's, just past its edge), cut around the
    # labelled strip and stage 1's box on it, each group of cards covered 3 times (cls49, on request: as the shipped
    # reader within a card or two, session 45) or 8 times, at 5e-5 (cls50, shipped as the first reader, session 45:
    # benchmarks/real_covered.py's held-out strips 70 % of the width showing 0.677 -> 0.726, below 75 % 0.527 ->
    # 0.619, fanned 0.549 -> 0.580, confident reads wrong 35 of 643 -> 32 of 714; the validation tables 413 -> 412 of
    # 590, 1 wrong -> 0; the real val blocks 0.990 -> 0.981)
    "cls49": _first_reader(3e-5, "cls44", fan_rows=True, real_covered="crops_real_covered"),
    "cls50": _first_reader(5e-5, "cls44", fan_rows=True, real_covered="crops_real_covered8", real_covered_copies=8),
    # cls19 (models/index_cls19.pt when its run is not here) continued on its own data beside cls50's covered crops:
    # on request, not shipped (session 45, beside cls50: real covered strips 70 % 0.726 -> 0.757, below 75 % 0.619 ->
    # 0.677, the real val blocks 0.981 -> 0.990; eval_val 93 -> 91, eval_val2 141 -> 137, eval_held 33 -> 34, eval_val3
    # 105 -> 106, eval 128 -> 127, eval_fan_test 64 -> 63)
    "cls51": _second_reader(5e-5, "cls19", real_covered="crops_real_covered8", real_covered_copies=8),
    # cls50 (models/index_cls.pt when its run is not here) continued on its own data at a lower rate, the train blocks'
    # cards covered 16 times instead of 8 (other covering cards, other strips): of the held-out strips with 70 % of the
    # width showing that stage 1 locates, cls50 leaves 26 unread and reads 15 as another card, often the covering
    # card's suit or rank (its own index lies just past the strip, in the crop too). Shipped as the second reader in
    # cls19's place (session 48: real covered strips 70 % 0.739 -> 0.765, below 75 % 0.624 -> 0.717, fanned 0.580 ->
    # 0.637, fewer sure misreads; the validation tables 414 -> 412 of 590, bowed 67 -> 62 of 100, the test tables 225
    # -> 219 of 360, 0 wrong); cls53 took its place in session 49 (its weights: models/index_cls52.pt).
    # As the first reader (session 47): the validation tables 414 -> 411, eval_fan's washed-out table settled wrong
    "cls52": _covered16_reader(3e-5, "cls50"),
    # cls52 (models/index_cls52.pt when its run is not here) continued on its own data beside the crops of bowed cards
    # with glare bands across their indices (--bent-scenes, as cls22's): as the second reader cls52 settles 62 of the
    # 100 validation tables of bowed cards where cls19 settled 67. Shipped as the second reader in cls52's place
    # (session 49: the bowed tables as before, 62, but the validation tables 412 -> 417 of 590, the test tables 219 ->
    # 222 of 360, 0 wrong; real covered strips 70 % 0.765 -> 0.783, fanned 0.637 -> 0.646; the real blocks as before)
    "cls53": _covered16_reader(3e-5, "cls52", bent=True),
    # cls53 (models/index_cls2.pt when its run is not here) continued on its own data beside the crops of fans laid
    # mostly tight too (--tight-fan-scenes, as cls46's): the real strips of fans are read worst of the covered kinds
    # (0.646 with 70 % of the width showing, fanned 12 deg), and the second reader is asked about exactly such strips.
    # On request, not shipped (session 49, as the second reader, measured in part: covered strips fanned 0.646 ->
    # 0.655, 80 % 0.916 -> 0.925 but 70 % 0.783 -> 0.774; eval_val 91 -> 93, eval_val3 108 -> 106, eval_fan 40, the 200
    # test tables 126: no clear gain for 37 min more training)
    "cls54": _covered16_reader(3e-5, "cls53", bent=True, tight_fans=True),
}
READER_BUDGETS = {  # --clsN-hours and --clsN-epochs defaults of the reader's later phases
    "cls3": (1.0, 8),
    "cls4": (0.8, 5),
    "cls5": (1.2, 8),
    "cls6": (0.55, 6),
    "cls7": (1.1, 6),
    "cls8": (1.0, 6),
    "cls9": (0.75, 5),
    "cls10": (0.8, 4),
    "cls11": (0.75, 4),
    "cls12": (0.85, 3),
    "cls13": (1.0, 4),
    "cls14": (0.6, 3),
    "cls15": (1.0, 3),
    "cls16": (1.0, 3),
    "cls17": (1.0, 3),
    "cls18": (1.0, 2),
    "cls19": (1.0, 2),
    "cls20": (1.0, 2),
    "cls21": (1.0, 2),
    "cls22": (1.0, 1),
    "cls23": (1.0, 2),
    "cls24": (1.0, 2),
    "cls25": (1.0, 2),
    "cls26": (1.0, 2),
    "cls27": (1.0, 2),
    "cls28": (1.0, 3),
    "cls29": (1.0, 3),
    "cls30": (1.0, 2),
    "cls31": (1.0, 2),
    "cls33": (1.0, 2),
    "cls34": (1.0, 2),
    "cls35": (1.0, 2),
    "cls36": (1.0, 2),
    "cls37": (1.0, 2),
    "cls38": (1.0, 2),
    "cls39": (1.0, 2),
    "cls40": (1.0, 2),
    "cls41": (1.0, 2),
    "cls42": (1.0, 2),
    "cls43": (1.0, 2),
    "cls44": (1.0, 2),
    "cls45": (1.0, 2),
    "cls46": (1.0, 2),
    "cls47": (1.0, 2),
    "cls48": (1.0, 2),
    "cls49": (1.0, 2),
    "cls50": (1.0, 2),
    "cls51": (1.0, 2),
    "cls52": (1.0, 2),
    "cls53": (1.0, 2),
    "cls54": (1.0, 2),
}


def all_font_scenes(phase: DetPhase | ClsPhase) -> tuple[FontScenes, ...]:
    """Every font-deck scene set a phase uses: its first (``fonts``) and a reader phase's ``more_fonts``."""
    more = phase.more_fonts if isinstance(phase, ClsPhase) else ()
    return tuple(f for f in (phase.fonts, *more) if f is not None)


def font_scene_count(phase: DetPhase | ClsPhase, args: argparse.Namespace) -> int:
    """How many font-deck scenes a phase uses (0: none): det6 and cls8 ``--font-scenes``, cls9
    ``--font-scenes2``, cls11 ``--font-scenes3``."""
    return int(getattr(args, phase.fonts.count)) if phase.fonts is not None else 0


def trains_on_real_photos(name: str) -> bool:
    """Whether stage ``name`` needs cardcounter's photos beside the checkout: its real tiles or crops, or its cards
    covered in those photos (the data steps stop without them)."""
    phase = DET_PHASES.get(name) or CLS_PHASES[name]
    return phase.real or bool(phase.real_covered)
