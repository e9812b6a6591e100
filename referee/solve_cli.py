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
    parser.set_defaults(handler=cmd_solve)


def cmd_solve(args: argparse.Namespace) -> int:
    result = solve(args.cards, args.rules, objective=args.objective, top=args.top, seed=args.seed,
                   samples=args.samples, players=args.players, banker=args.banker, candidates=args.candidates)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        print(solve_text(result))
    return 0


def solve_text(result: SolveResult) -> str:
    lines = [f"rules: {result.rules}   cards: {' '.join(str(c) for c in result.cards)}",
             f"legal arrangements: {result.valid_arrangements} of 72072 "
             f"({result.front_size} non-dominated)",
             f"special: {result.special or '-'}"]
    if result.special_arrangement is not None:
        lines.append(f"  laid as {result.special_arrangement.text()}")
    if result.objective == "expected":
        lines.append(f"best by expected points ({result.samples} deals, {result.players} players, "
                     f"seed {result.seed}):")
    else:
        lines.append("best by strength (non-dominated, strongest tail first; value = expected rows won):")
    for i, arrangement in enumerate(result.best, 1):
        value = f"{arrangement.value:+.3f}"
        if arrangement.stderr is not None:
            value += f" ± {arrangement.stderr:.3f}"
        lines.append(f"{i:>3}. {arrangement.text():<40} {value:>16}  {' / '.join(arrangement.categories)}")
    if not result.best:
        lines.append("  (every arrangement fouls under these rules)")
    return "\n".join(lines)
