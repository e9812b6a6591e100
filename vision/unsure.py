"""Cards read unsurely, as doubts for ``vision.resolve``: a referee need not know a card whose identity changes nothing.

A card read below the confidence floor may be any identity its reader gave a plausible probability
(``plausible_identities``: its probabilities as read, over the identities no surely-read card holds, weighed again;
``THRESHOLDS.plausible``, where it misses the truth the reader was sure of other identities: slivers of index 6 px
wide, indices of 17-41 px read as another rank). Scored whatever they are, their problems become notes naming the
identities tried (``told``); else they block, naming what each may be.
"""

from __future__ import annotations

from dataclasses import replace

from referee.cards import Card

from .resolve import Doubt
from .thresholds import THRESHOLDS
from .types import CardDetection, Problem, TableLayout


def plausible_identities(card: CardDetection, held: set[Card]) -> tuple[Card, ...]:
    """The identities ``card`` may have: its reader's probabilities as read, without those ``held`` by sure cards,
    weighed again; each at least ``THRESHOLDS.plausible``. Its reading comes first. Empty when the reader's
    probabilities are unknown (then nothing can be said about what else it may be)."""
    options = [(c, p) for c, p in card.alternatives if c not in held]
    mass = sum(p for _, p in options)
    if mass <= 0:
        return ()
    out = [c for c, p in options if p / mass >= THRESHOLDS.plausible]
    if card.card in out:
        out.remove(card.card)
        out.insert(0, card.card)
    return tuple(out)


def unsure_cards(layout: TableLayout, min_confidence: float, held: set[Card] | None = None) -> list[Doubt]:
    """The seated cards below ``min_confidence`` with their plausible identities, over those not ``held`` (by default
    the identities of the seated sure cards). When one's identities are unknown (its reader's probabilities are), that
    card alone, with none: nothing can be tried."""
    seated = [c for s in layout.seats for c in s.cards]
    if held is None:
        held = {c.card for c in seated if c.confidence >= min_confidence}
    out: list[Doubt] = []
    for c in seated:
        if c.confidence >= min_confidence or c.unseen:
            continue
        identities = plausible_identities(c, held)
        if not identities:
            return [Doubt("unsure", c, ())]
        out.append(Doubt("unsure", c, identities))
    return out


def told(problems: tuple[Problem, ...], unsure: list[Doubt], settled: bool) -> tuple[Problem, ...]:
    """The low-confidence problems of the ``unsure`` cards, saying what was tried. ``settled``: every reading scored
    alike, so they become notes that the score does not depend on them; otherwise they still block, each naming what
    its card may be (when more than one identity is plausible), for the user to check on the table."""
    tried = {str(u.card.card): u.identities for u in unsure if settled or len(u.identities) > 1}
    out: list[Problem] = []
    for p in problems:
        identities = tried.get(p.card) if p.kind == "low_confidence" and p.card is not None else None
        if identities is not None:
            names = ", ".join(str(c) for c in identities)
            if not settled:
                p = replace(p, message=f"{p.message} (it may be {names})")
            elif len(identities) == 1:  # the other cards its reader thought of are held by sure reads, or unlikely
                p = replace(p, blocking=False, message=f"{p.message}; it can only be {names}, the one plausible card "
                                                       "no sure read holds")
            else:
                p = replace(p, blocking=False, message=f"{p.message}; the scores are the same whether it is {names}")
        out.append(p)
    return tuple(out)


__all__ = ["plausible_identities", "told", "unsure_cards"]
