"""The FIDE Berger tables, and gauntlet and match pairings."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.tournament.pairing import PairingError, Round, berger_table, gauntlet, match, round_robin


def as_text(rounds: list[Round]) -> list[str]:
    """Rounds written the way the FIDE tables print them: "1-4 2-3"."""
    return [" ".join(f"{p.first}-{p.second}" for p in r.pairings) for r in rounds]


# The FIDE Handbook's Berger tables (C.05 Annex 1), copied out by hand.
FIDE_TABLE_4 = [
    "1-4 2-3",
    "4-3 1-2",
    "2-4 3-1",
]
FIDE_TABLE_6 = [
    "1-6 2-5 3-4",
    "6-4 5-3 1-2",
    "2-6 3-1 4-5",
    "6-5 1-4 2-3",
    "3-6 4-2 5-1",
]
FIDE_TABLE_8 = [
    "1-8 2-7 3-6 4-5",
    "8-5 6-4 7-3 1-2",
    "2-8 3-1 4-7 5-6",
    "8-6 7-5 1-4 2-3",
    "3-8 4-2 5-1 6-7",
    "8-7 1-6 2-5 3-4",
    "4-8 5-3 6-2 7-1",
]

FIDE_TABLE_10 = [
    "1-10 2-9 3-8 4-7 5-6",
    "10-6 7-5 8-4 9-3 1-2",
    "2-10 3-1 4-9 5-8 6-7",
    "10-7 8-6 9-5 1-4 2-3",
    "3-10 4-2 5-1 6-9 7-8",
    "10-8 9-7 1-6 2-5 3-4",
    "4-10 5-3 6-2 7-1 8-9",
    "10-9 1-8 2-7 3-6 4-5",
    "5-10 6-4 7-3 8-2 9-1",
]
FIDE_TABLE_12 = [
    "1-12 2-11 3-10 4-9 5-8 6-7",
    "12-7 8-6 9-5 10-4 11-3 1-2",
    "2-12 3-1 4-11 5-10 6-9 7-8",
    "12-8 9-7 10-6 11-5 1-4 2-3",
    "3-12 4-2 5-1 6-11 7-10 8-9",
    "12-9 10-8 11-7 1-6 2-5 3-4",
    "4-12 5-3 6-2 7-1 8-11 9-10",
    "12-10 11-9 1-8 2-7 3-6 4-5",
    "5-12 6-4 7-3 8-2 9-1 10-11",
    "12-11 1-10 2-9 3-8 4-7 5-6",
    "6-12 7-5 8-4 9-3 10-2 11-1",
]


def test_berger_table_for_four_players_is_the_fide_table() -> None:
    assert as_text(berger_table(4)) == FIDE_TABLE_4


def test_berger_table_for_six_players_is_the_fide_table() -> None:
    assert as_text(berger_table(6)) == FIDE_TABLE_6


def test_berger_table_for_eight_players_is_the_fide_table() -> None:
    assert as_text(berger_table(8)) == FIDE_TABLE_8


def test_berger_table_for_ten_players_is_the_fide_table() -> None:
    assert as_text(berger_table(10)) == FIDE_TABLE_10


def test_berger_table_for_twelve_players_is_the_fide_table() -> None:
    assert as_text(berger_table(12)) == FIDE_TABLE_12


def test_odd_player_count_uses_the_next_table_with_the_highest_number_as_bye() -> None:
    # Three players play the four-player table; whoever meets number 4 sits out.
    rounds = berger_table(3)
    assert as_text(rounds) == ["2-3", "1-2", "3-1"]
    assert [r.bye for r in rounds] == [1, 3, 2]
    five = berger_table(5)
    assert as_text(five)[0] == "2-5 3-4"
    assert five[0].bye == 1
    assert [p.board for p in five[0].pairings] == [1, 2]


def test_two_players_make_one_round() -> None:
    assert as_text(berger_table(2)) == ["1-2"]


@pytest.mark.parametrize("count", [0, 1])
def test_round_robin_needs_two_players(count: int) -> None:
    with pytest.raises(PairingError, match="at least 2 players"):
        berger_table(count)


def colours_by_player(rounds: list[Round]) -> dict[int, str]:
    """Each player's colour sequence over the games they played: F first-named, S second-named."""
    sequence: dict[int, str] = {}
    for r in rounds:
        for p in r.pairings:
            sequence[p.first] = sequence.get(p.first, "") + "F"
            sequence[p.second] = sequence.get(p.second, "") + "S"
    return sequence


def longest_run(colours: str) -> int:
    best = run = 0
    previous = ""
    for colour in colours:
        run = run + 1 if colour == previous else 1
        previous = colour
        best = max(best, run)
    return best


@given(st.integers(min_value=2, max_value=20))
def test_each_round_everyone_plays_once_and_each_pair_meets_once(count: int) -> None:
    rounds = berger_table(count)
    assert len(rounds) == count - 1 + count % 2
    for r in rounds:
        seen = [p.first for p in r.pairings] + [p.second for p in r.pairings]
        if r.bye is not None:
            seen.append(r.bye)
        assert sorted(seen) == list(range(1, count + 1))
        assert (r.bye is not None) == (count % 2 == 1)
    meetings = Counter(frozenset((p.first, p.second)) for r in rounds for p in r.pairings)
    assert len(meetings) == count * (count - 1) // 2
    assert set(meetings.values()) == {1}


@given(st.integers(min_value=2, max_value=20))
def test_colours_in_one_cycle_differ_by_at_most_one(count: int) -> None:
    for colours in colours_by_player(berger_table(count)).values():
        assert abs(colours.count("F") - colours.count("S")) <= 1
        assert longest_run(colours) <= 2


@given(st.integers(min_value=2, max_value=16), st.integers(min_value=1, max_value=4))
def test_every_pair_meets_once_per_cycle_with_alternating_colours(count: int, cycles: int) -> None:
    rounds = round_robin(count, cycles)
    per_cycle = count - 1 + count % 2
    assert [r.number for r in rounds] == list(range(1, per_cycle * cycles + 1))
    first_named = Counter((p.first, p.second) for r in rounds for p in r.pairings)
    for a in range(1, count + 1):
        for b in range(a + 1, count + 1):
            # Over the cycles the pair meets `cycles` times, each side first-named half the time.
            assert first_named[(a, b)] + first_named[(b, a)] == cycles
            assert abs(first_named[(a, b)] - first_named[(b, a)]) == cycles % 2
    for colours in colours_by_player(rounds).values():
        assert abs(colours.count("F") - colours.count("S")) <= 1
        if cycles % 2 == 0:
            assert colours.count("F") == colours.count("S")


@given(st.integers(min_value=3, max_value=16), st.integers(min_value=2, max_value=4))
def test_multi_cycle_round_robin_never_gives_three_same_colours_running(count: int, cycles: int) -> None:
    for colours in colours_by_player(round_robin(count, cycles)).values():
        assert longest_run(colours) <= 2


def test_double_round_robin_swaps_the_last_two_rounds_of_the_first_cycle() -> None:
    rounds = as_text(round_robin(4, 2))
    assert rounds == ["1-4 2-3", "2-4 3-1", "4-3 1-2", "4-1 3-2", "3-4 2-1", "4-2 1-3"]


def test_third_and_fourth_cycles_play_the_first_two_backwards_with_colours_reversed() -> None:
    rounds = as_text(round_robin(4, 4))
    assert rounds[:6] == as_text(round_robin(4, 2))
    assert rounds[6:] == ["2-4 3-1", "4-3 1-2", "1-4 2-3", "3-4 2-1", "4-2 1-3", "4-1 3-2"]


def test_without_the_swap_a_player_gets_the_same_colour_three_times_running() -> None:
    rounds = round_robin(4, 2, swap_last_two_rounds=False)
    assert as_text(rounds)[:3] == FIDE_TABLE_4
    assert max(longest_run(c) for c in colours_by_player(rounds).values()) == 3


def test_single_cycle_keeps_the_table_order() -> None:
    assert as_text(round_robin(6, 1)) == FIDE_TABLE_6


def test_round_robin_rejects_zero_cycles() -> None:
    with pytest.raises(PairingError, match="cycles"):
        round_robin(4, 0)


def test_gauntlet_pairs_player_one_with_everyone_with_alternating_colours() -> None:
    rounds = gauntlet(4, cycles=2)
    assert as_text(rounds) == ["1-2 3-1 1-4", "2-1 1-3 4-1"]
    assert [p.board for p in rounds[0].pairings] == [1, 2, 3]


def test_match_alternates_the_first_named_side() -> None:
    assert as_text(match(4)) == ["1-2", "2-1", "1-2", "2-1"]


def test_gauntlet_needs_two_players() -> None:
    with pytest.raises(PairingError, match="at least 2 players"):
        gauntlet(1)
