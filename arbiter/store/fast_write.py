"""Storing a finished game the runner has just played, straight through SQLite.

The runner stores every game as it ends, one transaction each; through the ORM that cost several
milliseconds of CPU a game, more than the referee spends on all its moves. The common case (a new key in
a known tournament) is written here with a few plain statements inside the caller's transaction; any
other case (an unknown tournament, a key already stored) is left to the caller (`RunStore.record_game`),
which knows what to say about it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from arbiter.referee.record import GameRecord, MoveRecord
from arbiter.store.codec import MOVE_ROW_COLUMNS, game_columns, move_row
from arbiter.store.events import Event, now
from arbiter.store.records import ScheduledGame

_INSERTS: dict[tuple[str, tuple[str, ...]], str] = {}


def _insert_sql(table: str, names: tuple[str, ...]) -> str:
    sql = _INSERTS.get((table, names))
    if sql is None:
        sql = f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
        _INSERTS[(table, names)] = sql
    return sql


# A game's moves go in with as few statements as SQLite's smallest limit on parameters (999, before
# 3.32) allows, not one statement run per move: the interpreter lock is let go and taken back around
# each run, and while games are being played each taking back waits on the event loop's thread.
MOVES_PER_INSERT = 999 // len(MOVE_ROW_COLUMNS)
_MOVE_INSERTS: dict[int, str] = {}


def _moves_insert_sql(rows: int) -> str:
    """The insert of ``rows`` moves in one statement."""
    sql = _MOVE_INSERTS.get(rows)
    if sql is None:
        one = _insert_sql("move", MOVE_ROW_COLUMNS)  # ... VALUES (?, ..., ?): the rest repeat its group
        sql = one + (", " + one[one.rindex("(") :]) * (rows - 1)
        _MOVE_INSERTS[rows] = sql
    return sql


def insert_moves(connection: sqlite3.Connection, game_id: int, moves: Sequence[MoveRecord]) -> None:
    """Insert a game's moves, ``MOVES_PER_INSERT`` to a statement."""
    for start in range(0, len(moves), MOVES_PER_INSERT):
        chunk = moves[start : start + MOVES_PER_INSERT]
        values: list[Any] = []
        for move in chunk:
            values.extend(move_row(game_id, move))
        connection.execute(_moves_insert_sql(len(chunk)), values)


def insert_row(connection: sqlite3.Connection, table: str, row: dict[str, Any]) -> int:
    """Insert one row; its row id."""
    rowid = connection.execute(_insert_sql(table, tuple(row)), tuple(row.values())).lastrowid
    assert rowid is not None
    return rowid


def insert_rows(connection: sqlite3.Connection, table: str, rows: Sequence[dict[str, Any]]) -> None:
    """Insert rows that name the same columns, in one statement run for each."""
    if rows:
        connection.executemany(_insert_sql(table, tuple(rows[0])), [tuple(row.values()) for row in rows])


def insert_new_game(
    connection: sqlite3.Connection,
    tournament_id: int,
    planned: ScheduledGame,
    record: GameRecord,
    events: Sequence[dict[str, Any]],
) -> int | None:
    """Insert a game whose key the tournament has not stored yet, with its moves and ``events`` (rows of
    the event table without their game id); return its row id. None, with nothing written, when the
    tournament does not exist or already holds the key."""
    key = str(planned.key)
    found = connection.execute("SELECT 1 FROM tournament WHERE id = ?", (tournament_id,)).fetchone()
    if found is None:
        return None
    taken = connection.execute(
        "SELECT 1 FROM game WHERE tournament_id = ? AND game_key = ?", (tournament_id, key)
    ).fetchone()
    if taken is not None:
        return None
    (highest,) = connection.execute(
        "SELECT max(revision) FROM game WHERE tournament_id = ?", (tournament_id,)
    ).fetchone()
    columns = game_columns(tournament_id, planned, record)
    columns["revision"] = int(highest or 0) + 1
    game_id = insert_row(connection, "game", columns)
    if record.moves:
        insert_moves(connection, game_id, record.moves)
    insert_rows(connection, "event", [{**event, "game_id": game_id} for event in events])
    connection.execute(
        "UPDATE tournament SET updated_at = ? WHERE id = ?", (now().isoformat(), tournament_id)
    )
    return game_id


def event_row(tournament_id: int, event: Event) -> dict[str, Any]:
    return {
        "tournament_id": tournament_id,
        "engine": event.engine,
        "kind": event.kind.value,
        "message": event.message,
        "at": event.at.isoformat(),
    }
