"""Suits drawn from parameters (datasets/suit_shapes.py): the font decks of ``--drawn-suits`` give the readers
clubs and spades of many shapes. A suit must still be its suit: a spade points up and stands on a stem, a heart
points down, a club is three lobes on a stem; each deck draws its own, and the same seed the same."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.font_decks import font_deck
from datasets.index_box import ink_mask
from datasets.suit_shapes import SuitShapes
from datasets.synth import main as synth_main
from referee.cards import DECK, Card

SEEDS = range(40)


def _mask(shapes: SuitShapes, suit: str, height: int = 80) -> np.ndarray:
    return np.asarray(shapes.layer(suit, height, (0, 0, 0)))[..., 3] > 127


def _widths(mask: np.ndarray) -> np.ndarray:
    """The ink's width on each row (from its leftmost to its rightmost ink)."""
    out = np.zeros(mask.shape[0])
    for y, row in enumerate(mask):
        xs = np.flatnonzero(row)
        out[y] = xs[-1] - xs[0] + 1 if len(xs) else 0
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_a_spade_points_up_and_a_heart_points_down(seed: int) -> None:
    shapes = SuitShapes(np.random.default_rng(seed))
    spade, heart = _widths(_mask(shapes, "s")), _widths(_mask(shapes, "h"))
    for widths, point_at in ((spade, 0), (heart, -1)):
        h = len(widths)
        tip = widths[:max(2, h // 12)] if point_at == 0 else widths[-max(2, h // 12):]
        assert tip.max() < 0.35 * widths.max(), "a point, not a lobe or a foot"
    assert np.argmax(spade) > len(spade) // 3, "a spade is widest at its shoulders, below its point"
    assert np.argmax(heart) < len(heart) * 2 // 3, "a heart is widest across its lobes, above its point"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_club_and_a_spade_stand_on_a_stem_narrower_than_their_lobes(seed: int) -> None:
    shapes = SuitShapes(np.random.default_rng(seed))
    for suit in "cs":
        widths = _widths(_mask(shapes, suit))
        h = len(widths)
        waist = widths[int(h * 0.6):int(h * 0.95)].min()
        assert waist < 0.45 * widths.max(), (suit, "the stem under the body")


def test_each_deck_draws_its_own_club_and_the_same_seed_the_same() -> None:
    a = _mask(SuitShapes(np.random.default_rng(3)), "c")
    assert np.array_equal(a, _mask(SuitShapes(np.random.default_rng(3)), "c"))
    clubs = [_mask(SuitShapes(np.random.default_rng(s)), "c", 60) for s in range(8)]
    side = 80
    padded = [np.pad(m, ((0, side - m.shape[0]), (0, side - m.shape[1]))) for m in clubs]
    ious = [np.logical_and(p, q).sum() / np.logical_or(p, q).sum()
            for i, p in enumerate(padded) for q in padded[i + 1:]]
    assert min(ious) < 0.8, "clubs of many shapes"


def test_a_deck_of_drawn_suits_is_named_apart_and_draws_other_suits_than_its_font_deck() -> None:
    plain, drawn = font_deck(21), font_deck(21, drawn_suits=True)
    assert plain.name == "fonts-21" and drawn.name == "fonts-drawn-21"
    assert plain.images.shape == drawn.images.shape
    card = DECK.index(Card.parse("9c"))
    x0, y0, x1, y1 = (int(v) for v in drawn.boxes[card])
    assert ink_mask(drawn.images[card])[y0:y1, x0:x1].mean() > 0.08, "the index holds the drawn rank and suit"
    assert not np.array_equal(plain.images[card], drawn.images[card])


def test_drawn_suits_need_font_decks(tmp_path, capsys) -> None:
    assert synth_main(["--n", "1", "--out", str(tmp_path), "--drawn-suits", "--test-deck"]) == 2
    assert "--drawn-suits" in capsys.readouterr().err
