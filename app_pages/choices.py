"""The players' choices of RULES.md §3 on the Score page, and how History shows them:
play a special or the rows (both scores shown), adjustments (from, to, points, note) and,
in banker mode, a negotiated result per player (谈判: that pair is not compared).

The choices live in this tab's session state until the round is saved; the saved round
(``Round.to_json()``) keeps them, so History shows them and an edit keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from html import escape
from typing import Any

import streamlit as st

from app_pages.i18n import Language, name
from referee.round import Adjustment, Round
from referee.ruleset import Ruleset

ADJUSTMENTS = "choice_adjustments"  # list of {"from", "to", "points", "note"} typed in on the Score page
AS_SPECIAL, AS_ROWS = "Play as special", "Play the rows"


def _special_key(player: str) -> str:
    return f"choice_special_{player}"


def _negotiated_keys(player: str) -> tuple[str, str]:
    return f"choice_negotiated_on_{player}", f"choice_negotiated_points_{player}"


def apply(round_: Round, rules: Ruleset) -> Round:
    """The round with this page's choices: declined specials, the adjustments between players
    at the table, and (banker mode) the negotiated results."""
    names = {p.name for p in round_.players}
    players = tuple(replace(p, declares_special=st.session_state.get(_special_key(p.name)) != AS_ROWS)
                    for p in round_.players)
    adjustments = tuple(Adjustment(source=a["from"], target=a["to"], points=int(a["points"]), note=a["note"])
                        for a in st.session_state.get(ADJUSTMENTS, [])
                        if a["from"] in names and a["to"] in names and a["from"] != a["to"])
    negotiated: tuple[tuple[str, int], ...] = ()
    if rules.mode == "banker" and round_.banker is not None:
        agreed = []
        for p in round_.players:
            on, points = _negotiated_keys(p.name)
            if p.name != round_.banker and st.session_state.get(on):
                agreed.append((p.name, int(st.session_state.get(points) or 0)))
        negotiated = tuple(agreed)
    return replace(round_, players=players, adjustments=adjustments, negotiated=negotiated)


def carried(saved: Mapping[str, Any], round_: Round) -> Round:
    """An edited round keeps the saved round's choices (declines, adjustments, negotiated results)
    for the players still in it."""
    names = {p.name for p in round_.players}
    declined = {p["name"] for p in saved.get("players", []) if p.get("special") is False}
    players = tuple(replace(p, declares_special=p.name not in declined) for p in round_.players)
    adjustments = tuple(Adjustment(source=a["from"], target=a["to"], points=int(a["points"]), note=a.get("note", ""))
                        for a in saved.get("adjustments", []) if a["from"] in names and a["to"] in names)
    negotiated = tuple((who, int(n)) for who, n in (saved.get("negotiated") or {}).items()
                       if who in names and who != round_.banker)
    return replace(round_, players=players, adjustments=adjustments, negotiated=negotiated)


def clear() -> None:
    """A new deal: no adjustments carried over (the special and negotiated choices follow their widgets)."""
    st.session_state[ADJUSTMENTS] = []
    for key in [k for k in st.session_state if str(k).startswith(("choice_special_", "choice_negotiated_"))]:
        del st.session_state[key]


def special_choice(player: Mapping[str, Any], lang: Language) -> None:
    """Under a seat holding a special: play it, or play the rows, with what each scores."""
    held = player.get("special") or player.get("declined_special")
    if not held or "score" not in player:
        return
    declared = player.get("special") is not None
    as_special = player["score"] if declared else player.get("special_instead")
    as_rows = player.get("rows_instead") if declared else player["score"]
    if as_special is None or as_rows is None:  # a negotiated pair: the choice changes nothing
        return
    st.radio(f"{player['name']} holds {name(str(held), lang)}", [AS_SPECIAL, AS_ROWS], horizontal=True,
             key=_special_key(str(player["name"])), index=0 if declared else 1)
    st.caption(f"As {name(str(held), lang)}: {int(as_special):+d} · as the rows: {int(as_rows):+d}")


def _adjustment_line(adjustment: Mapping[str, Any]) -> str:
    note = f" — {adjustment['note']}" if adjustment.get("note") else ""
    return f"{adjustment['from']} pays {adjustment['to']} {int(adjustment['points'])}{note}"


def adjustment_form(round_: Round, rules: Ruleset, lang: Language) -> None:
    """The Score page's adjustments (listed, each removable, a form to add one) and, in banker
    mode, a negotiated result per player."""
    names = [p.name for p in round_.players]
    if rules.mode == "banker" and round_.banker is not None:
        with st.expander(f"{name('negotiated', lang)}: a player and the banker agreed a result (not compared)"):
            for who in names:
                if who == round_.banker:
                    continue
                on, points = _negotiated_keys(who)
                left, right = st.columns([1, 1])
                left.checkbox(f"{who}: negotiated", key=on)
                right.number_input(f"Points {who} receives from the banker (negative: pays)", step=1,
                                   value=0, key=points, disabled=not st.session_state.get(on))
    adjustments: list[dict[str, Any]] = st.session_state.setdefault(ADJUSTMENTS, [])
    with st.expander(f"{name('adjustment', lang)}s: penalties, side bets, a player leaving ({len(adjustments)})",
                     expanded=bool(adjustments)):
        for i, adjustment in enumerate(adjustments):
            cols = st.columns([4, 1])
            cols[0].markdown(escape(_adjustment_line(adjustment)))
            if cols[1].button("Remove", key=f"choice_adjustment_remove_{i}"):
                del adjustments[i]
                st.rerun()
        with st.form("choice_adjustment", border=False, clear_on_submit=True):
            left, right = st.columns(2)
            source = left.selectbox("From", names, key="choice_adjustment_from")
            target = right.selectbox("To", names, index=min(1, len(names) - 1), key="choice_adjustment_to")
            amount = st.number_input("Points", min_value=1, step=1, value=1, key="choice_adjustment_points")
            note = st.text_input("Note", key="choice_adjustment_note", placeholder="e.g. left early (逃跑)")
            if st.form_submit_button("Add adjustment"):
                if source == target:
                    st.error("An adjustment is between two different players.")
                else:
                    adjustments.append({"from": source, "to": target, "points": int(amount), "note": note.strip()})
                    st.rerun()


def show_adjustments(settlement: Mapping[str, Any], lang: Language) -> None:
    """What a saved round's settlement says about the choices: declined specials, negotiated
    pairs and the adjustments with their notes (older rounds have none)."""
    lines = []
    for player in settlement.get("players", []):
        if player.get("declined_special"):
            lines.append(f"{player['name']} played the rows ({name('declined_special', lang)}: "
                         f"{name(str(player['declined_special']), lang)})")
    for pair in settlement.get("pairs", []):
        if pair.get("negotiated"):
            lines.append(f"{pair['b']} and the banker {pair['a']}: {name('negotiated', lang)}, not compared "
                         f"({pair['b']} {-int(pair['negotiated_points']):+d})")
    lines += [f"{name('adjustment', lang)}: {_adjustment_line(a)}" for a in settlement.get("adjustments", [])]
    for line in lines:
        st.markdown(f"- {escape(line)}")
