"""Procedural font decks (datasets/font_decks.py): training data for the reader with index
designs the art packages lack. Each deck is a full, reproducible deck whose index box holds the
drawn rank and suit; scenes made of them label every index like the art decks' scenes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from datasets.font_decks import FontDeckStyle, W, draw_font_card, font_deck, font_files
from datasets.index_box import ink_mask
from datasets.synth import SCENES_PER_FONT_DECK, generate
from referee.cards import DECK, Card


def test_a_deck_is_52_cards_with_their_index_in_the_top_left_corner() -> None:
    deck = font_deck(3)
    assert deck.images.shape[0] == 52 and deck.images.shape[3] == 4
    w, h = deck.size
    assert w == W and 540 <= h <= 640
    for img, (x0, y0, x1, y1) in zip(deck.images, deck.boxes, strict=True):
        assert 0 < x0 < x1 < 0.34 * w and 0 < y0 < y1 < 0.42 * h
        ink = ink_mask(img)[int(y0):int(y1), int(x0):int(x1)]
        assert ink.mean() > 0.08, "the index box holds the drawn rank and suit"
        assert img[0, 0, 3] == 0 and img[h // 2, w // 2, 3] == 255, "rounded corners, opaque face"


def test_the_bottom_right_index_is_the_top_left_one_turned() -> None:
    style = FontDeckStyle(np.random.default_rng(5))
    img, (x0, y0, x1, y1) = draw_font_card(Card.parse("Qh"), style, np.random.default_rng(1))
    top_left = img[int(y0):int(y1), int(x0):int(x1), :3].astype(int)
    h = img.shape[0]
    bottom_right = img[h - int(y1):h - int(y0), W - int(x1):W - int(x0), :3][::-1, ::-1].astype(int)
    assert np.abs(top_left - bottom_right).mean() < 12


def test_decks_are_reproducible_and_differ_by_seed() -> None:
    a, b, c = font_deck(7), font_deck(7), font_deck(8)
    assert np.array_equal(a.images, b.images) and np.array_equal(a.boxes, b.boxes)
    assert a.images.shape != c.images.shape or not np.array_equal(a.images, c.images)


def test_red_suits_are_drawn_red_and_black_suits_dark() -> None:
    deck = font_deck(11)
    for card in (Card.parse("7h"), Card.parse("7s")):
        img, (x0, y0, x1, y1) = deck.images[DECK.index(card)], deck.boxes[DECK.index(card)]
        region = img[int(y0):int(y1), int(x0):int(x1)]
        ink = region[ink_mask(img)[int(y0):int(y1), int(x0):int(x1)]][:, :3].astype(int)  # BGR
        red_share = float(np.mean(ink[:, 2] - ink[:, 0] > 60))
        assert (red_share > 0.5) == card.suit.is_red, (card, red_share)


def test_rank_fonts_leave_out_the_ones_without_latin_letters() -> None:
    ranks, suits = font_files()
    assert not any("CJK" in f or "Symbol" in f for f in ranks)
    assert set(suits) <= {*ranks, *suits}


@pytest.mark.parametrize("workers", [1])
def test_scenes_of_font_decks_label_every_card(tmp_path: Path, workers: int) -> None:
    n = SCENES_PER_FONT_DECK + 2
    stats = generate(tmp_path, n, seed=4, split="train", size=640, workers=workers, progress=False, font_decks=True)
    assert stats["scenes"] == n and stats["labels"] > 0
    truths = [json.loads(p.read_text()) for p in sorted((tmp_path / "truth" / "train").glob("*.json"))]
    assert len(truths) == n
    decks = {t["deck"] for t in truths}
    assert all(d.startswith("fonts-") for d in decks) and len(decks) == 2, "a new deck every 10 scenes"
    assert all(t["family"] == "fonts" for t in truths)
    assert all(len(t["cards"]) >= 26 for t in truths)


def test_debian_fonts_are_asked_for_not_assumed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Decks of ``--debian-fonts`` draw from the font packages unpacked into the art cache; where they are not
    unpacked the deck says how to get them, and the option without ``--font-decks`` is refused (exit 2)."""
    from datasets import debian_fonts, synth

    monkeypatch.setenv("SHISANSHUI_CACHE", str(tmp_path))
    font_files.cache_clear()
    try:
        assert debian_fonts.debian_font_files() == ()
        with pytest.raises(FileNotFoundError, match=r"datasets\.debian_fonts"):
            font_deck(3, debian_fonts=True)
        # a font file put where the packages unpack is among the rank fonts of such decks, not of the others
        plain = font_files()[0]
        if plain:
            extra = debian_fonts.fonts_dir() / "usr/share/fonts/truetype/x/Extra.ttf"
            extra.parent.mkdir(parents=True)
            extra.write_bytes(Path(plain[0]).read_bytes())
            font_files.cache_clear()
            assert str(extra) in font_files(debian=True)[0] and str(extra) not in font_files()[0]
            assert font_deck(3, debian_fonts=True).name == "fonts-debian-3" and font_deck(3).name == "fonts-3"
    finally:
        font_files.cache_clear()
    assert synth.main(["--n", "1", "--out", str(tmp_path / "s"), "--debian-fonts"]) == 2
