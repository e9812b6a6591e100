"""Four-player rounds settled per second (full reports: fouls, specials, missed specials, pairs).

Run: python benchmarks/bench_settle.py
"""

from __future__ import annotations

import random
import time

from referee import PRESET_NAMES, Round, load_ruleset, settle
from referee.cards import DECK
from referee.hand import row_values
from referee.round import PlayerHand


def random_rounds(count: int, seed: int = 7) -> list[Round]:
    rng = random.Random(seed)
    rules = load_ruleset("classic")
    rounds = []
    for _ in range(count):
        deck = list(DECK)
        rng.shuffle(deck)
        players = []
        for i in range(4):
            cards = deck[13 * i: 13 * i + 13]
            head, middle, tail = tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:])
            if row_values((head, middle, tail), rules.wheel)[1] > row_values((head, middle, tail), rules.wheel)[2]:
                middle, tail = tail, middle
            players.append(PlayerHand(name=f"P{i}", rows=(head, middle, tail)))
        rounds.append(Round(players=tuple(players), banker="P0"))
    return rounds


def main() -> None:
    rounds = random_rounds(3000)
    for name in PRESET_NAMES:
        rules = load_ruleset(name)
        settle(rounds[0], rules)
        start = time.perf_counter()
        for r in rounds:
            settle(r, rules)
        elapsed = time.perf_counter() - start
        print(f"{name:<17} {len(rounds) / elapsed:>8,.0f} four-player rounds/s")
    print("target: >= 5,000 four-player rounds/s on one core")


if __name__ == "__main__":
    main()
