"""``referee detect IMAGE [--json] [--annotate OUT.jpg]``: the cards the detector finds in a photo."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from referee.errors import InputError
from vision.image_out import annotated_path


def cmd_detect(args: argparse.Namespace) -> int:
    from .detector import get_detector
    from .image_io import read_image

    image = read_image(Path(args.image))
    try:
        detector = get_detector()
    except FileNotFoundError as err:
        raise InputError(str(err)) from err
    found = detector.detect(image)
    if args.annotate:
        import cv2

        from .annotate import draw_detections

        if not cv2.imwrite(str(args.annotate), draw_detections(image, found)):
            raise InputError(f"cannot write {args.annotate}")
    if args.json:
        print(json.dumps(found.to_json(), ensure_ascii=False))
    else:
        print(f"{found.width} x {found.height} px: {len(found.cards)} cards "
              f"({found.timing_ms.get('total', 0.0):.0f} ms)")
        for card in found.cards:
            x1, y1, x2, y2 = card.box
            print(f"  {card.card!s:3s} {card.confidence:.2f}  box [{x1:.0f}, {y1:.0f}, {x2:.0f}, {y2:.0f}]"
                  f"  indices {len(card.index_boxes)}")
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("detect", help="find the cards in a photo (identity, box, outline)")
    p.add_argument("image", help="photo (JPEG, PNG, WebP)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--annotate", metavar="OUT.jpg", type=annotated_path, help="write the photo with the cards drawn")
    p.set_defaults(handler=cmd_detect)
