"""Whether the cards read unsurely matter: score every plausible reading of them.

A referee does not need to know a card whose identity changes nothing. When the only thing
that stops a photo from being scored is that some cards were read with low confidence, each
of them is given every identity it plausibly has (``plausible_identities``: the reader's
probabilities as read, over the identities no surely-read card holds), and the round is scored
for every combination of those (one deck: no identity twice). When every combination gives the
same settlement (every pair's result row by row, bonuses, fouls, specials and scores alike), that
settlement is the table's whatever the unsure cards are, and it is scored; the low-confidence problems stay
in the report as notes naming the identities tried. Otherwise they block, as before.

The floor (``PLAUSIBLE``) was chosen on the validation-family photo tables: of the cards read below
the confidence floor whose true identity no sure card holds, the truth was among the identities
at least 0.002 probable all but once in 228, at 0.01 all but 9 times (there the reader was sure of
other identities: slivers of index 6 px wide, and indices of 17-41 px read as another rank).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from referee.cards import Card
from referee.settle import Settlement

from .types import CardDetection, Problem, SeatLayout, TableLayout

PLAUSIBLE = 0.002   # an identity at least this probable (over those no sure card holds) is one to try
MAX_READINGS = 256  # combinations of unsure identities tried at most; beyond, the problems block

Scored = TypeVar("Scored")


@dataclass(frozen=True)
class Unsure:
    """One card read unsurely, and the identities it may have (its reading first)."""

    card: CardDetection
    identities: tuple[Card, ...]


def plausible_identities(card: CardDetection, held: set[Card]) -> tuple[Card, ...]:
    """The identities ``card`` may have: its reader's probabilities as read, without those ``held``
    by sure cards, weighed again; each at least ``PLAUSIBLE``. Its reading comes first. Empty when
    the reader's probabilities are unknown (then nothing can be said about what else it may be)."""
    options = [(c, p) for c, p in card.alternatives if c not in held]
    mass = sum(p for _, p in options)
    if mass <= 0:
        return ()
    out = [c for c, p in options if p / mass >= PLAUSIBLE]
    if card.card in out:
        out.remove(card.card)
        out.insert(0, card.card)
    return tuple(out)


def unsure_cards(layout: TableLayout, min_confidence: float, held: set[Card] | None = None) -> list[Unsure] | None:
    """The seated cards below ``min_confidence`` with their plausible identities, over those not ``held`` (by
    default the identities of the seated sure cards); None when one of them has none (its reader's
    probabilities are unknown)."""
    seated = [c for s in layout.seats for c in s.cards]
    if held is None:
        held = {c.card for c in seated if c.confidence >= min_confidence}
    out: list[Unsure] = []
    for c in seated:
        if c.confidence >= min_confidence or c.unseen:
            continue
        identities = plausible_identities(c, held)
        if not identities:
            return None
        out.append(Unsure(c, identities))
    return out


def readings(unsure: list[Unsure]) -> Iterator[dict[int, Card]] | None:
    """Every combination of the unsure cards' identities with no identity twice (keyed by the
    detection's ``id``), the cards' own readings first; None when there would be more than
    ``MAX_READINGS`` combinations to try."""
    count = 1
    for u in unsure:
        count *= len(u.identities)
    if count > MAX_READINGS:
        return None
    return (
        {id(u.card): card for u, card in zip(unsure, combo, strict=True)}
        for combo in itertools.product(*(u.identities for u in unsure))
        if len(set(combo)) == len(combo)
    )


def relabelled(layout: TableLayout, reading: dict[int, Card], unsure: frozenset[int] = frozenset()) -> TableLayout:
    """``layout`` with the cards in ``reading`` given those identities (and full confidence, but for the
    places of unseen cards and the cards in ``unsure``, by ``id``: no confidence)."""
    def card(c: CardDetection) -> CardDetection:
        new = reading.get(id(c))
        if new is None:
            return c
        return replace(c, card=new, confidence=c.confidence if c.unseen else 0.0 if id(c) in unsure else 1.0)

    def seat(s: SeatLayout) -> SeatLayout:
        rows = s.rows
        new_rows = None if rows is None else (tuple(map(card, rows[0])), tuple(map(card, rows[1])),
                                              tuple(map(card, rows[2])))
        return replace(s, cards=tuple(map(card, s.cards)), rows=new_rows)

    return replace(layout, seats=tuple(seat(s) for s in layout.seats))


def _outcome(settlement: Settlement) -> Any:
    """What a settlement decides: every pair's result row by row with its bonuses, each player's score,
    foul and special; not which cards made a row nor the row's category (those may differ between
    readings that settle alike)."""
    data = settlement.to_json()
    for player in data.get("players", []):
        player.pop("rows", None)
    return data


def settle_whichever(layout: TableLayout, unsure: list[Unsure], score: Callable[[TableLayout], Scored | None],
                     outcome: Callable[[Scored], Settlement]) -> tuple[dict[int, Card], Scored] | None:
    """What every plausible reading of the ``unsure`` cards scores alike: the first reading (the cards'
    own readings when they can all stand) and its score; None when the readings' settlements differ, one
    of them cannot be scored, or there are too many to try. ``score`` scores a layout whose cards are all
    sure (None when it cannot); ``outcome`` is the settlement of a score."""
    choices = readings(unsure) if unsure else None
    if choices is None:
        return None
    sure = replace(layout, problems=tuple(p for p in layout.problems if p.kind != "low_confidence"))
    first: tuple[dict[int, Card], Scored] | None = None
    said: Any = None
    for reading in choices:
        scored = score(relabelled(sure, reading))
        if scored is None:
            return None
        if first is None:
            first, said = (reading, scored), _outcome(outcome(scored))
        elif _outcome(outcome(scored)) != said:
            return None
    return first


def told(problems: tuple[Problem, ...], unsure: list[Unsure], settled: bool) -> tuple[Problem, ...]:
    """The low-confidence problems of the ``unsure`` cards, saying what was tried. ``settled``: every
    reading scored alike, so they become notes that the score does not depend on them; otherwise they
    still block, each naming what its card may be (when more than one identity is plausible), for the
    user to check on the table."""
    tried = {str(u.card.card): u.identities for u in unsure if settled or len(u.identities) > 1}
    out: list[Problem] = []
    for p in problems:
        if p.kind == "low_confidence" and p.card in tried:
            names = ", ".join(str(c) for c in tried[p.card])
            p = (replace(p, blocking=False, message=f"{p.message}; the scores are the same whether it is {names}")
                 if settled else replace(p, message=f"{p.message} (it may be {names})"))
        out.append(p)
    return tuple(out)


__all__ = ["MAX_READINGS", "PLAUSIBLE", "Unsure", "plausible_identities", "readings", "relabelled", "settle_whichever",
           "told", "unsure_cards"]
