"""Page 1: score a table from a photo (or typed in), correct it, save the round."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from app_pages import show, state
from app_pages.glyphs import cards_html, row_html
from app_pages.i18n import name
from app_pages.images import ACCEPTED_TYPES, Photo, load_photo, to_rgb
from app_pages.table import (
    FIELDS,
    Seat,
    blank_table,
    build_round,
    card_locations,
    corrections,
    move_card,
    seats_from_reading,
)
from referee.cards import ROW_NAMES, parse_cards
from referee.errors import InputError
from referee.round import Round
from referee.settle import settle

# Session-state keys of this page.
PHOTO = "score_photo"  # Photo (checked upload) or None
READING = "score_reading"  # PhotoReading.to_json() or None
ANNOTATED = "score_annotated"  # RGB array of the annotated photo, or None
ORIGINAL = "score_original"  # seats as read from the photo (for the corrections record)
BASE = "score_seats"  # seats the editor starts from
VERSION = "score_version"  # bumps when BASE is replaced, to reset the editor
SAVED = "score_saved"  # fingerprint of the last saved round


def _reset_table(seats: list[Seat], *, original: list[Seat] | None = None) -> None:
    st.session_state[BASE] = seats
    if original is not None:
        st.session_state[ORIGINAL] = original
    st.session_state[VERSION] = int(st.session_state.get(VERSION, 0)) + 1


@st.cache_resource(show_spinner="Loading the card detector…")
def _detector() -> Any:
    from vision.detector import CardDetector

    return CardDetector().detect


def photo_detector() -> Any:
    """The card detector, loaded once per server; or why there is none (a sentence for the page)."""
    try:
        from vision.detector import CardDetector
        from vision.pipeline import read_photo  # noqa: F401
    except ImportError as err:
        return f"The photo reader is not installed in this copy ({err.name}): type each player's rows below."
    if not CardDetector.available():
        return ("The card detector's model files are not installed (models/), so the cards were not read: "
                "type each player's rows below.")
    return _detector()


def _read_photo(photo: Photo) -> None:
    """Run the photo pipeline (when installed) and load its seats into the editor."""
    st.session_state[PHOTO] = photo
    st.session_state[READING] = None
    st.session_state[ANNOTATED] = None
    st.session_state["score_unassigned"] = []
    detector = photo_detector()
    if isinstance(detector, str):
        st.session_state["score_notice"] = detector
        _reset_table(blank_table(4, st.session_state["seat_names"]), original=[])
        return
    from vision.pipeline import read_photo

    choice = state.current_rules()
    with st.status("Reading the cards…", expanded=False) as status:
        try:
            reading = read_photo(photo.data, choice.rules, min_confidence=state.min_confidence(), force=True,
                                 detector=detector)
        except InputError as err:
            status.update(label="The photo could not be read", state="error")
            st.session_state["score_error"] = str(err)
            return
        except Exception as err:  # onnxruntime failing...: a message, not a traceback
            status.update(label="The photo reader failed", state="error")
            st.session_state["score_error"] = f"The photo reader failed: {type(err).__name__}: {err}"
            return
        status.update(label=f"Read {len(reading.detections.cards)} cards", state="complete")
    data = reading.to_json()
    st.session_state[READING] = data
    st.session_state["score_unassigned"] = [str(c.card) for c in reading.layout.unassigned]
    try:
        from vision.annotate import draw

        st.session_state[ANNOTATED] = draw(reading)[:, :, ::-1]
    except ImportError:
        pass
    seats, notes = seats_from_reading(data, st.session_state["seat_names"], choice.rules)
    st.session_state["score_notes"] = notes
    _reset_table(seats or blank_table(4, st.session_state["seat_names"]), original=[dict(s) for s in seats])


def _photo_input() -> None:
    upload_tab, camera_tab = st.tabs(["Upload a photo", "Take a photo"])
    with upload_tab:
        upload = st.file_uploader("Photo of the table (JPEG, PNG, WebP or HEIC)", type=ACCEPTED_TYPES,
                                  key="score_upload")
    with camera_tab:
        camera = st.camera_input("Photograph the table from above", key="score_camera")
    source = upload if upload is not None else camera
    if source is None:
        return
    data = source.getvalue()
    digest = hashlib.sha256(data).hexdigest()
    if st.session_state.get("score_digest") == digest:
        return
    st.session_state["score_digest"] = digest
    for key in ("score_error", "score_notice", "score_notes"):
        st.session_state.pop(key, None)
    try:
        photo = load_photo(data)
    except InputError as err:
        st.session_state["score_error"] = str(err)
        st.session_state[PHOTO] = None
        return
    _read_photo(photo)


def _problems_by_seat(reading: Mapping[str, Any] | None) -> dict[str | None, list[Mapping[str, Any]]]:
    out: dict[str | None, list[Mapping[str, Any]]] = {}
    for problem in (reading or {}).get("problems", []):
        if problem.get("kind") in ("banker", "invalid_round"):  # this page picks the banker and checks the round
            continue
        out.setdefault(problem.get("seat"), []).append(problem)
    return out


def _show_photo_and_problems(seats: list[Seat]) -> dict[str, list[str]]:
    """The annotated photo and every problem next to the card it concerns; returns flagged cards per player."""
    photo: Photo | None = st.session_state.get(PHOTO)
    reading: Mapping[str, Any] | None = st.session_state.get(READING)
    annotated = st.session_state.get(ANNOTATED)
    if photo is not None:
        with st.expander("Photo", expanded=True):
            if annotated is not None:
                st.image(annotated, caption="Cards outlined by seat and row", width="stretch")
            else:
                st.image(to_rgb(photo.data), width="stretch")
    flagged: dict[str, list[str]] = {}
    by_seat = _problems_by_seat(reading)
    seat_names: dict[str | None, str] = {s["seat"]: s["name"] for s in seats}
    if by_seat:
        st.subheader("Check these")
        for seat, problems in by_seat.items():
            who = f"{seat_names.get(seat, seat)} ({name(seat, state.language())})" if seat else "Table"
            for problem in problems:
                card = problem.get("card")
                tile = ""
                if card:
                    try:
                        tile = cards_html(parse_cards(card), flagged=[card]) + " "
                    except InputError:
                        tile = f"<code>{card}</code> "
                    flagged.setdefault(seat_names.get(seat, ""), []).append(card)
                icon = "⛔" if problem.get("blocking", True) else "⚠️"
                st.markdown(f'<div class="ssr-row">{icon} <b>{who}</b>: {tile}{problem.get("message", "")}</div>',
                            unsafe_allow_html=True)
    for note in st.session_state.get("score_notes") or []:
        st.info(note)
    return flagged


def _editor(seats: list[Seat]) -> list[Seat]:
    """The rows as a table the user corrects; returns the corrected seats."""
    frame = pd.DataFrame(seats, columns=list(FIELDS))
    edited = st.data_editor(
        frame, key=f"score_editor_{st.session_state.get(VERSION, 0)}", num_rows="fixed", hide_index=True,
        width="stretch",
        column_config={
            "seat": st.column_config.TextColumn("Seat", disabled=True, width="small"),
            "name": st.column_config.TextColumn("Player", help="Names are remembered for the session"),
            "head": st.column_config.TextColumn(name("head", state.language()), help="3 cards, e.g. Ah Kd 2c"),
            "middle": st.column_config.TextColumn(name("middle", state.language()), help="5 cards"),
            "tail": st.column_config.TextColumn(name("tail", state.language()), help="5 cards"),
        },
    )
    out = [{k: str(v) if v is not None and not pd.isna(v) else "" for k, v in row.items()}
           for row in edited.to_dict("records")]
    for seat in out:  # names are remembered for the session
        if seat["name"].strip():
            st.session_state["seat_names"][seat["seat"]] = seat["name"].strip()
    return out


def _move_form(seats: list[Seat]) -> None:
    locations = card_locations(seats)
    unassigned: list[str] = st.session_state.get("score_unassigned") or []
    cards = sorted(set(locations) | {str(c) for c in unassigned if c}, key=lambda c: parse_cards(c)[0], reverse=True)
    if not cards:
        return
    with st.expander("Move a card to another row or seat"):
        card = st.selectbox("Card", cards, key="move_card")
        if card in locations:
            seat_index, row = locations[card]
            st.caption(f"{card} is now in {seats[seat_index]['name']}'s {name(row, state.language())} row")
        elif card is not None:
            st.caption(f"{card} is not in any row yet")
        col1, col2 = st.columns(2)
        # Plain text options (no format_func): the labels are the values, mapped back here.
        seat_labels = [f"{i + 1}. {s['name'] or s['seat']}" for i, s in enumerate(seats)]
        row_labels = [name(r, state.language()) for r in ROW_NAMES]
        to_seat = col1.selectbox("To player", seat_labels, key="move_seat")
        to_row = col2.selectbox("To row", row_labels, key="move_row")
        if st.button("Move", key="move_go") and card is not None and to_seat is not None and to_row is not None:
            target = ROW_NAMES[row_labels.index(to_row)]
            _reset_table(move_card(seats, card, to_seat=seat_labels.index(to_seat), to_row=target))
            st.rerun()


def _banker(seats: list[Seat]) -> str | None:
    choice = state.current_rules()
    if choice.rules.mode != "banker":
        return None
    names = [s["name"].strip() for s in seats if s["name"].strip()]
    previous = st.session_state.get("score_banker_name")
    index = names.index(previous) if previous in names else 0
    banker = st.selectbox(f"{name('banker', state.language())} (this ruleset is played against a banker)", names,
                          index=index if names else None, key=f"score_banker_{st.session_state.get(VERSION, 0)}")
    st.session_state["score_banker_name"] = banker
    return str(banker) if banker is not None else None


def _save(round_: Round, scored: Mapping[str, Any], seats: list[Seat]) -> None:
    session = state.current_session()
    if session is None:
        st.info("Open or start a session on the History page to save rounds.")
        return
    photo: Photo | None = st.session_state.get(PHOTO)
    fingerprint = hashlib.sha256(repr((round_.to_json(), photo.data if photo else b"", session.id)).encode())
    already = st.session_state.get(SAVED) == fingerprint.hexdigest()
    if st.button("Save round", type="primary", disabled=already, key="score_save", width="stretch"):
        choice = state.current_rules()
        round_id = state.db().save_round(
            session.id, hands=round_.to_json(), settlement=scored, ruleset=choice.name, ruleset_toml=choice.toml,
            photo=photo.data if photo else None, photo_mime=photo.mime if photo else "image/jpeg",
            detections=st.session_state.get(READING),
            corrections=corrections(st.session_state.get(ORIGINAL) or [], seats))
        st.session_state[SAVED] = fingerprint.hexdigest()
        number = state.db().round(round_id).number
        st.toast(f"Round {number} saved")
        st.session_state["score_saved_number"] = number
        st.rerun()
    if already:
        st.success(f"Saved as round {st.session_state.get('score_saved_number')} of this session.")


def render() -> None:
    state.init()
    st.title("Score a table")
    state.session_banner()
    try:
        choice = state.current_rules()
    except InputError as err:
        st.error(f"The ruleset could not be loaded: {err}")
        return
    _photo_input()
    if st.session_state.get("score_error"):
        st.error(st.session_state["score_error"])
    if st.session_state.get("score_notice"):
        st.info(st.session_state["score_notice"])

    if BASE not in st.session_state:
        _reset_table(blank_table(4, st.session_state["seat_names"]), original=[])
    base: list[Seat] = st.session_state[BASE]
    flagged = _show_photo_and_problems(base)

    st.subheader("The table")
    if st.session_state.get(PHOTO) is None:
        players = st.segmented_control("Players", [2, 3, 4], default=len(base),
                                       key=f"score_players_{st.session_state.get(VERSION, 0)}")
        if players is not None and int(players) != len(base):
            names = st.session_state["seat_names"]
            grown = base[: int(players)] + blank_table(4, names)[len(base): int(players)]
            _reset_table(grown)
            st.rerun()
    st.caption("Correct any card by editing its row (cards like `Ah Kd 2c`, `10h` or `♥10`); "
               "an empty seat is left out.")
    seats = _editor(base)
    _move_form(seats)
    playing = [s for s in seats if any(s[r].strip() for r in ROW_NAMES)]
    if not playing:
        st.info("Type each player's rows, or upload a photo of the table.")
        return
    banker = _banker(playing)
    round_, errors = build_round(playing, banker)
    if round_ is None:
        for error in errors:
            st.error(error)
        _preview(playing, flagged)
        return
    try:
        scored = settle(round_, choice.rules).to_json()
    except InputError as err:
        st.error(str(err))
        return
    st.subheader("Settlement")
    show.settlement(scored, state.language(), flagged=flagged, key="score")
    _save(round_, scored, seats)


def _preview(seats: list[Seat], flagged: Mapping[str, list[str]]) -> None:
    """The rows as typed so far (while they cannot be scored yet)."""
    for seat in seats:
        lines = []
        for row in ROW_NAMES:
            try:
                cards = parse_cards(seat[row])
            except InputError:
                lines.append(row_html(name(row, state.language()), [], "?"))
                continue
            lines.append(row_html(name(row, state.language()), cards, flagged=flagged.get(seat["name"], ())))
        st.markdown(f"**{seat['name']}**" + "".join(lines), unsafe_allow_html=True)


if __name__ == "__main__":
    render()
