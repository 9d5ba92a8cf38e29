"""One schema, two ways in: the plain SQL a running match creates and writes the database with, and the
SQLModel tables the ORM reads it through, must describe the same tables and read the same games."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from sqlalchemy import create_engine
from sqlmodel import Session, col, select
from store_samples import game_for, new_tournament, played_game

from arbiter.engines.params import EngineIdentity, ParamDecl
from arbiter.referee.record import Winner
from arbiter.store import Event, EventKind, RunStore, TournamentStore
from arbiter.store.codec import MOVE_COLUMNS, game_key_of, record_from_rows
from arbiter.store.fast_write import MOVES_PER_INSERT
from arbiter.store.schema import DDL
from arbiter.store.tables import GameRow, MoveRow, StoreModel, metadata_ddl
from arbiter.tournament.schedule import PlannedGame, TournamentFormat, plan_games

PLAYERS = ("Greedy", "Random", "Alpha-beta")


def schedule() -> list[PlannedGame]:
    return list(plan_games(PLAYERS, TournamentFormat.ROUND_ROBIN, games_per_encounter=2).games)


def schema_of(path: Path) -> list[tuple[str, str, str, str | None]]:
    with closing(sqlite3.connect(path)) as connection:
        rows = connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    return sorted(rows)


def test_the_plain_schema_is_the_statements_sqlalchemy_makes_of_the_tables() -> None:
    expected = sorted(metadata_ddl())
    assert sorted(DDL) == expected, (
        "arbiter/store/schema.py's DDL differs from the SQLModel tables; paste these statements into it:\n\n"
        + "\n\n".join(metadata_ddl())
    )


def test_a_database_the_run_store_creates_has_the_orms_tables_indexes_and_keys(tmp_path: Path) -> None:
    by_orm = tmp_path / "orm.db"
    engine = create_engine(f"sqlite:///{by_orm}")
    StoreModel.metadata.create_all(engine)
    engine.dispose()
    by_run_store = tmp_path / "plain.db"
    RunStore.open(by_run_store).close()
    assert schema_of(by_run_store) == schema_of(by_orm)


def test_games_written_without_the_orm_read_back_the_same_through_it(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    games = schedule()
    finished = game_for(games[0], Winner.WHITE, seed=3, plies=60)
    abandoned = game_for(games[1], Winner.UNFINISHED, seed=4)
    replay = game_for(games[1], Winner.DRAW, seed=5, plies=40)
    no_opening = played_game(
        6, white=games[2].white, black=games[2].black, opening_plies=0, winner=Winner.BLACK
    )
    identity = EngineIdentity(
        name="Greedy",
        version="2.1",
        author="A. Author",
        country="NL",
        extra={"build": "7"},
        params={"hash": ParamDecl(name="hash", type="int", default="64", min=1.0, max=4096.0)},
    )
    with RunStore.open(path) as store:
        tid = new_tournament(store, PLAYERS)
        store.set_engine_identity(tid, "Greedy", identity)
        store.record_game(tid, games[0], finished, [Event(EventKind.WARNING, "slow start", engine="Greedy")])
        store.record_game(tid, games[1], abandoned, [Event(EventKind.NOTE, "stopped")])
        store.record_game(tid, games[1], replay)
        store.record_game(tid, games[2], no_opening)
        store.record_event(tid, Event(EventKind.FAULT, "crashed", engine="Random"), game_key=games[2].key)
        plain = store.games(tid)
    assert [game.record for game in plain] == [finished, replay, no_opening]
    with TournamentStore.open(path, create=False) as store:
        through_orm = list(store.games_since(tid))
        engines = store.engines(tid)
        events = store.events(tid)
    assert sorted(through_orm, key=lambda game: game.key) == plain
    assert [engine.identity for engine in engines] == [identity, None, None]
    assert [(event.game_key, event.event.message) for event in events] == [
        (games[0].key, "slow start"),
        (games[1].key, "stopped"),
        (games[2].key, "crashed"),
    ]


def test_games_the_orm_writes_in_a_batch_read_back_the_same_without_it(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    games = schedule()
    batch = [(planned, game_for(planned, Winner.BLACK, seed=20 + n)) for n, planned in enumerate(games[:3])]
    with TournamentStore.open(path) as store:
        tid = new_tournament(store, PLAYERS)
        store.record_games(tid, batch)
    with RunStore.open(path, create=False) as store:
        assert [game.record for game in store.games(tid)] == [record for _, record in batch]
        assert store.finished_keys(tid) == {planned.key for planned, _ in batch}


def test_the_games_since_a_revision_read_with_plain_sql_equal_the_records_of_the_orms_rows(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.db"
    games = schedule()
    with TournamentStore.open(path) as store:
        tid = new_tournament(store, PLAYERS)
        store.record_game(tid, games[0], game_for(games[0], Winner.WHITE, seed=31))
        store.record_game(tid, games[1], game_for(games[1], Winner.UNFINISHED, seed=32))
        store.record_game(tid, games[2], played_game(33, white=games[2].white, black=games[2].black))
        store.record_game(tid, games[1], game_for(games[1], Winner.DRAW, seed=34, plies=30))
        since = list(store.games_since(tid, 1, batch=2))
    engine = create_engine(f"sqlite:///{path}")
    with Session(engine) as session:
        rows = session.exec(
            select(GameRow)
            .where(GameRow.tournament_id == tid, col(GameRow.revision) > 1)
            .order_by(col(GameRow.revision))
        ).all()
        through_orm = [
            (
                row.revision,
                game_key_of(row),
                record_from_rows(
                    row,
                    [
                        tuple(getattr(move, column) for column in MOVE_COLUMNS)
                        for move in session.exec(
                            select(MoveRow).where(MoveRow.game_id == row.id).order_by(col(MoveRow.ply))
                        ).all()
                    ],
                ),
            )
            for row in rows
        ]
    engine.dispose()
    assert [(game.revision, game.key, game.record) for game in since] == through_orm
    assert [key for _, key, _ in through_orm] == [games[2].key, games[1].key]


def test_a_running_match_stores_every_move_of_a_game_longer_than_one_insert_holds(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    games = schedule()
    # Seed 33 plays 114 plies of English checkers: over two statements' worth of moves.
    lengths = (1, MOVES_PER_INSERT, MOVES_PER_INSERT + 1, 200)
    records = [
        played_game(33, white=planned.white, black=planned.black, plies=plies, winner=Winner.DRAW)
        for planned, plies in zip(games, lengths, strict=False)
    ]
    assert [len(record.moves) for record in records][:3] == [1, MOVES_PER_INSERT, MOVES_PER_INSERT + 1]
    assert len(records[3].moves) > 2 * MOVES_PER_INSERT
    with RunStore.open(path) as store:
        tid = new_tournament(store, PLAYERS)
        for planned, record in zip(games, records, strict=False):
            store.record_game(tid, planned, record)
    with TournamentStore.open(path, create=False) as store:
        stored = sorted(store.games_since(tid), key=lambda game: game.key)
    assert [game.record for game in stored] == records
