"""Showing hands and settlements: shared by the score page and the history page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

import streamlit as st

from app_pages.glyphs import row_html, score_html, score_text, totals_html
from app_pages.i18n import Language, name
from app_pages.words import foul_reason, tr
from referee.cards import parse_cards
from referee.ruleset import Ruleset
from referee.settle import bonus_parts
from referee.words import foul_text, rows_of


def rows_block(rows: Sequence[Mapping[str, Any]], lang: Language, *, foul: bool = False,
               flagged: Sequence[str] = ()) -> str:
    """Three rows of card tiles with their categories (``rows`` as in ``Settlement.to_json()``)."""
    return "".join(
        row_html(name(r["row"], lang), parse_cards(r["cards"]), name(r["category"], lang), bad=foul,
                 flagged=flagged)
        for r in rows
    )


def verdict_lines(player: Mapping[str, Any], lang: Language, rules: Ruleset | None = None) -> list[str]:
    """Foul (with the reason: with ``rules``, the rows and cards that decide it), special, missed
    special, as short markdown lines."""
    lines = []
    if player.get("foul"):
        # The referee's wording (referee.words) needs the rules; without them (a saved round shown in
        # History) the app's own plain words say the same from the reason stored with the round.
        reason = foul_text(rows_of(player), rules, lang) if rules is not None else None
        lines.append(f":red[**{name('foul', lang)}**: {escape(str(reason or foul_reason(player, lang)))}]")
    if player.get("special"):
        lines.append(f":green[**{name('special', lang)}**: {name(str(player['special']), lang)}]")
    if player.get("missed_special"):
        lines.append(f":orange[{name('missed_special', lang)}: {name(str(player['missed_special']), lang)} "
                     + tr("(these cards could have been laid as it; not scored)", "（这手牌本可摆成它；不计分）", lang)
                     + "]")
    return lines


def totals_row(scores: Mapping[str, int]) -> None:
    """Each player's score, side by side (wraps on a phone)."""
    st.markdown(totals_html(scores), unsafe_allow_html=True)


def settlement(data: Mapping[str, Any], lang: Language, *, flagged: Mapping[str, Sequence[str]] | None = None,
               key: str = "settlement", rules: Ruleset | None = None) -> None:
    """A settlement (``Settlement.to_json()``): totals, each hand, and the pair-by-pair breakdown
    (``rules``: those it was scored with, for the words of a foul)."""
    players = data.get("players", [])
    banker = data.get("banker")
    totals_row({p["name"]: int(p["score"]) for p in players})
    for player in players:
        who = player["name"] + (f" ({name('banker', lang)})" if banker and player["name"] == banker else "")
        with st.container(border=True):
            st.markdown(f"**{escape(who)}** &nbsp; {score_html(int(player['score']))}", unsafe_allow_html=True)
            st.markdown(rows_block(player["rows"], lang, foul=bool(player.get("foul")),
                                   flagged=(flagged or {}).get(player["name"], ())), unsafe_allow_html=True)
            for line in verdict_lines(player, lang, rules):
                st.markdown(line)
    pairs(data, lang)
    st.caption(tr(f"Rules: {data.get('rules')} ({data.get('mode')}); total {data.get('total')}",
                  f"规则：{data.get('rules')}（{data.get('mode')}）；合计 {data.get('total')}", lang))


def pairs(data: Mapping[str, Any], lang: Language) -> None:
    """The pair-by-pair breakdown, one block per pair that wraps on a phone (no sideways scrolling)."""
    st.markdown(tr("**Pair by pair** (points the first player receives from the second)",
                   "**两两比牌**（前者从后者得的分）", lang))
    st.markdown(pairs_html(data, lang), unsafe_allow_html=True)


def pairs_html(data: Mapping[str, Any], lang: Language) -> str:
    """Each pair as a line of labelled numbers: rows, each bonus, and the pair's points last.

    >>> html = pairs_html({"pairs": [{"a": "Ann", "b": "Bob", "rows": [1, -1, 1], "points": 1}]}, "en")
    >>> "Ann v Bob" in html and 'data-points="1"' in html
    True
    """
    blocks = []
    for pair in data.get("pairs", []):
        cells = [f'<span class="ssr-cell">{escape(name(row, lang))} <b>{score_text(int(points))}</b></span>'
                 for row, points in zip(("head", "middle", "tail"), pair["rows"], strict=True)]
        for part in bonus_parts(pair):
            who = "" if part.by is None else f" ({part.by})" if part.kind == "special" else f" {part.by}"
            cells.append(f'<span class="ssr-cell">{escape(name(part.label, lang) + who)} '
                         f"<b>{score_text(part.points)}</b></span>")
        points = int(pair["points"])
        blocks.append(f'<div class="ssr-pair"><span class="ssr-who">{escape(pair["a"])} v {escape(pair["b"])}</span>'
                      f'{"".join(cells)}<span class="ssr-cell ssr-points" data-points="{points}">'
                      f"= {score_html(points)}</span></div>")
    return f'<div class="ssr-pairs">{"".join(blocks)}</div>'



