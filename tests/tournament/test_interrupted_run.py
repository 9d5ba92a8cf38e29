"""What a user sees of a run that was interrupted: killed outright or stopped with Ctrl-C, then resumed.

Real `arbiter match` processes on real SQLite files, with the bundled engines.
"""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from tournament_files import ARBITER, ENGINES, bundled, greedy_random_match, write_tournament

from arbiter.engines.process_group import read_entry
from arbiter.store import PlayerEntry, RunStore, StoreVersionError, TournamentStatus
from arbiter.store.run_lock import RunLock, lock_path, run_holds


def slow_match(database: Path, *flags: str) -> list[str]:
    """A match of ten games of a few seconds each: time enough to look at it, or stop it, midway."""
    return [
        *ARBITER,
        "match",
        "alphabeta",
        "greedy",
        "--tc",
        "st=0.1",
        "--games",
        "2",
        "--rounds",
        "5",
        "--db",
        str(database),
        *flags,
    ]


def stored_games(database: Path) -> tuple[int, int]:
    """(finished, unfinished) games in the database, 0s while it does not exist yet: also while the
    run has made the file but not yet its tables (SQLite makes the file first)."""
    if not database.exists():
        return 0, 0
    try:
        opened = RunStore.open(database, create=False, read_only=True, check=False)
    except StoreVersionError as error:
        if error.found is None and error.detail in ("the file is empty", "it has no tables"):
            return 0, 0
        raise
    with opened as store:
        infos = store.tournaments()
        if not infos:
            return 0, 0
        return infos[-1].finished_games, infos[-1].unfinished_games


def start(command: list[str], folder: Path) -> subprocess.Popen[bytes]:
    """The command started in `folder`, its output in `folder`/run.log: not a pipe, which a process
    it left behind would hold open."""
    with (folder / "run.log").open("wb") as log:
        return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=folder)


def wait_for_a_game(database: Path, process: subprocess.Popen[bytes], limit: float = 120) -> None:
    deadline = time.monotonic() + limit
    while stored_games(database)[0] < 1:
        assert process.poll() is None, "the run ended early: " + (database.parent / "run.log").read_text()
        assert time.monotonic() < deadline, "no game finished in time"
        time.sleep(0.1)


def status_line(database: Path) -> str:
    shown = subprocess.run(
        [*ARBITER, "standings", str(database)], capture_output=True, text=True, timeout=120
    )
    assert shown.returncode == 0, shown.stdout + shown.stderr
    return shown.stdout.splitlines()[0]


def test_a_killed_run_reads_as_stopped_and_a_live_one_as_running(tmp_path: Path) -> None:
    database = tmp_path / "match.sqlite"
    run = start(slow_match(database), tmp_path)
    try:
        wait_for_a_game(database, run)
        assert ", running;" in status_line(database)
        os.kill(run.pid, signal.SIGKILL)  # no chance to mark the event stopped
        run.wait(timeout=10)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert ", stopped;" in status_line(database)
    site = tmp_path / "site"
    report = subprocess.run(
        [*ARBITER, "report", str(database), "--out", str(site)], capture_output=True, text=True, timeout=120
    )
    assert report.returncode == 0, report.stderr
    assert "games played · stopped</dd>" in (site / "index.html").read_text(encoding="utf-8")
    with RunStore.open(database, create=False) as store:
        assert store.tournaments()[-1].finished_games >= 1, "every stored game is kept"


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`, from /proc."""
    entries = (read_entry(int(name)) for name in os.listdir("/proc") if name.isdigit())
    return [entry.pid for entry in entries if entry is not None and entry.ppid == pid]


def running(pid: int) -> bool:
    """Whether `pid` is a process that has not ended (a zombie has)."""
    entry = read_entry(pid)
    return entry is not None and not entry.zombie


def test_the_site_of_a_killed_run_shows_it_stopped_and_its_publisher_ends(tmp_path: Path) -> None:
    database, site = tmp_path / "match.sqlite", tmp_path / "site"
    run = start(slow_match(database, "--report", str(site)), tmp_path)
    try:
        wait_for_a_game(database, run)
        helpers = children(run.pid)  # the engines and the site's publisher
        os.kill(run.pid, signal.SIGKILL)
        run.wait(timeout=10)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    deadline = time.monotonic() + 60
    while any(running(pid) for pid in helpers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in helpers if running(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "a process of the killed run was left running"
    assert "games played · stopped</dd>" in (site / "index.html").read_text(encoding="utf-8")


def test_a_run_marks_stopped_the_events_a_killed_run_left_running(tmp_path: Path) -> None:
    database = tmp_path / "two.sqlite"
    with RunStore.open(database) as store:
        players = [PlayerEntry("a"), PlayerEntry("b")]
        made = [
            store.create_tournament(
                name=name,
                variant="english",
                format="match",
                time_control="st=0.1",
                players=players,
                config="{}",
            )
            for name in ("killed", "resumed")
        ]
        store.set_status(made[0], TournamentStatus.RUNNING)  # as a killed run leaves it
        with RunLock(database):  # another event of the database is played now
            assert run_holds(database)
            store.set_running(made[1])
            assert [info.status for info in store.tournaments()] == [
                TournamentStatus.STOPPED,
                TournamentStatus.RUNNING,
            ]
        assert not run_holds(database)
        assert store.tournament(made[1]).status is TournamentStatus.STOPPED, "its run is gone"


def test_a_reader_looking_at_the_lock_does_not_turn_a_run_away(tmp_path: Path) -> None:
    database = tmp_path / "event.sqlite"
    with RunLock(database):  # the lock file, as an earlier run leaves it
        pass
    looking = os.open(lock_path(database), os.O_RDONLY)
    fcntl.flock(looking, fcntl.LOCK_SH)  # a reader's `run_holds`, caught in the middle
    threading.Timer(0.2, os.close, (looking,)).start()
    with RunLock(database):
        assert run_holds(database)


def thinking_match(folder: Path) -> list[str]:
    """Two games between engines that think 0.3 s a move (a game lasts a minute): a run is stopped in
    its first game. The engines log what they are told, so the test sees the game begin."""
    engines = [
        f"cmd={sys.executable} arg={ENGINES / 'scripted_player.py'} arg=--sleep arg=0.3 arg=--honour-stop "
        f"arg=--log arg={folder / f'{name}.log'} name={name}"
        for name in ("A", "B")
    ]
    engine_flags = [flag for engine in engines for flag in ("--engine", engine)]
    return [
        *ARBITER,
        "match",
        *engine_flags,
        "--tc",
        "st=1",
        "--games",
        "2",
        "--max-plies",
        "400",
        "--db",
        str(folder / "match.sqlite"),
    ]


def wait_for(what: str, path: Path, process: subprocess.Popen[bytes], limit: float = 120) -> str:
    """The first line of `path` that holds `what`, once it is written."""
    deadline = time.monotonic() + limit
    while True:
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        found = next((line for line in lines if what in line), None)
        if found is not None:
            return found
        assert process.poll() is None, "the run ended early: " + (path.parent / "run.log").read_text()
        assert time.monotonic() < deadline, f"no {what!r} in {path} in time"
        time.sleep(0.05)


def stop(process: subprocess.Popen[bytes], how: signal.Signals) -> None:
    process.send_signal(how)
    try:
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.parametrize(
    ("how", "again"),
    [
        (signal.SIGINT, " (1 abandoned by the stop, played again from their start)"),
        (signal.SIGKILL, ""),  # a killed run stores nothing of the game it was playing
    ],
    ids=["ctrl-c", "killed"],
)
def test_a_run_resuming_one_stopped_before_any_game_finished_says_it_resumes(
    tmp_path: Path, how: signal.Signals, again: str
) -> None:
    command = thinking_match(tmp_path)
    first = start(command, tmp_path)
    wait_for("go", tmp_path / "A.log", first)  # its first game has begun
    stop(first, how)
    assert stored_games(tmp_path / "match.sqlite")[0] == 0, "no game had finished"
    second = start(command, tmp_path)
    try:
        said = wait_for("to play", tmp_path / "run.log", second)
    finally:
        stop(second, signal.SIGINT)
    assert said == f"resuming: 0 of 2 games already played, 2 to play{again}"


def test_the_pdn_out_file_of_a_stopped_match_holds_its_finished_games_only(tmp_path: Path) -> None:
    database, pdn = tmp_path / "match.sqlite", tmp_path / "games.pdn"
    run = start(slow_match(database, "--concurrency", "2", "--pdn-out", str(pdn)), tmp_path)
    wait_for_a_game(database, run)
    stop(run, signal.SIGINT)
    assert run.returncode == 130
    finished, unfinished = stored_games(database)
    assert unfinished >= 1, "the stop abandoned a game"
    results = [line for line in pdn.read_text(encoding="utf-8").splitlines() if line.startswith("[Result ")]
    assert len(results) == finished and '[Result "*"]' not in results
    said = (tmp_path / "run.log").read_text(encoding="utf-8")
    assert (
        f"{finished} game(s) written to {pdn}; {unfinished} unfinished left out, to be played again" in said
    )


# A run as `arbiter run` makes it (engines checked, then the games on a new event loop), with Ctrl-C
# pressed as the run says how many games it plays: before its first game starts.
CTRL_C_AT_START = """
import os, signal, sys
from pathlib import Path

from arbiter.running import event_loop
from arbiter.running.preflight import preflight_engines
from arbiter.running.runner import QuietObserver, TournamentRunner
from arbiter.store import RunStore
from arbiter.tournament.config import load_tournament


class CtrlCAtStart(QuietObserver):
    def run_started(self, total, done, pending, *, abandoned, resumed):
        os.kill(os.getpid(), signal.SIGINT)


config, engines = load_tournament(Path(sys.argv[1]))
runner = TournamentRunner(config, engines, observer=CtrlCAtStart())
runner.checked = event_loop.run(preflight_engines(engines, config.variant))
with RunStore.open(config.database, create=True) as store:
    summary = event_loop.run(runner.run(store))
print("stopped" if summary.stopped else "not stopped", summary.finished, summary.abandoned)
"""


def test_ctrl_c_as_a_run_opens_its_games_stops_it_and_the_next_run_plays_them(tmp_path: Path) -> None:
    engines = bundled("random") + bundled("greedy") + bundled("alphabeta")
    event = write_tournament(tmp_path, 'time_control = "depth=1"\nconcurrency = 2\n', engines)
    stopped = subprocess.run(
        [sys.executable, "-c", CTRL_C_AT_START, str(event)], capture_output=True, text=True, timeout=120
    )
    assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    # Games it had begun are abandoned, as by any stop: kept unfinished, played again by the next run.
    assert stopped.stdout.split()[:2] == ["stopped", "0"], stopped.stdout + stopped.stderr
    assert "Traceback" not in stopped.stderr, stopped.stderr
    with RunStore.open(tmp_path / "event.sqlite", create=False, read_only=True) as store:
        (info,) = store.tournaments()
        assert info.status is TournamentStatus.STOPPED
    resumed = subprocess.run([*ARBITER, "run", str(event)], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "finished: 3/3 games" in resumed.stdout


def test_a_database_file_an_interrupted_run_left_empty_is_made_by_the_next_run(tmp_path: Path) -> None:
    """A run stopped while it made its database (Ctrl-C as SQLite had just created the file) leaves an
    empty file; the store makes a new database in an empty file, so the same command goes on."""
    event = write_tournament(tmp_path, 'time_control = "depth=1"\n', bundled("random") + bundled("greedy"))
    (tmp_path / "event.sqlite").touch()
    ran = subprocess.run([*ARBITER, "run", str(event)], capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "finished: 1/1 games" in ran.stdout
    (tmp_path / "match.sqlite").touch()
    ran = subprocess.run(
        [*greedy_random_match(tmp_path / "match.sqlite"), "--games", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert stored_games(tmp_path / "match.sqlite") == (1, 0)
