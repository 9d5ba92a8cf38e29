"""A writer killed with SIGKILL loses nothing it had committed, and a new run resumes where it stopped."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from store_samples import CRASH_TOURNAMENT, crash_record, crash_schedule

from arbiter.store import TournamentStore

CHILD = Path(__file__).with_name("store_writer_child.py")

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


def run_and_kill(path: Path, games: int) -> list[str]:
    """Start the writer, wait until it has committed `games` more games, kill it; the keys it reported."""
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=CHILD.parent,
    )
    assert child.stdout is not None
    reported: list[str] = []
    try:
        header = child.stdout.readline()
        assert header.startswith("resuming"), header + child.communicate()[1]
        while len(reported) < games:
            line = child.stdout.readline()
            assert line, f"the writer stopped by itself: {child.communicate()[1]}"
            reported.append(line.strip())
    finally:
        # The writer is by now busy with the next game, most of the time inside its transaction.
        os.kill(child.pid, signal.SIGKILL)
        child.communicate(timeout=60)
    assert child.returncode == -signal.SIGKILL
    return reported


def check_database(path: Path) -> None:
    with closing(sqlite3.connect(path)) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []


def test_a_writer_killed_mid_game_loses_no_committed_game(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    planned = crash_schedule()
    reported: list[str] = []
    for _ in range(3):
        reported += run_and_kill(path, games=12)
        check_database(path)
        with TournamentStore.open(path, create=False) as store:
            tid = store.find_tournament(CRASH_TOURNAMENT).id
            finished = store.finished_keys(tid)
            stored = store.games(tid)
            events = store.events(tid)
        # Every reported game is there; at most one more was committed before the kill was noticed.
        assert {str(key) for key in finished} >= set(reported)
        assert len(finished) - len(reported) in (0, 1)
        # The games are the first ones of the schedule, each complete with all its moves.
        assert [game.key for game in stored] == [game.key for game in planned[: len(finished)]]
        for number, game in enumerate(stored):
            assert game.record == crash_record(number, planned[number]), f"game {game.key}"
        assert [event.event.message for event in events] == [f"game {n} written" for n in range(len(stored))]
        # The next run resumes after them, so the number reported so far is what is stored.
        reported = [str(game.key) for game in stored]
