"""Property-based invariants of settlement over random deals (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee import PRESET_NAMES, Round, load_ruleset, settle
from referee.cards import DECK
from referee.hand import row_values
from referee.round import PlayerHand

NAMES = ("North", "East", "South", "West")
RULES = {name: load_ruleset(name) for name in PRESET_NAMES}


@st.composite
def rounds(draw: st.DrawFn) -> tuple[Round, str]:
    preset = draw(st.sampled_from(PRESET_NAMES))
    rules = RULES[preset]
    count = draw(st.integers(2, 4))
    deck = draw(st.permutations(range(52)))
    players = []
    for i in range(count):
        cards = [DECK[j] for j in deck[13 * i: 13 * i + 13]]
        head, middle, tail = tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:])
        # Most random splits foul; usually order middle/tail so that both kinds of hands occur.
        if draw(st.booleans()):
            values = row_values((head, middle, tail), rules.wheel)
            if values[1] > values[2]:
                middle, tail = tail, middle
        players.append(PlayerHand(name=NAMES[i], rows=(head, middle, tail)))
    banker = draw(st.sampled_from(NAMES[:count])) if rules.mode == "banker" else None
    return Round(players=tuple(players), banker=banker), preset


def scores(round_: Round, preset: str) -> dict[str, int]:
    return {p.name: p.score for p in settle(round_, RULES[preset]).players}


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_zero_sum(case: tuple[Round, str]) -> None:
    round_, preset = case
    result = settle(round_, RULES[preset])
    assert result.total == 0
    # every pair's points add up from its parts
    for p in result.pairs:
        j = p.to_json()
        assert j["points"] == sum(j["rows"]) + j["scoop_points"] + j["home_run_points"] + j["special_points"] + j[
            "foul_points"]


@settings(max_examples=100, deadline=None)
@given(rounds(), st.randoms(use_true_random=False))
def test_seat_order_does_not_change_scores(case: tuple[Round, str], rnd: object) -> None:
    round_, preset = case
    shuffled = list(round_.players)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert scores(Round(players=tuple(shuffled), banker=round_.banker), preset) == scores(round_, preset)


@settings(max_examples=100, deadline=None)
@given(rounds(), st.data())
def test_swapping_two_players_hands_swaps_their_scores(case: tuple[Round, str], data: st.DataObject) -> None:
    round_, preset = case
    candidates = [p.name for p in round_.players if p.name != round_.banker]
    if len(candidates) < 2:
        return
    a, b = data.draw(st.lists(st.sampled_from(candidates), min_size=2, max_size=2, unique=True))
    rows = {p.name: p.rows for p in round_.players}
    swapped = tuple(
        PlayerHand(name=p.name, rows=rows[b] if p.name == a else rows[a] if p.name == b else p.rows)
        for p in round_.players
    )
    before = scores(round_, preset)
    after = scores(Round(players=swapped, banker=round_.banker), preset)
    assert after[a] == before[b] and after[b] == before[a]
    for name in before:
        if name not in (a, b):
            assert after[name] == before[name]


@settings(max_examples=200, deadline=None)
@given(rounds())
def test_a_hand_that_beats_another_in_every_row_never_scores_lower(case: tuple[Round, str]) -> None:
    round_, preset = case
    result = settle(round_, RULES[preset])
    reports = {p.name: p.report for p in result.players}
    score = {p.name: p.score for p in result.players}
    for a in reports:
        for b in reports:
            ra, rb = reports[a], reports[b]
            if a == b or round_.banker in (a, b) or ra.foul or rb.foul or ra.special or rb.special:
                continue
            if all(x > y for x, y in zip(ra.values, rb.values, strict=True)):
                assert score[a] >= score[b], (a, b, preset)
