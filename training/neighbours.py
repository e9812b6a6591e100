"""Reader batch augmentation: the cards of a tight row around an index crop.

In a real row laid tight (``shared/realcards/cardcounter``'s 17:00 block) the crop around one index also
holds the next card's edge right beside its ink, the next card's own index past that edge, and a strip of
the card beneath: three indices side by side, of which the reader must read the middle one. The synthetic
scenes give few such crops, so a share of each batch gets them pasted: other crops of the batch placed as
the card that covers this one (its edge, a thin grey line and a soft shadow, just past the ink on either
side, or below the index cutting at most a fifth of it: the next row), and as the card beneath (a strip of
its index past this card's edge). The crop's own ink is never covered but for that fifth below, so its label
stands.

``cut_strips`` cuts deeper: the covering edge inside the ink, straight or slanted, so that only a
strip of the index shows.

``ink_extents`` finds each crop's ink (the run of ink columns through the middle; rows over those columns)
once, when the crops are loaded; ``paste_neighbours`` does the pasting on a float batch.
"""

from __future__ import annotations

from typing import Any

INK_BELOW_PAPER = 50.0 / 255.0  # a pixel this much darker than the crop's paper (90th percentile) is ink
MAX_EDGE_GAP = 6                # px at 64 between the ink and the covering card's edge (a strip: 0)
COVER_BELOW = 0.2               # the share of the ink's height the next row may cover from below
CUT_SIDE = 0.25                 # with ``cut``: the share of the ink's width a covering card's edge may cut off


def ink_extents(x: Any, chunk: int = 4096) -> tuple[Any, Any]:
    """``x`` uint8 (N, 3, S, S) -> (ink box (N, 4) as x0, x1, y0, y1 inclusive, paper grey (N,) 0..1).

    Columns: the run of ink columns through the middle of the crop, ended by 3 empty columns (the gap
    to a neighbour's index); rows: the first and last ink rows over those columns. A crop without ink
    gets its middle half."""
    import torch

    n, _, _, s = x.shape
    boxes, papers = [], []
    mid = s // 2
    cols = torch.arange(s)
    for i in range(0, n, chunk):
        g = x[i:i + chunk].float().mean(1) / 255.0                      # (m, S, S)
        m = g.shape[0]
        paper = torch.quantile(g.reshape(m, -1), 0.9, dim=1)
        ink = g < (paper - INK_BELOW_PAPER)[:, None, None]
        colcount = ink[:, s // 8: s - s // 8, :].sum(1)                 # (m, S)
        empty = colcount < 2
        gap = empty[:, :-2] & empty[:, 1:-1] & empty[:, 2:]             # a gap starting at p: p, p+1, p+2 empty
        p = torch.arange(s - 2)
        right = torch.where(gap & (p >= mid + 4), p, torch.full_like(p, s)).min(1).values   # first gap right
        left = torch.where(gap & (p + 2 <= mid - 4), p, torch.full_like(p, -3)).max(1).values  # last gap left
        x1 = (right - 1).clamp(max=s - 1)
        x0 = (left + 3).clamp(min=0)
        inside = (cols[None] >= x0[:, None]) & (cols[None] <= x1[:, None])
        rowcount = (ink & inside[:, None, :]).sum(2)                     # (m, S)
        has = rowcount >= 2
        rows = cols[None].expand(m, -1)
        y0 = torch.where(has, rows, torch.full_like(rows, s)).min(1).values
        y1 = torch.where(has, rows, torch.full_like(rows, -1)).max(1).values
        none = y1 < y0
        box = torch.stack([x0, x1, y0, y1], 1)
        box[none] = torch.tensor([s // 4, 3 * s // 4, s // 4, 3 * s // 4])
        boxes.append(box)
        papers.append(paper)
    return torch.cat(boxes).to(torch.int16), torch.cat(papers)


def _rand_int(gen: Any, lo: int, hi: int) -> int:
    """An integer in lo..hi (inclusive)."""
    import torch

    return int(torch.randint(lo, hi + 1, (1,), generator=gen))


def _rand(gen: Any, lo: float, hi: float) -> float:
    import torch

    return lo + (hi - lo) * float(torch.rand(1, generator=gen))


def _edge(img: Any, at: int, axis: int, toward: int, gen: Any) -> None:
    """A card's edge at column (axis 2) or row (axis 1) ``at``: a thin grey line, and the soft shadow the
    card on top casts on the side ``toward`` (+1 or -1) of it."""
    s = img.shape[-1]
    line = _rand(gen, 0.55, 0.9)
    shadow = _rand(gen, 0.0, 0.2)
    idx = [slice(None)] * 3
    idx[axis] = slice(at, at + 1)
    img[tuple(idx)] *= line
    for k in range(1, 4):
        j = at + toward * k
        if 0 <= j < s:
            idx[axis] = slice(j, j + 1)
            img[tuple(idx)] *= 1.0 - shadow * 0.5 ** (k - 1)


def _shifted(src: Any, dx: int, dy: int) -> Any:
    """``src`` (3, S, S) moved so that its pixel (x, y) lands at (x + dx, y + dy); borders replicated."""
    import torch

    s = src.shape[-1]
    xs = (torch.arange(s) - dx).clamp(0, s - 1)
    ys = (torch.arange(s) - dy).clamp(0, s - 1)
    return src[:, ys][:, :, xs]


def paste_neighbours(x: Any, ink: Any, paper: Any, gen: Any, share: float, donors: Any = None,
                     cut: float = 0.0) -> Any:
    """A share of the batch ``x`` (float 0..1, N x 3 x S x S, index crops upright) gets the cards of a tight
    row around its index: the covering card right or left of the ink (or below it: the next row), and in
    some the card beneath on the other side. ``ink``, ``paper``: ``ink_extents`` of these crops; ``donors``: a
    bool mask of the crops that may be pasted as neighbours (the index crops, not background; all if None);
    ``cut``: the share of those covering cards whose edge lies inside the ink (``CUT_SIDE``; ``COVER_BELOW``)."""
    import torch

    n, _, _, s = x.shape
    if n < 2 or share <= 0:
        return x
    chosen = torch.nonzero(torch.rand(n, generator=gen) < share).flatten().tolist()
    pool = torch.nonzero(donors).flatten() if donors is not None else torch.arange(n)
    if len(pool) < 2:
        return x
    out = x.clone()

    def donor(not_this: int) -> int:
        d = int(pool[_rand_int(gen, 0, len(pool) - 1)])
        return d if d != not_this else int(pool[(int((pool == d).nonzero()[0]) + 1) % len(pool)])

    for i in chosen:
        x0, x1, y0, y1 = (int(v) for v in ink[i])
        img = out[i]
        kind = float(torch.rand(1, generator=gen))
        j = donor(i)
        jx0, jx1, jy0, _ = (int(v) for v in ink[j])
        tone = float(paper[i] / paper[j].clamp(min=0.2))
        dy = _rand_int(gen, -5, 5)
        cover_side = 0
        cuts = cut > 0 and float(torch.rand(1, generator=gen)) < cut
        if kind < 0.7:
            # the covering card beside the ink: right (the row laid left to right) or left (an upside-down row)
            cover_side = 1 if kind < 0.45 else -1
            # past the ink, or (cuts) inside it: at most CUT_SIDE of its width covered
            gap = -_rand_int(gen, 1, max(1, round(CUT_SIDE * (x1 - x0)))) if cuts else _rand_int(gen, 0, MAX_EDGE_GAP)
            margin = _rand_int(gen, 2, 7)   # the covering card's edge to its own index
            if cover_side > 0:
                e = x1 + 1 + gap
                if e < s - 2:
                    src = _shifted(x[j], e + margin - jx0, dy) * tone
                    img[:, :, e:] = src[:, :, e:]
                    _edge(img, e, 2, -1, gen)
            else:
                e = x0 - 1 - gap
                if e > 1:
                    src = _shifted(x[j], e - margin - jx1, dy) * tone
                    img[:, :, :e + 1] = src[:, :, :e + 1]
                    _edge(img, e, 2, 1, gen)
        else:
            # the next row's card from below, its own index just past its edge
            top = y0 + round((1 - COVER_BELOW) * (y1 - y0))
            e = _rand_int(gen, min(top, y1 + 6), y1 if cuts else y1 + 6)
            if e < s - 2:
                src = _shifted(x[j], _rand_int(gen, -8, 8) + (x0 - jx0), e + _rand_int(gen, 2, 7) - jy0) * tone
                img[:, e:, :] = src[:, e:, :]
                _edge(img, e, 1, -1, gen)
        if cover_side and float(torch.rand(1, generator=gen)) < 0.4:
            # the card beneath on the other side: a strip of its index past this card's edge
            k = donor(i)
            kx0, kx1, _, _ = (int(v) for v in ink[k])
            tone_k = float(paper[i] / paper[k].clamp(min=0.2))
            gap = _rand_int(gen, 1, 4)
            keep = _rand_int(gen, 2, max(3, (kx1 - kx0) // 2))  # how much of its ink shows
            if cover_side > 0:
                e = x0 - gap
                if e > 2:
                    src = _shifted(x[k], e - (kx0 + keep), dy) * tone_k   # its left part shows
                    img[:, :, :e] = src[:, :, :e]
                    _edge(img, e, 2, -1, gen)
            else:
                e = x1 + gap
                if e < s - 3:
                    src = _shifted(x[k], e - kx1 + keep, dy) * tone_k      # its right part shows
                    img[:, :, e + 1:] = src[:, :, e + 1:]
                    _edge(img, e, 2, 1, gen)
    return out.clamp(0, 1)


# --- deep strips: the covering card's edge well inside the ink, straight or slanted (fans) ---

STRIP_KEEP_SIDE = (0.4, 0.8)    # share of the ink's width left showing by a card covering it from the side
STRIP_KEEP_BELOW = (0.5, 0.85)  # share of the ink's height left showing by the next row covering it from below
STRIP_SLANT_DEG = 15.0          # the covering edge turned up to this far off the index's axes (a fanned hand)
STRIP_MIN_INK = (14, 24)        # ink width, height (px at 64) a crop needs to be cut: a strip is not cut again


def _cover(img: Any, src: Any, d: Any, gen: Any) -> None:
    """Lay the covering card ``src`` over ``img`` where the signed distance ``d`` (px, S x S) to its edge is
    at least 0: its edge a grey line, and the soft shadow it casts on the card beneath (d < 0)."""
    covered = d >= 0
    img[:, covered] = src[:, covered]
    line = _rand(gen, 0.55, 0.9)
    shadow = _rand(gen, 0.0, 0.25)
    img[:, (d >= 0) & (d < 1)] *= line
    for k in range(1, 4):
        img[:, (d >= -k) & (d < -k + 1)] *= 1.0 - shadow * 0.5 ** (k - 1)


def whole_enough(ink: Any) -> Any:
    """Which crops' ink (``ink_extents``) is whole enough to be cut down to a strip (``STRIP_MIN_INK``): a bool
    tensor."""
    width = ink[:, 1].int() - ink[:, 0].int() + 1
    height = ink[:, 3].int() - ink[:, 2].int() + 1
    return (width >= STRIP_MIN_INK[0]) & (height >= STRIP_MIN_INK[1])


def ink_of(ink: Any, i: int) -> tuple[int, int, int, int]:
    """Crop ``i``'s ink box (x0, x1, y0, y1) from ``ink_extents``."""
    x0, x1, y0, y1 = (int(v) for v in ink[i])
    return x0, x1, y0, y1


def cut_one(img: Any, ink: tuple[int, int, int, int], donor: Any, donor_ink: tuple[int, int, int, int], gen: Any,
            side: str, keep: float, slant_deg: float = 0.0, margin: int = 4, shift: int = 0) -> None:
    """Cut ``img`` (3 x S x S, float, an upright index crop; ``ink`` its x0, x1, y0, y1) down to a strip: the card
    ``donor`` (another crop, its ink ``donor_ink``, toned alike) laid over it from ``side`` ("right", "left",
    "below"), its edge turned ``slant_deg`` off the index's axis, leaving ``keep`` of the ink's width (from a side)
    or height (from below) showing; the donor's own index ``margin`` px past the edge, moved ``shift`` px along it."""
    import math

    import torch

    s = img.shape[-1]
    x0, x1, y0, y1 = ink
    jx0, jx1, jy0, _ = donor_ink
    yy, xx = torch.meshgrid(torch.arange(s, dtype=torch.float32), torch.arange(s, dtype=torch.float32),
                            indexing="ij")
    t = math.tan(math.radians(slant_deg))
    xc, yc = (x0 + x1) / 2, (y0 + y1) / 2
    if side == "right":    # a row laid left to right: the next card on top
        e = x0 + keep * (x1 - x0 + 1)
        d = (xx - e) - (yy - yc) * t
        src = _shifted(donor, round(e) + margin - jx0, shift)
    elif side == "left":   # an upside-down row
        e = x1 + 1 - keep * (x1 - x0 + 1)
        d = (e - xx) - (yy - yc) * t
        src = _shifted(donor, round(e) - margin - jx1, shift)
    elif side == "below":  # the next row over the suit
        e = y0 + keep * (y1 - y0 + 1)
        d = (yy - e) - (xx - xc) * t
        src = _shifted(donor, shift + (x0 - jx0), round(e) + margin - jy0)
    else:
        raise ValueError(f"side {side!r}: right, left or below")
    _cover(img, src, d, gen)


def cut_strips(x: Any, ink: Any, paper: Any, gen: Any, share: float, donors: Any = None) -> Any:
    """A share of the batch ``x`` (float 0..1, N x 3 x S x S, index crops upright) shows only a strip of its index,
    as in a row or fan laid tight (the 3-6 mm of a corner a person still reads): a covering card, with its own index
    just past its edge (another crop of the batch), cuts the ink from the right (a row laid left to right; 55 %),
    from the left (an upside-down row; 15 %) or from below (the next row over the suit; 30 %), its edge up to
    ``STRIP_SLANT_DEG`` off the index's axes, leaving ``STRIP_KEEP_SIDE`` of the ink's width or ``STRIP_KEEP_BELOW``
    of its height showing (``cut_one``). The label stands: what is left is what a reader of a real strip sees, and
    where it no longer tells two cards apart (a suit under the next row) the loss teaches the reader to say so.
    Crops whose ink is already narrower than ``STRIP_MIN_INK`` (strips, background) are left as they are. ``ink``,
    ``paper``: ``ink_extents`` of these crops; ``donors``: the crops that may be pasted as the covering card (all if
    None)."""
    import torch

    n = x.shape[0]
    if n < 2 or share <= 0:
        return x
    pool = torch.nonzero(donors).flatten() if donors is not None else torch.arange(n)
    if len(pool) < 2:
        return x
    cuttable = whole_enough(ink)
    if donors is not None:
        cuttable &= donors
    chosen = torch.nonzero(cuttable & (torch.rand(n, generator=gen) < share)).flatten().tolist()
    out = x.clone()
    for i in chosen:
        j = int(pool[_rand_int(gen, 0, len(pool) - 1)])
        if j == i:
            continue
        tone = float(paper[i] / paper[j].clamp(min=0.2))
        kind = float(torch.rand(1, generator=gen))
        side = "right" if kind < 0.55 else "left" if kind < 0.7 else "below"
        keep = _rand(gen, *(STRIP_KEEP_BELOW if side == "below" else STRIP_KEEP_SIDE))
        slant = _rand(gen, -STRIP_SLANT_DEG, STRIP_SLANT_DEG)
        shift = _rand_int(gen, -8, 8) if side == "below" else _rand_int(gen, -6, 6)
        cut_one(out[i], ink_of(ink, i), x[j] * tone, ink_of(ink, j), gen, side,
                keep, slant, _rand_int(gen, 2, 6), shift)
    return out.clamp(0, 1)
