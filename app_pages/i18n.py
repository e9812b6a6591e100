"""Names of rows, categories, special hands and seats in English, 中文, or both.

>>> name("flush", "zh"), name("flush", "en"), name("flush", "both")
('同花', 'flush', '同花 flush')
>>> name("no_such_key", "zh")
'no_such_key'
"""

from __future__ import annotations

from typing import Literal

Language = Literal["en", "zh", "both"]
LANGUAGES: dict[Language, str] = {"both": "中文 + English", "zh": "中文", "en": "English"}

_ZH: dict[str, str] = {
    # rows
    "head": "头道", "middle": "中道", "tail": "尾道",
    # categories (referee.evaluate.Category labels)
    "high_card": "散牌", "pair": "一对", "two_pair": "两对", "three_of_a_kind": "三条", "straight": "顺子",
    "flush": "同花", "full_house": "葫芦", "four_of_a_kind": "铁支", "straight_flush": "同花顺",
    # special hands (RULES.md §2)
    "dragon_flush": "至尊清龙", "dragon": "一条龙", "royals_all": "十二皇族", "royals_12faces": "十二皇族",
    "royals_12": "十二皇族", "three_straight_flushes": "三同花顺", "three_quads": "三分天下",
    "all_high_8": "全大", "all_low_8": "全小", "one_color": "凑一色", "one_color_but_one": "一点红/黑",
    "three_trips_and_quad": "三冲加弹", "four_trips": "四套三条", "five_pairs_trips": "五对三条",
    "six_pairs": "六对半", "six_pairs_or_five_pairs_trips": "六对半", "three_flushes": "三同花",
    "three_straights": "三顺子", "high_5_no_ace": "全大", "high_5_one_ace": "半大", "low_10_no_ace": "全小",
    "low_10_one_ace": "半小",
    # seats (vision.types.SEAT_NAMES) and table words
    "bottom": "下", "right": "右", "top": "上", "left": "左",
    "foul": "倒水", "scoop": "打枪", "home_run": "全垒打", "special": "特殊牌型", "banker": "庄家",
    "missed_special": "漏报特殊牌型",
}

_EN: dict[str, str] = {
    "high_card": "high card", "two_pair": "two pair", "three_of_a_kind": "three of a kind",
    "full_house": "full house", "four_of_a_kind": "four of a kind", "straight_flush": "straight flush",
    "dragon_flush": "dragon flush", "royals_all": "twelve royals", "royals_12faces": "twelve royals",
    "royals_12": "twelve royals", "three_straight_flushes": "three straight flushes",
    "three_quads": "three quads", "all_high_8": "all high", "all_low_8": "all low", "one_color": "one colour",
    "one_color_but_one": "one colour but one", "three_trips_and_quad": "three trips and a quad",
    "four_trips": "four trips", "five_pairs_trips": "five pairs and trips", "six_pairs": "six pairs",
    "six_pairs_or_five_pairs_trips": "six pairs", "three_flushes": "three flushes",
    "three_straights": "three straights", "high_5_no_ace": "all high (5-K)", "high_5_one_ace": "half high",
    "low_10_no_ace": "all low (2-10)", "low_10_one_ace": "half low", "home_run": "home run",
    "missed_special": "missed special",
}


def sentence(text: str) -> str:
    """A message for the page: the referee's errors start in lower case (they follow "error: ").

    >>> sentence("the file is empty")
    'The file is empty'
    """
    return text[:1].upper() + text[1:]


def name(key: str, language: Language) -> str:
    """A key (row, category, special, seat) in the chosen language."""
    english = _EN.get(key, key.replace("_", " ") if key in _ZH else key)
    chinese = _ZH.get(key)
    if language == "en" or chinese is None:
        return english
    if language == "zh":
        return chinese
    return f"{chinese} {english}"
