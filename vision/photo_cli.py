"""``referee photo IMAGE``: the whole pipeline, photo to settlement."""

from __future__ import annotations

import argparse
import json
from typing import Any

from referee.cli_options import fraction
from referee.ruleset import PRESET_NAMES, Ruleset, load_ruleset
from referee.words import Language
from vision.image_out import annotated_path
from vision.types import MIN_CONFIDENCE

#: ``referee photo`` exit status when the photo was read but the round is not scored (problems, no --force).
EXIT_NOT_SCORED = 3


def register(sub: Any) -> None:
    photo = sub.add_parser("photo", help="score the table in a photo")
    photo.add_argument("image", help="photo of the table (JPEG, PNG, WebP, HEIC)")
    photo.add_argument("--rules", default="classic",
                       help=f"preset ({', '.join(PRESET_NAMES)}) or path to a rules TOML (default: classic)")
    photo.add_argument("--banker", help="the banker's seat (bottom, right, top, left) in banker-mode rules")
    photo.add_argument("--players", type=int, choices=(2, 3, 4),
                       help="how many play: a photo showing another number of hands is not scored (a hand washed "
                            "out by glare or outside the photo is not found at all)")
    photo.add_argument("--force", action="store_true", help="score the complete seats despite the problems")
    photo.add_argument("--min-confidence", type=fraction, default=MIN_CONFIDENCE,
                       help=f"cards read less surely than this are problems (default {MIN_CONFIDENCE})")
    photo.add_argument("--annotate", metavar="OUT.jpg", type=annotated_path,
                       help="write the photo with what was read drawn on it")
    photo.add_argument("--json", action="store_true", help="print JSON")
    from referee.cli import add_lang_option

    add_lang_option(photo)
    photo.set_defaults(handler=cmd_photo)


def _text(data: dict[str, Any], lang: Language = "both", rules: Ruleset | None = None) -> str:
    lines = []
    for seat in data["seats"]:
        if seat["head"] is not None:
            rows = " | ".join(" ".join(seat[r]) for r in ("head", "middle", "tail"))
        else:
            rows = " ".join(seat["cards"]) + "  (no rows)"
        lines.append(f"{seat['seat']:<8} {rows}   confidence {seat['confidence']:.2f}")
    for p in data["problems"]:
        lines.append(f"{'PROBLEM' if p['blocking'] else 'note'}: {p['message']}")
    if data["round"] is None:
        lines.append("not scored: fix the problems above (or use --force to score the complete seats)")
    else:
        from referee.cli import score_text

        lines.append(score_text(data["round"], lang, rules))
    return "\n".join(lines)


def cmd_photo(args: argparse.Namespace) -> int:
    from vision.pipeline import read_photo

    rules = load_ruleset(args.rules)
    reading = read_photo(args.image, rules, banker=args.banker, force=args.force, min_confidence=args.min_confidence,
                         players=args.players)
    data = reading.to_json()
    if data["round"] is not None:  # exactly the JSON of referee score: with the Chinese names beside the keys
        from referee.words import settlement_with_chinese

        data["round"] = settlement_with_chinese(data["round"], rules)
    if args.annotate:
        from vision.annotate import draw, write_image

        write_image(args.annotate, draw(reading))
    print(json.dumps(data, ensure_ascii=False, indent=2) if args.json else _text(data, args.lang, rules))
    return 0 if data["round"] is not None else EXIT_NOT_SCORED
