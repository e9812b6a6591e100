"""Cards drawn as small HTML tiles (rank over suit, red or black), big enough to read
on a phone at arm's length. The pages inject :data:`CSS` once per run.

>>> card_html(Card.parse("Th"))
'<span class="ssr-card ssr-red" title="10♥">10<br>♥</span>'
>>> cards_html([])
'<span class="ssr-empty">(no cards)</span>'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape

from referee.cards import SUIT_GLYPHS, Card

CSS = """
<style>
.ssr-row { display: flex; flex-wrap: wrap; align-items: center; gap: .3rem; margin: .15rem 0 .35rem 0; }
.ssr-card { display: inline-block; min-width: 2.3rem; padding: .2rem .25rem; border: 1px solid #9aa0a6;
  border-radius: .4rem; background: #fff; color: #1f1f1f; font: 600 1.05rem/1.05 system-ui, sans-serif;
  text-align: center; box-shadow: 0 1px 2px rgba(0,0,0,.15); }
.ssr-card.ssr-red { color: #c62828; }
.ssr-card.ssr-flag { border: 2px solid #e65100; background: #fff3e0; }
.ssr-label { flex: 0 0 5.4rem; color: #5f6368; font-size: .85rem; line-height: 1.1; }
.ssr-totals { display: flex; flex-wrap: wrap; gap: .5rem 1.4rem; margin: .2rem 0 .6rem 0; }
.ssr-total { display: flex; flex-direction: column; min-width: 4.5rem; }
.ssr-total b { font-weight: 600; color: #3c4043; }
.ssr-cat { color: #1a73e8; font-size: .9rem; margin-left: .3rem; }
.ssr-cat.ssr-bad { color: #c62828; font-weight: 600; }
.ssr-badge { display: inline-block; margin-left: .5rem; padding: .05rem .45rem; border-radius: .6rem;
  background: #fde7b0; color: #6d4c00; font-size: .85rem; vertical-align: super; }
.ssr-stop { color: #c62828; font-weight: 700; } .ssr-warn { color: #e65100; font-weight: 700; }
.ssr-empty { color: #9aa0a6; font-style: italic; }
.ssr-score { font: 700 1.6rem/1.2 system-ui, sans-serif; }
.ssr-score.ssr-pos { color: #2e7d32; } .ssr-score.ssr-neg { color: #c62828; }
.ssr-pairs { display: flex; flex-direction: column; gap: .35rem; margin: .2rem 0 .6rem 0; }
.ssr-pair { display: flex; flex-wrap: wrap; align-items: baseline; gap: .2rem .9rem; padding: .3rem .5rem;
  border: 1px solid #e0e0e0; border-radius: .4rem; }
.ssr-who { flex: 1 0 100%; font-weight: 600; color: #3c4043; }
.ssr-cell { white-space: nowrap; color: #5f6368; } .ssr-cell b { color: #1f1f1f; }
.ssr-points { margin-left: auto; } .ssr-points .ssr-score { font-size: 1.2rem; }
/* the card picker: hearts and diamonds in red, as on the cards */
.st-key-pick_h button, .st-key-pick_d button { color: #c62828; }
@media (max-width: 640px) { .ssr-card { min-width: 1.9rem; font-size: .95rem; } .ssr-label { flex-basis: 3.3rem; } }
</style>
"""


def card_text(card: Card) -> str:
    """``A♠``, ``10♥``: how a card is written on the page."""
    rank = "10" if card.rank.symbol == "T" else card.rank.symbol
    return rank + SUIT_GLYPHS[card.suit]


def card_html(card: Card, *, flagged: bool = False) -> str:
    rank = "10" if card.rank.symbol == "T" else card.rank.symbol
    classes = "ssr-card" + (" ssr-red" if card.suit.is_red else "") + (" ssr-flag" if flagged else "")
    return f'<span class="{classes}" title="{escape(card_text(card))}">{rank}<br>{SUIT_GLYPHS[card.suit]}</span>'


def cards_html(cards: Iterable[Card], *, flagged: Iterable[str] = ()) -> str:
    marked = {s.upper() for s in flagged}
    tiles = [card_html(c, flagged=str(c).upper() in marked) for c in cards]
    return "".join(tiles) if tiles else '<span class="ssr-empty">(no cards)</span>'


def row_html(label: str, cards: Iterable[Card], category: str = "", *, bad: bool = False,
             flagged: Iterable[str] = ()) -> str:
    """One labelled row of tiles with its category after it."""
    cat = f'<span class="ssr-cat{" ssr-bad" if bad else ""}">{escape(category)}</span>' if category else ""
    return (f'<div class="ssr-row"><span class="ssr-label">{escape(label)}</span>'
            f"{cards_html(cards, flagged=flagged)}{cat}</div>")


def totals_html(scores: Mapping[str, int]) -> str:
    """Each player's score side by side, wrapping on a narrow screen."""
    cells = "".join(f'<div class="ssr-total"><b>{escape(player)}</b>{score_html(score)}</div>'
                    for player, score in scores.items())
    return f'<div class="ssr-totals">{cells}</div>'


def score_text(score: int) -> str:
    """``+6``, ``−6`` (a real minus sign), ``0``."""
    return f"{score:+d}".replace("-", "\u2212") if score else "0"


def score_html(score: int) -> str:
    sign = "ssr-pos" if score > 0 else "ssr-neg" if score < 0 else ""
    return f'<span class="ssr-score {sign}">{score_text(score)}</span>'
