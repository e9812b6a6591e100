"""Cards and the text notation of RULES.md §1.

A card is a small frozen value with an integer ``index`` in ``0..51``
(``index = rank_index * 4 + suit_index``), so the evaluator can work on plain
integer arrays while everything user-facing stays readable.

>>> Card.parse("10h")
Card('Th')
>>> format_cards(parse_cards("as ♥K 10d"))
'As Kh Td'
>>> [format_cards(row) for row in parse_rows("Ah Kd 2c | 5s 6s 7s 8s 9s / Tc Jc Qc Kc Ac")]
['Ah Kd 2c', '5s 6s 7s 8s 9s', 'Tc Jc Qc Kc Ac']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum, unique

from referee.errors import InputError


@unique
class Rank(IntEnum):
    """Card ranks; the integer value is the pip value with the ace high (14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        return RANK_SYMBOLS[self.value - 2]


@unique
class Suit(StrEnum):
    """Suits in index order; the value is the canonical letter."""

    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


RANK_SYMBOLS = "23456789TJQKA"
SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
SUIT_SYMBOLS = {
    "♠": Suit.SPADES, "♤": Suit.SPADES,
    "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "♣": Suit.CLUBS, "♧": Suit.CLUBS,
}
SUIT_GLYPHS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}

ROW_NAMES: tuple[str, str, str] = ("head", "middle", "tail")
ROW_SIZES: dict[str, int] = {"head": 3, "middle": 5, "tail": 5}
HAND_SIZE = 13

_RANK_TOKENS = {symbol: Rank(i + 2) for i, symbol in enumerate(RANK_SYMBOLS)} | {"10": Rank.TEN}
_SUIT_TOKENS: dict[str, Suit] = {s.value: s for s in Suit} | SUIT_SYMBOLS
_TOKEN_SPLIT = re.compile(r"[\s,]+")


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card of the 52-card deck. Ordered by rank, then suit index."""

    rank: Rank
    suit: Suit
    #: Position in the deck order used by the evaluator (0..51).
    index: int = field(init=False, compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", (self.rank - 2) * 4 + SUIT_ORDER.index(self.suit))

    @classmethod
    def from_index(cls, index: int) -> Card:
        """Inverse of :attr:`index`.

        >>> Card.from_index(51)
        Card('Ac')
        """
        return DECK[index]

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse one token such as ``Ah``, ``10d``, ``♠K`` or ``k♠``.

        >>> Card.parse("♠k")
        Card('Ks')
        """
        text = token.strip()
        # Only ASCII letters and the suit symbols spell a card: "ſ".upper() is "S", but ſ is no suit.
        card = _CARD_TOKENS.get(text.upper()) if all(c.isascii() or c in SUIT_SYMBOLS for c in text) else None
        if card is not None:
            return card
        shown = token if len(token) <= 24 else token[:20] + "..."
        raise InputError(f"unknown card {shown!r} (expected rank A K Q J T 9..2 and suit s h d c, like 'Ah' or '10d')")

    def __str__(self) -> str:
        return self.rank.symbol + self.suit.value

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


DECK: tuple[Card, ...] = tuple(Card(Rank(i // 4 + 2), SUIT_ORDER[i % 4]) for i in range(52))

# Every accepted spelling of every card, upper-cased: rank+suit and suit+rank.
_CARD_TOKENS: dict[str, Card] = {
    spelling.upper(): DECK[(rank - 2) * 4 + SUIT_ORDER.index(suit)]
    for rank_text, rank in _RANK_TOKENS.items()
    for suit_text, suit in _SUIT_TOKENS.items()
    for spelling in (rank_text + suit_text, suit_text + rank_text)
}


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse whitespace- or comma-separated tokens (or already-made cards)."""
    if isinstance(text, str):
        tokens: list[str | Card] = [t for t in _TOKEN_SPLIT.split(text.strip()) if t]
    else:
        tokens = list(text)
    return tuple(t if isinstance(t, Card) else Card.parse(t) for t in tokens)


def parse_rows(text: str) -> tuple[tuple[Card, ...], ...]:
    """Split ``"HEAD | MIDDLE | TAIL"`` (``|`` or ``/``) into parsed rows."""
    return tuple(parse_cards(part) for part in re.split(r"[|/]", text))


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def check_unique(cards: Sequence[Card], where: str = "the hand") -> None:
    """Raise :class:`InputError` naming the first card that occurs twice."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise InputError(f"duplicate card {card} in {where}")
        seen.add(card)


def parse_arrangement(text: str) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """Parse and validate ``"HEAD | MIDDLE | TAIL"`` as a 3/5/5 arrangement."""
    rows = parse_rows(text)
    if len(rows) != 3:
        raise InputError(f"expected 3 rows separated by '|' or '/', got {len(rows)}")
    return validate_rows(rows)


def validate_rows(
    rows: Sequence[Sequence[Card]], who: str = "the hand"
) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """Check row sizes 3/5/5 and uniqueness; return the rows as tuples."""
    if len(rows) != 3:
        raise InputError(f"{who}: expected 3 rows (head, middle, tail), got {len(rows)}")
    for name, row in zip(ROW_NAMES, rows, strict=True):
        if len(row) != ROW_SIZES[name]:
            raise InputError(
                f"{who}: {name} row must have {ROW_SIZES[name]} cards, got {len(row)} ({format_cards(row)})"
            )
    check_unique([c for row in rows for c in row], who)
    head, middle, tail = (tuple(row) for row in rows)
    return head, middle, tail
