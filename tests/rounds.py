"""Hand-built rounds shared by the worked-example tests.

Every expected score in the tests that use these was computed by hand from the
categories written beside each row here.
"""

from __future__ import annotations

from typing import Any


def player(name: str, rows: str) -> dict[str, str]:
    head, middle, tail = (part.strip() for part in rows.split("|"))
    return {"name": name, "head": head, "middle": middle, "tail": tail}


# Three-player deck, strong rows for the row bonuses.
ANN = player("Ann", "Qs Qh Qd | 9h 9d 9c 9s Kd | 2s 3s 4s 5s 6s")  # trips Q | quads 9 | straight flush 6
BOB = player("Bob", "Ah Kc 3d | Jh Jd 7c 8c 4h | Th Td Tc 2d 3h")  # A-K-3 | pair J | trips T
CAT = player("Cat", "Ac Ad 5h | Kh Ks 6h 7h 8h | Js Jc 7d 8d 2c")  # pair A | pair K -> FOUL | pair J
DAN = player("Dan", "Ac 5c 2c | Ks Kh 6d 6c 7s | 2h 5h 6h 7h 8h")  # A-5-2 | two pair K6 | flush 8
EVE = player("Eve", "2h 2c Ks | 4d 4c 5h 5d 6h | 6d 7s 7h 8s 8h")  # six pairs (special)

# The popular worked example of RULES.md: A sweeps B, wins 2 of 3 against C, is swept by D.
POPULAR_A = player("A", "9d 4h 2s | Ah Jc 2d 3c 6c | 6s Kd 7h 7c 5d")  # 9-4-2 | A-high | pair 7
POPULAR_B = player("B", "2c 3s 9s | 6h 9h Td Qd Kc | 4c Kh 4s 8d 5c")  # 9-3-2 | K-high | pair 4
POPULAR_C = player("C", "2h 7s 8h | Ks Jd Qh Th 6d | 4d Tc Ts Qs 3h")  # 8-7-2 | K-Q-J high | pair T
POPULAR_D = player("D", "5s 9c Js | 5h 7d 8s 8c 3d | Jh As Qc Ad Ac")  # J-9-5 | pair 8 | trips A

# Banker deals (fuzhou / shisandao). BANK is the banker.
BANK = player("Bank", "Ac Qd 5c | Jd 8d 6d 4d 2d | Jh 8h 7h 4h 3h")  # A-Q-5 | flush J8642 | flush J8743
PAT = player("Pat", "Ah Kh 9h | 2c 4c 6c 8c Tc | 3s 5s 7s 9s Js")  # three flushes: A-K-9 | flush T | flush J9753
REX = player("Rex", "Ks Qs 2s | Kc Kd 3c 3d 9c | 5h 6h 7d 8s 9d")  # K-Q-2 | two pair K3 | straight 9
QUINN = player("Quinn", "As Ad 2h | Ts Th 4s 6s 5d | Td Qh Qc 7c Jc")  # pair A | pair T -> FOUL | pair Q
TIA = player("Tia", "As Qs 5h | Kc Kd 3c 3d 9c | 6h 7d 8s 9d Ts")  # A-Q-5 (ties banker) | two pair | straight T

# Two players, one tie: X wins middle and tail, ties the head.
X = player("X", "Ah Kd 3c | Qs Qh 9c 8c 2c | Tc Td Th 4s 5s")  # A-K-3 | pair Q | trips T
Y = player("Y", "As Ks 3s | Js Jh 9d 8d 2d | 7c 7d 7h 4c 5c")  # A-K-3 | pair J | trips 7


def round_of(*players: dict[str, str], banker: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"players": list(players)}
    if banker is not None:
        data["banker"] = banker
    return data
