"""A path that does not lead to an arbiter database, or a tournament the database does not hold, is a
wrong argument for every command that reads one: exit status 2, what is wrong named, nothing created
or changed. (A damaged, read-only or locked database is trouble with the right file: exit status 1, in
test_damaged_storage.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from bad_input_support import QUICK_EVENT, arbiter, assert_refused, make_stored_event, stored_rows

WRONG_INPUT = 2


def database_commands(database: Path, folder: Path) -> list[list[str | Path]]:
    """Every command that reads or writes a tournament database, given ``database``."""
    return [
        ["standings", database],
        ["ratings", database],
        ["stats", "sprt", database],
        ["report", database, "--out", folder / "site"],
        ["pdn", "export", database],
        ["db", "check", database],
        ["match", "random", "greedy", "--tc", "depth=1", "--games", "2", "--db", database],
    ]


@pytest.mark.parametrize("kind", ["missing", "text file", "other SQLite file"])
def test_a_path_that_is_not_an_arbiter_database_is_a_wrong_argument_for_every_command(
    tmp_path: Path, kind: str
) -> None:
    database = tmp_path / "event.sqlite"
    if kind == "text file":
        database.write_text("name = 'not a database'\n", encoding="utf-8")
    elif kind == "other SQLite file":
        import sqlite3

        with sqlite3.connect(database) as other:
            other.execute("CREATE TABLE notes (line TEXT)")
    before = database.read_bytes() if database.exists() else None
    for command in database_commands(database, tmp_path):
        if kind == "missing" and command[0] == "match":
            continue  # a match creates its database
        said = "no such tournament database" if kind == "missing" else "not an arbiter database"
        assert_refused(arbiter(*command, cwd=tmp_path), str(database), said, code=WRONG_INPUT)
        assert (database.read_bytes() if database.exists() else None) == before, command
    assert not (tmp_path / "site").exists()


def test_a_tournament_the_database_does_not_hold_is_a_wrong_argument(tmp_path: Path) -> None:
    database = make_stored_event(tmp_path / "stored")
    before = stored_rows(database)
    for command in (
        ["standings", database, "-t", "Winter cup"],
        ["stats", "sprt", database, "-t", "Winter cup"],
        ["report", database, "--out", tmp_path / "site", "-t", "Winter cup"],
        ["pdn", "export", database, "-t", "Winter cup"],
    ):
        assert_refused(arbiter(*command, cwd=tmp_path), "no tournament 'Winter cup'", code=WRONG_INPUT)
    assert stored_rows(database) == before


def test_a_run_whose_database_is_not_an_arbiter_database_starts_no_engine(tmp_path: Path) -> None:
    (tmp_path / "event.toml").write_text(QUICK_EVENT, encoding="utf-8")
    (tmp_path / "event.sqlite").write_text("notes\n", encoding="utf-8")
    ran = arbiter("run", "event.toml", cwd=tmp_path)
    assert_refused(ran, "event.sqlite: not an arbiter database", code=WRONG_INPUT)
    assert (tmp_path / "event.sqlite").read_text(encoding="utf-8") == "notes\n"
    assert not (tmp_path / "event-logs").exists(), "no engine was started"


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("/", "--db '/' names no file; give the database's file, such as match.sqlite"),
        (".", "--db '.' names no file"),
        ("", "--db is empty: give a path"),  # an unset shell variable: not read as "."
    ],
)
def test_a_database_path_that_names_no_file_is_refused_before_anything_is_made(
    tmp_path: Path, given: str, said: str
) -> None:
    ran = arbiter("match", "random", "greedy", "--tc", "depth=1", "--db", given, cwd=tmp_path)
    assert_refused(ran, said, code=2)
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "event.toml").write_text(QUICK_EVENT, encoding="utf-8")
    assert_refused(arbiter("run", "event.toml", "--db", given, cwd=tmp_path), said, code=2)
    setting = QUICK_EVENT.replace('"event.sqlite"', repr(given).replace("'", '"'))
    (tmp_path / "event.toml").write_text(setting, encoding="utf-8")
    in_file = "database: is empty: give a path" if not given else said.removeprefix("--db ")
    assert_refused(arbiter("run", "event.toml", cwd=tmp_path), "event.toml:", in_file, code=2)
    assert [path.name for path in tmp_path.iterdir()] == ["event.toml"]


def test_an_empty_report_folder_is_refused_not_read_as_the_current_folder(tmp_path: Path) -> None:
    ran = arbiter("match", "random", "greedy", "--tc", "depth=1", "--report", "", cwd=tmp_path)
    assert_refused(ran, "--report is empty: give a path", code=2)
    (tmp_path / "event.toml").write_text(QUICK_EVENT, encoding="utf-8")
    assert_refused(arbiter("run", "event.toml", "--report", "", cwd=tmp_path), "--report is empty", code=2)
    with_report = QUICK_EVENT.replace(
        'database = "event.sqlite"\n', 'database = "event.sqlite"\nreport = ""\n'
    )
    (tmp_path / "event.toml").write_text(with_report, encoding="utf-8")
    assert_refused(arbiter("run", "event.toml", cwd=tmp_path), "event.toml:", "report: is empty", code=2)
    assert [path.name for path in tmp_path.iterdir()] == ["event.toml"], "no site among the files"
