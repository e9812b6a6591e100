"""From classified corner indices to physical cards, each read once.

A card shows up to two corner indices (top-left and, turned half round, bottom-right).
Six steps, each a function:

1. ``pair_indices``: two indices whose card-outline estimates coincide and whose glyphs
   face opposite ways are the two corners of one card; their class probabilities are
   multiplied, so a corner read ``Ac`` 0.6 / ``4c`` 0.4 and its twin read ``Ac`` 0.55 /
   ``4c`` 0.45 make a card surer of ``Ac`` than either. Two corners whose best readings
   are different cards are not two witnesses of one: the card's reading is then their
   mean, and stays as unsure as the two are apart. The same identity read again within about a card's
   diagonal also joins (outline estimates are rough at strong tilt), and so do two lone
   corners read alike (a 3c and a 3s), when each of the two lies across the other's card:
   a read behind an index (the facing index of a second tight row laid head to head) is
   another card, left to ``one_deck``.
   In a deck with indices in all four corners (``four_index_deck``: three reads of an
   identity or more lying along a card edge from another read of it) such a read is that
   card's other corner too, whichever way the readers took it to face.
2. ``CardRead``: the joined members, the card probabilities and the chosen identity.
3. ``one_deck``: a game is dealt from one deck, so an identity read on two separate cards
   is at least one misread. The weaker read takes its best alternative that no other
   card claims, when that alternative is plausible (``ALT_FLOOR``); its confidence then
   comes from that alternative's probability, so a weak guess still shows as a
   low-confidence card. When no alternative is plausible the duplicate stays for the
   referee to report.
4. ``by_elimination``: an index read below the reading threshold is not a card on its own
   evidence, but one deck also says which identities are still possible: those no card
   read clearly claims. Its probabilities are weighed again over those identities (and the
   reject class, which keeps its share), and it becomes a card when one of them is then
   at least ``ELIMINATION_FLOOR`` probable. On a table of 3-4 hands most identities are
   taken, so an index the reader hesitated on between, say, ``4c`` held by another player
   and ``4s`` that nobody holds is read ``4s``.
5. ``weighed_by_deck``: the same reasoning gives every card its confidence on this table:
   its probabilities without the identities the other cards hold, shared with each swap of
   identities with another card that the two readings allow (two cards read crosswise, a 9c
   and a 9s each read as the other's identity, are not made sure by each other).
6. ``by_rank``: a lone index still left below the reading threshold whose rank is clear over
   its four suits (``RANK_FLOOR``), a tight row's strip with its suit a sliver, is a card of that
   rank too: the likeliest identity of the rank no card holds, at its own probability as
   read, so it shows as unsure and the referee tries it as each suit it may be. It is left
   out of the deck's weighing of the others: a guess at a suit makes no other card surer.

>>> import numpy as np
>>> names = ["Ac", "4c", "Kd"]
>>> p = np.array([0.6, 0.4, 0.0], np.float32)
>>> a = IndexHit((0, 0, 10, 20), 0.9, "Ac", 0.6, 0.0, p)
>>> [str(c.card) for c in join_indices([a], names)]
['Ac']
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import Card

from .proportion import with_deck_proportions
from .tiles import BG_CLASS, outline_from_index, unit_of
from .types import Box, CardDetection, Point, box_centre, box_long_side

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]

PAIR_REACH = 0.3     # twin corners: outline-estimate centres within this many card heights
FOUR_INDEX_PAIRS = 3  # pairs of reads of one identity along one card edge, not one card by their corners: four indices
EDGE_TURN = 30.0      # degrees: two indices along one of a card's edges lie this near the glyph's up or right axis
SHORT_EDGE = (1.8, 3.5)  # index heights between a four-index card's two top (or bottom) indices (training decks:
#                          w - 2 cx, 2.0-3.0)
LONG_EDGE = (2.2, 4.5)   # and between its two left (or right) ones (h - 2 cy, 2.4-4.1)
SAME_REACH = 1.4     # a read alike a card within this many card diagonals of it may be its twin corner
AGREE_FLOOR = 0.1    # twin corners read differently join only if each gives the joint reading this much
ALT_FLOOR = 0.15     # a duplicate's weaker read may take an alternative at least this probable
READ_FLOOR = 0.45    # an index read at least this probable is a card on its own evidence (the detector's
#   cls_conf; chosen on the validation tables and the real val blocks: with ELIMINATION_FLOOR 0.95, 0.55 -> 0.45
#   settles 82 + 119 -> 86 + 125 of the 120 + 200 validation tables, 0 wrong, and finds 95 -> 97 of the 104 real
#   val cards, confident wrong 2 either way; 0.40: 84 + 123, 98)
MAX_ALTERNATIVES = 16  # the likeliest identities a card keeps as read (CardDetection.alternatives)
# A lone index read below READ_FLOOR whose rank is at least RANK_FLOOR probable over its four suits (its best
# identity at least RANK_READ_MIN) is a card all the same, read unsurely (``by_rank``): a tight row's strip shows its
# rank and a sliver of its suit, and a card whose suit changes nothing settles (vision.unsure) where a card left
# unread stops the table. Such a card never counts as sure and is left out of the deck's weighing of the others.
# On the real indices covered in the photo (benchmarks/real_covered.py): 70 % of the width showing 0.668 -> 0.677,
# below 85 / 75 % 0.872 -> 0.881 / 0.504 -> 0.527, no confident misread added; every synthetic table set as before.
# Weighed by the deck like any read, it made 2 more covered reads surely wrong (0.9) or settled 1 + 1 fewer
# validation tables (0.75); two weak corners of one card read by their rank added a read on no card (edje).
RANK_FLOOR = 0.9
RANK_READ_MIN = 0.2
ELIMINATION_FLOOR = 0.95  # a weaker index becomes a card when one unclaimed identity is this probable
#   (with READ_FLOOR 0.45: 0.98 -> 0.95 settles 85 + 124 -> 86 + 125 validation tables, 0 wrong, real val the same;
#   at 0.55 it was 0.98: on validation-family tables 0.85-0.98 settled the same tables, the surest won)


@dataclass(frozen=True)
class IndexHit:
    """One classified corner index: box, stage-1 score, reading, and the card probabilities
    (one per class name, reject class at 0) at the quarter turn that reads it upright."""

    box: Box
    det_score: float
    card: str
    cls_prob: float
    glyph_up: float
    probs: F32 | None = field(default=None, compare=False, repr=False)
    turn: float | None = field(default=None, compare=False)  # the card's turn around it (vision.turn), None: not told

    @property
    def score(self) -> float:
        return math.sqrt(self.det_score * self.cls_prob)


@dataclass
class CardRead:
    """The indices of one physical card and what they say together."""

    members: list[IndexHit]
    probs: F32 | None
    card: str
    second_choice: bool = False  # one_deck gave it an alternative: it stays as unsure as it was read
    # a four-index deck's other corners of this card (``_join_same_identity``): their readings count, but they are not
    # the card's two opposite corners, so its outline and index boxes come from ``members``
    extra: list[IndexHit] = field(default_factory=list)

    def prob(self, name: str, names: list[str]) -> float:
        if self.probs is None:
            return self.members[0].cls_prob if name == self.card else 0.0
        return float(self.probs[names.index(name)])

    def confidence(self, names: list[str]) -> float:
        """How probable its reading is: the reader's probability (two corners: both read together;
        after ``weighed_by_deck``: given the other cards). The stage-1 score is left out: it says
        whether an index is there, not which one (measured on validation-family tables: with
        sqrt(score x probability), readings of 0.55-0.8 passed as sure and were wrong one time in four)."""
        return self.prob(self.card, names)


def overlap(a: Box, b: Box) -> float:
    """Intersection over the smaller box's area."""
    iw = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    ih = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return iw * ih / small if small > 0 else 0.0


def _outline_centre(hit: IndexHit) -> tuple[Point, float, float]:
    """Centre of the card outline estimated from ``hit``, the card's height and diagonal."""
    o = outline_from_index(hit.box, hit.glyph_up)
    cx = sum(p[0] for p in o) / 4
    cy = sum(p[1] for p in o) / 4
    return (cx, cy), math.dist(o[0], o[3]), math.dist(o[0], o[2])


def _combined(members: list[IndexHit], *, disputed_mean: bool = True) -> F32 | None:
    """The corners' readings together: their product, or, with ``disputed_mean``, their mean when their best
    readings are different cards (the corners of one card are read by one reader off one print under one
    light: when they disagree, their product would make the stronger corner's reading surer than either)."""
    vectors = [np.asarray(m.probs, np.float64) for m in members if m.probs is not None]
    if len(vectors) != len(members):
        return None
    if disputed_mean and len({int(np.argmax(v)) for v in vectors}) > 1:
        p = np.mean(vectors, axis=0)
    else:
        logp = np.sum([np.log(np.maximum(v, 1e-6)) for v in vectors], axis=0)
        p = np.exp(logp - np.max(logp))
    p[vectors[0] <= 0] = 0.0  # the reject class stays out
    total = float(p.sum())
    return (p / total).astype(np.float32) if total > 0 else None


def _reading(members: list[IndexHit], names: list[str], *, disputed_mean: bool = True) -> tuple[F32 | None, str]:
    probs = _combined(members, disputed_mean=disputed_mean) if len(members) > 1 else None
    if probs is None:  # a lone corner reads as it was read
        return members[0].probs, members[0].card
    return probs, names[int(np.argmax(probs))]


def _twins_agree(a: IndexHit, b: IndexHit, names: list[str]) -> bool:
    """Two corners read differently may be one card's: each gives the reading both support best (their
    product) at least ``AGREE_FLOOR``."""
    if a.card == b.card:
        return True
    probs, card = _reading([a, b], names, disputed_mean=False)
    if probs is None or a.probs is None or b.probs is None:
        return False
    i = names.index(card)
    return float(a.probs[i]) >= AGREE_FLOOR and float(b.probs[i]) >= AGREE_FLOOR


def pair_indices(hits: list[IndexHit], names: list[str], four_index: bool | None = None) -> list[CardRead]:
    """Group the hits into physical cards (at most two distinct corners each, and in a four-index deck its other
    corners as ``extra``: ``_join_same_identity``, ``four_index``), best-scored first."""
    order = sorted(hits, key=lambda h: -h.score)
    geo = [_outline_centre(h) for h in order]
    used = [False] * len(order)
    reads: list[CardRead] = []
    for i, first in enumerate(order):
        if used[i]:
            continue
        used[i] = True
        members = [first]
        (cx, cy), height, _diag = geo[i]
        best_j, best_d = -1, PAIR_REACH * height
        for j in range(i + 1, len(order)):
            if used[j]:
                continue
            other = order[j]
            if other.card == first.card and overlap(first.box, other.box) >= 0.5:
                used[j] = True  # the same index found twice
                continue
            if abs(((other.glyph_up - first.glyph_up) % 360) - 180) > 1:
                continue
            d = math.dist((cx, cy), geo[j][0])
            if d < best_d and _twins_agree(first, other, names):
                best_j, best_d = j, d
        if best_j >= 0:
            used[best_j] = True
            members.append(order[best_j])
        probs, card = _reading(members, names)
        reads.append(CardRead(members, probs, card))
    return _join_same_identity(reads, names, four_index)


def _faces(a: IndexHit, b: IndexHit) -> bool:
    """``b`` lies on the side of ``a`` where ``a``'s card is (the direction from the index to the centre of the
    outline it gives): a card's twin corner is across the card, never behind the index."""
    (cx, cy), _h, _d = _outline_centre(a)
    ax, ay = box_centre(a.box)
    bx, by = box_centre(b.box)
    return (cx - ax) * (bx - ax) + (cy - ay) * (by - ay) > 0


def _could_be_one_card(kept: CardRead, read: CardRead) -> bool:
    """Two reads may be one card when an index of one is an index of the other (found twice) or their first
    corners each lie across the other's card (``_faces``)."""
    if any(overlap(a.box, b.box) >= 0.5 for a in kept.members for b in read.members):
        return True
    a, b = kept.members[0], read.members[0]
    return _faces(a, b) and _faces(b, a)


def _alike(kept: CardRead, read: CardRead, names: list[str]) -> bool:
    """The same identity, or two lone corners read differently that each give their joint reading at least
    ``AGREE_FLOOR`` (a 3c and a 3s: the suit misread on one of them)."""
    if kept.card == read.card:
        return True
    return len(kept.members) == 1 and len(read.members) == 1 and _twins_agree(kept.members[0], read.members[0], names)


def _near(kept: CardRead, read: CardRead) -> bool:
    """``read``'s first index lies within ``SAME_REACH`` card diagonals of ``kept``'s."""
    _c, _h, diag = _outline_centre(kept.members[0])
    return math.dist(box_centre(kept.members[0].box), box_centre(read.members[0].box)) <= SAME_REACH * diag


def _along_an_edge(a: IndexHit, b: IndexHit) -> bool:
    """``b`` lies where another index of ``a``'s card would in a four-index deck: along the glyph's up axis (the
    card's long edge) or its right axis (the short edge), that edge's length minus the index apart (in index
    heights), whichever way each faces (quarter turns apart at most ``EDGE_TURN``)."""
    unit = (box_long_side(a.box) + box_long_side(b.box)) / 2
    if unit <= 0 or abs(((b.glyph_up - a.glyph_up + 45) % 90) - 45) > EDGE_TURN:
        return False
    (ax, ay), (bx, by) = box_centre(a.box), box_centre(b.box)
    dx, dy = bx - ax, by - ay
    apart = math.hypot(dx, dy) / unit
    ux, uy = unit_of(a.glyph_up)
    off_up = math.degrees(math.acos(min(1.0, abs(dx * ux + dy * uy) / (math.hypot(dx, dy) or 1.0))))
    if off_up <= EDGE_TURN:
        return LONG_EDGE[0] <= apart <= LONG_EDGE[1]
    return 90 - off_up <= EDGE_TURN and SHORT_EDGE[0] <= apart <= SHORT_EDGE[1]


def _corner_of(kept: CardRead, read: CardRead) -> bool:
    """``read`` (read as ``kept``'s identity) is another corner of ``kept``'s card in a four-index deck: its first
    index lies along an edge of the card from one of ``kept``'s (``_along_an_edge``)."""
    return kept.card == read.card and any(_along_an_edge(m, read.members[0]) for m in kept.members + kept.extra)


def four_index_deck(reads: list[CardRead]) -> bool:
    """Whether the photo's deck has indices in all four corners: at least ``FOUR_INDEX_PAIRS`` pairs of reads of one
    identity lie along one card edge of each other (``_corner_of``) and cannot be one card's two opposite corners
    (``_could_be_one_card``). A four-index card shows its top-right and bottom-left indices as well, and the readers,
    trained on decks with two, read a top-right index facing either way; a two-index deck gives such a pair only
    where an identity is misread just there, and three times in one photo before this counts."""
    pairs = 0
    for i, a in enumerate(reads):
        for b in reads[i + 1:]:
            if _corner_of(a, b) and not _could_be_one_card(a, b):
                pairs += 1
                if pairs >= FOUR_INDEX_PAIRS:
                    return True
    return False


def inside_outline(outline: tuple[Point, ...], point: Point) -> bool:
    """``point`` inside ``outline`` (OpenCV's test, as the evaluations use it: ``training.evaluate.inside_polygon``)."""
    return cv2.pointPolygonTest(np.asarray(outline, np.float32), (float(point[0]), float(point[1])), False) >= 0


def _leads(a: IndexHit, b: IndexHit) -> bool:
    """Of a four-index card's two corners, ``b`` gives the card's outline rather than ``a``: ``b``'s estimate holds
    ``a``'s index and ``a``'s does not hold ``b``'s (a top-right index read as a top-left estimates the card beside
    it, outside)."""
    return (inside_outline(outline_from_index(b.box, b.glyph_up), box_centre(a.box))
            and not inside_outline(outline_from_index(a.box, a.glyph_up), box_centre(b.box)))


def _join_same_identity(reads: list[CardRead], names: list[str], four_index: bool | None = None) -> list[CardRead]:
    """A read alike a card (``_alike``) within ``SAME_REACH`` diagonals that could be one card with it
    (``_could_be_one_card``) is that card's twin corner (or the same index twice): it joins it, keeping two
    distinct corners at most, and the two corners' joint reading decides the identity. Two reads that cannot
    be one card (one behind the other's index, as in two tight rows laid head to head) stay two cards:
    ``one_deck`` then finds which is misread. In a four-index deck (``four_index``; None: ``four_index_deck`` of
    ``reads``) a read of a card's identity lying along one of its edges from one of its indices (``_corner_of``,
    whichever way the two face) is the card's other corner: it joins it as an ``extra`` corner (its reading counts),
    and of two lone corners the one whose estimate holds the other gives the card's outline (``_leads``)."""
    if four_index is None:
        four_index = four_index_deck(reads)
    out: list[CardRead] = []
    for read in reads:
        host, corner = None, False
        for kept in out:
            near = _near(kept, read)
            if near and _alike(kept, read, names) and _could_be_one_card(kept, read):
                host = kept
                break
            if near and four_index and _corner_of(kept, read):
                if len(kept.members) == len(read.members) == 1 and _leads(kept.members[0], read.members[0]):
                    kept.members, read.members = read.members, kept.members
                kept.extra += read.members + read.extra
                kept.probs, kept.card = _reading(kept.members + kept.extra, names)
                corner = True
                break
        if corner:
            continue
        if host is None:
            out.append(read)
            continue
        for m in read.members:
            if len(host.members) < 2 and all(overlap(m.box, h.box) < 0.5 for h in host.members):
                host.members.append(m)
        if len(host.members) == 2 or host.extra:
            host.probs, host.card = _reading(host.members + host.extra, names)
    return out


def one_deck(reads: list[CardRead], names: list[str]) -> list[CardRead]:
    """Resolve identities read on two separate cards: the weaker read takes its best unclaimed
    alternative (at least ``ALT_FLOOR`` probable); without one, the duplicate stays."""
    ranked = sorted(reads, key=lambda r: -r.confidence(names))
    claimed: set[str] = set()
    losers: list[CardRead] = []
    for r in ranked:
        if r.card in claimed:
            losers.append(r)
        else:
            claimed.add(r.card)
    for r in losers:
        if r.probs is None:
            continue
        for i in np.argsort(-r.probs):
            name = names[int(i)]
            if float(r.probs[i]) < ALT_FLOOR:
                break
            if name not in claimed:
                r.card = name
                r.second_choice = True
                claimed.add(name)
                break
    return reads


def _alternatives(probs: F32 | None, names: list[str]) -> tuple[tuple[Card, float], ...]:
    """The likeliest identities of a reading (at most ``MAX_ALTERNATIVES``, the reject class left out)."""
    if probs is None:
        return ()
    out: list[tuple[Card, float]] = []
    for i in np.argsort(-probs)[:MAX_ALTERNATIVES + 1]:
        name, p = names[int(i)], float(probs[i])
        if p <= 0 or len(out) == MAX_ALTERNATIVES:
            break
        if name != BG_CLASS:
            out.append((Card.parse(name), p))
    return tuple(out)


def to_detection(read: CardRead, names: list[str], read_as: F32 | None = None) -> CardDetection:
    """The card ``read`` describes; ``read_as``: its probabilities before the deck was weighed in
    (default: its current ones), kept as the card's ``alternatives``."""
    first = read.members[0]
    outline = outline_from_index(first.box, first.glyph_up)
    either = len(read.members) == 2 and (read.members[1].glyph_up - first.glyph_up) % 360 == 180
    if either:  # opposite corners: average the two estimates (the second's corners renumbered); otherwise
        #         (the same identity joined at another turn) the first index's estimate stands alone
        second = read.members[1]
        o2 = outline_from_index(second.box, second.glyph_up)
        outline = tuple(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in zip(outline, o2[2:] + o2[:2], strict=True))
    ib = tuple(m.box for m in read.members)
    box = (min(b[0] for b in ib), min(b[1] for b in ib), max(b[2] for b in ib), max(b[3] for b in ib))
    turns = [m.turn for m in read.members if m.turn is not None]
    return CardDetection(card=Card.parse(read.card), confidence=read.confidence(names), box=box, index_boxes=ib,
                         outline=(outline[0], outline[1], outline[2], outline[3]), up=first.glyph_up,
                         up_either_way=either,
                         alternatives=_alternatives(read.probs if read_as is None else read_as, names),
                         turn=turns[0] if turns else None)


def _given_the_deck(read: CardRead, taken: set[str], names: list[str]) -> F64 | None:
    """``read``'s probabilities with the identities in ``taken`` out, the rest weighed again; the
    reject class keeps its share (a lone corner's probabilities leave it out; two corners read
    alike are a card). None when nothing is left."""
    if read.probs is None:
        return None
    p = np.asarray(read.probs, np.float64).copy()
    reject = max(0.0, 1.0 - float(p.sum())) if len(read.members) == 1 else 0.0
    for i, name in enumerate(names):
        if name in taken:
            p[i] = 0.0
    total = float(p.sum()) + reject
    return p / total if total > 0 else None


def by_elimination(weak: list[CardRead], cards: list[CardRead], names: list[str]) -> list[CardRead]:
    """The weak reads that one deck makes clear: each read's probabilities weighed again over
    the identities no card in ``cards`` claims (``_given_the_deck``); kept when the best is at
    least ``ELIMINATION_FLOOR``, most probable first, each identity once."""
    claimed = {r.card for r in cards}
    out: list[CardRead] = []
    for read in sorted(weak, key=lambda r: -float(np.max(r.probs)) if r.probs is not None else 0.0):
        p = _given_the_deck(read, claimed, names)
        if p is None:
            continue
        i = int(np.argmax(p))
        if p[i] < ELIMINATION_FLOOR:
            continue
        read.card = names[i]
        read.probs = p.astype(np.float32)
        claimed.add(read.card)
        out.append(read)
    return out


def by_rank(weak: list[CardRead], claimed: set[str], names: list[str]) -> list[CardRead]:
    """The weak reads of a lone corner whose rank is clear though their identity is not: the rank's probabilities
    (a name's first letter) summed over its suits at least ``RANK_FLOOR``, the best identity at least
    ``RANK_READ_MIN``. A tight row's strip shows one corner; two corners each read weakly (a court's artwork on a
    photo of one card among them) are left to ``by_elimination``. Each is read as the likeliest identity of that
    rank no card in ``claimed`` (or an earlier one of these) holds, its probabilities left as read (so its confidence
    is that identity's probability as read); most probable first. A read whose rank's every identity is claimed is
    left out."""
    out: list[CardRead] = []
    taken = set(claimed)
    for read in sorted(weak, key=lambda r: -float(np.max(r.probs)) if r.probs is not None else 0.0):
        if read.probs is None or len(read.members) > 1 or read.extra or float(np.max(read.probs)) < RANK_READ_MIN:
            continue
        mass: dict[str, float] = {}
        for name, p in zip(names, read.probs, strict=True):
            if name != BG_CLASS:
                mass[name[0]] = mass.get(name[0], 0.0) + float(p)
        rank, sure = max(mass.items(), key=lambda kv: kv[1])
        if sure < RANK_FLOOR:
            continue
        free = [(float(p), name) for name, p in zip(names, read.probs, strict=True)
                if name != BG_CLASS and name[0] == rank and name not in taken]
        if not free:
            continue
        read.card = max(free)[1]
        taken.add(read.card)
        out.append(read)
    return out


def _swap_odds(a: F32, b: F32, ia: int, ib: int) -> float:
    """How much likelier two cards' identities are each other's than as read: a's reading of b's identity
    times b's of a's, over the two as read (``a`` and ``b``: probabilities as read; ``ia``, ``ib``: the
    identities they hold)."""
    kept = float(a[ia]) * float(b[ib])
    return float(a[ib]) * float(b[ia]) / kept if kept > 0 else 0.0


def weighed_by_deck(reads: list[CardRead], names: list[str]) -> list[CardRead]:
    """Each read's probabilities given the other cards: identities another card holds are out
    (``_given_the_deck``), so its confidence says how sure its reading is on this table. Reads of
    an identity another card also claims stay as they are (the duplicate is reported), and so do
    reads that one_deck moved to their second choice unless the deck makes that choice as clear as
    ``by_elimination`` asks (which of two cards read alike holds the identity is itself a guess:
    otherwise such a card shows as unsure).

    Taking the other cards' identities as given would make two cards read crosswise sure both ways (a
    9c read 9s/9c at 0.47/0.47 beside a 9s read 9c at 0.78: each the other's alternative, each made sure
    by the other). So a card's identity also shares its probability with each swap of identities with
    another card (``_swap_odds``, from the probabilities as read): with ``p`` its probability given the
    others and ``s`` the swaps' summed odds, it is ``1 / (1 / p + s)``, and each swap's other identity
    gets its share. Between clear reads the odds are nothing (two reads at 0.99: 1e-4)."""
    held: dict[str, int] = {}
    for r in reads:
        held[r.card] = held.get(r.card, 0) + 1
    single = [r for r in reads if held[r.card] == 1 and r.probs is not None]
    as_read = {id(r): np.asarray(r.probs, np.float32) for r in single}
    at = {name: i for i, name in enumerate(names)}
    for r in single:
        p = _given_the_deck(r, {name for name in held if name != r.card}, names)
        i = at[r.card]
        if p is None or (r.second_choice and p[i] < ELIMINATION_FLOOR):
            p = np.asarray(r.probs, np.float64)
        swaps = {o.card: _swap_odds(as_read[id(r)], as_read[id(o)], i, at[o.card]) for o in single if o is not r}
        total = 1.0 / float(p[i]) + sum(swaps.values()) if p[i] > 0 else 0.0
        if total > 0:
            p = p / (float(p[i]) * total)
            for name, odds in swaps.items():
                p[at[name]] = odds / total
        r.probs = p.astype(np.float32)
    return reads


def _apart_from(read: CardRead, cards: list[CardRead]) -> bool:
    """No index of ``read`` is one already read (the same region found at another turn or scale)."""
    return all(overlap(m.box, k.box) <= 0.3 for m in read.members for c in cards for k in c.members)


def join_indices(hits: list[IndexHit], names: list[str], read_floor: float = READ_FLOOR) -> list[CardDetection]:
    """One detection per physical card, sorted top to bottom. Hits read at least ``read_floor``
    probable make the cards; weaker ones only by elimination (``by_elimination``). Outlines are estimated in the
    deck's own proportions where the cards seen by both corners show them (``vision.proportion``)."""
    sure = pair_indices([h for h in hits if h.cls_prob >= read_floor], names)
    four_index = any(r.extra for r in sure)   # the weak reads' deck is the sure reads'
    reads = one_deck(sure, names)
    weak = [r for r in pair_indices([h for h in hits if h.cls_prob < read_floor], names, four_index)
            if _apart_from(r, reads)]
    read_as = {id(r): r.probs for r in reads + weak}
    taken = by_elimination(weak, reads, names)
    reads = weighed_by_deck(reads + taken, names)
    cards = [to_detection(r, names, read_as[id(r)]) for r in reads]
    done = {id(r) for r in taken}
    left = [r for r in weak if id(r) not in done]
    cards += [to_detection(r, names, read_as[id(r)]) for r in by_rank(left, {r.card for r in reads}, names)]
    cards = with_deck_proportions(cards)
    cards.sort(key=lambda c: (c.box[1], c.box[0]))
    return cards


__all__ = [
    "ALT_FLOOR",
    "ELIMINATION_FLOOR",
    "RANK_FLOOR",
    "RANK_READ_MIN",
    "READ_FLOOR",
    "CardRead",
    "IndexHit",
    "by_elimination",
    "by_rank",
    "four_index_deck",
    "join_indices",
    "one_deck",
    "overlap",
    "pair_indices",
    "weighed_by_deck",
]
