"""benchmarks/real_covered.py: real indices covered in the photo as the next card of a tight row covers them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from benchmark_modules import load_benchmark

from training.realsets import LabelledIndex, RealPhoto

pytest.importorskip("torch")  # the covering card is training.neighbours.cut_one's, which works on tensors
real_covered = load_benchmark("real_covered")


def _photo_with_an_index(turn: int, ink: int = 20) -> tuple[np.ndarray, object]:
    """A grey table, a white card with a 12 x 24 px index of grey ``ink``, and the index turned ``turn`` quarter
    turns in the photo (its upright frame: ``np.rot90(..., turn)``)."""
    img = np.full((200, 200, 3), 90, np.uint8)
    img[60:170, 60:150] = 235
    up = np.ascontiguousarray(np.rot90(img, turn))   # the card upright in this view
    h = up.shape[0]
    up[h // 2 - 12:h // 2 + 12, 94:106] = ink
    img = np.ascontiguousarray(np.rot90(up, -turn))
    ys, xs = np.nonzero(img[:, :, 0] == ink)
    box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
    return img, real_covered.Upright(0, LabelledIndex("As", box), turn)


@pytest.mark.parametrize("turn", [0, 1, 2, 3])
def test_a_card_covered_from_its_right_shows_the_left_of_its_index_labelled_as_what_shows(turn: int) -> None:
    """Covered from the right in the index's own upright frame, leaving 60 % of its width: the label shrinks to that
    strip (as long as the index, 60 % as wide), the strip's ink is left as it was, and the rest of the index is
    covered by the donor card (its paper, and its own index, a lighter grey here, just past its edge)."""
    img, target = _photo_with_an_index(turn)
    donor_img, donor = _photo_with_an_index(0, ink=120)
    out, labels = real_covered.covered(img, [target], [(donor_img, donor)], "right", 0.6, 0.0, seed=1)
    (label,) = labels
    x0, y0, x1, y1 = target.index.box
    lx0, ly0, lx1, ly1 = label.box
    assert x0 <= lx0 and y0 <= ly0 and lx1 <= x1 and ly1 <= y1
    long_side, short_side = max(x1 - x0, y1 - y0), min(x1 - x0, y1 - y0)
    assert max(lx1 - lx0, ly1 - ly0) == long_side
    assert min(lx1 - lx0, ly1 - ly0) == pytest.approx(0.6 * short_side, abs=1)
    strip = out[int(ly0) + 1:int(ly1) - 1, int(lx0) + 1:int(lx1) - 1]
    assert strip.max() <= 40                     # the ink that shows is untouched (but for the soft edge)
    index = out[int(y0):int(y1), int(x0):int(x1)].astype(float)
    assert (index > 60).mean() > 0.3             # the covered part of the ink is the donor card now
    region = real_covered._region(target.index.box)
    assert np.array_equal(out[:region[1] - 1], img[:region[1] - 1])  # outside the edited square nothing changed


def test_the_cards_covered_together_stand_apart() -> None:
    """Two cards whose indices lie close are covered in different copies of the photo; two far apart in one."""
    photo = RealPhoto(Path("x.jpg"), (LabelledIndex("As", (10.0, 10.0, 20.0, 30.0)),
                                      LabelledIndex("Kd", (40.0, 10.0, 50.0, 30.0)),
                                      LabelledIndex("2c", (400.0, 400.0, 410.0, 420.0))))
    ups = [real_covered.Upright(0, ix, 0) for ix in photo.indices]
    groups = real_covered.rounds(photo, ups)
    assert sorted(sorted(u.index.card for u in g) for g in groups) == [["2c", "As"], ["Kd"]]


def test_a_misread_that_took_the_covering_cards_rank_is_told_from_one_of_its_own_rank() -> None:
    """An Ad under a Kc read Kd took the covering card's rank; read As (its own rank, the suit wrong), Qd (a rank
    no covering card has) or not at all, it did not."""
    assert real_covered.took_covering_rank("Ad", "Kd", {"Kc"})
    assert real_covered.took_covering_rank("Ad", "Kd", {"7s", "Kc"})
    assert not real_covered.took_covering_rank("Ad", "As", {"Kc"})
    assert not real_covered.took_covering_rank("Ad", "Qd", {"Kc"})
    assert not real_covered.took_covering_rank("Ad", None, {"Kc"})
    assert not real_covered.took_covering_rank("Kd", "Ks", {"Kc"})
