"""Page 3: sessions and their rounds; running totals, each round's photo and breakdown,
edit or delete a round (totals follow), export a session as CSV or JSON."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json

import pandas as pd
import streamlit as st
from PIL import Image

from app_pages import show, state
from app_pages.i18n import sentence
from app_pages.images import to_rgb
from app_pages.seating import PLACES, seating_of
from app_pages.table import build_round, seat_entry
from referee.errors import InputError
from referee.settle import settle
from referee.storage import RoundRecord, SessionRecord


def _new_session_form(expanded: bool) -> None:
    with st.expander("Start a new session", expanded=expanded), st.form("new_session", border=False):
        date = st.date_input("Date", value=dt.date.today(), key="new_date")
        place = st.text_input("Place", key="new_place", placeholder="e.g. Grandma's kitchen")
        players = st.text_input("Players (comma-separated, in seat order: bottom, right, top, left)",
                                key="new_players", placeholder="Ann, Bob, Chen, Dee")
        st.caption(f"Ruleset: **{state.current_rules().name}** (change it in the settings first)")
        if st.form_submit_button("Start session", type="primary"):
            names = [n.strip() for n in players.replace("，", ",").split(",") if n.strip()]
            if len(set(names)) != len(names):
                st.error("Each player needs a different name.")
                return
            day = date if isinstance(date, dt.date) else dt.date.today()
            session = state.new_session(date=day, place=place, players=names)
            st.toast(f"Session started: {session.title()}")
            st.rerun()


def _pick_session(sessions: list[SessionRecord]) -> SessionRecord:
    """The session picker mirrors the open session (``session_id``): starting or opening a session
    anywhere moves it, and picking one here opens it for every page before the page is drawn."""
    by_title = {f"#{s.id} · {s.title()}": s for s in sessions}  # labels as values: no format_func to keep in sync
    current = state.current_session()
    if current is None or current.id not in {s.id for s in sessions}:
        state.open_session(sessions[0])
        st.rerun()  # the settings follow the session before anything is drawn with them
    st.session_state["history_session"] = next(t for t, s in by_title.items() if s.id == current.id)
    st.selectbox("Session", list(by_title), key="history_session", on_change=_session_picked, args=(by_title,))
    return current


def _session_picked(by_title: dict[str, SessionRecord]) -> None:
    chosen = by_title.get(str(st.session_state.get("history_session")))
    if chosen is not None:
        state.open_session(chosen)


def _totals(session: SessionRecord, rounds: list[RoundRecord]) -> None:
    totals = state.db().totals(session.id)
    st.subheader(f"Totals after {len(rounds)} round{'s' if len(rounds) != 1 else ''}")
    show.totals_row(totals)
    if rounds:
        running = pd.DataFrame(state.db().running_totals(session.id)).set_index("round")
        start = pd.DataFrame([dict.fromkeys(running.columns, 0)], index=pd.Index([0], name="round"))
        st.line_chart(pd.concat([start, running]), x_label="round", y_label="running total", height=260)


def _exports(session: SessionRecord) -> None:
    db = state.db()
    stem = f"shisanshui-{session.date}-{session.id}"
    col1, col2 = st.columns(2)
    col1.download_button("Export CSV", db.export_csv(session.id), file_name=f"{stem}.csv", mime="text/csv",
                         key="export_csv", width="stretch")
    col2.download_button("Export JSON", json.dumps(db.export_json(session.id), ensure_ascii=False, indent=2),
                         file_name=f"{stem}.json", mime="application/json", key="export_json", width="stretch")


def _session_details(session: SessionRecord) -> None:
    """Fix the place or the players' names of a session, or delete it."""
    with st.expander("Session details"):
        with st.form(f"session_{session.id}", border=False):
            place = st.text_input("Place", value=session.place, key=f"session_{session.id}_place")
            players = st.text_input("Players (comma-separated)", value=", ".join(session.players),
                                    key=f"session_{session.id}_players")
            if st.form_submit_button("Save details"):
                names = [n.strip() for n in players.replace("，", ",").split(",") if n.strip()]
                state.db().update_session(session.id, place=place, players=names)
                state.open_session(state.db().session(session.id))
                st.rerun()
        _rename_form(session)
        st.caption(f"Ruleset: {session.ruleset}. Started {session.created_at.replace('T', ' ')[:16]} UTC.")
        sure = st.checkbox("Yes, delete this session and all its rounds", key=f"session_{session.id}_sure")
        if st.button("Delete session", disabled=not sure, key=f"session_{session.id}_delete"):
            state.db().delete_session(session.id)
            st.session_state["session_id"] = None
            st.toast("Session deleted")
            st.rerun()


def _rename_form(session: SessionRecord) -> None:
    """Put a player's name right in every round of the session (a seat saved under the wrong name, or
    one person under two names: give the second the first's name and they are one, totals summed)."""
    if not session.players:
        return
    with st.form(f"rename_{session.id}", border=False):
        st.markdown("**Put a player's name right** (in every round; the totals follow)")
        col1, col2 = st.columns(2)
        old = col1.selectbox("Player", list(session.players), key=f"rename_{session.id}_old")
        new = col2.text_input("Is really", key=f"rename_{session.id}_new", placeholder="their name",
                              help="A name already in the session joins the two: their rounds count for one person.")
        if st.form_submit_button("Rename") and old is not None:
            try:
                state.db().rename_player(session.id, str(old), new)
            except InputError as err:
                st.error(sentence(str(err)))
                return
            state.open_session(state.db().session(session.id))
            # The rounds' edit boxes show the names as saved: they start again from the renamed rounds.
            stale = [str(k) for k in st.session_state if str(k).startswith("edit_")]
            st.session_state["pending_drop"] = [*st.session_state.get("pending_drop", []), *stale]
            st.toast(f"{old} is now {new.strip()} in every round")
            st.rerun()


def _round_title(record: RoundRecord) -> str:
    when = record.created_at[11:16] if len(record.created_at) >= 16 else record.created_at
    scores = ", ".join(f"{n} {s:+d}" for n, s in record.scores.items())
    edited = " · edited" if record.updated_at != record.created_at else ""
    return f"Round {record.number} · {when} UTC · {scores}{edited}"


def _edit_round(record: RoundRecord) -> None:
    """Retype a round's rows (or banker); rescored with the round's own ruleset, then saved in one go."""
    players = record.hands.get("players", [])
    seat_of = {who: seat for seat, who in record.seating.items()}
    places = ["", *PLACES]
    with st.form(f"edit_{record.id}", border=False):
        st.caption("Who played, where they sat, and their rows as HEAD | MIDDLE | TAIL")
        entries = []
        for i, p in enumerate(players):
            col1, col2 = st.columns([2, 1])
            who = col1.text_input("Player", value=p["name"], key=f"edit_{record.id}_{i}_name")
            seat = col2.selectbox("Seat", places, index=places.index(seat_of.get(p["name"], "")),
                                  key=f"edit_{record.id}_{i}_seat", format_func=lambda v: v or "(not recorded)")
            text = st.text_input(f"{p['name']}'s rows", value=f"{p['head']} | {p['middle']} | {p['tail']}",
                                 key=f"edit_{record.id}_{i}")
            entries.append((p["name"], who.strip(), seat or "", text))
        banker = record.banker
        if record.settlement.get("mode") == "banker":
            names = [p["name"] for p in players]
            banker = st.selectbox("Banker", names, index=names.index(banker) if banker in names else None,
                                  key=f"edit_{record.id}_banker", placeholder="Choose the banker")
        submitted = st.form_submit_button("Save changes")
    if not submitted:
        return
    seats = []
    renamed = {old: new for old, new, _, _ in entries}
    for old, who, seat, text in entries:
        parts = [t.strip() for t in text.replace("/", "|").split("|")]
        if len(parts) != 3:
            st.error(f"{who or old}: write three rows split by |")
            return
        seats.append(seat_entry(seat, who, *parts))
    taken = [seat for _, _, seat, _ in entries if seat]
    if len(set(taken)) != len(taken):
        st.error("Two players are at one seat: give each their own.")
        return
    banker = renamed.get(banker, banker) if banker else None
    if record.settlement.get("mode") == "banker" and banker is None:
        st.error("Choose the banker of this round.")
        return
    round_, errors = build_round(seats, banker)
    if round_ is None:
        for error in errors:
            st.error(sentence(error))
        return
    try:
        rules = state.rules_from_text(record.ruleset_toml, f"round {record.number} rules")
        scored = settle(round_, rules).to_json()
    except InputError as err:
        st.error(sentence(str(err)))
        return
    before = [seat_entry(seat_of.get(p["name"], ""), p["name"], p["head"], p["middle"], p["tail"]) for p in players]
    changes = [{"seat": b["name"], "field": f, "from": b[f], "to": " ".join(a[f].split()), "after_save": "yes"}
               for b, a in zip(before, seats, strict=True) for f in ("name", "seat", "head", "middle", "tail")
               if " ".join(b[f].split()) != " ".join(a[f].split())]
    try:
        state.db().update_round(record.id, hands=round_.to_json(), settlement=scored,
                                corrections=[*record.corrections, *changes], seating=seating_of(
                                    [s for s in seats if s["seat"]]) if taken or record.seating else None)
    except InputError as err:  # deleted in another tab meanwhile
        st.error(f"Not saved: {err}")
        return
    st.toast(f"Round {record.number} rescored and saved")
    st.rerun()


@st.cache_data(show_spinner=False, max_entries=128)
def _preview(location: str, digest: str) -> bytes | None:
    """A photo scaled for the page, as JPEG (collapsed rounds are drawn too, so keep it cheap)."""
    stored = state.db().photo(digest)
    if stored is None:
        return None
    try:
        image = Image.fromarray(to_rgb(stored[0], max_side=1200))
    except Exception:  # a photo that no longer decodes must not hide the round
        return None
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=85)
    return out.getvalue()


def _round(record: RoundRecord) -> None:
    with st.expander(_round_title(record)):
        if record.photo_sha256:
            preview = _preview(state.db().location, record.photo_sha256)
            if preview is not None:
                st.image(preview, width="stretch")
            else:
                st.caption("(the photo could not be shown)")
        show.settlement(record.settlement, state.language(), key=f"round_{record.id}")
        if record.corrections:
            st.caption(f"{len(record.corrections)} correction(s) before or after scoring")
        edit_tab, delete_tab = st.tabs(["Edit", "Delete"])
        with edit_tab:
            _edit_round(record)
        with delete_tab:
            sure = st.checkbox(f"Yes, delete round {record.number}", key=f"delete_sure_{record.id}")
            if st.button("Delete round", key=f"delete_{record.id}", disabled=not sure, type="primary"):
                with contextlib.suppress(InputError):  # already deleted in another tab: the page catches up
                    state.db().delete_round(record.id)
                st.toast(f"Round {record.number} deleted")
                st.rerun()


def render() -> None:
    state.init()
    st.title("History")
    sessions = state.db().sessions()
    _new_session_form(expanded=not sessions)
    if not sessions:
        st.info("No sessions yet. Start one above; rounds saved on the Score page go into it.")
        return
    session = _pick_session(sessions)
    rounds = state.db().rounds(session.id)
    _totals(session, rounds)
    _exports(session)
    _session_details(session)
    st.subheader("Rounds")
    if not rounds:
        st.info("No rounds yet: score a table on the Score page and press Save round.")
    for record in reversed(rounds):
        _round(record)


if __name__ == "__main__":
    render()
