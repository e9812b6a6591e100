"""Page 2: check one arrangement (typed, picked, or from a photo of one hand) and ask the solver."""

from __future__ import annotations

import hashlib
from typing import Any

import streamlit as st

from app_pages import reader, show, state
from app_pages.glyphs import card_text, cards_html, row_html
from app_pages.i18n import name, sentence
from app_pages.images import ACCEPTED_TYPES, load_photo
from app_pages.words import count, number, tr
from referee.cards import DECK, ROW_NAMES, ROW_SIZES, Card, format_cards, parse_arrangement, parse_cards
from referee.errors import InputError
from referee.hand import analyse
from referee.ruleset import Ruleset
from referee.solver import Advice, SolveResult, advise, solve
from referee.words import foul_text

EXAMPLE = "2c 3d 5h | 6s 6h 8c 9d Tc | Js Jh Jd 4c 4d"
ADVICE_SAMPLES = 200
ORDERED_DECK = sorted(DECK, key=lambda c: (c.suit.value != "s", c.suit.value != "h", c.suit.value != "d", -c.rank))


@st.cache_data(show_spinner=False, max_entries=256)
def _advice(text: str, toml: str, players: int, banker: bool) -> Advice:
    rules = state.rules_from_text(toml)
    return advise(parse_arrangement(text), rules, players=players, banker=banker, samples=ADVICE_SAMPLES)


@st.cache_data(show_spinner=False, max_entries=256)
def _solve(text: str, toml: str) -> SolveResult:
    return solve(text, state.rules_from_text(toml), top=3)


def _typed() -> str:
    lang = state.language()
    return st.text_input(tr("Cards: HEAD | MIDDLE | TAIL (or just 13 cards for the solver to lay)",
                            "牌：头道 | 中道 | 尾道（或只写 13 张牌，让求解器摆）", lang), key="check_text",
                         placeholder=EXAMPLE, help=tr("Ranks A K Q J T(10) 9…2, suits s h d c or ♠ ♥ ♦ ♣; "
                                                      "rows split by | or /, head first.",
                                                      "点数 A K Q J T(10) 9…2，花色 s h d c 或 ♠ ♥ ♦ ♣；"
                                                      "各道用 | 或 / 分开，头道在前。", lang))


PICKED = "pick_rows"  # {"head": [...], "middle": [...], "tail": [...]}: card labels in click order
SUITS = ("s", "h", "d", "c")


def _suit_labels(suit: str) -> list[str]:
    return [card_text(c) for c in ORDERED_DECK if c.suit.value == suit]


def _on_pick(suit: str) -> None:
    """A card clicked in a suit's pills: added to the first row that is not full, or taken out of its row."""
    rows: dict[str, list[str]] = st.session_state[PICKED]
    labels = _suit_labels(suit)
    selected = set(st.session_state.get(f"pick_{suit}") or [])
    for row in ROW_NAMES:
        rows[row] = [c for c in rows[row] if c not in labels or c in selected]
    placed = {c for row in rows.values() for c in row}
    for card in (c for c in labels if c in selected and c not in placed):
        free = next((r for r in ROW_NAMES if len(rows[r]) < ROW_SIZES[r]), None)
        if free is None:  # 13 cards already: the click is undone
            st.session_state[f"pick_{suit}"] = [c for c in labels if c in placed]
            break
        rows[free].append(card)


def _clear_picks() -> None:
    st.session_state[PICKED] = {r: [] for r in ROW_NAMES}
    for suit in SUITS:
        st.session_state[f"pick_{suit}"] = []


def _picked() -> str:
    """A 52-card picker: click cards in the order head, middle, tail; click again to take one back."""
    if PICKED not in st.session_state:
        _clear_picks()
    for suit in SUITS:
        st.pills(f"pick {suit}", _suit_labels(suit), selection_mode="multi", key=f"pick_{suit}",
                 on_change=_on_pick, args=(suit,), label_visibility="collapsed")
    rows: dict[str, list[str]] = st.session_state[PICKED]
    lang = state.language()
    st.markdown("".join(row_html(f"{name(r, lang)} {len(rows[r])}/{ROW_SIZES[r]}", parse_cards(rows[r]))
                        for r in ROW_NAMES), unsafe_allow_html=True)
    missing = sum(ROW_SIZES.values()) - sum(len(r) for r in rows.values())
    col1, col2 = st.columns([3, 1])
    if missing:
        more = f"{number(missing)} more {'card' if missing == 1 else 'cards'}"
        col1.caption(tr(f"Pick {more}: they fill the head, then the middle, then the tail. "
                        "Click a picked card again to take it back.",
                        f"再选 {count(missing, 'card', 'zh')}：依次填头道、中道、尾道。再点一次已选的牌可取回。", lang))
    col2.button(tr("Clear", "清空", lang), on_click=_clear_picks, key="pick_clear", width="stretch")
    if missing:
        return ""
    return " | ".join(" ".join(rows[r]) for r in ROW_NAMES)


def _read_hand(data: bytes) -> tuple[str, str, str]:
    """(cards read as text, message level, message) for a photo of one hand."""
    try:
        photo = load_photo(data)
    except InputError as err:
        return "", "error", sentence(str(err))
    detector = reader.detector()
    if isinstance(detector, str):
        return "", "info", detector.replace("type each player's rows below", "type the cards instead")
    from vision.pipeline import read_photo

    try:
        with st.spinner(tr("Reading the cards…", "正在识牌…", state.language()), show_time=True):
            reading = read_photo(photo.data, state.current_rules().rules, force=True,
                                 min_confidence=state.min_confidence(), detector=detector).to_json()
    except InputError as err:
        return "", "error", sentence(str(err))
    except Exception as err:  # a broken model must not show a traceback
        return "", "error", f"The photo reader failed: {type(err).__name__}: {err}"
    seats = [s for s in reading.get("seats", []) if len(s.get("cards") or []) == 13]
    if not seats:
        return "", "warning", tr("No hand of 13 cards was found in this photo.", "照片里没有找到 13 张牌的一手牌。",
                                 state.language())
    seat = seats[0]
    if seat.get("head") is None:
        return " ".join(seat["cards"]), "", ""
    return " | ".join(" ".join(seat[r]) for r in ROW_NAMES), "", ""


def _from_photo() -> str:
    """A photo of one hand, read once per photo, into a text box the user can correct."""
    lang = state.language()
    upload = st.file_uploader(tr("Photo of one hand (13 cards in three rows)", "一手牌的照片（13 张，三道）", lang),
                              type=ACCEPTED_TYPES, key="check_photo")
    if upload is not None:
        data = upload.getvalue()
        digest = hashlib.sha256(data).hexdigest()
        if st.session_state.get("check_photo_digest") != digest:
            st.session_state["check_photo_digest"] = digest
            st.session_state["check_photo_result"] = _read_hand(data)
            st.session_state.pop("check_photo_text", None)
        text, level, message = st.session_state["check_photo_result"]
        if message:
            {"error": st.error, "warning": st.warning}.get(level, st.info)(message)
        if text and "check_photo_text" not in st.session_state:
            st.session_state["check_photo_text"] = text
    if "check_photo_text" not in st.session_state:
        return ""
    return str(st.text_input(tr("Read from the photo (correct any card)", "照片读到的牌（可改）", lang),
                             key="check_photo_text"))


def _show_solver(text: str, rules: Ruleset, toml: str) -> None:
    """Only cards, no rows: the solver lays them."""
    try:
        result = _solve(text, toml)
    except InputError as err:
        st.error(sentence(str(err)))
        return
    lang = state.language()
    st.markdown(count(len(result.cards), "card", lang) + ": " + cards_html(result.cards), unsafe_allow_html=True)
    st.caption(tr(f"{number(result.valid_arrangements)} of {number(72072)} ways to lay them are legal (no foul).",
                  f"{number(72072)} 种摆法中有 {number(result.valid_arrangements)} 种合法（不倒水）。", lang))
    if result.special_arrangement is not None and result.special is not None:
        st.success(f"{name('special', lang)}: {name(result.special, lang)}")
        arrangement = result.special_arrangement
        st.markdown("".join(row_html(name(r, lang), cards) for r, cards in zip(ROW_NAMES, arrangement.rows,
                                                                                 strict=True)),
                    unsafe_allow_html=True)
    st.markdown(tr("**Strongest legal arrangements**", "**最强的合法摆法**", lang))
    st.caption(tr("Value: the rows each arrangement is expected to win against a typical hand (of 3).",
                  "分值：每种摆法对一手普通牌预计能赢的道数（满分 3）。", lang))
    ranked = sorted(result.best, key=lambda a: -a.value)
    for i, arrangement in enumerate(ranked):
        with st.container(border=True):
            head = (tr("**Recommended**", "**推荐**", lang) if i == 0 else f"**{i + 1}.**")
            st.markdown(f"{head} · " + tr(f"value {arrangement.value:.2f} of 3", f"分值 {arrangement.value:.2f} / 3",
                                          lang))
            st.markdown("".join(row_html(name(r, lang), cards, name(cat, lang))
                                for r, cards, cat in zip(ROW_NAMES, arrangement.rows, arrangement.categories,
                                                         strict=True)), unsafe_allow_html=True)
            st.code(arrangement.text(), language=None)


def render() -> None:
    lang = state.language()
    choice = state.page_start(tr("Check a hand", "查牌", lang))
    if choice is None:
        return
    if "check_text" not in st.session_state:
        st.session_state["check_text"] = EXAMPLE
    ways = {"Typing": "输入", "Picking": "选牌", "Photo": "照片"}
    how = st.segmented_control(tr("Enter the cards by", "输入方式", lang), list(ways), default="Typing",
                               key="check_how", format_func=lambda w: tr(w, ways[w], lang))
    if how == "Picking":
        text = _picked()
    elif how == "Photo":
        text = _from_photo()
    else:
        text = _typed()
    if not text.strip():
        if how != "Picking":
            st.info(tr("Enter 13 cards to check.", "输入 13 张牌来查。", lang))
        return
    if "|" not in text and "/" not in text:
        try:
            cards = parse_cards(text)
        except InputError as err:
            st.error(sentence(str(err)))
            return
        if len(cards) != 13:
            st.error(tr(f"Enter 13 cards (got {len(cards)}), or three rows split by |",
                        f"请输入 13 张牌（现在 {len(cards)} 张），或用 | 分开的三道", lang))
            return
        _show_solver(text, choice.rules, choice.toml)
        return
    try:
        rows = parse_arrangement(text)
    except InputError as err:
        st.error(sentence(str(err)))
        return
    report = analyse(rows, choice.rules)
    player: dict[str, Any] = {
        "foul": report.foul, "foul_reason": report.foul_reason, "special": report.special,
        "missed_special": report.missed_special,
        "rows": [{"row": r.row, "cards": [str(c) for c in r.cards], "category": r.category.label}
                 for r in report.rows],
    }
    with st.container(border=True):
        st.markdown(show.rows_block(player["rows"], lang, foul=report.foul), unsafe_allow_html=True)
        if report.foul:
            st.error(f"{name('foul', lang)}: {foul_text(rows, choice.rules, lang) or report.foul_reason}")
        else:
            st.success(tr("Not fouled: head ≤ middle ≤ tail", "没有倒水：头道 ≤ 中道 ≤ 尾道", lang))
        for line in show.verdict_lines(player, lang)[1 if report.foul else 0:]:
            st.markdown(line)

    st.subheader(tr("Solver", "求解器", lang))
    col1, col2 = st.columns(2)
    players = col1.selectbox(tr("Players at the table", "桌上人数", lang), [2, 3, 4], index=2, key="check_players")
    banker = False
    if choice.rules.mode == "banker":
        banker = col2.toggle(tr("I am the banker", "我坐庄", lang), key="check_banker")
    with st.spinner(tr(f"Trying the best arrangements against {number(ADVICE_SAMPLES)} random deals…",
                       f"用 {number(ADVICE_SAMPLES)} 副随机牌试最好的摆法…", lang), show_time=True):
        advice = _advice(format_rows(rows), choice.toml, int(players or 4), banker)
    deals = count(advice.samples, "deal", "en") + f", {count(advice.players, 'player', 'en')}"
    deals_zh = f"{count(advice.samples, 'deal', 'zh')}，{count(advice.players, 'player', 'zh')}"
    if advice.gain <= 0 or advice.best.rows == advice.laid.rows:
        st.success(tr(f"Recommended: keep your rows. They are as good as any the solver found: expected "
                      f"{advice.laid.value:+.2f} points per round ({deals}).",
                      f"推荐：保持原样。求解器找不到更好的摆法：每局预计 {advice.laid.value:+.2f} 分（{deals_zh}）。",
                      lang))
    else:
        st.markdown(tr("**Recommended instead:** ", "**推荐改成：** ", lang) + "".join(
            row_html(name(r, lang), cards, name(cat, lang))
            for r, cards, cat in zip(ROW_NAMES, advice.best.rows, advice.best.categories, strict=True)),
            unsafe_allow_html=True)
        st.info(tr(f"Expected gain **{advice.gain:+.2f} ± {advice.gain_stderr:.2f}** points per round over your rows: "
                   f"recommended {advice.best.value:+.2f}, yours {advice.laid.value:+.2f} ({deals}).",
                   f"比原来每局预计多得 **{advice.gain:+.2f} ± {advice.gain_stderr:.2f}** 分：推荐 "
                   f"{advice.best.value:+.2f}，原来 {advice.laid.value:+.2f}（{deals_zh}）。", lang))
        st.code(advice.best.text(), language=None)


def format_rows(rows: tuple[tuple[Card, ...], ...]) -> str:
    return " | ".join(format_cards(r) for r in rows)


if __name__ == "__main__":
    render()
