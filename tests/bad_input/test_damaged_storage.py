"""Storage that cannot be used as asked: a read-only database (read, never played), a damaged one
(refused, the damage named; `arbiter db check` lists it), a full disk (a message and the command that
resumes), two runs at once (the second refuses, naming the first)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from bad_input_support import (
    ARBITER,
    QUICK_EVENT,
    arbiter,
    assert_refused,
    finished_games,
    make_stored_event,
    stored_rows,
    write_random_games,
)


@pytest.fixture(scope="module")
def stored_event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_stored_event(tmp_path_factory.mktemp("stored"))


# --- read-only ------------------------------------------------------------------------------------


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """The folder and its files made read-only: by their modes, and for root (whom modes do not stop)
    by the immutable attribute, skipping where it cannot be set."""
    paths = [*folder.iterdir(), folder]
    for path in paths:
        path.chmod(0o555 if path.is_dir() else 0o444)
    immutable = False
    try:
        if os.geteuid() == 0:
            done = subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True, check=False)
            if done.returncode != 0:
                pytest.skip(f"root writes anything and chattr +i fails here: {done.stderr!r}")
            immutable = True
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", *map(str, paths)], capture_output=True, check=False)
        for path in paths:
            path.chmod(0o755 if path.is_dir() else 0o644)


def test_a_read_only_database_is_read_by_every_reading_command_and_run_says_it_is_read_only(
    tmp_path: Path, stored_event: Path
) -> None:
    folder = tmp_path / "archive"
    folder.mkdir()
    database = folder / "event.sqlite"
    shutil.copy(stored_event, database)
    (tmp_path / "stored.toml").write_text(QUICK_EVENT.replace('"event.sqlite"', '"archive/event.sqlite"'))
    before = stored_rows(database)
    with read_only(folder):
        present = sorted(path.name for path in folder.iterdir())
        standings = arbiter("standings", database, cwd=tmp_path)
        assert standings.code == 0, standings.err
        assert "stored event" in standings.out and "greedy" in standings.out
        export = arbiter("pdn", "export", database, cwd=tmp_path)
        assert export.code == 0, export.err
        assert export.out.count('[Event "stored event"]') == 2
        report = arbiter("report", database, "--out", tmp_path / "site", cwd=tmp_path)
        assert report.code == 0, report.err
        assert (tmp_path / "site" / "index.html").is_file()
        assert_refused(
            arbiter("run", "stored.toml", cwd=tmp_path),
            "archive/event.sqlite: the database is read-only",
            code=1,
        )
        assert sorted(path.name for path in folder.iterdir()) == present, "nothing was made beside it"
    assert stored_rows(database) == before


# --- damage ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sizeable_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database of 300 imported games (a few hundred pages)."""
    folder = tmp_path_factory.mktemp("sizeable")
    write_random_games(folder / "games.pdn", 300)
    ran = arbiter("pdn", "import", "games.pdn", "--db", "games.sqlite", cwd=folder)
    assert ran.code == 0, f"{ran.out}\n{ran.err}"
    return folder / "games.sqlite"


def damage(database: Path) -> None:
    """Overwrite most of one page half way through the file, as a bad disk block would; from the page's
    start, so its header is hit even when the page holds little (damage to a page's unused space is
    invisible to SQLite's checks, and to every reader)."""
    page = 4096
    pages = database.stat().st_size // page
    with database.open("r+b") as raw:
        raw.seek(page * (pages // 2))
        raw.write(b"\xa5" * 3000)


def test_a_damaged_database_is_refused_by_every_command_and_db_check_lists_the_damage(
    tmp_path: Path, sizeable_database: Path
) -> None:
    database = tmp_path / "games.sqlite"
    shutil.copy(sizeable_database, database)
    sound = arbiter("db", "check", database, cwd=tmp_path)
    assert sound.code == 0 and "sound" in sound.out, sound.out + sound.err
    damage(database)
    for command in (
        ["standings", database],
        ["report", database, "--out", tmp_path / "site"],
        ["pdn", "export", database],
        ["pdn", "import", tmp_path / "more.pdn", "--db", database],
    ):
        if command[0] == "pdn" and command[1] == "import":
            write_random_games(tmp_path / "more.pdn", 2, seed=7)
        ran = arbiter(*command, cwd=tmp_path)
        assert_refused(ran, f"{database}: the database is damaged", f"arbiter db check {database}", code=1)
    check = arbiter("db", "check", database, cwd=tmp_path)
    assert check.code == 1
    assert "Traceback" not in check.out + check.err
    assert f"{database}: damaged" in check.out
    assert any(line.startswith(f"{database}: ") and "age" in line for line in check.out.splitlines()[:-1])


def test_a_run_on_a_damaged_database_is_refused_before_any_game(tmp_path: Path, stored_event: Path) -> None:
    # The small event's file: damage its last page (the most recent data), then try to resume it. The
    # damage starts at the page's header: the last page may be an index page with no cells yet, whose
    # unused space no check can see.
    database = tmp_path / "event.sqlite"
    shutil.copy(stored_event, database)
    (tmp_path / "stored.toml").write_text(QUICK_EVENT, encoding="utf-8")
    size = database.stat().st_size
    with database.open("r+b") as raw:
        raw.seek(size - 4096)
        raw.write(b"\xa5" * 3000)
    ran = arbiter("run", "stored.toml", cwd=tmp_path)
    assert_refused(ran, "event.sqlite", "damaged", code=1)


# --- a full disk ----------------------------------------------------------------------------------

FULL_DISK_SCRIPT = """
set -u
mount -t tmpfs -o size=3m tmpfs "$DISK" || exit 77
cd "$DISK"
cp "$OUT/event.toml" .
# Fill the disk but for a few pages: the first game or two fit, then the database is full.
dd if=/dev/zero of=filler bs=4k count=$((3 * 256 - 120)) 2>/dev/null
{arbiter} run event.toml > "$OUT/first.out" 2> "$OUT/first.err"
echo $? > "$OUT/first.code"
cp event.sqlite* "$OUT/after-full/"
rm filler
{arbiter} run event.toml > "$OUT/second.out" 2> "$OUT/second.err"
echo $? > "$OUT/second.code"
cp event.sqlite* "$OUT/after-resume/"
"""


def test_a_full_disk_keeps_the_games_and_says_how_to_resume(tmp_path: Path) -> None:
    if shutil.which("unshare") is None:
        pytest.skip("no unshare to mount a small disk")
    (tmp_path / "event.toml").write_text(QUICK_EVENT.replace("games_per_encounter = 2", "cycles = 40"))
    for name in ("disk", "after-full", "after-resume"):
        (tmp_path / name).mkdir()
    script = FULL_DISK_SCRIPT.format(arbiter=" ".join(ARBITER))
    env = {**os.environ, "DISK": str(tmp_path / "disk"), "OUT": str(tmp_path)}
    # A mount namespace of its own (a user namespace too, where this is not root): the small disk
    # is seen by this script only and goes away with it.
    unshare = ["unshare", "-m"] if os.geteuid() == 0 else ["unshare", "-rm"]
    done = subprocess.run(
        [*unshare, "sh", "-c", script], env=env, capture_output=True, text=True, timeout=600
    )
    if done.returncode == 77 or not (tmp_path / "first.code").exists():
        pytest.skip(f"cannot mount a small disk here: {done.stderr.strip()}")
    first_err = (tmp_path / "first.err").read_text()
    assert (tmp_path / "first.code").read_text().strip() == "1", first_err
    said = " ".join(first_err.split())
    assert "Traceback" not in said
    assert "not stored: database or disk is full" in said
    assert "resume with: arbiter run event.toml" in said
    kept = finished_games(tmp_path / "after-full" / "event.sqlite")
    assert 1 <= kept < 40, "some games were stored before the disk was full, not all"
    second_err = (tmp_path / "second.err").read_text()
    assert (tmp_path / "second.code").read_text().strip() == "0", second_err
    assert finished_games(tmp_path / "after-resume" / "event.sqlite") == 40


# --- two runs at once -----------------------------------------------------------------------------

# Alphabeta uses its time: a game lasts some seconds, so the second run starts while the first plays.
SLOW_EVENT = (
    QUICK_EVENT.replace('time_control = "depth=1"', 'time_control = "st=0.1"')
    .replace("games_per_encounter = 2", "games_per_encounter = 6\n[adjudication]\nmax_plies = 60")
    .replace('name = "random"\nbundled = "random"', 'name = "alphabeta"\nbundled = "alphabeta"')
)


def wait_for_a_game(database: Path, run: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while not database.exists() or finished_games(database) < 1:
        assert run.poll() is None, "the first run ended before its first game was stored"
        assert time.monotonic() < deadline, "no game was stored in time"
        time.sleep(0.1)


def test_a_second_run_on_the_same_database_refuses_naming_the_first(tmp_path: Path) -> None:
    (tmp_path / "event.toml").write_text(SLOW_EVENT, encoding="utf-8")
    database = tmp_path / "event.sqlite"
    first = subprocess.Popen(
        [*ARBITER, "run", "event.toml"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_a_game(database, first)
        second = arbiter("run", "event.toml", cwd=tmp_path)
        assert_refused(second, "another `arbiter run` is playing this database", f"pid {first.pid}", code=1)
        out, err = first.communicate(timeout=300)
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    assert first.returncode == 0, f"{out}\n{err}"
    with contextlib.closing(__import__("sqlite3").connect(database)) as db:
        keys = [key for (key,) in db.execute("SELECT game_key FROM game")]
    assert sorted(keys) == sorted(set(keys)) and len(keys) == 6, "each game is stored once"


def test_the_lock_of_a_killed_run_does_not_stop_the_next(tmp_path: Path) -> None:
    (tmp_path / "event.toml").write_text(SLOW_EVENT, encoding="utf-8")
    database = tmp_path / "event.sqlite"
    first = subprocess.Popen(
        [*ARBITER, "run", "event.toml"], cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_for_a_game(database, first)  # type: ignore[arg-type]
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    assert (tmp_path / ".event.sqlite.run-lock").exists(), "the killed run left its lock file"
    resumed = arbiter("run", "event.toml", cwd=tmp_path)
    assert resumed.code == 0, resumed.out + resumed.err
    assert finished_games(database) == 6


def test_damage_met_after_opening_is_a_message_not_a_traceback(
    tmp_path: Path,
    sizeable_database: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A file above the reading commands' check limit is opened unchecked: the damage shows when read.
    import sys

    from arbiter import cli
    from arbiter.store import database as opening

    database = tmp_path / "games.sqlite"
    shutil.copy(sizeable_database, database)
    damage(database)
    monkeypatch.setattr(opening, "READER_CHECK_LIMIT_BYTES", 0)
    monkeypatch.setattr(sys, "argv", ["arbiter", "pdn", "export", str(database)])
    with pytest.raises(SystemExit) as ended:
        cli.main()
    assert ended.value.code not in (0, None)
    err = capsys.readouterr().err
    assert "error: the database failed" in err and "arbiter db check" in err, err


def third_move_edited(stored_event: Path, tmp_path: Path, column: str, value: str) -> tuple[Path, int, int]:
    """A copy of the stored event whose third stored move holds ``value`` in ``column``, as a hand edit
    leaves it (SQLite's checks pass): (the copy, that move's game id, its ply)."""
    database = tmp_path / "event.sqlite"
    shutil.copy(stored_event, database)
    with sqlite3.connect(database) as db:
        third = "SELECT game_id, ply FROM move ORDER BY game_id, ply LIMIT 1 OFFSET 2"
        game_id, ply = db.execute(third).fetchone()
        db.execute(f"UPDATE move SET {column} = ? WHERE game_id = ? AND ply = ?", (value, game_id, ply))
    return database, game_id, ply


def reading_commands(database: Path, tmp_path: Path) -> list[list[str | Path]]:
    """The commands that read every stored move back: a report and a PDN export."""
    return [["report", database, "--out", tmp_path / "site"], ["pdn", "export", database]]


def test_a_stored_value_arbiter_never_writes_is_refused_naming_the_game_and_ply(
    tmp_path: Path, stored_event: Path
) -> None:
    # An edited file passes SQLite's checks; what cannot be read back is named, not a traceback.
    database, game_id, ply = third_move_edited(stored_event, tmp_path, "side", "purple")
    before = stored_rows(database)
    for command in reading_commands(database, tmp_path):
        refused = arbiter(*command, cwd=tmp_path)
        assert_refused(refused, f"(id {game_id}), ply {ply}: ", "side", "'purple'", code=1)
    assert stored_rows(database) == before


@pytest.mark.parametrize("stored", ["null", '{"a": 1}', "5"])
def test_a_json_value_of_the_wrong_kind_is_refused_naming_the_game_and_ply(
    tmp_path: Path, stored_event: Path, stored: str
) -> None:
    # Valid JSON, but not the list a move's warnings are (a hand-edited file): named, not a traceback.
    database, game_id, ply = third_move_edited(stored_event, tmp_path, "warnings", stored)
    before = stored_rows(database)
    for command in reading_commands(database, tmp_path):
        assert_refused(arbiter(*command, cwd=tmp_path), f"(id {game_id}), ply {ply}: ", repr(stored))
    assert stored_rows(database) == before


@pytest.mark.parametrize(("column", "stored"), [("tags", "[1, 2]"), ("white_identity", "null")])
def test_a_game_value_of_the_wrong_kind_is_refused_naming_the_game(
    tmp_path: Path, stored_event: Path, column: str, stored: str
) -> None:
    database = tmp_path / "event.sqlite"
    shutil.copy(stored_event, database)
    with sqlite3.connect(database) as db:
        (game_id,) = db.execute("SELECT id FROM game ORDER BY id LIMIT 1").fetchone()
        db.execute(f"UPDATE game SET {column} = ? WHERE id = ?", (stored, game_id))
    before = stored_rows(database)
    assert_refused(arbiter("pdn", "export", database, cwd=tmp_path), f"(id {game_id})", repr(stored))
    assert stored_rows(database) == before
