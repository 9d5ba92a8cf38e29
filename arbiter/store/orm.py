"""The ORM's view of a checked database: SQLAlchemy engines over the connections `database.py` makes.

Only the commands that read a stored event in depth (reports, PDN, ratings, imports) load SQLAlchemy;
a running match stores and reads through `arbiter.store.run_store` with sqlite3 alone.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import URL, Engine, create_engine, event
from sqlalchemy.engine import Connection

from arbiter.store.database import Connector

_WRITE_OPTION = "arbiter_write"


def orm_engines(path: Path, connect: Connector) -> tuple[Engine, Engine]:
    """The (reader, writer) engines of the database at `path`, whose connections `connect` makes."""
    # The file's URL chooses SQLAlchemy's pool for a file; the connections themselves are `connect`'s.
    reader = create_engine(URL.create("sqlite", database=str(path)), creator=connect)
    event.listen(reader, "begin", _begin)
    writer = reader.execution_options(**{_WRITE_OPTION: True})
    return reader, writer


def _begin(connection: Connection) -> None:
    # The driver runs in autocommit mode (isolation_level None), so the transaction starts here; write
    # transactions start with BEGIN IMMEDIATE so that two writers queue up instead of failing half way.
    immediate = connection.get_execution_options().get(_WRITE_OPTION, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
