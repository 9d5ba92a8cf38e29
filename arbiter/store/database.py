"""Opening a tournament database: checking what the file is before touching it, creating the schema,
and the SQLite settings every connection gets.

Settings: write-ahead logging (readers such as `arbiter standings` never block the runner), full
synchronous commits (a committed game survives the process being killed and a power cut), foreign keys
on, and a generous busy timeout. Write transactions start with ``BEGIN IMMEDIATE`` so that two writers
queue up instead of failing half way.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Engine, create_engine, event
from sqlalchemy.engine import Connection
from sqlmodel import Session

from arbiter.store.errors import StoreError, StoreNotFoundError, StoreVersionError
from arbiter.store.tables import APPLICATION, SCHEMA_VERSION, MetaRow, StoreModel

BUSY_TIMEOUT_SECONDS = 30.0
_WRITE_OPTION = "arbiter_write"


def open_engines(path: Path, *, create: bool) -> tuple[Engine, Engine]:
    """The (reader, writer) engines of the database at `path`, after checking it is an arbiter database
    of this schema version. With `create`, a missing or empty file becomes a new database.
    """
    is_new = _check_file(path, create=create)
    reader = create_engine(
        URL.create("sqlite", database=str(path)),
        connect_args={"timeout": BUSY_TIMEOUT_SECONDS, "isolation_level": None, "check_same_thread": False},
    )
    event.listen(reader, "connect", _configure_connection)
    event.listen(reader, "begin", _begin)
    writer = reader.execution_options(**{_WRITE_OPTION: True})
    if is_new:
        _create_schema(writer)
    return reader, writer


def _check_file(path: Path, *, create: bool) -> bool:
    """Whether the database must be created; raises when the file is not one this arbiter reads."""
    if not path.exists():
        if not create:
            raise StoreNotFoundError(path)
        if not path.parent.is_dir():
            raise StoreError(f"{path}: cannot create the database, the folder {path.parent} does not exist")
        return True
    if path.is_dir():
        raise StoreVersionError(path, None, SCHEMA_VERSION, "it is a folder")
    # The file is only ever read through SQLite: closing a descriptor of our own on it would drop the
    # POSIX locks that this process's SQLite connections hold on the same file (fcntl locks belong to
    # the process, not the descriptor), and another writer could then corrupt it.
    if path.stat().st_size == 0:
        if create:
            return True
        raise StoreVersionError(path, None, SCHEMA_VERSION, "the file is empty")
    return _check_schema(path)


def _check_schema(path: Path) -> bool:
    # A plain read-write connection that changes nothing: the file's journal mode is left alone until
    # the file is known to be an arbiter database.
    try:
        uri = path.resolve().as_uri() + "?mode=rw"
        connection = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open the database: {exc}") from None
    try:
        tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            return True
        if MetaRow.__tablename__ not in tables:
            raise StoreVersionError(path, None, SCHEMA_VERSION, "it has no meta table")
        meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.DatabaseError as exc:
        if str(exc) == "file is not a database":
            raise StoreVersionError(path, None, SCHEMA_VERSION, "not an SQLite file") from None
        raise StoreVersionError(path, None, SCHEMA_VERSION, f"SQLite cannot read it: {exc}") from None
    finally:
        connection.close()
    if meta.get("application") != APPLICATION:
        raise StoreVersionError(path, None, SCHEMA_VERSION, "its meta table does not name the arbiter")
    version_text = meta.get("schema_version", "")
    if not version_text.isdigit():
        raise StoreVersionError(path, None, SCHEMA_VERSION, f"schema_version is {version_text!r}")
    version = int(version_text)
    if version == 1:
        _migrate_from_1(path)
        return False
    if version != SCHEMA_VERSION:
        raise StoreVersionError(path, version, SCHEMA_VERSION)
    return False


# Version 2 gave each game its revision (the order games were stored) and each side's move counts.
_GAME_COLUMNS_2 = (
    "revision INTEGER NOT NULL DEFAULT 0",
    "white_timed INTEGER NOT NULL DEFAULT 0",
    "white_seconds FLOAT NOT NULL DEFAULT 0",
    "white_depths INTEGER NOT NULL DEFAULT 0",
    "white_depth_sum INTEGER NOT NULL DEFAULT 0",
    "black_timed INTEGER NOT NULL DEFAULT 0",
    "black_seconds FLOAT NOT NULL DEFAULT 0",
    "black_depths INTEGER NOT NULL DEFAULT 0",
    "black_depth_sum INTEGER NOT NULL DEFAULT 0",
)
_SIDE_STATS = """
UPDATE game SET
  {side}_timed = (SELECT count(elapsed) FROM move WHERE game_id = game.id AND side = '{side}'
                  AND NOT from_opening),
  {side}_seconds = (SELECT coalesce(sum(elapsed), 0) FROM move WHERE game_id = game.id
                    AND side = '{side}' AND NOT from_opening),
  {side}_depths = (SELECT count(depth) FROM move WHERE game_id = game.id AND side = '{side}'
                   AND NOT from_opening),
  {side}_depth_sum = (SELECT coalesce(sum(depth), 0) FROM move WHERE game_id = game.id
                      AND side = '{side}' AND NOT from_opening)
"""


def _migrate_from_1(path: Path) -> None:
    """Bring a version 1 database to version 2 in one transaction: the new columns, filled from the
    games and moves already stored (the row id stands for the order games were stored)."""
    connection = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
    try:
        connection.execute("BEGIN IMMEDIATE")
        for column in _GAME_COLUMNS_2:
            connection.execute(f"ALTER TABLE game ADD COLUMN {column}")
        connection.execute("UPDATE game SET revision = id")
        for side in ("white", "black"):
            connection.execute(_SIDE_STATS.format(side=side))
        connection.execute("CREATE INDEX ix_game_revision ON game (tournament_id, revision)")
        connection.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
        connection.execute("COMMIT")
    except sqlite3.Error as exc:
        connection.execute("ROLLBACK")
        raise StoreError(f"{path}: cannot bring the database from schema version 1 to 2: {exc}") from None
    finally:
        connection.close()


def _create_schema(writer: Engine) -> None:
    with Session(writer) as session, session.begin():
        StoreModel.metadata.create_all(session.connection())
        session.add(MetaRow(key="application", value=APPLICATION))
        session.add(MetaRow(key="schema_version", value=str(SCHEMA_VERSION)))


def _configure_connection(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


def _begin(connection: Connection) -> None:
    # The driver runs in autocommit mode (isolation_level None), so the transaction starts here.
    immediate = connection.get_execution_options().get(_WRITE_OPTION, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
