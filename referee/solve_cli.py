"""``referee solve "13 CARDS"``: the legal splits of a hand and the best arrangements.

Loaded by :mod:`referee.cli` through its ``register(subparsers)`` hook.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from referee.cli_options import MAX_CANDIDATES, MAX_SAMPLES, MAX_SEED, MAX_TOP, int_in
from referee.ruleset import PRESET_NAMES
from referee.solver import DEFAULT_CANDIDATES, DEFAULT_PLAYERS, DEFAULT_SAMPLES, DEFAULT_TOP, SolveResult, solve
from referee.words import LANGUAGES, Language, both, chinese, name


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "solve", help="count the legal arrangements of 13 cards and find the best ones")
    parser.add_argument("cards", help='13 cards, e.g. "As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 7d"')
    parser.add_argument("--rules", default="classic",
                        help=f"preset ({', '.join(PRESET_NAMES)}) or path to a rules TOML (default: classic)")
    parser.add_argument("--top", type=int_in(1, MAX_TOP), default=DEFAULT_TOP,
                        help=f"how many arrangements to list (default: {DEFAULT_TOP})")
    parser.add_argument("--objective", choices=("strength", "expected"), default="strength",
                        help="strength: non-dominated arrangements, strongest tail first; "
                             "expected: expected points against random opponents (Monte Carlo)")
    parser.add_argument("--seed", type=int_in(0, MAX_SEED), default=0, help="Monte Carlo seed (default: 0)")
    parser.add_argument("--samples", type=int_in(1, MAX_SAMPLES), default=DEFAULT_SAMPLES,
                        help=f"Monte Carlo deals (default: {DEFAULT_SAMPLES})")
    parser.add_argument("--players", type=int_in(2, 4), default=DEFAULT_PLAYERS,
                        help=f"players at the table, you included, 2-4 (default: {DEFAULT_PLAYERS})")
    parser.add_argument("--banker", action="store_true", help="banker-mode rules: you are the banker")
    parser.add_argument("--candidates", type=int_in(1, MAX_CANDIDATES), default=DEFAULT_CANDIDATES,
                        help=f"most arrangements the Monte Carlo compares (default: {DEFAULT_CANDIDATES})")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--lang", choices=LANGUAGES, default="both",
                        help="names in the readable output: zh (中文), en, or both (default)")
    parser.set_defaults(handler=cmd_solve)


def cmd_solve(args: argparse.Namespace) -> int:
    result = solve(args.cards, args.rules, objective=args.objective, top=args.top, seed=args.seed,
                   samples=args.samples, players=args.players, banker=args.banker, candidates=args.candidates)
    if args.json:
        print(json.dumps(solve_json(result), ensure_ascii=False, indent=2))
    else:
        print(solve_text(result, args.lang))
    return 0


def recommended(result: SolveResult) -> int | None:
    """Index in ``result.best`` of the arrangement to play: the highest value listed (the first
    of equals); by expected points that is the first, as the list is in that order."""
    if not result.best:
        return None
    return max(range(len(result.best)), key=lambda i: (result.best[i].value, -i))


def solve_json(result: SolveResult) -> dict[str, Any]:
    """``result.to_json()`` with ``recommended`` (an index into ``best``) and the Chinese names."""
    data = result.to_json()
    data["recommended"] = recommended(result)
    data["special_zh"] = None if result.special is None else chinese(result.special)
    for entry in data["best"]:
        entry["categories_zh"] = [chinese(c) for c in entry["categories"]]
    return data


def solve_text(result: SolveResult, lang: Language = "both") -> str:
    zh = lang == "zh"
    cards = " ".join(str(c) for c in result.cards)
    lines = [f"规则: {result.rules}   牌: {cards}" if zh else f"rules: {result.rules}   cards: {cards}",
             both(lang, f"legal arrangements: {result.valid_arrangements} of 72072 ({result.front_size} "
                        "non-dominated)",
                  f"合法摆法: 72072 种中 {result.valid_arrangements} 种（{result.front_size} 种不被压制）", "\n"),
             f"{'特殊牌型' if zh else 'special'}: {name(result.special, lang) if result.special else '-'}"]
    if result.special_arrangement is not None:
        lines.append(f"  {'摆法' if zh else 'laid as'} {result.special_arrangement.text()}")
    if result.objective == "expected":
        lines.append(both(lang, f"listed by expected points against random hands, highest first ({result.samples} "
                                f"deals, {result.players} players, seed {result.seed}):",
                          f"按期望得分从高到低（{result.samples} 局，{result.players} 人，"
                          f"种子 {result.seed}）：", "\n"))
    else:
        lines.append(both(lang, "non-dominated arrangements, listed strongest tail first (not by value); value = "
                                "expected rows won against random hands:",
                          "不被压制的摆法，按尾道从强到弱排列（不按分值）；分值 = 对随机牌的期望胜道数：", "\n"))
    pick = recommended(result)
    for i, arrangement in enumerate(result.best):
        value = f"{arrangement.value:+.3f}"
        if arrangement.stderr is not None:
            value += f" ± {arrangement.stderr:.3f}"
        mark = ""
        if i == pick:
            mark = "  ← 推荐" if zh else "  ← recommended" if lang == "en" else "  ← recommended 推荐"
        categories = " / ".join(name(c, lang) for c in arrangement.categories)
        lines.append(f"{i + 1:>3}. {arrangement.text():<40} {value:>16}  {categories}{mark}")
    if not result.best:
        lines.append("  （这些规则下每种摆法都倒水）" if zh else "  (every arrangement fouls under these rules)")
    return "\n".join(lines)
