"""The app's words in the chosen language (中文, English, or both), counts and numbers written one
way, and why a hand is fouled in plain words. Plain functions: tested without Streamlit.

>>> tr("History", "记录", "both"), tr("History", "记录", "zh"), tr("History", "记录", "en")
('记录 History', '记录', 'History')
>>> count(1, "card", "en"), count(2, "card", "en"), count(20678, "way", "en"), count(3, "card", "zh")
('1 card', '2 cards', '20,678 ways', '3 张牌')
>>> number(72072)
'72,072'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from app_pages.i18n import Language, name
from referee.cards import Card, parse_cards

_ZH_COUNTERS = {"card": "张牌", "round": "局", "way": "种摆法", "player": "位玩家", "deal": "副随机牌",
                "correction": "处更正", "seat": "个座位"}


def tr(english: str, chinese: str, lang: Language) -> str:
    """One piece of the app's text: English, 中文, or both (中文 first, as the card names)."""
    if lang == "en":
        return english
    if lang == "zh":
        return chinese
    return f"{chinese} {english}"


def number(value: int) -> str:
    """Every count on the page is written one way: digits grouped by thousands."""
    return f"{value:,}"


def count(n: int, noun: str, lang: Language) -> str:
    """``1 card``, ``2 cards``, ``3 张牌``: a count with its noun, singular or plural."""
    english = f"{number(n)} {noun if n == 1 else noun + 's'}"
    chinese = f"{number(n)} {_ZH_COUNTERS.get(noun, noun)}"
    return tr(english, chinese, lang)


def deciding_cards(cards: Sequence[str] | Sequence[Card]) -> str:
    """A row's cards as a player names them: the sets first, highest first (``AAA``, ``KK-55-9``,
    ``A-K-Q-7-2``).

    >>> deciding_cards(["Ah", "Ad", "As"]), deciding_cards("Kh 5c Kd 9s 5d".split())
    ('AAA', 'KK-55-9')
    >>> deciding_cards("7c Ah 2d Qs Kh".split())
    'A-K-Q-7-2'
    """
    parsed = [c if isinstance(c, Card) else parse_cards(c)[0] for c in cards]
    counts = Counter(c.rank for c in parsed)
    ranks = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    symbol = {r: ("10" if r.symbol == "T" else r.symbol) for r in counts}
    return "-".join(symbol[r] * counts[r] for r in ranks)


def foul_reason(player: Mapping[str, Any], lang: Language) -> str:
    """Why a hand is fouled, naming the rows and their deciding cards (``player`` as in
    ``Settlement.to_json()["players"]``): "head AAA beats middle A-K-Q-7-2: the head may not beat
    the middle". Issue 21 writes this wording in the referee package; until it lands the app says it here.

    >>> rows = [{"row": "head", "cards": ["Ah", "Ad", "As"]},
    ...         {"row": "middle", "cards": ["Kh", "Qd", "7c", "2s", "Ac"]}, {"row": "tail", "cards": []}]
    >>> foul_reason({"foul_reason": "head (three_of_a_kind AAA) beats middle (high_card)", "rows": rows}, "en")
    'head AAA beats middle A-K-Q-7-2: the head may not beat the middle'
    """
    reason = str(player.get("foul_reason") or "")
    rows = {r["row"]: r.get("cards") or [] for r in player.get("rows", [])}
    words = reason.split()
    low = words[0] if words else ""
    high = next((w for w in words[1:] if w in ("middle", "tail")), "")
    if low not in rows or high not in rows:
        return reason
    low_cards, high_cards = deciding_cards(rows[low]), deciding_cards(rows[high])
    low_en, high_en = name(low, "en"), name(high, "en")
    low_zh, high_zh = name(low, "zh"), name(high, "zh")
    if " equals " in reason:
        english = (f"{low_en} {low_cards} equals {high_en} {high_cards}: under these rules each row must be "
                   "stronger than the one before")
        chinese = f"{low_zh} {low_cards} 与{high_zh} {high_cards} 一样大：本规则要求后一道比前一道大"
    else:
        english = f"{low_en} {low_cards} beats {high_en} {high_cards}: the {low_en} may not beat the {high_en}"
        chinese = f"{low_zh} {low_cards} 大于{high_zh} {high_cards}：{low_zh}不能大于{high_zh}"
    if lang == "both":
        return f"{chinese}（{english}）"
    return tr(english, chinese, lang)
