"""A settlement's JSON as the readable table of ``referee score`` (and ``referee photo``), in
English, 中文 or both: each hand, the other choice of a hand holding a special, every pair's
points part by part, the adjustments with their notes, the total.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.ruleset import Ruleset
from referee.words import Language, add_chinese, name, pad, row_label_width, scoop_name


def _by(label: str, who: str, lang: Language) -> str:
    """``scoop by Ann`` / ``Ann 打枪`` / ``打枪 scoop by Ann``."""
    return f"{who} {label}" if lang == "zh" else f"{label} by {who}"


def _points(points: int) -> str:
    return f" {points:+d}" if points else ""


def _player_lines(player: Mapping[str, Any], lang: Language, rules: Ruleset | None) -> list[str]:
    zh = lang == "zh"
    flags = []
    if player["foul"]:
        flags.append(name("foul", lang) if lang != "en" else "FOUL")
    if player["special"]:
        flags.append(f"{name('special', lang)} {name(player['special'], lang)}")
    if player.get("declined_special"):
        flags.append(f"{name('declined_special', lang)}: {name(player['declined_special'], lang)}")
    if player["missed_special"]:
        flags.append(f"{name('missed_special', lang)} {name(player['missed_special'], lang)}")
    lines = [f"{player['name']:<12} {player['score']:>+5}" + (f"  {', '.join(flags)}" if flags else "")]
    for r in player["rows"]:
        label = pad(name(r["row"], lang), row_label_width(lang))
        lines.append(f"    {label} {' '.join(r['cards']):<15} {name(r['category'], lang)}")
    if player["foul"]:
        explained = add_chinese(dict(player), rules) if rules is not None else dict(player)
        reason_en = str(explained.get("foul_reason"))
        reason_zh = str(explained.get("foul_reason_zh") or reason_en)
        if lang != "zh":
            lines.append(f"    foul: {reason_en}")
        if lang != "en":
            lines.append(f"    倒水: {reason_zh}")
    special = player.get("special") or player.get("declined_special")
    if "rows_instead" in player:
        en = f"    playing the rows instead would score {player['rows_instead']:+d}"
        cn = f"    不报{name(str(special), 'zh')}、比三道：{player['rows_instead']:+d}"
        lines += [cn] if zh else [en] if lang == "en" else [en, cn]
    if "special_instead" in player:
        en = f"    declaring {name(str(special), 'en')} instead would score {player['special_instead']:+d}"
        cn = f"    报{name(str(special), 'zh')}：{player['special_instead']:+d}"
        lines += [cn] if zh else [en] if lang == "en" else [en, cn]
    return lines


def _pair_text(pair: Mapping[str, Any], fouled: set[str], banker: str | None, lang: Language,
               rules: Ruleset | None) -> str:
    zh = lang == "zh"
    a, b = pair["a"], pair["b"]
    if pair.get("negotiated"):
        to_player = -int(pair["negotiated_points"])
        en = f"negotiated, not compared: {b} receives {to_player}" if to_player >= 0 else \
            f"negotiated, not compared: {b} pays {-to_player}"
        cn = f"谈判，不比牌：{b} {'收' if to_player >= 0 else '付'} {abs(to_player)}"
        return cn if zh else en if lang == "en" else f"谈判 {en}"
    parts = []
    rows = pair["rows"]
    prefix = ""
    losers = [who for who in (a, b) if who in fouled]
    if losers:
        who = " & ".join(losers)
        prefix = f"{who} 倒水：" if zh else f"foul by {who}: " if lang == "en" else f"倒水 foul by {who}: "
    if pair["settled_by"] != "special" and any(rows):
        parts.append(f"{name('rows', lang)} {rows[0]:+d}/{rows[1]:+d}/{rows[2]:+d}")
    elif pair["settled_by"] == "rows":
        parts.append(f"{name('rows', lang)} +0/+0/+0")
    if pair.get("scoop"):
        label = scoop_name(rules, by_banker=pair["scoop"] == banker, language=lang) if rules is not None \
            else name("scoop", lang)
        parts.append(_by(label, pair["scoop"], lang) + _points(int(pair["scoop_points"])))
    if pair.get("home_run"):
        parts.append(_by(name("home_run", lang), pair["home_run"], lang) + _points(int(pair["home_run_points"])))
    if pair.get("special"):
        parts.append(_by(name(pair["special"], lang), pair["special_winner"], lang)
                     + _points(int(pair["special_points"])))
    elif pair["settled_by"] == "special":
        parts.append("特殊牌型相同，平" if zh else "equal specials, no points" if lang == "en"
                     else "equal specials, no points / 特殊牌型相同，平")
    if pair.get("foul_points"):
        points = int(pair["foul_points"])
        if any(rows) and rules is not None:  # mode "rows": the lost rows, multiplied
            parts.append(f"x{rules.foul.multiplier} {points:+d}")
        else:
            parts.append(f"{'罚' if zh else 'penalty' if lang == 'en' else '罚 penalty'} {points:+d}")
    return prefix + ", ".join(parts) if parts or prefix else "0"


def settlement_lines(data: Mapping[str, Any], lang: Language, rules: Ruleset | None = None) -> list[str]:
    zh = lang == "zh"
    banker = data.get("banker")
    if zh:
        mode = f"对庄家 {banker}" if banker else "两两比牌"
    else:
        mode = f"against the banker, {banker}" if banker else str(data["mode"])
    lines = [f"{'规则' if zh else 'rules'}: {data['rules']} ({mode})"]
    for player in data["players"]:
        lines += _player_lines(player, lang, rules)
    fouled = {p["name"] for p in data["players"] if p["foul"]}
    lines.append("每对（前者从后者得分）：" if zh else "pairs (points a gets from b):")
    for pair in data["pairs"]:
        text = _pair_text(pair, fouled, banker, lang, rules)
        lines.append(f"  {pair['a']} v {pair['b']}: {pair['points']:+d}  {text}")
    adjustments = data.get("adjustments") or []
    if adjustments:
        lines.append("调整（比牌之后）：" if zh else "adjustments (after the pairs):")
        for adj in adjustments:
            note = f": {adj['note']}" if adj.get("note") else ""
            pays = f"{adj['from']} 付给 {adj['to']} {adj['points']}" if zh else \
                f"{adj['from']} pays {adj['to']} {adj['points']}"
            lines.append(f"  {pays}{note}")
    lines.append(f"{'合计' if zh else 'total'}: {data['total']}")
    return lines
