"""A database whose pages are sound but whose values are not what arbiter writes (a hand edit, or damage
SQLite's own checks cannot see: a changed type byte, a broken JSON text) is refused when it is opened,
by every command, naming the row and the column; `arbiter db check` lists every such value. So is a
schema damaged into bytes that are not UTF-8. Nothing is changed in the file."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest
from bad_input_support import QUICK_EVENT, arbiter, assert_refused, make_stored_event


@pytest.fixture(scope="module")
def stored_event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_stored_event(tmp_path_factory.mktemp("stored"))


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def every_command(database: Path, folder: Path) -> list[list[str | Path]]:
    """The commands that read a database, and the run that resumes it (`stored.toml`)."""
    (folder / "stored.toml").write_text(QUICK_EVENT, encoding="utf-8")
    return [
        ["standings", database],
        ["report", database, "--out", folder / "site"],
        ["pdn", "export", database],
        ["run", "stored.toml"],
    ]


# (table, the row's SQL condition, column, value, how the message names the row and the column). Each
# stopped at least one command with a traceback: a KeyError, a TypeError, a JSON or date parse error.
EDITS = {
    "a result that is no result": ("game", "id = 1", "winner", "purple", "game r1-b1-g1 (id 1): winner"),
    "a game number as text": ("game", "id = 2", "round", "x", "game r1-b1-g2 (id 2): round holds 'x'"),
    "a move count as text": ("game", "id = 1", "white_timed", "x", "game r1-b1-g1 (id 1): white_timed"),
    "an event state that is none": ("tournament", "id = 1", "status", "purple", "tournament 'stored event'"),
    "a date that is none": ("tournament", "id = 1", "created_at", "Tuesday", "created_at holds 'Tuesday'"),
    "points as text": ("tournament", "id = 1", "points_win", "x", "points_win"),
    "broken JSON of an engine": ("engine", "seat = 1", "params", "{broken", "params holds '{broken'"),
}


@pytest.mark.parametrize("case", sorted(EDITS))
def test_a_value_arbiter_never_writes_is_refused_on_opening_naming_its_row_and_column(
    case: str, tmp_path: Path, stored_event: Path
) -> None:
    table, row, column, value, named = EDITS[case]
    database = tmp_path / "event.sqlite"
    shutil.copy(stored_event, database)
    with sqlite3.connect(database) as db:
        assert db.execute(f"UPDATE {table} SET {column} = ? WHERE {row}", (value,)).rowcount == 1
    db.close()
    before = digest(database)
    for command in every_command(database, tmp_path):
        ran = arbiter(*command, cwd=tmp_path)
        assert_refused(ran, "values arbiter never writes", named, code=1)
        assert digest(database) == before, command
    check = arbiter("db", "check", database, cwd=tmp_path)
    assert_refused(check, named, "value(s) arbiter never writes", code=1)
    assert digest(database) == before


def test_db_check_lists_every_value_arbiter_never_writes(tmp_path: Path, stored_event: Path) -> None:
    database = tmp_path / "event.sqlite"
    shutil.copy(stored_event, database)
    with sqlite3.connect(database) as db:
        db.execute("UPDATE game SET termination = 'bored' WHERE id = 1")
        db.execute("UPDATE game SET tags = '[1]' WHERE id = 2")
        db.execute("UPDATE engine SET identified_at = NULL, id_extra = 'x' WHERE seat = 2")
    db.close()
    check = arbiter("db", "check", database, cwd=tmp_path)
    assert_refused(
        check,
        "game r1-b1-g1 (id 1): termination holds 'bored', not one of",
        "game r1-b1-g2 (id 2): tags holds '[1]', not a JSON object or NULL",
        "player 'greedy' of tournament 1: id_extra holds 'x', not a JSON object or NULL",
        "3 value(s) arbiter never writes",
        code=1,
    )


def test_a_schema_damaged_into_bytes_that_are_not_utf8_is_damage_for_every_command(
    tmp_path: Path, stored_event: Path
) -> None:
    # SQLite quotes the damaged name in its error, which Python cannot decode: a UnicodeDecodeError
    # went up through every command, `db check` included.
    database = tmp_path / "event.sqlite"
    shutil.copy(stored_event, database)
    data = bytearray(database.read_bytes())
    at = data.find(b"sqlite_autoindex_game_1")
    assert at > 0
    data[at] = 0xF7
    database.write_bytes(bytes(data))
    before = digest(database)
    for command in [*every_command(database, tmp_path), ["db", "check", database]]:
        ran = arbiter(*command, cwd=tmp_path)
        assert_refused(ran, "malformed database schema (\\xf7qlite_autoindex_game_1)", code=1)
        assert digest(database) == before, command


def test_a_stored_start_position_that_does_not_read_is_exported_as_stored_with_a_warning(
    tmp_path: Path, stored_event: Path
) -> None:
    # A text column holds text, so the check on opening lets it through; the PDN writer read the FEN
    # again after the replay had stopped on it, and a FenError went up.
    database = tmp_path / "event.sqlite"
    shutil.copy(stored_event, database)
    with sqlite3.connect(database) as db:
        db.execute("UPDATE game SET start_fen = 'purple' WHERE id = 2")
    db.close()
    before = digest(database)
    export = arbiter("pdn", "export", database, cwd=tmp_path)
    assert_refused(export, "game r1-b1-g2: start position 'purple'", "written as stored", code=1)
    assert '[FEN "purple"]' in export.out
    assert export.out.count("[Event ") == 2
    report = arbiter("report", database, "--out", tmp_path / "site", cwd=tmp_path)
    assert report.code == 0 and "Traceback" not in report.out + report.err, report.out + report.err
    assert digest(database) == before


def test_every_column_of_the_checked_tables_has_its_rule(stored_event: Path) -> None:
    # The rules are read from the schema's statements: a column the reading missed would go unchecked.
    from arbiter.store.stored_values import ROW_LABELS, table_rules

    with sqlite3.connect(f"file:{stored_event}?mode=ro", uri=True) as db:
        for table in ROW_LABELS:
            columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            ruled = [rule.column for rule in table_rules(table, json=True)]
            assert ruled[: len(columns)] == columns, table
    db.close()
