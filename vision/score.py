"""From a laid-out table to the round it shows and its settlement (``referee.settle``): a seat laid in rows plays them;
13 cards in a free shape count only when they hold a special hand judged on the cards alone (the solver chooses rows
that show it); the round needs 2 to 4 such seats, and a banker under a banker preset."""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.cards import Card, format_cards
from referee.errors import InputError
from referee.hand import laid_special
from referee.round import PlayerHand, Round
from referee.ruleset import Ruleset
from referee.settle import Settlement, settle
from referee.specials import Rows

from .types import Problem, SeatLayout, TableLayout

Scored = tuple[dict[str, Rows], Round, Settlement]  # each scored seat's rows, the round, its settlement


@dataclass(frozen=True)
class Scorer:
    rules: Ruleset
    banker: str | None = None

    def playable(self, layout: TableLayout) -> tuple[dict[str, Rows], TableLayout]:
        """Rows per seat; a 13-card free shape counts only if the cards hold a special hand."""
        rules = self.rules
        rows: dict[str, Rows] = {}
        problems = list(layout.problems)
        for seat in layout.seats:
            if seat.rows is not None:
                if len(seat.cards) == 13:
                    head, middle, tail = seat.rows
                    rows[seat.seat] = (tuple(c.card for c in head), tuple(c.card for c in middle),
                                       tuple(c.card for c in tail))
                continue
            if len(seat.cards) != 13:
                continue
            free = _free_shape_rows(seat, rules)
            at = next(i for i, p in enumerate(problems) if p.kind == "no_rows" and p.seat == seat.seat)
            if free is None:
                problems[at] = replace(problems[at], blocking=True, kind="row_size",
                                       message=f"{seat.seat}: 13 cards not laid as 3 + 5 + 5 rows, and they hold no "
                                               f"special hand of {rules.name}")
                continue
            special, played = free
            rows[seat.seat] = played
            as_played = f"(--force plays them as {' | '.join(format_cards(r) for r in played)})"
            if not _shows_without_rows(seat, rules):  # its specials are judged on the rows as laid (RULES.md)
                problems[at] = replace(problems[at], blocking=True,
                                       message=f"{seat.seat}: 13 cards not laid as 3 + 5 + 5 rows; {special} is judged "
                                               f"on the rows as laid: lay them in rows {as_played}")
            elif rules.special.settlement == "bonus":  # the rows are compared too, and the photo shows none
                problems[at] = replace(problems[at], blocking=True,
                                       message=f"{seat.seat}: 13 cards not laid as 3 + 5 + 5 rows; under {rules.name} "
                                               "a special is a bonus on top of the rows, which are compared as "
                                               f"laid: lay them in rows {as_played}")
        return rows, replace(layout, problems=tuple(problems))

    def round_for(self, layout: TableLayout, seat_rows: dict[str, Rows], force: bool
                  ) -> tuple[Round | None, list[Problem]]:
        """The round of the scored seats (with ``force``, of the seats with rows even when something blocks) and the
        problems of the round itself (banker, invalid round)."""
        rules, banker = self.rules, self.banker
        problems: list[Problem] = []
        names = [s.seat for s in layout.seats if s.seat in seat_rows]
        if rules.mode == "banker":
            if banker is None:
                problems.append(Problem(kind="banker", message=f"{rules.name} is played against a banker: "
                                                               "choose the banker's seat"))
            elif banker not in names:
                problems.append(Problem(kind="banker", message=f"banker {banker!r} is not a scored seat "
                                                               f"({', '.join(names) or 'none'})"))
        blocked = layout.blocked or any(p.blocking for p in problems)
        if (blocked and not force) or len(names) < 2:
            return None, problems
        hands = tuple(PlayerHand(name=n, rows=seat_rows[n]) for n in names)
        try:
            round_ = Round(players=hands, banker=banker if banker in names else None)
            round_.checked_for(rules)
        except InputError as err:
            problems.append(Problem(kind="invalid_round", message=str(err)))
            return None, problems
        return round_, problems

    def sure(self, layout: TableLayout) -> Scored | None:
        """The round of a table taken as read, scored; None when something blocks it."""
        seat_rows, checked = self.playable(layout)
        round_, problems = self.round_for(checked, seat_rows, force=False)
        if round_ is None or any(p.blocking for p in problems):
            return None
        return seat_rows, round_, settle(round_, self.rules)


def _shows_without_rows(seat: SeatLayout, rules: Ruleset) -> bool:
    """The 13 cards hold a special of ``rules`` judged on the cards alone (not three flushes / straights, which the
    rows as laid must show): a hand laid without rows can be one only of those. A hand laid in rows that the layout did
    not find must not be given an arrangement special its rows may not show."""
    return laid_special([c.card for c in seat.cards], None, False, rules) is not None


def _free_shape_rows(seat: SeatLayout, rules: Ruleset) -> tuple[str, Rows] | None:
    """For 13 cards laid as a special: the highest special they hold and an arrangement that shows it (for a special
    judged on the 13 cards alone, the solver's best), or None."""
    from referee.solver import analyse_splits, best_special, solve

    cards: list[Card] = [c.card for c in seat.cards]
    if len(set(cards)) != 13:
        return None
    hand = analyse_splits(cards, rules)
    key, split = best_special(hand)
    if key is None:
        return None
    if split is not None:
        return key, hand.split_rows(split)
    return key, solve(cards, rules, top=1).best[0].rows


__all__ = ["Scored", "Scorer"]
