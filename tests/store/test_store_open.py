"""Opening a tournament database: new files, WAL mode, schema versions, files that are not ours."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from store_samples import new_tournament

from arbiter.store import (
    SCHEMA_VERSION,
    StoreError,
    StoreNotFoundError,
    StoreVersionError,
    TournamentStore,
)


def meta_of(path: Path) -> dict[str, str]:
    with closing(sqlite3.connect(path)) as connection:
        return dict(connection.execute("SELECT key, value FROM meta").fetchall())


def test_a_new_database_is_created_in_wal_mode_with_its_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with TournamentStore.open(path) as store:
        new_tournament(store)
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        connection.close()
    assert {"meta", "tournament", "engine", "game", "move", "event"} <= tables
    assert meta_of(path) == {"application": "arbiter", "schema_version": str(SCHEMA_VERSION)}


def test_reopening_a_database_finds_what_was_stored(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with TournamentStore.open(path) as store:
        tid = new_tournament(store, name="Spring open")
    with TournamentStore.open(path, create=False) as store:
        assert [(info.id, info.name) for info in store.tournaments()] == [(tid, "Spring open")]


def test_a_missing_database_is_not_created_when_only_reading(tmp_path: Path) -> None:
    path = tmp_path / "absent.db"
    with pytest.raises(StoreNotFoundError) as caught:
        TournamentStore.open(path, create=False)
    assert str(path) in str(caught.value)
    assert not path.exists()


def test_a_database_in_a_missing_folder_names_the_folder(tmp_path: Path) -> None:
    path = tmp_path / "no-such-folder" / "t.db"
    with pytest.raises(StoreError, match="no-such-folder"):
        TournamentStore.open(path)


def test_a_database_of_another_schema_version_is_refused_with_both_versions(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with TournamentStore.open(path) as store:
        new_tournament(store)
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
        connection.commit()
    with pytest.raises(StoreVersionError) as caught:
        TournamentStore.open(path)
    error = caught.value
    assert (error.path, error.found, error.expected) == (path, 99, SCHEMA_VERSION)
    assert str(path) in str(error)
    assert "99" in str(error) and str(SCHEMA_VERSION) in str(error)


def test_an_sqlite_file_of_another_program_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE notes (text TEXT)")
    connection.execute("INSERT INTO notes VALUES ('keep me')")
    connection.commit()
    connection.close()
    before = path.read_bytes()
    with pytest.raises(StoreVersionError) as caught:
        TournamentStore.open(path)
    assert caught.value.found is None
    assert caught.value.expected == SCHEMA_VERSION
    assert "not an arbiter database" in str(caught.value)
    # Not switched to WAL, no tables added: the file is byte for byte what it was.
    assert path.read_bytes() == before


def test_a_meta_table_of_another_application_is_not_taken_for_ours(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    connection.execute("INSERT INTO meta VALUES ('schema_version', '1')")
    connection.commit()
    connection.close()
    with pytest.raises(StoreVersionError, match="not an arbiter database") as caught:
        TournamentStore.open(path)
    assert caught.value.found is None


def test_a_file_that_is_not_sqlite_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn"
    path.write_text('[Event "Club"]\n1. 11-15 23-19 *\n', encoding="utf-8")
    with pytest.raises(StoreVersionError, match="not an SQLite file") as caught:
        TournamentStore.open(path)
    assert caught.value.path == path
    assert path.read_text(encoding="utf-8").startswith("[Event")


def test_an_empty_file_becomes_a_new_database_but_is_refused_for_reading(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    with pytest.raises(StoreVersionError, match="empty"):
        TournamentStore.open(path, create=False)
    with TournamentStore.open(path) as store:
        assert store.tournaments() == []
    assert meta_of(path)["schema_version"] == str(SCHEMA_VERSION)


def posix_locks_held_on(path: Path) -> list[str]:
    """This process's POSIX (fcntl) locks on ``path``'s file, from /proc/locks."""
    inode = path.stat().st_ino
    pid = str(os.getpid())
    held = []
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        # "1: POSIX  ADVISORY  READ 1234 08:01:5678 1073741826 1073741826"
        ours = len(fields) >= 8 and fields[1] == "POSIX" and fields[4] == pid
        if ours and int(fields[5].rsplit(":", 1)[1]) == inode:
            held.append(" ".join(fields[3:]))
    return held


def test_opening_the_database_again_keeps_the_locks_of_connections_already_open(tmp_path: Path) -> None:
    # A runner holds the database open while the report refresher opens it once more in the same
    # process; the second opening must not drop the first one's locks (closing any descriptor of a file
    # drops every fcntl lock the process holds on it), or another process could write under it.
    path = tmp_path / "t.db"
    with TournamentStore.open(path) as store:
        new_tournament(store)
    reader = sqlite3.connect(path)
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM meta").fetchall()
        before = posix_locks_held_on(path)
        assert before, "a reading connection holds a shared lock on the database file"
        with TournamentStore.open(path):
            pass
        assert posix_locks_held_on(path) == before
    finally:
        reader.close()
