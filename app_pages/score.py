"""Page 1: score a table from a photo (or typed in), correct it, save the round."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from html import escape
from typing import Any

import streamlit as st

from app_pages import reader, show, state
from app_pages.glyphs import cards_html, row_html, score_html
from app_pages.i18n import name, sentence
from app_pages.images import ACCEPTED_TYPES, Photo, display_jpeg, jpeg_bytes, load_photo, to_rgb
from app_pages.seating import PLACES, Seating, people, seating_of, turned
from app_pages.table import (
    Seat,
    blank_table,
    build_round,
    card_locations,
    corrections,
    move_card,
    parse_seat,
    seat_entry,
    seats_from_reading,
)
from referee.cards import ROW_NAMES, parse_cards
from referee.errors import InputError
from referee.hand import analyse
from referee.round import Round
from referee.ruleset import Ruleset
from referee.settle import settle

# Session-state keys of this page.
PHOTO = "score_photo"  # Photo (checked upload) or None
READING = "score_reading"  # PhotoReading.to_json() or None
ANNOTATED = "score_annotated"  # the annotated photo as the page shows it (JPEG bytes), or None
FULL = "score_annotated_full"  # the annotated photo at full size (BGR array), for "open full size"
SHOWN = "score_shown"  # the photo as the page shows it (JPEG bytes) when there is no annotated one
ORIGINAL = "score_original"  # seats as read from the photo (for the corrections record)
BASE = "score_seats"  # seats the editor starts from
VERSION = "score_version"  # bumps when BASE is replaced, to reset the editor
SAVED = "score_saved"  # fingerprint of the last saved round
ROUND = "score_round"  # counts "Next round" presses: the photo inputs' keys change, so they empty


def _reset_table(seats: list[Seat], *, original: list[Seat] | None = None) -> None:
    st.session_state[BASE] = seats
    if original is not None:
        st.session_state[ORIGINAL] = original
    st.session_state[VERSION] = int(st.session_state.get(VERSION, 0)) + 1


def _read_photo(photo: Photo) -> None:
    """Run the photo pipeline (when installed) and load its seats into the editor."""
    st.session_state[PHOTO] = photo
    for key in (READING, ANNOTATED, FULL, SHOWN):
        st.session_state[key] = None
    st.session_state["score_unassigned"] = []
    detector = reader.detector()
    if isinstance(detector, str):
        st.session_state["score_notice"] = detector
        _reset_table(blank_table(4, st.session_state["seat_names"]), original=[])
        return
    from vision.image_io import read_image
    from vision.pipeline import read_photo

    choice = state.current_rules()
    with st.status("Reading the cards…", expanded=False) as status:
        try:
            status.update(label="Reading the cards: opening the photo…")
            image = read_image(photo.data)  # decoded once: the reader and the annotated photo share it
            status.update(label="Reading the cards: finding them and laying out the seats…")
            reading = read_photo(image, choice.rules, min_confidence=state.min_confidence(), force=True,
                                 detector=detector)
        except InputError as err:
            status.update(label="The photo could not be read", state="error")
            st.session_state["score_error"] = str(err)
            return
        except Exception as err:  # onnxruntime failing...: a message, not a traceback
            status.update(label="The photo reader failed", state="error")
            st.session_state["score_error"] = f"The photo reader failed: {type(err).__name__}: {err}"
            return
        status.update(label="Reading the cards: drawing what was read…")
        data = reading.to_json()
        st.session_state[READING] = data
        st.session_state["score_unassigned"] = [str(c.card) for c in reading.layout.unassigned]
        try:
            from vision.annotate import draw

            annotated = draw(reading)
            st.session_state[FULL] = annotated
            st.session_state[ANNOTATED] = display_jpeg(annotated)  # encoded once, not on every rerun
        except ImportError:
            pass
        status.update(label=f"Read {len(reading.detections.cards)} cards", state="complete")
    seats, notes = seats_from_reading(data, st.session_state["seat_names"], choice.rules)
    st.session_state["score_notes"] = notes
    _reset_table(seats or blank_table(4, st.session_state["seat_names"]), original=[dict(s) for s in seats])


def _photo_input() -> None:
    turn = int(st.session_state.get(ROUND, 0))
    suffix = f"_{turn}" if turn else ""  # "Next round" empties them
    upload_tab, camera_tab = st.tabs(["Upload a photo", "Take a photo"])
    with upload_tab:
        upload = st.file_uploader("Photo of the table (JPEG, PNG, WebP or HEIC)", type=ACCEPTED_TYPES,
                                  key=f"score_upload{suffix}")
    with camera_tab:
        camera = st.camera_input("Photograph the table from above", key=f"score_camera{suffix}")
    st.caption("For a photo that reads: every hand in the frame, taken from above, the phone held still, "
               "good light. Sharp corner indices matter more than a large photo.")
    st.caption("On a phone, **Upload a photo** → *Camera* takes the picture with the phone's own camera at full "
               "resolution: use it. **Take a photo** uses the browser's camera preview, which gives about "
               "0.3–1 megapixels: usually too small to read the corner indices of 52 cards.")
    source = upload if upload is not None else camera
    if source is None:
        if st.session_state.get("score_digest"):  # the photo was removed: keep the rows, drop the photo
            for key in ("score_digest", "score_error", "score_notice", "score_notes"):
                st.session_state.pop(key, None)
            for key in (PHOTO, READING, ANNOTATED, FULL, SHOWN):
                st.session_state[key] = None
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


def _problems_by_seat(reading: Mapping[str, Any] | None,
                      seats: list[Seat]) -> dict[str | None, list[Mapping[str, Any]]]:
    """The photo's problems by seat; one about a card but no seat goes to the seat whose rows hold the card."""
    holder = {card: seats[i]["seat"] for card, (i, _) in card_locations(seats).items()}
    out: dict[str | None, list[Mapping[str, Any]]] = {}
    for problem in (reading or {}).get("problems", []):
        if problem.get("kind") in ("banker", "invalid_round"):  # this page picks the banker and checks the round
            continue
        seat = problem.get("seat")
        if seat is None and problem.get("card"):
            try:
                seat = holder.get(str(parse_cards(str(problem["card"]))[0]))
            except InputError:
                seat = None
        out.setdefault(seat, []).append(problem)
    return out


def _problem_html(problem: Mapping[str, Any]) -> str:
    card = problem.get("card")
    tile = ""
    if card:
        try:
            tile = cards_html(parse_cards(card), flagged=[card]) + " "
        except InputError:
            tile = f"<code>{escape(str(card))}</code> "
    icon = '<span class="ssr-stop">✖</span>' if problem.get("blocking", True) else '<span class="ssr-warn">⚠</span>'
    return f'<div class="ssr-row">{icon} {tile}{escape(str(problem.get("message", "")))}</div>'


def _show_photo(seats: list[Seat]) -> None:
    """The annotated photo, and the problems that concern no seat (unassigned cards, player count)."""
    photo: Photo | None = st.session_state.get(PHOTO)
    annotated = st.session_state.get(ANNOTATED)
    if photo is not None:
        with st.expander("Photo", expanded=True):
            if annotated is not None:
                st.image(annotated, caption="Cards outlined by seat and row", width="stretch")
                full = st.session_state.get(FULL)
                if full is not None:
                    st.download_button("Open the photo full size", data=lambda: jpeg_bytes(full[:, :, ::-1],
                                                                                           max_width=None),
                                       file_name="table-read.jpg", mime="image/jpeg", key="score_full_photo",
                                       icon=":material/zoom_in:", on_click="ignore")
            else:
                if st.session_state.get(SHOWN) is None:  # decoded and scaled once, not on every rerun
                    st.session_state[SHOWN] = jpeg_bytes(to_rgb(photo.data))
                st.image(st.session_state[SHOWN], width="stretch")
    known = {s["seat"] for s in seats}
    table_problems = [p for seat, problems in _problems_by_seat(st.session_state.get(READING), seats).items()
                      if seat not in known for p in problems]
    for problem in table_problems:
        st.markdown(_problem_html(problem), unsafe_allow_html=True)
    for note in st.session_state.get("score_notes") or []:
        st.info(note)


NEW = "\x00new"  # seat picker: someone not in the list (a name box opens)
AWAY = "\x00away"  # seat picker: nobody plays at this seat this round


def _live(base: list[Seat]) -> list[Seat]:
    """The editor's seats with what is typed in them now: a rerun that replaces the table (a seat added,
    a card moved) starts from these, so nothing typed is lost."""
    version = st.session_state.get(VERSION, 0)
    out = []
    for i, seat in enumerate(base):
        typed = {row: st.session_state.get(f"seat_{version}_{i}_{row}") for row in ROW_NAMES}
        out.append(dict(seat) | {row: str(v) for row, v in typed.items() if v is not None})
    return out


def _who(col: Any, seat: Seat, offered: list[str]) -> str | None:
    """Who sits at ``seat``: a person's name, "" while nobody has said, None when nobody plays there.

    The picker keeps its choice across reruns and rounds (its key is the seat, not the table
    version); it starts from who sat there in the last round."""
    place = seat["seat"]
    key = f"who_{place}"
    lang = state.language()
    mapping: Seating = st.session_state["seat_names"]
    options = [*offered, NEW, AWAY]
    unset = st.session_state.get(key) in (None, NEW) and not st.session_state.get(f"{key}_name")
    if st.session_state.get(key) not in options or (unset and mapping.get(place)):
        known = mapping[place] if place in mapping else (seat.get("name") or "")  # offered holds every name known
        st.session_state[key] = AWAY if known is None else known if known else NEW if not offered else None
    labels = {NEW: "someone new…", AWAY: "not playing"}
    choice = col.selectbox(f"Who is at {name(place, lang)}", options, key=key, placeholder="Who sits here?",
                           format_func=lambda v: labels.get(v, v), on_change=_who_changed, args=(place,))
    if choice == AWAY:
        return None
    if choice == NEW:
        return str(col.text_input("Name", key=f"{key}_name", placeholder="name")).strip()
    return str(choice or "")


def _who_changed(place: str) -> None:
    """The user picked someone (or "someone new…") for a seat: that is who sits there now."""
    choice = st.session_state.get(f"who_{place}")
    mapping: Seating = st.session_state["seat_names"]
    if choice == AWAY:
        mapping[place] = None
    elif choice in (None, NEW):
        mapping.pop(place, None)
    else:
        mapping[place] = str(choice)


def _turn_side(side: int) -> None:
    """The photo was taken from another side of the table: the people stay where they sit."""
    turned_seating = turned(st.session_state["seat_names"], side)
    st.session_state["seat_names"] = turned_seating
    for place in PLACES:
        st.session_state.pop(f"who_{place}", None)
        st.session_state.pop(f"who_{place}_name", None)
        if place in turned_seating:
            who = turned_seating[place]
            st.session_state[f"who_{place}"] = AWAY if who is None else who


def _photo_side() -> None:
    """For a photo taken from another side than the last one: turn who sits where with it."""
    mapping: Seating = st.session_state["seat_names"]
    if st.session_state.get(PHOTO) is None or not any(mapping.values()):
        return

    def label(side: int) -> str:
        if side == 0:
            return "the same side as before"
        who = mapping.get(PLACES[side])
        where = {1: "the right side of the last photo", 2: "the opposite side", 3: "the left side of the last photo"}
        return where[side] + (f" ({who}'s side)" if who else "")

    st.session_state["camera_side"] = 0  # an action, not a setting: it turns the seats once
    st.selectbox("Photo taken from", [0, 1, 2, 3], key="camera_side", format_func=label,
                 on_change=lambda: _turn_side(int(st.session_state["camera_side"])),
                 help="Walked round the table to take this photo? Say from where, and everyone keeps their seat.")


def _seat_inputs(base: list[Seat]) -> tuple[list[Seat], list[Any], list[str]]:
    """One box per seat: who sits there and the three rows as text (side by side on a wide screen,
    stacked on a phone). Returns the seats (named, or with a stand-in name for display), a slot below
    each for its cards, and the seats still unnamed. Seats marked "not playing" have no name."""
    version = st.session_state.get(VERSION, 0)
    lang = state.language()
    mapping: Seating = st.session_state["seat_names"]
    offered = people(state.session_players(), mapping.values(), (s.get("name") for s in base))
    seats: list[Seat] = []
    slots = []
    missing: list[str] = []
    for i, seat in enumerate(base):
        with st.container(border=True):
            cols = st.columns([1.1, 1, 1.5, 1.5])
            who = _who(cols[0], seat, offered)
            rows = [col.text_input(name(row, lang), value=seat[row], key=f"seat_{version}_{i}_{row}",
                                   placeholder=("Ah Kd 2c" if row == "head" else "5 cards"))
                    for col, row in zip(cols[1:], ROW_NAMES, strict=True)]
            if who is None:
                st.caption("Not playing this round: these rows are left out.")
                mapping[seat["seat"]] = None
                seats.append(seat_entry(seat["seat"], AWAY, *(r.strip() for r in rows)))
            else:
                if who:
                    mapping[seat["seat"]] = who
                else:
                    mapping.pop(seat["seat"], None)
                    if any(r.strip() for r in rows):
                        missing.append(seat["seat"])
                shown = who or f"({name(seat['seat'], lang)})"
                seats.append(seat_entry(seat["seat"], shown, *(r.strip() for r in rows)))
            slots.append(st.container())
    return seats, slots, missing


def _fill_seat(slot: Any, seat: Seat, seats: list[Seat], rules: Ruleset, scored: Mapping[str, Any] | None) -> None:
    """Under a seat's inputs: its cards as tiles with categories, foul / special, score, and the
    photo's problems next to the cards they concern."""
    lang = state.language()
    problems = _problems_by_seat(st.session_state.get(READING), seats).get(seat["seat"], [])
    flagged = [str(p["card"]) for p in problems if p.get("card")]
    player: Mapping[str, Any] | None = None
    if scored is not None:
        player = next((p for p in scored["players"] if p["name"] == seat["name"]), None)
    with slot:
        if player is None:
            try:
                report = analyse(parse_seat(seat).rows, rules)
            except InputError:
                report = None
            if report is not None:
                player = {"foul": report.foul, "foul_reason": report.foul_reason, "special": report.special,
                          "missed_special": report.missed_special,
                          "rows": [{"row": r.row, "cards": [str(c) for c in r.cards], "category": r.category.label}
                                   for r in report.rows]}
        if player is not None:
            score = f"{score_html(int(player['score']))} " if "score" in player else ""
            if scored is not None and scored.get("banker") == seat["name"]:
                score += f'<span class="ssr-badge">{name("banker", lang)}</span>'
            st.markdown(score + show.rows_block(player["rows"], lang, foul=bool(player.get("foul")),
                                                flagged=flagged), unsafe_allow_html=True)
            for line in show.verdict_lines(player, lang):
                st.markdown(line)
        else:
            tiles = []
            for row in ROW_NAMES:
                try:
                    tiles.append(row_html(name(row, lang), parse_cards(seat[row]), flagged=flagged))
                except InputError:
                    tiles.append(row_html(name(row, lang), [], "?", bad=True))
            st.markdown("".join(tiles), unsafe_allow_html=True)
        for problem in problems:
            st.markdown(_problem_html(problem), unsafe_allow_html=True)


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
        seat_labels = [f"{i + 1}. {s['name'] if s['name'] != AWAY else s['seat']}" for i, s in enumerate(seats)]
        row_labels = [name(r, state.language()) for r in ROW_NAMES]
        to_seat = col1.selectbox("To player", seat_labels, key="move_seat")
        to_row = col2.selectbox("To row", row_labels, key="move_row")
        if st.button("Move", key="move_go") and card is not None and to_seat is not None and to_row is not None:
            target = ROW_NAMES[row_labels.index(to_row)]
            _reset_table(move_card(seats, card, to_seat=seat_labels.index(to_seat), to_row=target))
            st.rerun()


def _banker(seats: list[Seat]) -> tuple[bool, str | None]:
    """(whether this ruleset has a banker, who it is). No silent default: the page asks until
    someone is chosen; the choice is remembered for the session and can change each round."""
    choice = state.current_rules()
    if choice.rules.mode != "banker":
        return False, None
    names = [s["name"] for s in seats]
    key = "score_banker_choice"
    current = st.session_state.get(key)
    remembered = state.banker_memory()
    st.session_state[key] = current if current in names else remembered if remembered in names else None
    banker = st.selectbox(f"{name('banker', state.language())} (this ruleset is played against a banker)", names,
                          key=key, placeholder="Choose the banker")
    if banker is None:
        st.warning("Who is the banker this round? Choose them above: the scores depend on it.")
        return True, None
    state.remember_banker(str(banker))
    return True, str(banker)


def _save(round_: Round, scored: Mapping[str, Any], seats: list[Seat], missing: list[str]) -> None:
    if missing:
        where = ", ".join(name(m, state.language()) for m in missing)
        st.warning(f"Who is at {where}? Name every player to save the round: it is saved under people, "
                   "never under a seat.")
        return
    session = state.current_session()
    players = [p.name for p in round_.players]
    if session is None:
        st.caption("No session is open: start one here (today, these players) or on the History page.")
        if st.button(f"Start today's session ({', '.join(players)}) and save this round", type="primary",
                     key="score_quick_session", width="stretch"):
            session = state.new_session(date=dt.date.today(), place="", players=players,
                                        seating=dict(st.session_state["seat_names"]))
            _store(session.id, round_, scored, seats)
        return
    choice = state.current_rules()
    if choice.toml != session.ruleset_toml:
        st.warning(f"This session was started with {session.ruleset}; this round is scored with {choice.name} "
                   "(the round keeps the rules it was scored with).")
    photo: Photo | None = st.session_state.get(PHOTO)
    already = st.session_state.get(SAVED) == _fingerprint(session.id, round_)
    if st.button("Save round", type="primary", disabled=already, key="score_save", width="stretch"):
        _store(session.id, round_, scored, seats)
    if already:
        st.success(f"Saved as round {st.session_state.get('score_saved_number')} of this session"
                   + (" with its photo." if photo else "."))
        st.button("Next round: clear the table and the photo", key="score_next", width="stretch",
                  on_click=_clear_round, args=([s["seat"] for s in st.session_state[BASE]],))


def _clear_round(places: list[str]) -> None:
    """Empty rows and no photo for the next deal; who sits where stays."""
    for key in (PHOTO, READING, ANNOTATED, FULL, SHOWN):
        st.session_state[key] = None
    for key in (SAVED, "score_digest", "score_error", "score_notice", "score_notes"):
        st.session_state.pop(key, None)
    st.session_state[ROUND] = int(st.session_state.get(ROUND, 0)) + 1  # fresh (empty) photo inputs
    names: Seating = st.session_state["seat_names"]
    _reset_table([seat_entry(p, names.get(p) or "") for p in places], original=[])


def _fingerprint(session_id: int, round_: Round) -> str:
    photo: Photo | None = st.session_state.get(PHOTO)
    return hashlib.sha256(repr((round_.to_json(), photo.data if photo else b"", session_id)).encode()).hexdigest()


def _store(session_id: int, round_: Round, scored: Mapping[str, Any], seats: list[Seat]) -> None:
    # seats: the playing seats, every one named (_save refuses unnamed seats)
    """One transaction: photo (once per content), what was read, the corrections, the rows, the scores."""
    choice = state.current_rules()
    photo: Photo | None = st.session_state.get(PHOTO)
    try:
        round_id = state.db().save_round(
            session_id, hands=round_.to_json(), settlement=scored, ruleset=choice.name, ruleset_toml=choice.toml,
            photo=photo.data if photo else None, photo_mime=photo.mime if photo else "image/jpeg",
            detections=st.session_state.get(READING),
            corrections=corrections(st.session_state.get(ORIGINAL) or [], seats), seating=seating_of(seats))
    except InputError as err:  # e.g. the session was deleted in another tab
        st.error(f"The round was not saved: {err}")
        return
    st.session_state[SAVED] = _fingerprint(session_id, round_)
    number = state.db().round(round_id).number
    st.toast(f"Round {number} saved")
    st.session_state["score_saved_number"] = number
    st.rerun()


def render() -> None:
    choice = state.page_start("Score a table")
    if choice is None:
        return
    _photo_input()
    if st.session_state.get("score_error"):
        st.error(sentence(st.session_state["score_error"]))
    if st.session_state.get("score_notice"):
        st.info(st.session_state["score_notice"])

    if BASE not in st.session_state:
        _reset_table(blank_table(4, st.session_state["seat_names"]), original=[])
    base: list[Seat] = st.session_state[BASE]
    _show_photo(base)

    st.subheader("The table")
    players = st.segmented_control("Players", [2, 3, 4], default=len(base) if 2 <= len(base) <= 4 else None,
                                   key=f"score_players_{st.session_state.get(VERSION, 0)}",
                                   help="Add a seat the photo missed, or leave seats out")
    if players is not None and int(players) != len(base):
        names = st.session_state["seat_names"]
        live = _live(base)
        taken = {s["seat"] for s in live}
        spare = [s for s in blank_table(4, names) if s["seat"] not in taken]
        _reset_table(live[: int(players)] + spare[: max(0, int(players) - len(live))])
        st.rerun()
    st.caption("Correct a card by editing its row: cards like `Ah Kd 2c`, `10h` or `♥10`. "
               "A seat with no cards is left out.")
    _photo_side()
    seats, slots, missing = _seat_inputs(base)
    st.session_state[BASE] = [dict(s, name=b["name"]) for s, b in zip(seats, base, strict=True)]  # typed rows kept
    _move_form(seats)
    playing = [s for s in seats if s["name"] != AWAY and any(s[r] for r in ROW_NAMES)]
    banker_mode, banker = _banker(playing) if playing else (False, None)
    round_, errors = build_round(playing, banker) if playing else (None, [])
    scored: dict[str, Any] | None = None
    if banker_mode and banker is None:
        round_ = None
    if round_ is not None:
        try:
            scored = settle(round_, choice.rules).to_json()
        except InputError as err:
            errors = [str(err)]
    for seat, slot in zip(seats, slots, strict=True):
        if seat["name"] != AWAY and any(seat[r] for r in ROW_NAMES):
            _fill_seat(slot, seat, seats, choice.rules, scored)
    if not playing:
        st.info("Type each player's rows, or upload a photo of the table.")
        return
    for error in errors:
        st.error(sentence(error))
    if round_ is None or scored is None:
        return
    st.subheader("Settlement")
    show.totals_row({p["name"]: int(p["score"]) for p in scored["players"]})
    show.pairs(scored, state.language())
    st.caption(f"Rules: {scored['rules']} ({scored['mode']}); the total is {scored['total']}")
    _save(round_, scored, playing, missing)


if __name__ == "__main__":
    render()
