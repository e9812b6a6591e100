"""Who sits where: the people of a session at the seats of the photo. Plain functions, so the
mapping across rounds is tested without Streamlit.

A photo names its seats by where they lie in the picture (``bottom`` nearest the camera, then
``right``, ``top``, ``left`` going round the table). People keep their places at the table from
round to round, so the mapping is kept too; when the photo is taken from another side the
places turn with it (:func:`turned`). A seat is a person's name, ``None`` when nobody plays
there this round, and absent while nobody has said who sits there.

>>> last = {"bottom": "Ann", "top": "Bob"}
>>> turned(last, 2)  # the next photo taken from the opposite side: Bob nearest the camera
{'bottom': 'Bob', 'top': 'Ann'}
>>> turned(last, 1)  # taken from the side that was on the right of the last photo
{'right': 'Bob', 'left': 'Ann'}
>>> unnamed([{"seat": "bottom", "name": "Ann"}, {"seat": "top", "name": ""}])
['top']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

PLACES = ("bottom", "right", "top", "left")  # round the table, as vision.types.SEAT_NAMES
Seating = dict[str, str | None]  # place -> person, or None: nobody plays there this round


def turned(seating: Mapping[str, str | None], side: int) -> Seating:
    """The mapping when the photo is taken from the place that was ``PLACES[side]`` in the last one
    (1: the last photo's right, 2: opposite, 3: its left). The people stay where they sit."""
    out: Seating = {}
    for i, place in enumerate(PLACES):
        before = PLACES[(i + side) % len(PLACES)]
        if before in seating:
            out[place] = seating[before]
    return {p: out[p] for p in PLACES if p in out}


def people(session_players: Iterable[str], *named: Iterable[str | None]) -> list[str]:
    """The names to offer for a seat: the session's people first, then names used at this table."""
    out: list[str] = []
    for name in (*session_players, *(n for group in named for n in group)):
        if name and name.strip() and name.strip() not in out:
            out.append(name.strip())
    return out


def from_round(seating: Mapping[str, str] | None, players: Sequence[str]) -> Seating:
    """Where a session's people sit when it is opened: as in its last round, else in the order
    its players were given (bottom, right, top, left)."""
    if seating:
        return {p: seating[p] for p in PLACES if p in seating}
    return dict(zip(PLACES, players, strict=False))


def unnamed(seats: Iterable[Mapping[str, str]]) -> list[str]:
    """The seats (of those playing) whose player has no name yet."""
    return [s["seat"] for s in seats if not (s.get("name") or "").strip()]


def seating_of(seats: Iterable[Mapping[str, str]]) -> dict[str, str]:
    """A round's record of who sat where (named seats only)."""
    return {s["seat"]: s["name"].strip() for s in seats if (s.get("name") or "").strip()}
