"""The command line: ``referee check | score | rules`` (and more as they land).

Invalid input prints one line on stderr naming the problem and exits with 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from referee.cards import parse_arrangement
from referee.errors import InputError
from referee.hand import analyse
from referee.round import Round
from referee.ruleset import PRESET_NAMES, Ruleset, load_ruleset, ruleset_text
from referee.safe_input import MAX_ROUND_BYTES, decode_utf8, one_line, parse_json, read_capped
from referee.settle import settle
from referee.words import (
    LANGUAGES,
    Language,
    add_chinese,
    both,
    name,
    pad,
    row_label_width,
    settlement_with_chinese,
)

EXIT_BAD_INPUT = 2

Handler = Callable[[argparse.Namespace], int]


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors in one line, exit status 2."""

    def error(self, message: str) -> Any:
        raise InputError(f"{self.prog}: {message}")


def _add_rules_option(parser: argparse.ArgumentParser, default: str = "classic") -> None:
    parser.add_argument("--rules", default=default,
                        help=f"preset ({', '.join(PRESET_NAMES)}) or path to a rules TOML (default: {default})")


def add_lang_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=LANGUAGES, default="both",
                        help="names and reasons in the readable output: zh (中文), en, or both (default); "
                             "JSON keeps its keys and always adds the Chinese names beside them (*_zh)")


def _emit(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print(text)


# ------------------------------------------------------------------ check

def check_json(rows_text: str, rules: Ruleset) -> dict[str, Any]:
    report = analyse(parse_arrangement(rows_text), rules)
    return add_chinese({
        "foul": report.foul,
        "foul_reason": report.foul_reason,
        "special": report.special,
        "missed_special": report.missed_special,
        "rows": [{"row": r.row, "cards": [str(c) for c in r.cards], "category": r.category.label}
                 for r in report.rows],
    }, rules)


def _foul_lines(reason_en: str, reason_zh: str, lang: Language, indent: str) -> list[str]:
    """The foul reason: English on the "foul:" line, Chinese below it (both), or Chinese alone."""
    if lang == "zh":
        return [f"{indent}倒水: 是 - {reason_zh}"]
    lines = [f"{indent}foul: YES - {reason_en}"]
    if lang == "both":
        lines.append(f"{indent}倒水: {reason_zh}")
    return lines


def _check_text(data: dict[str, Any], rules: Ruleset, lang: Language = "both") -> str:
    zh = lang == "zh"
    lines = [f"{'规则' if zh else 'rules'}: {rules.name}"]
    for row in data["rows"]:
        label = pad(name(row["row"], lang), row_label_width(lang))
        lines.append(f"  {label}  {' '.join(row['cards']):<15}  {name(row['category'], lang)}")
    if data["foul"]:
        lines += _foul_lines(data["foul_reason"], data["foul_reason_zh"], lang, "")
    else:
        lines.append("倒水: 否" if zh else "foul: no")
    special = name(data["special"], lang) if data["special"] else "-"
    lines.append(f"{'特殊牌型' if zh else 'special'}: {special}")
    if data["missed_special"]:
        missed = name(data["missed_special"], lang)
        lines.append(both(lang, f"missed special: {missed} (these 13 cards could have been laid as it)",
                          f"漏报特殊牌型: {missed}（这13张牌可以摆成它）", "\n"))
    return "\n".join(lines)


def cmd_check(args: argparse.Namespace) -> int:
    rules = load_ruleset(args.rules)
    data = check_json(args.rows, rules)
    text = _check_text(data, rules, args.lang)
    if getattr(args, "advise", False):
        from referee.solver import advise

        advice = advise(parse_arrangement(args.rows), rules)
        data["advice"] = advice.to_json()
        text += "\n" + advice.text()
    _emit(args, data, text)
    return 0


# ------------------------------------------------------------------ score

def read_round(path: str) -> Round:
    raw = read_capped(path, MAX_ROUND_BYTES, "round file")
    where = f"round file {path}"
    return Round.from_json(parse_json(decode_utf8(raw, where), where))


def score_text(data: dict[str, Any], lang: Language = "both", rules: Ruleset | None = None) -> str:
    """The readable table of a settlement's JSON (also used by ``referee photo``); with ``rules``,
    fouls are explained card by card and the scoop carries the ruleset's own name."""
    from referee.settlement_text import settlement_lines

    return "\n".join(settlement_lines(data, lang, rules))


def cmd_score(args: argparse.Namespace) -> int:
    rules = load_ruleset(args.rules)
    round_ = read_round(args.round)
    if args.banker is not None:
        round_ = Round(players=round_.players, banker=args.banker, adjustments=round_.adjustments,
                       negotiated=round_.negotiated)
    if rules.mode == "banker" and round_.banker is None:
        raise InputError(f"ruleset {rules.name} is played against a banker: name one with \"banker\" in the "
                         "round file, or --banker NAME")
    data = settle(round_, rules).to_json()
    _emit(args, settlement_with_chinese(data, rules), score_text(data, args.lang, rules))
    return 0


# ------------------------------------------------------------------ rules

def cmd_rules(args: argparse.Namespace) -> int:
    if args.name is None:
        for name in PRESET_NAMES:
            print(f"{name:<17} {load_ruleset(name).description}")
        return 0
    if args.name in PRESET_NAMES:
        print(ruleset_text(args.name), end="")
    else:
        rules = load_ruleset(args.name)
        print(f"{rules.name}: {rules.description} (valid)")
    return 0


# ------------------------------------------------------------------ wiring

def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="referee", description="十三水 (Chinese poker) referee")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    check = sub.add_parser("check", help="check one arrangement for a foul and special hands")
    check.add_argument("rows", help='"HEAD | MIDDLE | TAIL", e.g. "Ah Kd 2c | ... | ..."')
    _add_rules_option(check)
    check.add_argument("--json", action="store_true", help="print JSON")
    add_lang_option(check)
    check.add_argument("--advise", action="store_true",
                       help="also show the solver's best arrangement and the expected points it gains")
    check.set_defaults(handler=cmd_check)

    score = sub.add_parser("score", help="settle a round from a JSON file ('-' for stdin)")
    score.add_argument("round", help="ROUND.json")
    _add_rules_option(score)
    score.add_argument("--json", action="store_true", help="print JSON")
    score.add_argument("--banker", metavar="NAME", help="the banker in banker-mode rules (instead of the "
                                                        "round file's \"banker\")")
    add_lang_option(score)
    score.set_defaults(handler=cmd_score)

    rules = sub.add_parser("rules", help="list presets, print one, or validate a rules file")
    rules.add_argument("name", nargs="?", help="preset name or path to a rules TOML")
    rules.set_defaults(handler=cmd_rules)

    for register in EXTRA_COMMANDS:
        register(sub)
    return parser


# Later stages (solver, detector, photo) register their subcommands here.
EXTRA_COMMANDS: list[Callable[[Any], None]] = []


def _load_extra_commands() -> None:
    import importlib

    for module in ("referee.solve_cli", "vision.cli", "vision.photo_cli"):
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as err:
            if err.name == module:
                continue
            raise
        register = getattr(mod, "register", None)
        if register is not None and register not in EXTRA_COMMANDS:
            EXTRA_COMMANDS.append(register)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        _load_extra_commands()
        args = build_parser().parse_args(argv)
        handler: Handler = args.handler
        return handler(args)
    except InputError as err:
        print(f"referee: error: {one_line(str(err))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (RecursionError, MemoryError) as err:  # a backstop: the readers' limits should refuse first
        print(f"referee: error: the input is too large or too deeply nested ({type(err).__name__})",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
