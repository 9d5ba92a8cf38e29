"""The database file deleted, moved or replaced while a run plays into it: SQLite writes on into the file
it opened, out of sight, and leaves its write-ahead log at the old path, where it is read as part of
whatever file is put there. The run stops at the next game instead, naming the file, with exit status 1;
a moved database holds every game stored before, and a file put in its place is left as it was put."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

from bad_input_support import ARBITER, Ran, assert_refused, finished_games, make_stored_event, stored_rows

# Alphabeta uses its time: the run is still playing when the file is changed.
SLOW_MATCH = ("match", "alphabeta", "random", "--tc", "st=0.05", "--max-plies", "40", "--rounds", "40")
CHANGED = "the file at this path is no longer the database this run opened"


def run_changed_after_two_games(folder: Path, change: object) -> Ran:
    """`arbiter match` into folder/match.sqlite, with `change()` made once two games are stored."""
    database = folder / "match.sqlite"
    run = subprocess.Popen(
        [*ARBITER, *SLOW_MATCH, "--db", str(database)],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while finished_games(database) < 2:
            assert run.poll() is None, "the run ended before its second game was stored"
            assert time.monotonic() < deadline, "no game was stored in time"
            time.sleep(0.05)
        change()  # type: ignore[operator]
        out, err = run.communicate(timeout=300)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    return Ran(run.returncode, out, err)


def games_said_stored(ran: Ran) -> int:
    """The games the run printed as finished (each is printed once it is stored)."""
    return len(re.findall(r"^\[\d+/\d+\] ", ran.out, flags=re.MULTILINE))


def test_a_database_moved_away_mid_run_stops_it_and_the_moved_file_holds_every_game(tmp_path: Path) -> None:
    # The run played on to the end and said "finished: 80/80 games in match.sqlite", with no such file;
    # the games stayed in the log at the old path, the moved file had none of them.
    moved = tmp_path / "moved.sqlite"
    ran = run_changed_after_two_games(tmp_path, lambda: os.rename(tmp_path / "match.sqlite", moved))
    assert_refused(ran, "match.sqlite", CHANGED, code=1)
    assert finished_games(moved) == games_said_stored(ran) >= 2
    log = tmp_path / "match.sqlite-wal"
    assert not log.exists() or log.stat().st_size == 0, "no log of the moved file is left at the old path"


def test_a_database_replaced_mid_run_is_left_as_it_was_put_there(tmp_path: Path) -> None:
    # The run's log, left at the path, was read as part of the file put there: another event's games.
    other = make_stored_event(tmp_path / "other")
    expected = stored_rows(other)
    (tmp_path / "run").mkdir()
    ran = run_changed_after_two_games(
        tmp_path / "run", lambda: shutil.move(other, tmp_path / "run" / "match.sqlite")
    )
    assert_refused(ran, CHANGED, code=1)
    assert stored_rows(tmp_path / "run" / "match.sqlite") == expected


def test_a_database_deleted_mid_run_stops_it_rather_than_play_into_nowhere(tmp_path: Path) -> None:
    ran = run_changed_after_two_games(tmp_path, lambda: (tmp_path / "match.sqlite").unlink())
    assert_refused(ran, CHANGED, code=1)
    assert "finished:" not in ran.out
