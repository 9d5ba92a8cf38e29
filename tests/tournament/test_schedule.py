"""The planned games: pairings, colours, openings, ballot pairs and stable keys."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.tournament.openings import Opening, OpeningKind, OpeningOrder, OpeningSequence, acf_deck
from arbiter.tournament.schedule import (
    Bye,
    Colour,
    GameKey,
    PlannedGame,
    Schedule,
    ScheduleError,
    TournamentFormat,
    plan_games,
)

RR, GAUNTLET, MATCH = TournamentFormat.ROUND_ROBIN, TournamentFormat.GAUNTLET, TournamentFormat.MATCH


def deck(size: int) -> OpeningSequence:
    return OpeningSequence(
        tuple(Opening(id=f"o{i}", kind=OpeningKind.MOVES, text="11-15") for i in range(size))
    )


def lines(schedule: Schedule) -> list[str]:
    return [f"{g.key} {g.white}-{g.black}" for g in schedule.games]


def test_four_player_round_robin_follows_the_berger_table() -> None:
    schedule = plan_games(["P1", "P2", "P3", "P4"], RR)
    assert lines(schedule) == [
        "r1-b1-g1 P1-P4",
        "r1-b2-g1 P2-P3",
        "r2-b1-g1 P4-P3",
        "r2-b2-g1 P1-P2",
        "r3-b1-g1 P2-P4",
        "r3-b2-g1 P3-P1",
    ]
    assert schedule.rounds == 3
    assert schedule.byes == ()


def test_the_first_named_player_moves_first_in_english() -> None:
    # In English checkers Black moves first, so the table's first-named player takes Black.
    schedule = plan_games(["P1", "P2", "P3", "P4"], RR, first_mover=Colour.BLACK)
    first = schedule.games[0]
    assert (first.black, first.white) == ("P1", "P4")
    assert first.player_of(Colour.BLACK) == "P1"


def test_odd_round_robin_lists_the_byes() -> None:
    schedule = plan_games(["A", "B", "C"], RR)
    assert lines(schedule) == ["r1-b1-g1 B-C", "r2-b1-g1 A-B", "r3-b1-g1 C-A"]
    assert schedule.byes == (Bye(round=1, player="A"), Bye(round=2, player="C"), Bye(round=3, player="B"))


def test_ballot_pairs_play_one_opening_twice_with_colours_swapped_one_after_the_other() -> None:
    schedule = plan_games(
        ["A", "B", "C", "D"],
        RR,
        games_per_encounter=2,
        repeat=True,
        openings=deck(100),
        first_mover=Colour.BLACK,
    )
    games = schedule.games
    assert len(games) == 12
    for first, second in zip(games[0::2], games[1::2], strict=True):
        assert (first.key.round, first.key.board) == (second.key.round, second.key.board)
        assert (first.key.game, second.key.game) == (1, 2)
        assert (first.white, first.black) == (second.black, second.white)
        assert first.opening == second.opening and first.opening is not None
        assert first.pair_index == second.pair_index
    assert [g.pair_index for g in games[0::2]] == [1, 2, 3, 4, 5, 6]
    assert [g.opening_index for g in games[0::2]] == [0, 1, 2, 3, 4, 5]


def test_without_repeat_every_game_gets_its_own_opening_and_no_pair() -> None:
    schedule = plan_games(["A", "B"], MATCH, cycles=2, games_per_encounter=2, openings=deck(10))
    assert [g.opening_index for g in schedule.games] == [0, 1, 2, 3]
    assert all(g.pair_index is None for g in schedule.games)
    assert lines(schedule) == ["r1-b1-g1 A-B", "r1-b1-g2 B-A", "r2-b1-g1 B-A", "r2-b1-g2 A-B"]


def test_four_games_per_encounter_with_repeat_make_two_pairs() -> None:
    schedule = plan_games(["A", "B"], MATCH, games_per_encounter=4, repeat=True, openings=deck(10))
    assert [(g.key.game, g.white, g.opening_index, g.pair_index) for g in schedule.games] == [
        (1, "A", 0, 1),
        (2, "B", 0, 1),
        (3, "A", 1, 2),
        (4, "B", 1, 2),
    ]


def test_without_openings_games_start_from_the_start_position() -> None:
    schedule = plan_games(["A", "B"], MATCH, cycles=3)
    assert all(g.opening is None and g.opening_index is None for g in schedule.games)
    assert [g.white for g in schedule.games] == ["A", "B", "A"]


def test_openings_come_round_again_when_the_deck_runs_out() -> None:
    schedule = plan_games(["A", "B"], MATCH, cycles=5, openings=deck(2))
    assert [g.opening.id for g in schedule.games if g.opening] == ["o0", "o1", "o0", "o1", "o0"]
    assert [g.opening_index for g in schedule.games] == [0, 1, 2, 3, 4]


def test_same_opening_per_round_gives_every_board_the_round_ballot() -> None:
    schedule = plan_games(
        ["A", "B", "C", "D"],
        RR,
        games_per_encounter=2,
        repeat=True,
        openings=deck(10),
        same_opening_per_round=True,
    )
    by_round: dict[int, set[str]] = {}
    for game in schedule.games:
        assert game.opening is not None
        by_round.setdefault(game.round, set()).add(game.opening.id)
    assert by_round == {1: {"o0"}, 2: {"o1"}, 3: {"o2"}}
    # Each board's pair is still its own pair.
    assert sorted({g.pair_index for g in schedule.games if g.pair_index}) == [1, 2, 3, 4, 5, 6]


def test_gauntlet_plays_the_first_player_against_all_others() -> None:
    schedule = plan_games(["Hero", "A", "B", "C"], GAUNTLET, cycles=2)
    assert lines(schedule) == [
        "r1-b1-g1 Hero-A",
        "r1-b2-g1 B-Hero",
        "r1-b3-g1 Hero-C",
        "r2-b1-g1 A-Hero",
        "r2-b2-g1 Hero-B",
        "r2-b3-g1 C-Hero",
    ]
    assert [g.cycle for g in schedule.games] == [1, 1, 1, 2, 2, 2]


def test_pro_checkers_match_uses_the_156_deck_in_seeded_random_order() -> None:
    openings = OpeningSequence(tuple(acf_deck("acf-156")), OpeningOrder.RANDOM, seed=2024)
    schedule = plan_games(
        ["A", "B"],
        MATCH,
        cycles=156,
        games_per_encounter=2,
        repeat=True,
        openings=openings,
        first_mover=Colour.BLACK,
    )
    assert len(schedule.games) == 312
    ids = [g.opening.id for g in schedule.games[0::2] if g.opening]
    assert sorted(ids) == sorted(o.id for o in acf_deck("acf-156"))  # each opening once
    assert ids != [o.id for o in acf_deck("acf-156")]
    again = plan_games(
        ["A", "B"],
        MATCH,
        cycles=156,
        games_per_encounter=2,
        repeat=True,
        openings=openings,
        first_mover=Colour.BLACK,
    )
    assert again == schedule


def test_keys_are_unique_and_the_schedule_is_rebuilt_identically() -> None:
    options = {"cycles": 2, "games_per_encounter": 2, "repeat": True, "openings": deck(7)}
    first = plan_games(["A", "B", "C", "D", "E"], RR, **options)  # type: ignore[arg-type]
    second = plan_games(["A", "B", "C", "D", "E"], RR, **options)  # type: ignore[arg-type]
    assert first == second
    keys = [g.key for g in first.games]
    assert len(set(keys)) == len(keys)
    assert keys == sorted(keys)
    assert first.by_key()[GameKey(round=1, board=1, game=2)] == first.games[1]


def test_more_cycles_of_a_match_keep_the_earlier_games() -> None:
    openings = OpeningSequence(tuple(acf_deck("acf-144")), OpeningOrder.RANDOM, seed=5)
    short = plan_games(["A", "B"], MATCH, cycles=10, games_per_encounter=2, repeat=True, openings=openings)
    long = plan_games(["A", "B"], MATCH, cycles=200, games_per_encounter=2, repeat=True, openings=openings)
    assert long.games[: len(short.games)] == short.games


def test_game_key_text() -> None:
    assert str(GameKey(round=3, board=2, game=1)) == "r3-b2-g1"


@pytest.mark.parametrize(
    ("players", "format", "options", "message"),
    [
        (["A", "B", "C"], MATCH, {}, "a match is between exactly 2 players, got 3"),
        (["A"], RR, {}, "a round-robin needs at least 2 players, got 1"),
        (["A"], GAUNTLET, {}, "a gauntlet needs at least 2 players, got 1"),
        (["A", "A"], RR, {}, "player 'A' is listed twice"),
        (["A", " "], RR, {}, "player 2 has an empty name"),
        (["A", "B"], MATCH, {"cycles": 0}, "cycles must be at least 1, got 0"),
        (["A", "B"], MATCH, {"games_per_encounter": 0}, "games per encounter must be at least 1, got 0"),
        (
            ["A", "B"],
            MATCH,
            {"games_per_encounter": 3, "repeat": True},
            "games per encounter must be even, got 3",
        ),
    ],
)
def test_bad_options_are_refused_with_a_reason(
    players: list[str], format: TournamentFormat, options: dict[str, object], message: str
) -> None:
    with pytest.raises(ScheduleError, match=message):
        plan_games(players, format, **options)  # type: ignore[arg-type]


def colour_counts(games: tuple[PlannedGame, ...]) -> tuple[Counter[str], Counter[str]]:
    white = Counter(g.white for g in games)
    black = Counter(g.black for g in games)
    return white, black


@given(
    st.integers(min_value=2, max_value=12),
    st.integers(min_value=1, max_value=4),
    st.sampled_from([(1, False), (2, False), (2, True), (4, True)]),
)
def test_round_robin_meets_every_pair_the_right_number_of_times_with_balanced_colours(
    count: int, cycles: int, games: tuple[int, bool]
) -> None:
    games_per_encounter, repeat = games
    players = [f"P{i}" for i in range(1, count + 1)]
    schedule = plan_games(
        players, RR, cycles=cycles, games_per_encounter=games_per_encounter, repeat=repeat, openings=deck(9)
    )
    per_pair = cycles * games_per_encounter
    assert len(schedule.games) == count * (count - 1) // 2 * per_pair
    meetings: Counter[tuple[str, str]] = Counter((g.white, g.black) for g in schedule.games)
    for a in players:
        for b in players:
            if a < b:
                assert meetings[(a, b)] + meetings[(b, a)] == per_pair
                assert abs(meetings[(a, b)] - meetings[(b, a)]) <= 1
    white, black = colour_counts(schedule.games)
    for player in players:
        assert abs(white[player] - black[player]) <= 1
    # Within a round nobody plays on two boards.
    for round_number in range(1, schedule.rounds + 1):
        boards: dict[int, set[str]] = {}
        for g in schedule.games:
            if g.round == round_number:
                boards.setdefault(g.key.board, set()).update((g.white, g.black))
        seated = [p for names in boards.values() for p in names]
        assert len(seated) == len(set(seated))
    assert len(schedule.byes) == (schedule.rounds if count % 2 else 0)


@given(st.integers(min_value=2, max_value=10), st.integers(min_value=1, max_value=4))
def test_gauntlet_colours_balance_over_two_cycles(count: int, cycles: int) -> None:
    players = ["Hero"] + [f"P{i}" for i in range(2, count + 1)]
    schedule = plan_games(players, GAUNTLET, cycles=cycles)
    assert all(g.white == "Hero" or g.black == "Hero" for g in schedule.games)
    assert len(schedule.games) == (count - 1) * cycles
    white, black = colour_counts(schedule.games)
    assert abs(white["Hero"] - black["Hero"]) <= 1
    for opponent in players[1:]:
        assert abs(white[opponent] - black[opponent]) == cycles % 2
