"""What the referee says, in English, 中文, or both: names of rows, categories and special
hands, the bonuses of a pair, and why a hand is fouled. The command line and the app
both use these functions, so a player reads the same words in either.

>>> name("flush", "zh"), name("flush", "en"), name("flush", "both")
('同花', 'flush', '同花 flush')
>>> from referee.cards import parse_arrangement
>>> from referee.ruleset import load_ruleset
>>> rows = parse_arrangement("Ah Ad 2c | Kh Kd 3c 4s 5s | 9s 9h 9d 7c 8c")
>>> print(foul_text(rows, load_ruleset("classic"), "en"))
head (pair AA) beats middle (pair KK): A-A-2 against K-K-5-4-3, the A over the K; a head may not beat the middle
>>> print(foul_text(rows, load_ruleset("classic"), "zh"))
头道（一对 AA）大于中道（一对 KK）：A-A-2 对 K-K-5-4-3，A 大于 K；头道不能大于中道
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from referee.cards import RANK_SYMBOLS, ROW_NAMES, Card
from referee.evaluate import CATEGORY_SHIFT, Category, category_of, truncate_to_head
from referee.hand import row_values
from referee.ruleset import Ruleset
from referee.specials import Rows

Language = Literal["en", "zh", "both"]
LANGUAGES: tuple[Language, ...] = ("both", "zh", "en")

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
    "missed_special": "漏报特殊牌型", "negotiated": "谈判", "adjustment": "调整", "rows": "三道",
    "declined_special": "不报特殊牌型",
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
    "missed_special": "missed special", "declined_special": "special declined",
}


def name(key: str, language: Language) -> str:
    """A key (row, category, special, seat, table word) in the chosen language; an unknown key as it is."""
    english = _EN.get(key, key.replace("_", " ") if key in _ZH else key)
    chinese = _ZH.get(key)
    if language == "en" or chinese is None:
        return english
    if language == "zh":
        return chinese
    return f"{chinese} {english}"


def width(text: str) -> int:
    """Columns a text takes in a terminal (a Chinese character takes two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def pad(text: str, columns: int) -> str:
    """``text`` padded with spaces to ``columns`` terminal columns."""
    return text + " " * max(0, columns - width(text))


def row_label_width(language: Language) -> int:
    """The widest row name in ``language``, to line up the cards after it."""
    return max(width(name(row, language)) for row in ROW_NAMES)


def chinese(key: str) -> str | None:
    """The Chinese name of a key, or None (for JSON's ``*_zh`` fields)."""
    return _ZH.get(key)


def both(language: Language, english: str, zh: str, joiner: str = " / ") -> str:
    """A phrase in the chosen language; ``both``: English, then Chinese."""
    if language == "en":
        return english
    if language == "zh":
        return zh
    return f"{english}{joiner}{zh}"


# ------------------------------------------------------------------ the scoop's name


def scoop_name(rules: Ruleset, *, by_banker: bool, language: Language) -> str:
    """What this ruleset calls a scoop (fuzhou: a banker's sweep is 全垒打), from the ruleset's data."""
    zh = rules.scoop.banker_name if by_banker and rules.scoop.banker_name else rules.scoop.name
    english = "scoop"
    if language == "en":
        return english
    return zh if language == "zh" else f"{zh} {english}"


# ------------------------------------------------------------------ foul reasons


def _ordered_ranks(cards: Sequence[Card]) -> list[int]:
    """A row's ranks, sets first (largest set, then highest rank), then kickers high to low."""
    counts = Counter(int(c.rank) for c in cards)
    return sorted((r for r in counts for _ in range(counts[r])), key=lambda r: (-counts[r], -r))


def _symbol(rank: int) -> str:
    return RANK_SYMBOLS[rank - 2] if 2 <= rank <= 14 else "?"


def _cards_text(cards: Sequence[Card]) -> str:
    return "-".join(_symbol(r) for r in _ordered_ranks(cards))


def _describe(cards: Sequence[Card], value: int, language: Language) -> str:
    """Category with its sets, e.g. ``pair AA`` / ``一对 AA``."""
    category = category_of(value)
    counts = Counter(int(c.rank) for c in cards)
    sets = [_symbol(r) * n for r, n in sorted(counts.items(), key=lambda rn: (-rn[1], -rn[0])) if n >= 2]
    label = name(category.label, "zh" if language == "zh" else "en")
    if category in (Category.PAIR, Category.TWO_PAIR, Category.THREE_OF_A_KIND, Category.FULL_HOUSE,
                    Category.FOUR_OF_A_KIND):
        return f"{label} {' '.join(sets)}"
    return label


def _tie_ranks(value: int) -> list[int]:
    return [(value >> (4 * (4 - i))) & 0xF for i in range(5)]


def _decider(low_value: int, high_value: int) -> tuple[int, int] | None:
    """Within one category, the first tie-break rank where the rows differ (low row's, high row's)."""
    if low_value >> CATEGORY_SHIFT != high_value >> CATEGORY_SHIFT:
        return None
    if category_of(low_value) in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        return None  # a straight is decided by its top card, the wheel by the ruleset
    for a, b in zip(_tie_ranks(low_value), _tie_ranks(high_value), strict=True):
        if a != b:
            return a, b
    return None


def foul_text(rows: Rows, rules: Ruleset, language: Language) -> str | None:
    """Why ``rows`` are fouled under ``rules``, naming the two rows and the cards that decide
    it, in plain words; None when the rows are not fouled. ``both``: English, then Chinese."""
    if language == "both":
        english, zh = foul_text(rows, rules, "en"), foul_text(rows, rules, "zh")
        return None if english is None or zh is None else f"{english} / {zh}"
    values = row_values(rows, rules.wheel)
    checks = ((0, 1, values[0], truncate_to_head(values[1], values[0])), (1, 2, values[1], values[2]))
    for low, high, low_value, high_value in checks:
        equal = low_value == high_value
        if low_value < high_value or (equal and not rules.strict_order):
            continue
        return _foul_sentence(rows, values, low, high, low_value, high_value, equal, language)
    return None


def _foul_sentence(rows: Rows, values: tuple[int, int, int], low: int, high: int, low_value: int,
                   high_value: int, equal: bool, language: Language) -> str:
    low_row, high_row = ROW_NAMES[low], ROW_NAMES[high]
    low_desc, high_desc = _describe(rows[low], values[low], language), _describe(rows[high], values[high], language)
    low_cards, high_cards = _cards_text(rows[low]), _cards_text(rows[high])
    decider = None if equal else _decider(low_value, high_value)
    if language == "zh":
        zl, zh_ = name(low_row, "zh"), name(high_row, "zh")
        verb = "等于" if equal else "大于"
        text = f"{zl}（{low_desc}）{verb}{zh_}（{high_desc}）：{low_cards} 对 {high_cards}"
        if decider is not None:
            text += f"，{_symbol(decider[0])} 大于 {_symbol(decider[1])}"
        rule = "本规则要求后一道严格大于前一道" if equal else f"{zl}不能大于{zh_}"
        return f"{text}；{rule}"
    verb = "equals" if equal else "beats"
    text = f"{low_row} ({low_desc}) {verb} {high_row} ({high_desc}): {low_cards} against {high_cards}"
    if decider is not None:
        text += f", the {_symbol(decider[0])} over the {_symbol(decider[1])}"
    rule = "this ruleset needs each row strictly stronger" if equal else f"a {low_row} may not beat the {high_row}"
    return f"{text}; {rule}"


# ------------------------------------------------------------------ JSON with Chinese names


def rows_of(player: Mapping[str, Any]) -> Rows:
    """The rows of a player's JSON (``{"rows": [{"cards": [...]}, ...]}``)."""
    from referee.cards import parse_cards

    head, middle, tail = (tuple(parse_cards(r["cards"])) for r in player["rows"])
    return (head, middle, tail)


def add_chinese(player: dict[str, Any], rules: Ruleset) -> dict[str, Any]:
    """A hand's JSON (check, or a settlement's player) with the foul reason in plain words and
    ``*_zh`` names beside the keys: ``row_zh``, ``category_zh``, ``special_zh``, ``foul_reason_zh`` ..."""
    out = dict(player)
    rows = rows_of(player)
    if player.get("foul"):
        out["foul_reason"] = foul_text(rows, rules, "en") or player.get("foul_reason")
        out["foul_reason_zh"] = foul_text(rows, rules, "zh")
    for key in ("special", "missed_special", "declined_special"):
        if key in player:
            out[f"{key}_zh"] = None if player[key] is None else chinese(str(player[key]))
    out["rows"] = [r | {"row_zh": chinese(r["row"]), "category_zh": chinese(r["category"])} for r in player["rows"]]
    return out


def settlement_with_chinese(data: Mapping[str, Any], rules: Ruleset) -> dict[str, Any]:
    """A settlement's JSON with Chinese names beside the keys (players' rows and specials, each
    pair's ``scoop_zh`` in this ruleset's own word and ``special_zh``); keys and values kept."""
    out = dict(data)
    out["players"] = [add_chinese(p, rules) for p in data.get("players", [])]
    pairs = []
    for pair in data.get("pairs", []):
        extra: dict[str, Any] = {"special_zh": None if pair.get("special") is None else chinese(pair["special"])}
        if pair.get("scoop") is not None:
            extra["scoop_zh"] = scoop_name(rules, by_banker=pair["scoop"] == data.get("banker"), language="zh")
        pairs.append(dict(pair) | extra)
    out["pairs"] = pairs
    return out
