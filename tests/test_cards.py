"""Card notation (RULES.md §1)."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext

import pytest

from referee import Card, InputError, format_cards, parse_arrangement, parse_cards
from referee.cards import DECK

raises_input = pytest.raises(InputError)


@pytest.mark.parametrize(
    ("text", "expected", "context"),
    [
        ("", "", nullcontext()),
        ("Ah", "Ah", nullcontext()),
        ("ah KD 10c tc", "Ah Kd Tc Tc", nullcontext()),
        ("♠A ♥k ♦10 ♣2", "As Kh Td 2c", nullcontext()),
        ("A♤ K♡ Q♢ J♧", "As Kh Qd Jc", nullcontext()),
        ("Ah,Kd, 2c", "Ah Kd 2c", nullcontext()),
        ("1h", None, pytest.raises(InputError, match="unknown card '1h'")),
        ("Ax", None, pytest.raises(InputError, match="'Ax'")),
        ("AhKd", None, pytest.raises(InputError, match="'AhKd'")),
    ],
)
def test_parse_cards(text: str, expected: str | None, context: AbstractContextManager[object]) -> None:
    with context:
        assert format_cards(parse_cards(text)) == expected


def test_deck_indices_round_trip() -> None:
    assert len(set(DECK)) == 52
    for i, card in enumerate(DECK):
        assert card.index == i
        assert Card.from_index(i) == card
        assert Card.parse(str(card)) == card


@pytest.mark.parametrize("sep", ["|", "/"])
def test_parse_arrangement_rows(sep: str) -> None:
    head, middle, tail = parse_arrangement(f"2c 3d 5h {sep} 6s 6h 8c 9d Tc {sep} Js Jh Jd 4c 4d")
    assert (len(head), len(middle), len(tail)) == (3, 5, 5)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2c 3d | 6s 6h 8c 9d Tc | Js Jh Jd 4c 4d", "head row must have 3 cards, got 2"),
        ("2c 3d 5h | 6s 6h 8c 9d | Js Jh Jd 4c 4d", "middle row must have 5 cards, got 4"),
        ("2c 3d 5h | 6s 6h 8c 9d Tc | Js Jh Jd 4c 4d 5d", "tail row must have 5 cards, got 6"),
        ("2c 3d 5h | 6s 6h 8c 9d Tc", "expected 3 rows"),
        ("2c 3d 5h | 6s 6h 8c 9d Tc | Js Jh Jd 4c 2c", "duplicate card 2c"),
        ("2c 3d 5h | 6s 6h 8c 9d Tc | Js Jh Jd 4c 4z", "unknown card '4z'"),
    ],
)
def test_bad_arrangements_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_arrangement(text)
