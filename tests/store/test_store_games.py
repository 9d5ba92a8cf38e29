"""Storing games: exact round trips, one finished game per planned key, abandoned games replaced."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import pytest
from store_samples import OTHER_ZONE, START, game_for, new_tournament, played_game

from arbiter.referee.record import GameOutcome, Termination, Winner
from arbiter.store import (
    Event,
    EventKind,
    GameAlreadyRecordedError,
    GameMismatchError,
    StoreError,
    TournamentStore,
    UnknownTournamentError,
)
from arbiter.tournament.openings import Opening, OpeningKind, OpeningSequence
from arbiter.tournament.schedule import GameKey, PlannedGame, TournamentFormat, plan_games

PLAYERS = ("Greedy", "Random", "Alpha-beta")


def schedule(games_per_encounter: int = 2) -> list[PlannedGame]:
    return list(
        plan_games(PLAYERS, TournamentFormat.ROUND_ROBIN, games_per_encounter=games_per_encounter).games
    )


def move_count(path: Path) -> int:
    with closing(sqlite3.connect(path)) as connection:
        (count,) = connection.execute("SELECT count(*) FROM move").fetchone()
    return int(count)


def test_a_game_record_reads_back_exactly(tmp_path: Path) -> None:
    planned = schedule()
    records = [
        # A long English game, decided by the rules or adjudicated, with engine info on most moves.
        played_game(11, white=planned[0].white, black=planned[0].black, plies=120, winner=Winner.BLACK),
        # International draughts, no opening, a start time in another time zone.
        played_game(
            12,
            variant="international",
            white=planned[1].white,
            black=planned[1].black,
            plies=50,
            opening_plies=0,
            winner=Winner.DRAW,
            started_at=START.astimezone(OTHER_ZONE),
        ),
        # Stopped by the user: an outcome without a winner.
        played_game(13, white=planned[2].white, black=planned[2].black, winner=Winner.UNFINISHED),
        # Recorded while still in play: no outcome, no end time.
        played_game(14, white=planned[3].white, black=planned[3].black, winner=None),
        # No moves at all: an engine failed to start.
        played_game(15, white=planned[4].white, black=planned[4].black, plies=0, opening_plies=0).model_copy(
            update={
                "outcome": GameOutcome.of(
                    Winner.WHITE, Termination.START_FAILURE, reason="Black did not start"
                ),
                "ended_at": START,
            }
        ),
    ]
    path = tmp_path / "t.db"
    with TournamentStore.open(path) as store:
        tid = new_tournament(store, PLAYERS)
        for game, record in zip(planned, records, strict=False):
            store.record_game(tid, game, record)
    with TournamentStore.open(path, create=False) as store:
        stored = store.games(tid)
    assert [game.key for game in stored] == [game.key for game in planned[: len(records)]]
    for back, record in zip(stored, records, strict=True):
        assert back.record == record
        assert back.record.to_json() == record.to_json()
    assert any(move.info is not None and move.info.pv for move in stored[0].record.moves)
    assert stored[1].record.started_at.utcoffset() == timedelta(hours=-5, minutes=-30)


def test_games_keep_their_schedule_place_opening_and_pair(tmp_path: Path) -> None:
    deck = OpeningSequence(
        (
            Opening(id="acf-1", kind=OpeningKind.MOVES, text="9-13 21-17 5-9"),
            Opening(id="acf-2", kind=OpeningKind.MOVES, text="9-13 21-17 6-9"),
        )
    )
    planned = plan_games(
        PLAYERS, TournamentFormat.ROUND_ROBIN, games_per_encounter=2, repeat=True, openings=deck, cycles=2
    ).games
    with TournamentStore.open(tmp_path / "t.db") as store:
        tid = new_tournament(store, PLAYERS)
        for number, game in reversed(list(enumerate(planned))):
            store.record_game(tid, game, game_for(game, Winner.DRAW, seed=number))
        stored = store.games(tid)
    assert [(g.key, g.cycle, g.opening_id, g.opening_index, g.pair_index) for g in stored] == [
        (g.key, g.cycle, g.opening.id if g.opening else None, g.opening_index, g.pair_index) for g in planned
    ]


def test_a_finished_game_is_never_stored_twice(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    game = schedule()[0]
    first = game_for(game, Winner.WHITE, seed=1)
    with TournamentStore.open(path) as store:
        tid = new_tournament(store, PLAYERS)
        store.record_game(tid, game, first, [Event(EventKind.WARNING, "first")])
        moves_before = move_count(path)
        with pytest.raises(GameAlreadyRecordedError) as caught:
            store.record_game(
                tid, game, game_for(game, Winner.DRAW, seed=2, plies=50), [Event(EventKind.FAULT, "second")]
            )
        assert caught.value.game_key == str(game.key)
        assert str(path) in str(caught.value)
        # The refused record left nothing behind: not its moves, not its events.
        stored = store.games(tid)
        assert [g.record for g in stored] == [first]
        assert [e.event.message for e in store.events(tid)] == ["first"]
    assert move_count(path) == moves_before


def test_a_write_failing_half_way_stores_nothing_of_the_game(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    games = schedule()
    with TournamentStore.open(path) as store:
        tid = new_tournament(store, PLAYERS)
        store.record_game(tid, games[0], game_for(games[0], Winner.WHITE))
    # SQLite itself refuses the 7th move row, after the game row and six moves have been written.
    with closing(sqlite3.connect(path)) as connection:
        connection.execute(
            "CREATE TRIGGER refuse_ply_7 BEFORE INSERT ON move WHEN NEW.ply = 7 "
            "BEGIN SELECT RAISE(ABORT, 'device full'); END"
        )
        connection.commit()
    moves_before = move_count(path)
    with TournamentStore.open(path) as store:
        with pytest.raises(StoreError, match=f"game {games[1].key} .*not stored: device full"):
            store.record_game(tid, games[1], game_for(games[1], Winner.DRAW), [Event(EventKind.NOTE, "lost")])
        assert store.finished_keys(tid) == {games[0].key}
        assert store.unfinished_keys(tid) == set()
        assert store.events(tid) == []
    assert move_count(path) == moves_before


def test_the_database_itself_refuses_a_second_row_for_a_game_key(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    game = schedule()[0]
    with TournamentStore.open(path) as store:
        tid = new_tournament(store, PLAYERS)
        store.record_game(tid, game, game_for(game, Winner.WHITE))
    with closing(sqlite3.connect(path)) as connection, pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        columns = (
            "tournament_id, game_key, round, board, game_number, cycle, "
            "pair_index, white, black, white_engine_id, black_engine_id, white_identity, black_identity, "
            "variant, time_control, start_fen, opening_id, opening_index, opening, finished, winner, "
            "termination, rule, reason, plies, started_at, ended_at, warnings, tags"
        )
        connection.execute(f"INSERT INTO game (id, {columns}) SELECT NULL, {columns} FROM game")


def test_an_abandoned_game_is_not_finished_and_a_finished_record_replaces_it(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    games = schedule()
    with TournamentStore.open(path) as store:
        tid = new_tournament(store, PLAYERS)
        first = game_for(games[0], Winner.BLACK)
        store.record_game(tid, games[0], first)
        abandoned = game_for(games[1], Winner.UNFINISHED, seed=5, plies=60)
        game_id = store.record_game(
            tid, games[1], abandoned, [Event(EventKind.NOTE, "stopped by the user (Ctrl-C)")]
        )
        assert store.finished_keys(tid) == {games[0].key}
        assert store.unfinished_keys(tid) == {games[1].key}
        assert store.tournament(tid).unfinished_games == 1

        replay = game_for(games[1], Winner.DRAW, seed=6, plies=20)
        assert store.record_game(tid, games[1], replay, [Event(EventKind.WARNING, "slow start")]) == game_id

        assert store.finished_keys(tid) == {games[0].key, games[1].key}
        assert store.unfinished_keys(tid) == set()
        stored = store.game(tid, games[1].key)
        assert stored is not None and stored.record == replay
        # The events of both attempts stay with the game, in order.
        assert [e.event.message for e in store.events(tid, games[1].key)] == [
            "stopped by the user (Ctrl-C)",
            "slow start",
        ]
        info = store.tournament(tid)
        assert (info.finished_games, info.unfinished_games) == (2, 0)
    # Only the replay's moves are left for that game.
    assert move_count(path) == len(first.moves) + len(replay.moves)


def test_a_game_in_play_counts_as_unfinished(tmp_path: Path) -> None:
    game = schedule()[0]
    with TournamentStore.open(tmp_path / "t.db") as store:
        tid = new_tournament(store, PLAYERS)
        store.record_game(tid, game, played_game(3, white=game.white, black=game.black, winner=None))
        assert store.finished_keys(tid) == set()
        assert store.unfinished_keys(tid) == {game.key}


def test_a_record_of_other_players_than_planned_is_refused(tmp_path: Path) -> None:
    game = schedule()[0]
    swapped = played_game(1, white=game.black, black=game.white, winner=Winner.DRAW)
    with TournamentStore.open(tmp_path / "t.db") as store:
        tid = new_tournament(store, PLAYERS)
        with pytest.raises(GameMismatchError, match=str(game.key)):
            store.record_game(tid, game, swapped)
        assert store.games(tid) == []


def test_a_game_of_an_unknown_tournament_is_refused(tmp_path: Path) -> None:
    game = schedule()[0]
    with TournamentStore.open(tmp_path / "t.db") as store:
        with pytest.raises(UnknownTournamentError):
            store.record_game(7, game, game_for(game, Winner.DRAW))
        with pytest.raises(UnknownTournamentError):
            store.finished_keys(7)


def test_the_same_game_key_in_two_tournaments_is_two_games(tmp_path: Path) -> None:
    game = schedule()[0]
    with TournamentStore.open(tmp_path / "t.db") as store:
        first = new_tournament(store, PLAYERS, name="First")
        second = new_tournament(store, PLAYERS, name="Second")
        store.record_game(first, game, game_for(game, Winner.WHITE))
        store.record_game(second, game, game_for(game, Winner.BLACK))
        assert store.finished_keys(first) == store.finished_keys(second) == {GameKey(1, 1, 1)}
        assert [g.record.winner for g in store.games(first)] == [Winner.WHITE]
        assert [g.record.winner for g in store.games(second)] == [Winner.BLACK]


def test_games_can_be_read_finished_only_or_by_key(tmp_path: Path) -> None:
    games = schedule()
    with TournamentStore.open(tmp_path / "t.db") as store:
        tid = new_tournament(store, PLAYERS)
        store.record_game(tid, games[0], game_for(games[0], Winner.WHITE))
        store.record_game(tid, games[1], game_for(games[1], Winner.UNFINISHED))
        store.record_game(tid, games[2], game_for(games[2], Winner.DRAW))
        assert [g.key for g in store.games(tid, finished_only=True)] == [games[0].key, games[2].key]
        assert [g.key for g in store.games(tid, keys=[games[2].key, games[1].key])] == [
            games[1].key,
            games[2].key,
        ]
        assert store.game(tid, games[3].key) is None
