"""The table being scored, as the user corrects it: one entry per seat with its name and
three rows as text. Plain functions, so the correction flow is tested without Streamlit.

>>> seats = [seat_entry("bottom", "Ann", "2c 3d 5h", "6s 6h 8c 9d Tc", "Js Jh Jd 4c 4d"),
...          seat_entry("top", "Bob", "Ah Ad Kc", "2s 3s 4s 5s 7s", "Qh Qd Qc Qs 9c")]
>>> round_, errors = build_round(seats, banker=None)
>>> errors, [p.name for p in round_.players]
([], ['Ann', 'Bob'])
>>> moved = move_card(seats, "Ah", to_seat=0, to_row="head")
>>> moved[0]["head"], moved[1]["head"]
('2c 3d 5h Ah', 'Ad Kc')
>>> corrections(seats, moved)[0]
{'seat': 'bottom', 'field': 'head', 'from': '2c 3d 5h', 'to': '2c 3d 5h Ah'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.cards import HAND_SIZE, ROW_NAMES, ROW_SIZES, format_cards, parse_cards, validate_rows
from referee.errors import InputError
from referee.round import MAX_PLAYERS, PlayerHand, Round
from referee.ruleset import Ruleset

Seat = dict[str, str]  # seat, name, head, middle, tail (rows as card text)
FIELDS = ("seat", "name", *ROW_NAMES)
DEFAULT_SEATS = ("bottom", "right", "top", "left")


def seat_entry(seat: str, name: str, head: str = "", middle: str = "", tail: str = "") -> Seat:
    return {"seat": seat, "name": name, "head": head, "middle": middle, "tail": tail}


def blank_table(players: int, names: Mapping[str, str | None] | None = None) -> list[Seat]:
    """Empty rows for typing a round in by hand, named as the seats are known (no placeholder names)."""
    names = names or {}
    return [seat_entry(s, names.get(s) or "") for s in DEFAULT_SEATS[:players]]


def seats_from_reading(reading: Mapping[str, Any], names: Mapping[str, str | None], rules: Ruleset) -> tuple[list[Seat],
                                                                                                      list[str]]:
    """The seats of a ``PhotoReading.to_json()`` as editable rows, and notes for the user.

    A seat laid in a free shape (13 cards spread out, as for a special hand) has no rows
    on the table: its rows are filled in with the special's arrangement (or the solver's
    strongest) so it can be scored, and a note says so.
    """
    seats: list[Seat] = []
    notes: list[str] = []
    for i, raw in enumerate(reading.get("seats", [])):
        seat = str(raw.get("seat") or DEFAULT_SEATS[i % len(DEFAULT_SEATS)])
        name = names.get(seat) or ""
        who = name or f"the {seat} seat"
        played_as = raw.get("played_as")
        if played_as:  # a free shape the photo reader already laid out as its special
            seats.append(seat_entry(seat, name, *(" ".join(played_as.get(r) or []) for r in ROW_NAMES)))
            notes.append(f"{who}: cards laid out without rows (a special hand); "
                         "rows shown as the special is played")
        elif raw.get("shape") == "free" or raw.get("head") is None:
            rows, note = _arrange_free(list(raw.get("cards") or []), rules)
            if note:
                notes.append(f"{who}: {note}")
            seats.append(seat_entry(seat, name, *rows))
        else:
            seats.append(seat_entry(seat, name, *(" ".join(raw.get(r) or []) for r in ROW_NAMES)))
    if note := _unread_note(reading.get("seats", []), seats):
        notes.append(note)
    if note := _missing_hand_note(names, len(seats)):
        notes.append(note)
    return seats, notes


def _missing_hand_note(names: Mapping[str, str | None], hands: int) -> str:
    """When more people sit at the table than the photo shows hands: a hand washed out by glare, or outside the
    photo, leaves no card to find (``vision.pipeline.read_photo(players=...)``), and the others alone would be
    scored as a smaller round."""
    seated = [n.strip() for n in names.values() if n and n.strip()]
    if hands >= len(seated):
        return ""
    return (f"{len(seated)} sit at this table ({', '.join(seated)}) but the photo shows {hands} "
            f"hand{'s' if hands != 1 else ''}: a hand washed out by glare or outside the photo is not found at all. "
            "Type its rows in, or mark who sits out this round")


def _unread_note(raw_seats: Sequence[Mapping[str, Any]], seats: list[Seat]) -> str:
    """How many cards the photo reader did not find, by seat, and what helps. Measured on the synthetic
    test tables, a soft photo (blur, shake, focus) is what most often leaves cards unread."""
    short = []
    for raw, seat in zip(raw_seats, seats, strict=True):
        n = len(raw.get("cards") or []) or sum(len(raw.get(r) or []) for r in ROW_NAMES)
        if n < HAND_SIZE:
            short.append((seat["name"] or seat["seat"], HAND_SIZE - n))
    if not short:
        return ""
    total = sum(k for _, k in short)
    where = ", ".join(f"{who} {k}" for who, k in short)
    return (f"{total} card{'s' if total > 1 else ''} not read ({where}): type {'them' if total > 1 else 'it'} "
            "into the rows, or take the photo again from above, held still, in good light, with every corner "
            "sharp (a soft photo is the usual cause)")


def _arrange_free(cards: list[str], rules: Ruleset) -> tuple[tuple[str, str, str], str]:
    if len(cards) != 13:
        return ("", "", " ".join(cards)), f"{len(cards)} cards laid out without rows: put them into rows"
    try:
        from referee.solver import solve

        result = solve(cards, rules, top=1)
    except InputError as err:
        return ("", "", " ".join(cards)), f"cards laid out without rows ({err})"
    best = result.special_arrangement or (result.best[0] if result.best else None)
    if best is None:
        return ("", "", " ".join(cards)), "cards laid out without rows: put them into rows"
    rows = (format_cards(best.head), format_cards(best.middle), format_cards(best.tail))
    # A special of the cards alone (a dragon, six pairs...) scores in any legal rows.
    what = f"the special hand {result.special}" if result.special else "the strongest legal rows"
    return rows, f"cards laid out without rows; arranged as {what} (check them)"


def parse_seat(seat: Mapping[str, str]) -> PlayerHand:
    """One seat as a player's hand; the error names the player and the row."""
    name = (seat.get("name") or "").strip()
    who = name or f"seat {seat.get('seat', '?')}"
    if not name:
        raise InputError(f"{who}: give the player a name")
    rows = []
    for row in ROW_NAMES:
        try:
            rows.append(parse_cards(seat.get(row) or ""))
        except InputError as err:
            raise InputError(f"{who}, {row} row: {err}") from None
    return PlayerHand(name=name, rows=validate_rows(rows, who))


def build_round(seats: Sequence[Mapping[str, str]], banker: str | None) -> tuple[Round | None, list[str]]:
    """The corrected table as a Round, or every problem that stops it being scored."""
    errors: list[str] = []
    hands: list[PlayerHand] = []
    for seat in seats:
        try:
            hands.append(parse_seat(seat))
        except InputError as err:
            errors.append(str(err))
    if errors:
        return None, errors
    if len(hands) > MAX_PLAYERS:
        return None, [f"a round has at most {MAX_PLAYERS} players; {len(hands)} seats have cards"]
    try:
        return Round(players=tuple(hands), banker=banker), []
    except InputError as err:
        return None, [str(err)]


def card_locations(seats: Sequence[Mapping[str, str]]) -> dict[str, tuple[int, str]]:
    """Where each (parsable) card is: canonical card text -> (seat index, row)."""
    where: dict[str, tuple[int, str]] = {}
    for i, seat in enumerate(seats):
        for row in ROW_NAMES:
            for token in (seat.get(row) or "").split():
                try:
                    where.setdefault(str(parse_cards(token)[0]), (i, row))
                except InputError:
                    continue
    return where


def move_card(seats: Sequence[Mapping[str, str]], card: str, *, to_seat: int, to_row: str) -> list[Seat]:
    """Take ``card`` from wherever it is (if anywhere) and put it at the end of another row."""
    if to_row not in ROW_SIZES:
        raise InputError(f"unknown row {to_row!r}")
    if not 0 <= to_seat < len(seats):
        raise InputError(f"no seat {to_seat + 1}")
    target = str(parse_cards(card)[0])
    out: list[Seat] = [dict(s) for s in seats]
    for seat in out:
        for row in ROW_NAMES:
            tokens = (seat.get(row) or "").split()
            kept = [t for t in tokens if not _same_card(t, target)]
            if len(kept) != len(tokens):
                seat[row] = " ".join(kept)
    dest = out[to_seat]
    dest[to_row] = " ".join([*(dest.get(to_row) or "").split(), target])
    return out


def _same_card(token: str, card: str) -> bool:
    try:
        return str(parse_cards(token)[0]) == card
    except InputError:
        return False


def corrections(original: Sequence[Mapping[str, str]], final: Sequence[Mapping[str, str]]) -> list[dict[str, str]]:
    """What the user changed, field by field (a seat added or removed counts too)."""
    out: list[dict[str, str]] = []
    for i in range(max(len(original), len(final))):
        before = original[i] if i < len(original) else {}
        after = final[i] if i < len(final) else {}
        seat = after.get("seat") or before.get("seat") or str(i + 1)
        for key in ("name", *ROW_NAMES):
            old, new = _norm(before.get(key)), _norm(after.get(key))
            if old != new:
                out.append({"seat": seat, "field": key, "from": old, "to": new})
    return out


def _norm(text: str | None) -> str:
    return " ".join((text or "").split())
