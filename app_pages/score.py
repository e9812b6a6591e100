"""Page 1: score a table from a photo (or typed in), correct it, save the round."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from html import escape
from typing import Any

import numpy as np
import streamlit as st

from app_pages import choices, reader, show, state, storage_faults
from app_pages.glyphs import cards_html, row_html, score_html
from app_pages.i18n import Language, name, sentence
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
from app_pages.words import count, number, tr
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
    import cv2

    from vision.image_io import read_image
    from vision.pipeline import read_photo

    choice = state.current_rules()
    lang = state.language()
    with st.status(tr("Reading the cards…", "正在识牌…", lang), expanded=False) as status:
        try:
            status.update(label=tr("Reading the cards: opening the photo…", "识牌：打开照片…", lang))
            # Decoded once (when the upload was checked): the reader and the annotated photo share it.
            image = (np.asarray(cv2.cvtColor(photo.pixels, cv2.COLOR_RGB2BGR), np.uint8)
                     if photo.pixels is not None else read_image(photo.data))
            status.update(label=tr("Reading the cards: finding them and laying out the seats…",
                                   "识牌：找牌、分座位…", lang))
            reading = read_photo(image, choice.rules, min_confidence=state.min_confidence(), force=True,
                                 detector=detector)
        except InputError as err:
            status.update(label=tr("The photo could not be read", "照片无法读取", lang), state="error")
            st.session_state["score_error"] = str(err)
            return
        except Exception as err:  # onnxruntime failing...: a message, not a traceback
            status.update(label=tr("The photo reader failed", "识牌程序出错", lang), state="error")
            st.session_state["score_error"] = f"The photo reader failed: {type(err).__name__}: {err}"
            return
        status.update(label=tr("Reading the cards: drawing what was read…", "识牌：标出读到的牌…", lang))
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
        found = len(reading.detections.cards)
        status.update(label=tr(f"Read {count(found, 'card', 'en')}", f"读到 {count(found, 'card', 'zh')}", lang),
                      state="complete")
    seats, notes = seats_from_reading(data, st.session_state["seat_names"], choice.rules)
    st.session_state["score_notes"] = notes
    _reset_table(seats or blank_table(4, st.session_state["seat_names"]), original=[dict(s) for s in seats])


def _photo_input() -> None:
    turn = int(st.session_state.get(ROUND, 0))
    suffix = f"_{turn}" if turn else ""  # "Next round" empties them
    lang = state.language()
    upload_tab, camera_tab = st.tabs([tr("Upload a photo", "上传照片", lang), tr("Take a photo", "拍照", lang)])
    with upload_tab:
        upload = st.file_uploader(tr("Photo of the table (JPEG, PNG, WebP or HEIC)",
                                     "牌桌照片（JPEG、PNG、WebP 或 HEIC）", lang),
                                  type=ACCEPTED_TYPES, key=f"score_upload{suffix}")
    with camera_tab:
        camera = st.camera_input(tr("Photograph the table from above", "从上方拍牌桌", lang),
                                 key=f"score_camera{suffix}")
    st.caption(tr("For a photo that reads: every hand in the frame, taken from above, the phone held still, "
                  "good light. Sharp corner indices matter more than a large photo.",
                  "拍得清楚：每手牌都在画面里，从正上方拍，手机拿稳，光线充足。牌角的字清楚比照片大更重要。", lang))
    st.caption(tr("On a phone, **Upload a photo** → *Camera* takes the picture with the phone's own camera at full "
                  "resolution: use it. **Take a photo** uses the browser's camera preview, which gives about "
                  "0.3–1 megapixels: usually too small to read the corner indices of 52 cards.",
                  "手机上请用 **上传照片** → *相机*：用手机自带相机，全分辨率。**拍照** 用的是浏览器的取景框，"
                  "只有约 0.3–1 百万像素，通常太小，读不清 52 张牌的牌角。", lang))
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
        lang = state.language()
        with st.expander(tr("Photo", "照片", lang), expanded=True):
            if annotated is not None:
                st.image(annotated, caption=tr("Cards outlined by seat and row", "按座位和道框出的牌", lang),
                         width="stretch")
                full = st.session_state.get(FULL)
                if full is not None:
                    st.download_button(tr("Open the photo full size", "查看原图", lang),
                                       data=lambda: display_jpeg(full, max_width=None, quality=90),
                                       file_name="table-read.jpg", mime="image/jpeg", key="score_full_photo",
                                       icon=":material/zoom_in:", on_click="ignore")
            else:
                if st.session_state.get(SHOWN) is None:  # decoded and scaled once, not on every rerun
                    st.session_state[SHOWN] = jpeg_bytes(to_rgb(photo.pixels if photo.pixels is not None
                                                                else photo.data))
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
    if st.session_state.get(key) not in options or (unset and (mapping.get(place) or seat.get("name"))):
        known = mapping[place] if place in mapping else (seat.get("name") or "")  # offered holds every name known
        st.session_state[key] = AWAY if known is None else known if known else NEW if not offered else None
    labels = {NEW: tr("someone new…", "新玩家…", lang), AWAY: tr("not playing", "本局不玩", lang)}
    choice = col.selectbox(seat_question(place, lang), options, key=key,
                           placeholder=tr("Who sits here?", "谁坐这里？", lang),
                           format_func=lambda v: labels.get(v, v), on_change=_who_changed, args=(place,))
    if choice == AWAY:
        return None
    if choice == NEW:
        return str(col.text_input(tr("Name", "名字", lang), key=f"{key}_name",
                                  placeholder=tr("name", "名字", lang))).strip()
    return str(choice or "")


def seat_question(place: str, lang: Language) -> str:
    """``Who is at top`` / ``上座是谁``: the question a seat's picker asks."""
    return tr(f"Who is at {name(place, 'en')}", f"{name(place, 'zh')}座是谁", lang)


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
    for seat in st.session_state.get(BASE) or []:  # the table's own name for the seat follows the choice
        if seat["seat"] == place:
            seat["name"] = mapping.get(place) or ""


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

    lang = state.language()

    def label(side: int) -> str:
        if side == 0:
            return tr("the same side as before", "和上次同一边", lang)
        who = mapping.get(PLACES[side])
        where = {1: ("the right side of the last photo", "上次照片的右边"), 2: ("the opposite side", "对面"),
                 3: ("the left side of the last photo", "上次照片的左边")}[side]
        return tr(where[0] + (f" ({who}'s side)" if who else ""), where[1] + (f"（{who}那边）" if who else ""), lang)

    st.session_state["camera_side"] = 0  # an action, not a setting: it turns the seats once
    st.selectbox(tr("Photo taken from", "拍照的位置", lang), [0, 1, 2, 3], key="camera_side", format_func=label,
                 on_change=lambda: _turn_side(int(st.session_state["camera_side"])),
                 help=tr("Walked round the table to take this photo? Say from where, and everyone keeps their seat.",
                         "绕到别处拍的？选拍照的位置，大家的座位不变。", lang))


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
    named: list[str] = []  # who sits at each seat ("" when nobody is named or nobody plays there)
    for i, seat in enumerate(base):
        with st.container(border=True):
            cols = st.columns([1.1, 1, 1.5, 1.5])
            who = _who(cols[0], seat, offered)
            rows = [col.text_input(name(row, lang), value=seat[row], key=f"seat_{version}_{i}_{row}",
                                   placeholder=("Ah Kd 2c" if row == "head" else "5 cards"))
                    for col, row in zip(cols[1:], ROW_NAMES, strict=True)]
            named.append(who or "")
            if who is None:
                st.caption(tr("Not playing this round: these rows are left out.", "本局不玩：这些牌不计。", lang))
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
    # Typed rows are kept, and each seat's name is who sits there (a rerun or a page switch starts from it).
    st.session_state[BASE] = [dict(s, name=who) for s, who in zip(seats, named, strict=True)]
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
            for line in show.verdict_lines(player, lang, rules):
                st.markdown(line)
            choices.special_choice(player, lang)
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
    lang = state.language()
    with st.expander(tr("Move a card to another row or seat", "把牌移到别的道或座位", lang)):
        card = st.selectbox(tr("Card", "牌", lang), cards, key="move_card")
        if card in locations:
            seat_index, row = locations[card]
            who = seats[seat_index]["name"]
            st.caption(tr(f"{card} is now in {who}'s {name(row, 'en')} row", f"{card} 现在在{who}的{name(row, 'zh')}",
                          lang))
        elif card is not None:
            st.caption(tr(f"{card} is not in any row yet", f"{card} 还不在任何一道", lang))
        col1, col2 = st.columns(2)
        # Plain text options (no format_func): the labels are the values, mapped back here.
        seat_labels = [f"{i + 1}. {s['name'] if s['name'] != AWAY else s['seat']}" for i, s in enumerate(seats)]
        row_labels = [name(r, state.language()) for r in ROW_NAMES]
        to_seat = col1.selectbox(tr("To player", "移给", lang), seat_labels, key="move_seat")
        to_row = col2.selectbox(tr("To row", "移到", lang), row_labels, key="move_row")
        moved = st.button(tr("Move", "移动", lang), key="move_go")
        if moved and card is not None and to_seat is not None and to_row is not None:
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
    lang = state.language()
    banker = st.selectbox(tr("Banker (this ruleset is played against a banker)", "庄家（本规则坐庄比牌）", lang), names,
                          key=key, placeholder=tr("Choose the banker", "选庄家", lang))
    if banker is None:
        st.warning(tr("Who is the banker this round? Choose them above: the scores depend on it.",
                      "本局谁坐庄？请在上面选：分数取决于庄家。", lang))
        return True, None
    state.remember_banker(str(banker))
    return True, str(banker)


def _save(round_: Round, scored: Mapping[str, Any], seats: list[Seat], missing: list[str]) -> None:
    lang = state.language()
    if missing:
        st.warning(tr(f"Who is at {', '.join(name(m, 'en') for m in missing)}? Name every player to save the round: "
                      "it is saved under people, never under a seat.",
                      f"{'、'.join(name(m, 'zh') + '座' for m in missing)}是谁？每位玩家都要有名字才能保存："
                      "每局记在人名下，不记在座位下。", lang))
        return
    session = state.current_session()
    players = [p.name for p in round_.players]
    if session is None:
        st.caption(tr("No session is open: start one here (today, these players) or on the History page.",
                      "未开场次：在这里开一场（今天、这些玩家），或到记录页开。", lang))
        if st.button(tr(f"Start today's session ({', '.join(players)}) and save this round",
                        f"开今天的场次（{'、'.join(players)}）并保存本局", lang), type="primary",
                     key="score_quick_session", width="stretch"):
            with storage_faults.reported("save the round", keep=round_.to_json()):
                session = state.new_session(date=dt.date.today(), place="", players=players,
                                            seating=dict(st.session_state["seat_names"]))
                _store(session.id, round_, scored, seats)
        return
    choice = state.current_rules()
    if choice.toml != session.ruleset_toml:
        st.warning(tr(f"This session was started with {session.ruleset}; this round is scored with {choice.name} "
                      "(the round keeps the rules it was scored with).",
                      f"本场次按 {session.ruleset} 开的；本局按 {choice.name} 计分（每局保留计分时的规则）。", lang))
    photo: Photo | None = st.session_state.get(PHOTO)
    already = st.session_state.get(SAVED) == _fingerprint(session.id, round_)
    if st.button(tr("Save round", "保存本局", lang), type="primary", disabled=already, key="score_save",
                 width="stretch"):
        with storage_faults.reported("save the round", keep=round_.to_json()):
            _store(session.id, round_, scored, seats)
    if already:
        saved = st.session_state.get("score_saved_number")
        st.success(tr(f"Saved as round {saved} of this session" + (" with its photo." if photo else "."),
                      f"已存为本场第 {saved} 局" + ("（含照片）。" if photo else "。"), lang))
        st.button(tr("Next round: clear the table and the photo", "下一局：清空牌桌和照片", lang), key="score_next",
                  width="stretch",
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
    choices.clear()


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
        st.error(tr(f"The round was not saved: {err}", f"本局没有保存：{err}", state.language()))
        return
    st.session_state[SAVED] = _fingerprint(session_id, round_)
    number = state.db().round(round_id).number
    st.toast(tr(f"Round {number} saved", f"第 {number} 局已保存", state.language()))
    st.session_state["score_saved_number"] = number
    st.rerun()


def render() -> None:
    lang = state.language()
    choice = state.page_start(tr("Score a table", "计分", lang))
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

    st.subheader(tr("The table", "牌桌", lang))
    players = st.segmented_control(tr("Players", "人数", lang), [2, 3, 4],
                                   default=len(base) if 2 <= len(base) <= 4 else None,
                                   key=f"score_players_{st.session_state.get(VERSION, 0)}",
                                   help=tr("Add a seat the photo missed, or leave seats out",
                                           "补上照片漏掉的座位，或去掉座位", lang))
    if players is not None and int(players) != len(base):
        names = st.session_state["seat_names"]
        live = _live(base)
        taken = {s["seat"] for s in live}
        spare = [s for s in blank_table(4, names) if s["seat"] not in taken]
        _reset_table(live[: int(players)] + spare[: max(0, int(players) - len(live))])
        st.rerun()
    st.caption(tr("Correct a card by editing its row: cards like `Ah Kd 2c`, `10h` or `♥10`. "
                  "A seat with no cards is left out.",
                  "改牌就改那一道：例如 `Ah Kd 2c`、`10h` 或 `♥10`。没有牌的座位不计。", lang))
    _photo_side()
    seats, slots, missing = _seat_inputs(base)
    _move_form(seats)
    playing = [s for s in seats if s["name"] != AWAY and any(s[r] for r in ROW_NAMES)]
    banker_mode, banker = _banker(playing) if playing else (False, None)
    round_, errors = build_round(playing, banker) if playing else (None, [])
    scored: dict[str, Any] | None = None
    if banker_mode and banker is None:
        round_ = None
    if round_ is not None:
        round_ = choices.apply(round_, choice.rules)
        try:
            scored = settle(round_, choice.rules).to_json()
        except InputError as err:
            errors = [str(err)]
    for seat, slot in zip(seats, slots, strict=True):
        if seat["name"] != AWAY and any(seat[r] for r in ROW_NAMES):
            _fill_seat(slot, seat, seats, choice.rules, scored)
    if not playing:
        st.info(tr("Type each player's rows, or upload a photo of the table.", "输入每位玩家的三道牌，或上传牌桌照片。",
                   lang))
        return
    for error in errors:
        st.error(sentence(error))
    if round_ is None or scored is None:
        return
    st.subheader(tr("Settlement", "结算", lang))
    show.totals_row({p["name"]: int(p["score"]) for p in scored["players"]})
    show.pairs(scored, state.language())
    st.caption(tr(f"Rules: {scored['rules']} ({scored['mode']}); the total is {number(int(scored['total']))}",
                  f"规则：{scored['rules']}（{scored['mode']}）；合计 {number(int(scored['total']))}", lang))
    choices.adjustment_form(round_, choice.rules, state.language())
    _save(round_, scored, playing, missing)


if __name__ == "__main__":
    storage_faults.run_page(render)
