"""What every page shares: settings, the database, the current session, the ruleset.

Settings live in ``st.session_state`` (one browser tab); sessions and rounds live in
the database, which every tab and process shares through :mod:`referee.storage`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import streamlit as st

from app_pages import storage_faults
from app_pages.glyphs import CSS
from app_pages.i18n import LANGUAGES, Language
from app_pages.seating import Seating, from_round
from app_pages.words import tr
from referee.errors import InputError
from referee.ruleset import PRESET_NAMES, Ruleset, load_ruleset, ruleset_text
from referee.safe_input import MAX_RULES_BYTES  # the same limit as the command line's
from referee.storage import Database, SessionRecord, default_location
from vision.types import MIN_CONFIDENCE

HOUSE = "house rules (upload)"
DEFAULT_CONFIDENCE = MIN_CONFIDENCE


@dataclass(frozen=True, kw_only=True)
class RulesChoice:
    """The ruleset in force: its name, the TOML text it was loaded from, and the loaded rules."""

    name: str
    toml: str
    rules: Ruleset


def init() -> None:
    """Defaults for this tab's settings (the first run of any page)."""
    defaults: dict[str, Any] = {
        "rules_choice": "classic",
        "house_rules": None,  # (file name, TOML text) once a valid file was uploaded
        "language": "both",
        "min_confidence": DEFAULT_CONFIDENCE,
        "db_location": default_location(),
        "session_id": None,
        "seat_names": {},  # app_pages.seating.Seating: who sits where at this table
        "bankers": {},  # session id (or "none") -> the banker last chosen there
    }
    for key, value in defaults.items():
        if key not in st.session_state:
            st.session_state[key] = value
    _apply_pending()
    # The open session is in the address (?session=N), so a reload, or another phone at the
    # table given the same link, opens it too.
    if st.session_state["session_id"] is None and not st.session_state.get("url_checked"):
        st.session_state["url_checked"] = True
        wanted = st.query_params.get("session")
        if wanted:
            with contextlib.suppress(ValueError, InputError), storage_faults.reported("open the database"):
                open_session(db().session(int(wanted)))
            _apply_pending()
    if st.session_state["session_id"] is not None:
        st.query_params["session"] = str(st.session_state["session_id"])
    elif "session" in st.query_params:
        del st.query_params["session"]


def _apply_pending() -> None:
    # Settings changed by a page (opening a session) after the sidebar's widgets were drawn
    # are applied on the next run, before the widgets exist.
    for key, value in st.session_state.pop("pending_settings", {}).items():
        st.session_state[key] = value
    for key in st.session_state.pop("pending_drop", []):
        st.session_state.pop(key, None)


def style() -> None:
    """The card tiles' CSS (once per run, from the app's frame)."""
    st.markdown(CSS, unsafe_allow_html=True)


@st.cache_resource(show_spinner=False)
def _database(location: str) -> Database:
    # One Database per location for the whole server: it opens a connection per
    # transaction, so every tab's thread can use it at once.
    return storage_faults.opened(Database(location))  # a damaged file is reported, not used


def db() -> Database:
    return _database(str(st.session_state["db_location"]))


def language() -> Language:
    return cast(Language, st.session_state["language"])


def min_confidence() -> float:
    return float(st.session_state["min_confidence"])


@st.cache_resource(show_spinner=False, max_entries=32)
def _rules_from_text(toml: str, label: str) -> Ruleset:
    # load_ruleset reads files; the uploaded text goes through a temporary one, and
    # the messages name the user's file instead of the temporary path.
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rules.toml"
        path.write_text(toml, encoding="utf-8")
        try:
            return load_ruleset(path)
        except InputError as err:
            raise InputError(str(err).replace(str(path), label)) from None


def rules_from_text(toml: str, label: str = "house rules") -> Ruleset:
    """Load a ruleset from TOML text (an upload, or a stored session's rules)."""
    return _rules_from_text(toml, label)


def current_rules() -> RulesChoice:
    """The ruleset chosen in the settings (a preset, or the uploaded house rules)."""
    choice = str(st.session_state["rules_choice"])
    house = st.session_state.get("house_rules")
    if choice == HOUSE and house is not None:
        label, toml = house
        rules = rules_from_text(toml, label)
        return RulesChoice(name=rules.name, toml=toml, rules=rules)
    name = choice if choice in PRESET_NAMES else "classic"
    return RulesChoice(name=name, toml=ruleset_text(name), rules=load_ruleset(name))


def session_rules(session: SessionRecord) -> RulesChoice:
    rules = rules_from_text(session.ruleset_toml, f"session {session.id} rules")
    return RulesChoice(name=session.ruleset, toml=session.ruleset_toml, rules=rules)


def current_session() -> SessionRecord | None:
    session_id = st.session_state.get("session_id")
    if session_id is None:
        return None
    with storage_faults.reported("open the database"):  # a storage fault: said on the page, no session
        try:
            return db().session(int(session_id))
        except InputError:  # deleted in another tab
            st.session_state["session_id"] = None
    return None


SESSION_WIDGETS = ("camera_side", "score_banker_choice", *(f"who_{p}" for p in ("bottom", "right", "top", "left")),
                   *(f"who_{p}_name" for p in ("bottom", "right", "top", "left")))


def open_session(session: SessionRecord, seating: Seating | None = None) -> None:
    """Make ``session`` current on every page: its ruleset becomes the settings' ruleset, and its
    people sit where they sat in its last round (or ``seating``, when a table being scored starts it)."""
    pending: dict[str, Any] = {"session_id": session.id}
    if session.ruleset in PRESET_NAMES and session.ruleset_toml == ruleset_text(session.ruleset):
        pending["rules_choice"] = session.ruleset
    else:
        pending["house_rules"] = (f"session {session.id} rules", session.ruleset_toml)
        pending["rules_choice"] = HOUSE
    rounds = db().rounds(session.id)
    last = rounds[-1] if rounds else None
    pending["seat_names"] = dict(seating) if seating is not None else from_round(last.seating if last else None,
                                                                                  session.players)
    bankers = dict(st.session_state.get("bankers") or {})
    if last is not None and last.banker and str(session.id) not in bankers:
        bankers[str(session.id)] = last.banker
    pending["bankers"] = bankers
    st.session_state["pending_settings"] = pending
    if seating is None:  # the seats' pickers start again from the session's places
        st.session_state["pending_drop"] = list(SESSION_WIDGETS)
    st.session_state["session_id"] = session.id


def new_session(*, date: dt.date, place: str, players: list[str], seating: Seating | None = None) -> SessionRecord:
    choice = current_rules()
    session_id = db().create_session(date=date.isoformat(), place=place, players=players, ruleset=choice.name,
                                     ruleset_toml=choice.toml)
    session = db().session(session_id)
    open_session(session, seating)
    return session


def session_players() -> list[str]:
    """The people of the open session (none without one)."""
    session = current_session()
    return list(session.players) if session is not None else []


def banker_memory() -> str | None:
    """The banker last chosen in the open session (or with no session open)."""
    value = (st.session_state.get("bankers") or {}).get(str(st.session_state.get("session_id") or "none"))
    return str(value) if value else None


def remember_banker(name: str) -> None:
    bankers = dict(st.session_state.get("bankers") or {})
    bankers[str(st.session_state.get("session_id") or "none")] = name
    st.session_state["bankers"] = bankers


def page_start(title: str) -> RulesChoice | None:
    """The common top of a page: state, title, session banner and the ruleset (None, with the
    reason shown, when the chosen rules cannot be loaded)."""
    init()
    st.title(title)
    session_banner()
    try:
        return current_rules()
    except InputError as err:
        st.error(tr(f"The ruleset could not be loaded: {err}", f"规则无法载入：{err}", language()))
        return None


def session_banner() -> None:
    """One line under each page title: the session and ruleset in force."""
    with storage_faults.reported("open the database") as fault:  # said at once, not at the first save
        db()
    session = None if fault.failed else current_session()
    lang = language()
    choice_name = str(st.session_state["rules_choice"])
    rules_label = choice_name if choice_name != HOUSE else tr("house rules", "自定规则", lang)
    if session is None:
        st.caption(tr(f"Rules: **{rules_label}** · no session open (start one on the History page to save rounds)",
                      f"规则：**{rules_label}** · 未开场次（在记录页开一场即可保存每局）", lang))
    else:
        st.caption(tr(f"Session: **{session.title()}** · rules in force: **{rules_label}**",
                      f"场次：**{session.title()}** · 现用规则：**{rules_label}**", lang))


def sidebar() -> None:
    """The settings panel, on every page."""
    lang = language()
    with st.sidebar:
        st.header(tr("Settings", "设置", lang))
        options = [*PRESET_NAMES, HOUSE]
        st.selectbox(tr("Ruleset", "规则", lang), options, key="rules_choice",
                     help=tr("The five presets of the rule book, or your own house-rules TOML file.",
                             "规则书的五种预设，或你自己的规则文件（TOML）。", lang))
        if st.session_state["rules_choice"] == HOUSE:
            upload = st.file_uploader(tr("House rules (.toml)", "自定规则（.toml）", lang), type=["toml"],
                                      key="house_upload",
                                      help="Start from a preset: `referee rules classic > house.toml`, then edit.")
            if upload is not None:
                check_house_rules(upload.name, upload.getvalue())
            house = st.session_state.get("house_rules")
            if house is None:
                st.info(tr("Upload a rules file; until then the classic preset is used.",
                           "请上传规则文件；在此之前按 classic 预设计分。", lang))
            else:
                st.caption(tr(f"Using {house[0]}", f"使用 {house[0]}", lang))
        labels = list(LANGUAGES.values())
        picked = st.radio(tr("Language", "语言", lang), labels, index=list(LANGUAGES).index(lang),
                          key="language_label", horizontal=True, on_change=_language_picked)
        st.session_state["language"] = next(k for k, v in LANGUAGES.items() if v == picked)
        st.slider(tr("Photo: lowest card confidence", "照片：最低识别置信度", lang), 0.05, 0.95, step=0.05,
                  key="min_confidence", help=tr("Cards read with less confidence than this are flagged for you "
                                                "to check.", "置信度低于此值的牌会被标出，请核对。", lang))
        with st.expander(tr("Storage", "存储", lang)):
            st.caption(tr("Database", "数据库", lang) + f": `{st.session_state['db_location']}`")
            st.caption(tr("Set the SHISANSHUI_DB environment variable to a file path or a PostgreSQL URL "
                          "to use another database.", "设置环境变量 SHISANSHUI_DB（文件路径或 PostgreSQL 网址）"
                          "可换用其他数据库。", lang))


def _language_picked() -> None:
    # Before the run: every word of it (the page names in the menu included) is in the new language.
    picked = st.session_state.get("language_label")
    st.session_state["language"] = next((k for k, v in LANGUAGES.items() if v == picked), "both")


def check_house_rules(file_name: str, data: bytes) -> bool:
    """Validate an uploaded rules file; keep it when valid, say why when not."""
    if len(data) > MAX_RULES_BYTES:
        st.error(f"{file_name} is {len(data)} bytes; a rules file is a few kilobytes.")
        return False
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        st.error(f"{file_name} is not a text file (UTF-8).")
        return False
    try:
        rules = rules_from_text(text, file_name)
    except InputError as err:
        st.error(f"These house rules are not valid: {err}")
        return False
    if st.session_state.get("house_rules") != (file_name, text):
        st.session_state["house_rules"] = (file_name, text)
    st.success(f"{file_name}: valid ({rules.name}: {rules.description})")
    return True

