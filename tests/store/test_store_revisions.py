"""What changed since a revision: every write of a game raises the tournament's revision, so a reader
(the published site) reads only the games stored after the last one it saw. A database of schema
version 1 is brought up to version 2 when opened, its revisions and move counts filled in."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from store_samples import game_for, new_tournament

from arbiter.referee.record import Side, Winner
from arbiter.store import SCHEMA_VERSION, TournamentStore
from arbiter.tournament.schedule import PlannedGame, TournamentFormat, plan_games

PLAYERS = ("Greedy", "Random", "Alpha-beta")


def schedule() -> list[PlannedGame]:
    return list(plan_games(PLAYERS, TournamentFormat.ROUND_ROBIN, games_per_encounter=2).games)


def test_each_write_of_a_game_raises_the_revision_and_the_games_since_are_read_in_that_order(
    tmp_path: Path,
) -> None:
    games = schedule()
    with TournamentStore.open(tmp_path / "t.db") as store:
        tid = new_tournament(store, PLAYERS)
        other = new_tournament(store, PLAYERS, name="Other")
        assert store.revision(tid) == 0
        store.record_game(tid, games[2], game_for(games[2], Winner.WHITE))
        store.record_game(tid, games[0], game_for(games[0], Winner.UNFINISHED, seed=3))
        store.record_game(other, games[0], game_for(games[0], Winner.DRAW))
        assert store.revision(tid) == 2 and store.revision(other) == 1
        seen = store.revision(tid)
        store.record_game(tid, games[1], game_for(games[1], Winner.DRAW))
        store.record_game(tid, games[0], game_for(games[0], Winner.BLACK, seed=4))  # played again
        assert [g.key for g in store.games_since(tid, seen)] == [games[1].key, games[0].key]
        assert [line.key for line in store.game_lines(tid, seen)] == [games[1].key, games[0].key]
        assert [line.revision for line in store.game_lines(tid)] == [1, 3, 4]
        # Read a game at a time, the result is the same.
        assert [g.key for g in store.games_since(tid, 0, batch=1)] == [
            games[2].key,
            games[1].key,
            games[0].key,
        ]


def test_lines_read_a_batch_at_a_time_or_by_key_are_the_lines_read_at_once(tmp_path: Path) -> None:
    games = schedule()
    with TournamentStore.open(tmp_path / "t.db") as store:
        tid = new_tournament(store, PLAYERS)
        other = new_tournament(store, PLAYERS, name="Other")
        for number, game in enumerate(games):
            winner = Winner.UNFINISHED if number == 0 else Winner.DRAW  # stopped: played again below
            store.record_game(tid, game, game_for(game, winner, seed=number))
        store.record_game(other, games[1], game_for(games[1], Winner.WHITE))
        store.record_game(tid, games[0], game_for(games[0], Winner.BLACK, seed=9))  # played again
        whole = store.game_lines(tid)
        assert list(store.stream_game_lines(tid, batch=2)) == whole
        assert list(store.stream_game_lines(tid, whole[1].revision, batch=2)) == whole[2:]
        by_key = store.game_lines_of(tid, [str(games[1].key), str(games[0].key), "r99-b1-g1"])
        assert by_key == {str(line.key): line for line in whole if line.key in (games[0].key, games[1].key)}
        assert by_key[str(games[0].key)].winner is Winner.BLACK


def test_a_line_counts_each_sides_timed_moves_and_depths_without_the_opening(tmp_path: Path) -> None:
    game = schedule()[0]
    record = game_for(game, Winner.WHITE, plies=30)
    with TournamentStore.open(tmp_path / "t.db") as store:
        tid = new_tournament(store, PLAYERS)
        store.record_game(tid, game, record)
        (line,) = store.game_lines(tid)
    for index, side in enumerate((Side.WHITE, Side.BLACK)):
        own = [m for m in record.moves if m.side is side and not m.from_opening]
        timed = [m.elapsed for m in own if m.elapsed is not None]
        depths = [m.info.depth for m in own if m.info is not None and m.info.depth is not None]
        assert line.timed[index] == len(timed) and abs(line.seconds[index] - sum(timed)) < 1e-9
        assert (line.depths[index], line.depth_sum[index]) == (len(depths), sum(depths))
    assert line.plies == record.plies and line.winner is Winner.WHITE


def test_a_version_1_database_is_brought_to_version_2_with_its_games_counted(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    games = schedule()
    with TournamentStore.open(path) as store:
        tid = new_tournament(store, PLAYERS)
        for number, game in enumerate(games[:3]):
            store.record_game(tid, game, game_for(game, Winner.DRAW, seed=number, plies=24))
        expected = store.game_lines(tid)
    # The same file as version 1 wrote it: without the revision and the move counts.
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("DROP INDEX ix_game_revision")
        for column in ("revision", "white_timed", "white_seconds", "white_depths", "white_depth_sum"):
            connection.execute(f"ALTER TABLE game DROP COLUMN {column}")
        for column in ("black_timed", "black_seconds", "black_depths", "black_depth_sum"):
            connection.execute(f"ALTER TABLE game DROP COLUMN {column}")
        connection.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
        connection.commit()
    with TournamentStore.open(path) as store:
        migrated = store.game_lines(tid)
        store.record_game(tid, games[3], game_for(games[3], Winner.WHITE))
        assert store.revision(tid) == 4
    assert [(g.key, g.timed, g.depths, g.depth_sum) for g in migrated] == [
        (g.key, g.timed, g.depths, g.depth_sum) for g in expected
    ]
    assert all(
        abs(a - b) < 1e-9
        for m, e in zip(migrated, expected, strict=True)
        for a, b in zip(m.seconds, e.seconds, strict=True)
    )
    with closing(sqlite3.connect(path)) as connection:
        (version,) = connection.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    assert version == str(SCHEMA_VERSION) == "2"
