"""十三水 referee: cards, rules, fouls, special hands and settlement.

>>> from referee import load_ruleset, parse_arrangement, analyse
>>> analyse(parse_arrangement("2c 3d 5h | 6s 6h 8c 9d Tc | Js Jh Jd 4c 4d"), load_ruleset("popular")).foul
False
"""

from referee.cards import Card, Rank, Suit, format_cards, parse_arrangement, parse_cards, parse_rows
from referee.errors import InputError
from referee.evaluate import Category, rank3, rank3_batch, rank5, rank5_batch
from referee.hand import HandReport, analyse
from referee.round import PlayerHand, Round
from referee.ruleset import PRESET_NAMES, Ruleset, load_ruleset
from referee.settle import PairResult, PlayerResult, Settlement, settle

__all__ = [
    "PRESET_NAMES",
    "Card",
    "Category",
    "HandReport",
    "InputError",
    "PairResult",
    "PlayerHand",
    "PlayerResult",
    "Rank",
    "Round",
    "Ruleset",
    "Settlement",
    "Suit",
    "analyse",
    "format_cards",
    "load_ruleset",
    "parse_arrangement",
    "parse_cards",
    "parse_rows",
    "rank3",
    "rank3_batch",
    "rank5",
    "rank5_batch",
    "settle",
]
