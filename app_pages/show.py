"""Showing hands and settlements: shared by the score page and the history page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

import pandas as pd
import streamlit as st

from app_pages.glyphs import row_html, score_html, totals_html
from app_pages.i18n import Language, name
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
        reason = foul_text(rows_of(player), rules, lang) if rules is not None else None
        lines.append(f":red[**{name('foul', lang)}**: {escape(str(reason or player.get('foul_reason')))}]")
    if player.get("special"):
        lines.append(f":green[**{name('special', lang)}**: {name(str(player['special']), lang)}]")
    if player.get("missed_special"):
        lines.append(f":orange[{name('missed_special', lang)}: {name(str(player['missed_special']), lang)} "
                     "(these cards could have been laid as it; not scored)]")
    return lines


def totals_row(scores: Mapping[str, int]) -> None:
    """Each player's score, side by side (wraps on a phone)."""
    st.markdown(totals_html(scores), unsafe_allow_html=True)


def settlement(data: Mapping[str, Any], lang: Language, *, flagged: Mapping[str, Sequence[str]] | None = None,
               key: str = "settlement") -> None:
    """A settlement (``Settlement.to_json()``): totals, each hand, and the pair-by-pair breakdown."""
    players = data.get("players", [])
    banker = data.get("banker")
    totals_row({p["name"]: int(p["score"]) for p in players})
    for player in players:
        who = player["name"] + (f" ({name('banker', lang)})" if banker and player["name"] == banker else "")
        with st.container(border=True):
            st.markdown(f"**{escape(who)}** &nbsp; {score_html(int(player['score']))}", unsafe_allow_html=True)
            st.markdown(rows_block(player["rows"], lang, foul=bool(player.get("foul")),
                                   flagged=(flagged or {}).get(player["name"], ())), unsafe_allow_html=True)
            for line in verdict_lines(player, lang):
                st.markdown(line)
    st.markdown("**Pair by pair** (points the first player receives from the second)")
    st.dataframe(pairs_frame(data, lang), hide_index=True, width="stretch", key=f"{key}_pairs")
    st.caption(f"Rules: {data.get('rules')} ({data.get('mode')}); total {data.get('total')}")


def pairs_frame(data: Mapping[str, Any], lang: Language) -> pd.DataFrame:
    rows = []
    for pair in data.get("pairs", []):
        head, middle, tail = pair["rows"]
        extras = []
        for part in bonus_parts(pair):
            who = "" if part.by is None else f" ({part.by})" if part.kind == "special" else f" {part.by}"
            extras.append(f"{name(part.label, lang)}{who} {part.points:+d}")
        rows.append({"pair": f"{pair['a']} v {pair['b']}", name("head", lang): head, name("middle", lang): middle,
                     name("tail", lang): tail, "bonuses": ", ".join(extras), "points": pair["points"]})
    return pd.DataFrame(rows)
