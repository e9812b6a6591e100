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

from app_pages import choices, show, state, storage_faults
from app_pages.glyphs import score_text
from app_pages.i18n import name, sentence
from app_pages.images import to_rgb
from app_pages.seating import PLACES, seating_of
from app_pages.table import build_round, seat_entry
from app_pages.words import count, tr
from referee.errors import InputError
from referee.settle import settle
from referee.storage import RoundRecord, SessionRecord


def _new_session_form(expanded: bool) -> None:
    lang = state.language()
    with st.expander(tr("Start a new session", "开新场次", lang), expanded=expanded), \
            st.form("new_session", border=False):
        date = st.date_input(tr("Date", "日期", lang), value=dt.date.today(), key="new_date")
        place = st.text_input(tr("Place", "地点", lang), key="new_place",
                              placeholder=tr("e.g. Grandma's kitchen", "例如：奶奶家厨房", lang))
        players = st.text_input(tr("Players (comma-separated, in seat order: bottom, right, top, left)",
                                   "玩家（逗号分开，按座位：下、右、上、左）", lang),
                                key="new_players", placeholder="Ann, Bob, Chen, Dee")
        st.caption(tr(f"Ruleset: **{state.current_rules().name}** (change it in the settings first)",
                      f"规则：**{state.current_rules().name}**（先在设置里改）", lang))
        if st.form_submit_button(tr("Start session", "开始", lang), type="primary"):
            names = [n.strip() for n in players.replace("，", ",").split(",") if n.strip()]
            if len(set(names)) != len(names):
                st.error(tr("Each player needs a different name.", "每位玩家的名字要不同。", lang))
                return
            day = date if isinstance(date, dt.date) else dt.date.today()
            session = state.new_session(date=day, place=place, players=names)
            st.toast(tr(f"Session started: {session.title()}", f"场次已开：{session.title()}", lang))
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
    st.selectbox(tr("Session", "场次", state.language()), list(by_title), key="history_session",
                 on_change=_session_picked, args=(by_title,))
    return current


def _session_picked(by_title: dict[str, SessionRecord]) -> None:
    chosen = by_title.get(str(st.session_state.get("history_session")))
    if chosen is not None:
        state.open_session(chosen)


def _totals(session: SessionRecord, rounds: list[RoundRecord]) -> None:
    totals = state.db().totals(session.id)
    lang = state.language()
    st.subheader(tr(f"Totals after {count(len(rounds), 'round', 'en')}", f"{count(len(rounds), 'round', 'zh')}后的总分",
                    lang))
    show.totals_row(totals)
    if rounds:
        running = pd.DataFrame(state.db().running_totals(session.id)).set_index("round")
        start = pd.DataFrame([dict.fromkeys(running.columns, 0)], index=pd.Index([0], name="round"))
        st.line_chart(pd.concat([start, running]), x_label=tr("round", "局", lang),
                      y_label=tr("running total", "累计", lang), height=260)


def _exports(session: SessionRecord) -> None:
    db = state.db()
    stem = f"shisanshui-{session.date}-{session.id}"
    col1, col2 = st.columns(2)
    lang = state.language()
    col1.download_button(tr("Export CSV", "导出 CSV", lang), db.export_csv(session.id), file_name=f"{stem}.csv",
                         mime="text/csv", key="export_csv", width="stretch")
    col2.download_button(tr("Export JSON", "导出 JSON", lang),
                         json.dumps(db.export_json(session.id), ensure_ascii=False, indent=2),
                         file_name=f"{stem}.json", mime="application/json", key="export_json", width="stretch")


def _session_details(session: SessionRecord) -> None:
    """Fix the place or the players' names of a session, or delete it."""
    lang = state.language()
    with st.expander(tr("Session details", "场次信息", lang)):
        with st.form(f"session_{session.id}", border=False):
            place = st.text_input(tr("Place", "地点", lang), value=session.place, key=f"session_{session.id}_place")
            players = st.text_input(tr("Players (comma-separated)", "玩家（逗号分开）", lang),
                                    value=", ".join(session.players), key=f"session_{session.id}_players")
            if st.form_submit_button(tr("Save details", "保存信息", lang)):
                names = [n.strip() for n in players.replace("，", ",").split(",") if n.strip()]
                state.db().update_session(session.id, place=place, players=names)
                state.open_session(state.db().session(session.id))
                st.rerun()
        _rename_form(session)
        started = session.created_at.replace("T", " ")[:16]
        st.caption(tr(f"Ruleset: {session.ruleset}. Started {started} UTC.",
                      f"规则：{session.ruleset}。开始于 {started} UTC。", lang))
        sure = st.checkbox(tr("Yes, delete this session and all its rounds", "确定删除本场次及所有局", lang),
                           key=f"session_{session.id}_sure")
        if st.button(tr("Delete session", "删除场次", lang), disabled=not sure, key=f"session_{session.id}_delete"):
            state.db().delete_session(session.id)
            st.session_state["session_id"] = None
            st.toast(tr("Session deleted", "场次已删除", lang))
            st.rerun()


def _rename_form(session: SessionRecord) -> None:
    """Put a player's name right in every round of the session (a seat saved under the wrong name, or
    one person under two names: give the second the first's name and they are one, totals summed)."""
    if not session.players:
        return
    lang = state.language()
    with st.form(f"rename_{session.id}", border=False):
        st.markdown(tr("**Put a player's name right** (in every round; the totals follow)",
                       "**改正玩家名字**（每局都改；总分随之更新）", lang))
        col1, col2 = st.columns(2)
        old = col1.selectbox(tr("Player", "玩家", lang), list(session.players), key=f"rename_{session.id}_old")
        new = col2.text_input(tr("Is really", "其实是", lang), key=f"rename_{session.id}_new",
                              placeholder=tr("their name", "名字", lang),
                              help=tr("A name already in the session joins the two: their rounds count for one "
                                      "person.", "填本场已有的名字就合并两人：两人的局算作一个人。", lang))
        if st.form_submit_button(tr("Rename", "改名", lang)) and old is not None:
            try:
                state.db().rename_player(session.id, str(old), new)
            except InputError as err:
                st.error(sentence(str(err)))
                return
            state.open_session(state.db().session(session.id))
            # The rounds' edit boxes show the names as saved: they start again from the renamed rounds.
            stale = [str(k) for k in st.session_state if str(k).startswith("edit_")]
            st.session_state["pending_drop"] = [*st.session_state.get("pending_drop", []), *stale]
            st.toast(tr(f"{old} is now {new.strip()} in every round", f"每局的 {old} 都改成了 {new.strip()}", lang))
            st.rerun()


def _round_title(record: RoundRecord) -> str:
    lang = state.language()
    when = record.created_at[11:16] if len(record.created_at) >= 16 else record.created_at
    scores = ", ".join(f"{n} {score_text(s)}" for n, s in record.scores.items())
    edited = tr(" · edited", " · 已改", lang) if record.updated_at != record.created_at else ""
    return tr(f"Round {record.number} ·", f"第 {record.number} 局 ·", lang) + f" {when} UTC · {scores}{edited}"


def _edit_round(record: RoundRecord) -> None:
    """Retype a round's rows (or banker); rescored with the round's own ruleset, then saved in one go."""
    players = record.hands.get("players", [])
    seat_of = {who: seat for seat, who in record.seating.items()}
    places = ["", *PLACES]
    lang = state.language()
    with st.form(f"edit_{record.id}", border=False):
        st.caption(tr("Who played, where they sat, and their rows as HEAD | MIDDLE | TAIL",
                      "谁玩、坐哪里，以及三道牌：头道 | 中道 | 尾道", lang))
        entries = []
        for i, p in enumerate(players):
            col1, col2 = st.columns([2, 1])
            who = col1.text_input(tr("Player", "玩家", lang), value=p["name"], key=f"edit_{record.id}_{i}_name")
            seat = col2.selectbox(tr("Seat", "座位", lang), places, index=places.index(seat_of.get(p["name"], "")),
                                  key=f"edit_{record.id}_{i}_seat",
                                  format_func=lambda v: name(v, lang) if v else tr("(not recorded)", "（未记录）",
                                                                                    lang))
            text = st.text_input(tr(f"{p['name']}'s rows", f"{p['name']}的牌", lang),
                                 value=f"{p['head']} | {p['middle']} | {p['tail']}", key=f"edit_{record.id}_{i}")
            entries.append((p["name"], who.strip(), seat or "", text))
        banker = record.banker
        if record.settlement.get("mode") == "banker":
            names = [p["name"] for p in players]
            banker = st.selectbox(name("banker", lang), names, index=names.index(banker) if banker in names else None,
                                  key=f"edit_{record.id}_banker", placeholder=tr("Choose the banker", "选庄家", lang))
        submitted = st.form_submit_button(tr("Save changes", "保存修改", lang))
    if not submitted:
        return
    seats = []
    renamed = {old: new for old, new, _, _ in entries}
    for old, who, seat, text in entries:
        parts = [t.strip() for t in text.replace("/", "|").split("|")]
        if len(parts) != 3:
            st.error(tr(f"{who or old}: write three rows split by |", f"{who or old}：请写用 | 分开的三道", lang))
            return
        seats.append(seat_entry(seat, who, *parts))
    taken = [seat for _, _, seat, _ in entries if seat]
    if len(set(taken)) != len(taken):
        st.error(tr("Two players are at one seat: give each their own.", "两位玩家在同一个座位：请各给一个座位。",
                    lang))
        return
    banker = renamed.get(banker, banker) if banker else None
    if record.settlement.get("mode") == "banker" and banker is None:
        st.error(tr("Choose the banker of this round.", "请选本局的庄家。", lang))
        return
    round_, errors = build_round(seats, banker)
    if round_ is None:
        for error in errors:
            st.error(sentence(error))
        return
    round_ = choices.carried(record.hands, round_)
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
        st.error(tr(f"Not saved: {err}", f"没有保存：{err}", lang))
        return
    st.toast(tr(f"Round {record.number} rescored and saved", f"第 {record.number} 局已重新计分并保存", lang))
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
                st.caption(tr("(the photo could not be shown)", "（照片无法显示）", state.language()))
        try:
            rules = state.rules_from_text(record.ruleset_toml, f"round {record.number} rules")
        except InputError:  # rules this referee no longer reads: the round is still shown
            rules = None
        show.settlement(record.settlement, state.language(), key=f"round_{record.id}", rules=rules)
        lang = state.language()
        if record.seating:
            st.caption(tr("Seats: ", "座位：", lang) + ", ".join(f"{name(seat, lang)} {who}"
                                                               for seat, who in record.seating.items()))
        choices.show_adjustments(record.settlement, lang)
        if record.corrections:
            n = len(record.corrections)
            st.caption(tr(f"{count(n, 'correction', 'en')} before or after scoring",
                          f"计分前后共 {count(n, 'correction', 'zh')}", lang))
        edit_tab, delete_tab = st.tabs([tr("Edit", "修改", lang), tr("Delete", "删除", lang)])
        with edit_tab:
            _edit_round(record)
        with delete_tab:
            sure = st.checkbox(tr(f"Yes, delete round {record.number}", f"确定删除第 {record.number} 局", lang),
                               key=f"delete_sure_{record.id}")
            if st.button(tr("Delete round", "删除本局", lang), key=f"delete_{record.id}", disabled=not sure,
                         type="primary"):
                with contextlib.suppress(InputError):  # already deleted in another tab: the page catches up
                    state.db().delete_round(record.id)
                st.toast(tr(f"Round {record.number} deleted", f"第 {record.number} 局已删除", lang))
                st.rerun()


def render() -> None:
    state.init()
    lang = state.language()
    st.title(tr("History", "记录", lang))
    sessions = state.db().sessions()
    _new_session_form(expanded=not sessions)
    if not sessions:
        st.info(tr("No sessions yet. Start one above; rounds saved on the Score page go into it.",
                   "还没有场次。先在上面开一场；计分页保存的局都记在里面。", lang))
        return
    session = _pick_session(sessions)
    rounds = state.db().rounds(session.id)
    _totals(session, rounds)
    _exports(session)
    _session_details(session)
    st.subheader(tr("Rounds", "各局", lang))
    if not rounds:
        st.info(tr("No rounds yet: score a table on the Score page and press Save round.",
                   "还没有局：在计分页计分后按“保存本局”。", lang))
    for record in reversed(rounds):
        _round(record)


if __name__ == "__main__":
    storage_faults.run_page(render)
