"""Opening a tournament database: checking what the file is before touching it, creating the schema,
and the SQLite settings every connection gets.

Settings: write-ahead logging (readers such as `arbiter standings` never block the runner), full
synchronous commits (a committed game survives the process being killed and a power cut), foreign keys
on, and a generous busy timeout. Write transactions start with ``BEGIN IMMEDIATE`` so that two writers
queue up instead of failing half way.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from pathlib import Path

from arbiter.store.errors import (
    StoreDamagedError,
    StoredValuesError,
    StoreError,
    StoreNotFoundError,
    StoreReadOnlyError,
    StoreVersionError,
)
from arbiter.store.schema import APPLICATION, DDL, SCHEMA_VERSION
from arbiter.store.stored_values import value_problems

BUSY_TIMEOUT_SECONDS = 30.0
# A database opened for reading only is checked for damage (SQLite's quick_check, about 5 ms a MiB)
# up to this size; a larger one is checked by `arbiter db check` and by every `arbiter run`.
READER_CHECK_LIMIT_BYTES = 256 * 1024 * 1024
# How many of the problems SQLite finds are named in an error (`arbiter db check` lists them all).
NAMED_PROBLEMS = 5

Connector = Callable[[], sqlite3.Connection]
"""Makes a new connection to one checked database, set up as every connection to it must be."""


def open_database(path: Path, *, create: bool, read_only: bool = False, check: bool = True) -> Connector:
    """How to connect to the database at `path`, after checking it is an arbiter database of this
    schema version, undamaged. With `create`, a missing or empty file becomes a new database.

    With `read_only` the file is only read (it may be on read-only storage); otherwise it must be
    writable. `check` False skips the damage check (a reader that opens the file after every game).
    Only the standard library's sqlite3 is used: a running match never loads the ORM.
    """
    if read_only:
        return _connector(_check_read_only(path, check=check))
    is_new = _check_file(path, create=create, check=check)
    connect = _writable_connector(path)
    if is_new:
        try:
            _create_schema(connect)
        except sqlite3.Error as exc:  # a full disk, say: the file stays empty, made again next time
            raise StoreError(f"{path}: cannot create the database: {exc}") from None
    return connect


def _writable_connector(path: Path) -> Connector:
    def connect() -> sqlite3.Connection:
        connection = sqlite3.connect(
            str(path), timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None, check_same_thread=False
        )
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=FULL")
            connection.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error:
            connection.close()
            raise
        return connection

    return connect


def _check_file(path: Path, *, create: bool, check: bool = True) -> bool:
    """Whether the database must be created; raises when the file is not one this arbiter reads."""
    if not path.exists():
        if not create:
            raise StoreNotFoundError(path)
        if not path.parent.is_dir():
            raise StoreError(f"{path}: cannot create the database, the folder {path.parent} does not exist")
        return True
    _check_regular(path)
    # The file is only ever read through SQLite: closing a descriptor of our own on it would drop the
    # POSIX locks that this process's SQLite connections hold on the same file (fcntl locks belong to
    # the process, not the descriptor), and another writer could then corrupt it.
    if path.stat().st_size == 0:
        if create:
            return True
        raise StoreVersionError(path, None, SCHEMA_VERSION, "the file is empty")
    try:
        return _check_schema(path, path.resolve().as_uri() + "?mode=rw", check=True if check else None)
    except StoreError as exc:
        if _read_only_storage(str(exc)):
            _check_read_only(path, check=False)  # readable, so the file is an arbiter database
            raise StoreReadOnlyError(path, _why_read_only(str(exc))) from None
        raise


def _check_regular(path: Path) -> None:
    if path.is_dir():
        raise StoreVersionError(path, None, SCHEMA_VERSION, "it is a folder")
    if not path.is_file():
        # /dev/null, a pipe or a socket: SQLite would "create" a database in it and lose every game.
        raise StoreVersionError(path, None, SCHEMA_VERSION, "it is not a regular file")


def _check_read_only(path: Path, *, check: bool) -> str:
    """The URI that reads the database at `path` without writing to it, once checked."""
    if not path.exists():
        raise StoreNotFoundError(path)
    _check_regular(path)
    if path.stat().st_size == 0:
        raise StoreVersionError(path, None, SCHEMA_VERSION, "the file is empty")
    base = path.resolve().as_uri() + "?mode=ro"
    try:
        is_new = _check_schema(path, base, check=False if check else None)
        uri = base
    except StoreError as exc:
        if "unable to open database file" not in str(exc):
            raise
        # A write-ahead-log database on read-only storage cannot make its shared-memory file: read it
        # as an unchanging file instead (no writer can be at work on read-only storage).
        uri = base + "&immutable=1"
        is_new = _check_schema(path, uri, check=False if check else None)
    if is_new:
        raise StoreVersionError(path, None, SCHEMA_VERSION, "it has no tables")
    return uri


def _read_only_storage(message: str) -> bool:
    return "readonly database" in message or "unable to open database file" in message


def _why_read_only(message: str) -> str:
    return (
        "SQLite cannot write to it" if "readonly" in message else "its folder or the file cannot be written"
    )


def _connector(uri: str) -> Callable[[], sqlite3.Connection]:
    def connect() -> sqlite3.Connection:
        return sqlite3.connect(
            uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None, check_same_thread=False
        )

    return connect


def check_integrity(connection: sqlite3.Connection, *, full: bool = False, limit: int = 0) -> list[str]:
    """SQLite's own check of every page of the file: the problems found (none: the file is sound).

    `full` runs integrity_check (also compares every index with its table), otherwise quick_check."""
    pragma = "integrity_check" if full else "quick_check"
    rows = connection.execute(f"PRAGMA {pragma}({limit})" if limit else f"PRAGMA {pragma}").fetchall()
    # SQLite may put several problems in one row, under a "*** in database main ***" heading.
    problems = [line for row in rows for line in str(row[0]).splitlines() if not line.startswith("***")]
    return [] if problems == ["ok"] else problems


def _check_schema(path: Path, uri: str, *, check: bool | None) -> bool:
    """Whether the file has no tables yet; raises when it is not an arbiter database of this version.

    `check`: True checks the file for damage, False does so up to `READER_CHECK_LIMIT_BYTES`, None not.
    """
    # A plain connection that changes nothing: the file's journal mode is left alone until the file is
    # known to be an arbiter database.
    try:
        connection = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open the database: {exc}") from None
    try:
        tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            return True
        if "meta" not in tables:
            raise StoreVersionError(path, None, SCHEMA_VERSION, "it has no meta table")
        meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
        if check or (check is False and path.stat().st_size <= READER_CHECK_LIMIT_BYTES):
            problems = check_integrity(connection, limit=NAMED_PROBLEMS)
            if problems:
                raise StoreDamagedError(path, problems)
            if _this_version(meta):
                values = value_problems(connection, limit=NAMED_PROBLEMS)
                if values:
                    raise StoredValuesError(path, values)
        if "mode=rw" in uri and meta.get("application") == APPLICATION:
            _check_writable(connection)
    except UnicodeDecodeError as exc:
        raise StoreDamagedError(path, [sqlite_message(exc)]) from None
    except sqlite3.DatabaseError as exc:
        if str(exc) == "file is not a database":
            raise StoreVersionError(path, None, SCHEMA_VERSION, "not an SQLite file") from None
        if "malformed" in str(exc):
            raise StoreDamagedError(path, [str(exc)]) from None
        if _read_only_storage(str(exc)):
            raise StoreError(f"{path}: {exc}") from None
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


def _this_version(meta: dict[str, str]) -> bool:
    """Whether the meta table names an arbiter database of this schema version (whose columns the
    value check knows)."""
    return meta.get("application") == APPLICATION and meta.get("schema_version") == str(SCHEMA_VERSION)


def sqlite_message(error: UnicodeDecodeError) -> str:
    """The text of an SQLite error that Python could not decode: SQLite quotes the bytes of a damaged
    schema in it (``malformed database schema (\\xf7qlite_autoindex...)``), shown here escaped."""
    if isinstance(error.object, bytes):
        return error.object.decode("utf-8", "backslashreplace")
    return str(error)


def _check_writable(connection: sqlite3.Connection) -> None:
    """Raise SQLite's read-only error now, rather than after the first game, when the file (or its
    storage) cannot be written; a write that changes nothing, rolled back."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        connection.execute("UPDATE meta SET value = value WHERE key = 'application'")
    finally:
        connection.execute("ROLLBACK")


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


def _create_schema(connect: Connector) -> None:
    """The tables of `arbiter.store.schema` and the meta rows, in one transaction."""
    connection = connect()
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            for statement in DDL:
                connection.execute(statement)
            connection.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [("application", APPLICATION), ("schema_version", str(SCHEMA_VERSION))],
            )
            connection.execute("COMMIT")
        except BaseException:
            # SQLite rolls back itself after a write that failed (a full disk): nothing left to roll back.
            with contextlib.suppress(sqlite3.Error):
                connection.execute("ROLLBACK")
            raise
    finally:
        connection.close()


def damage_report(path: Path) -> list[str]:
    """Every problem SQLite's full integrity_check finds in the arbiter database at `path`, read
    without writing to it (an empty list: the file is sound). Raises `StoreError` when the file is
    missing or not an arbiter database."""
    try:
        uri = _check_read_only(path, check=False)
    except StoreDamagedError:
        uri = path.resolve().as_uri() + "?mode=ro"  # damage in the schema itself: check what is there
    connection = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
    try:
        return check_integrity(connection, full=True)
    except UnicodeDecodeError as exc:
        return [sqlite_message(exc)]  # a damaged schema, which SQLite cannot get past
    except sqlite3.DatabaseError:
        pass  # the full check stops at damage it cannot step over; the quick one lists the pages
    try:
        # Past some damage SQLite gives up the whole check: ask for fewer problems until it answers.
        for limit in (1000, 100, 10, 1):
            with contextlib.suppress(sqlite3.DatabaseError):
                return check_integrity(connection, limit=limit) or ["SQLite finds the file malformed"]
        return ["SQLite finds the file malformed and cannot say where"]
    finally:
        connection.close()


def stored_value_report(path: Path, limit: int = 1000) -> list[str]:
    """Up to `limit` values of a sound arbiter database at `path` that arbiter never writes, each
    with its row and column, read without writing to it (an empty list: none)."""
    uri = _check_read_only(path, check=False)
    connection = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
    try:
        return value_problems(connection, limit=limit)
    finally:
        connection.close()
