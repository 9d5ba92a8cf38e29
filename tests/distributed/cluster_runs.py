"""`arbiter run --scheduler` as a user runs it, and what a test reads back: the stored games, which
worker played each, and the processes the workers have running."""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from dask_cluster import DaskCluster

from arbiter.referee.record import Termination
from arbiter.store import TournamentStore

ARBITER = [sys.executable, "-m", "arbiter.cli"]
RUN_SECONDS = 180
GAME_KEY = re.compile(r"r\d+-b\d+-g\d+")
PLAYED_ON = re.compile(r"^played on worker '([^']*)'")
ALREADY_STORED = "was already stored; the stored game is kept"
"""What the coordinator says when it tries to store a game a second time."""

# Greedy is seeded and, with `reuse_engines = false`, starts afresh for each game: every game is then the
# same wherever and whenever it is played.
MATCH = """name = "cluster match"
database = "event.sqlite"
variant = "english"
time_control = "{tc}"
format = "match"
cycles = 10
games_per_encounter = 2
repeat = true
{extra}
[openings]
deck = "acf-156"
[adjudication]
max_plies = 160
[[engines]]
name = "alphabeta"
bundled = "alphabeta"
[[engines]]
name = "greedy"
bundled = "greedy"
params = {{ seed = 7 }}
"""


def match(tc: str, extra: str = "") -> str:
    return MATCH.format(tc=tc, extra=extra)


def write(folder: Path, text: str) -> Path:
    path = folder / "tournament.toml"
    path.write_text(text, encoding="utf-8")
    return path


def arbiter_run(path: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*ARBITER, "run", str(path), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=path.parent,
    )


def arbiter_run_logged(path: Path, log: Path, *args: str) -> subprocess.Popen[str]:
    """The run with its output written to `log` as it goes, for a test to follow (`finish` then gives
    no output: read the log)."""
    with open(log, "wb") as out:
        return subprocess.Popen(
            [*ARBITER, "run", str(path), *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=path.parent,
        )


def wait_for_output(run: subprocess.Popen[str], log: Path, text: str) -> None:
    """Until the run's output (written to `log`) says `text`."""
    wait_until(lambda: text in said(log.read_text(encoding="utf-8", errors="replace")), repr(text), run)


def finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=RUN_SECONDS)
    return process.returncode, out, err


def assert_database_sound(database: Path) -> None:
    """`arbiter db check` finds the database sound."""
    done = subprocess.run(
        [*ARBITER, "db", "check", str(database)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and "sound" in done.stdout, done.stdout + done.stderr


@contextlib.contextmanager
def running(process: subprocess.Popen[str]) -> Iterator[subprocess.Popen[str]]:
    """The run, killed if the test leaves it running."""
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=10)


def said(output: str) -> str:
    """A run's output with its lines joined again (the live view wraps long lines when not in a terminal)."""
    return " ".join(output.split())


def finished_count(database: Path) -> int:
    if not database.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5) as db:
            return int(db.execute("select count(*) from game where finished = 1").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def wait_for_games(run: subprocess.Popen[str], database: Path, count: int) -> None:
    """Until `count` games are stored, while the run goes on."""
    wait_until(lambda: finished_count(database) >= count, f"{count} games stored", run)


def wait_until(condition: Callable[[], bool], what: str, run: subprocess.Popen[str] | None = None) -> None:
    deadline = time.monotonic() + RUN_SECONDS
    while not condition():
        if run is not None:
            assert run.poll() is None, f"the run ended before {what}: {run.communicate()}"
        assert time.monotonic() < deadline, f"not in time: {what}"
        time.sleep(0.05)


@dataclass(frozen=True)
class StoredGame:
    key: str
    white: str
    black: str
    start_fen: str
    time_control: str
    opening: tuple[str | None, tuple[str, ...]] | None
    moves: tuple[str, ...]
    result: tuple[str, str, str] | None
    termination: Termination | None
    finished: bool
    ended_at: datetime | None

    def as_played(self) -> tuple[object, ...]:
        """Everything that makes the game what it was, leaving out when it was played."""
        return (
            self.key,
            self.white,
            self.black,
            self.start_fen,
            self.time_control,
            self.opening,
            self.moves,
            self.result,
            self.finished,
        )


def stored_games(database: Path) -> list[StoredGame]:
    """Each stored game as read back from the database, in schedule order."""
    with TournamentStore.open(database, create=False) as store:
        info = store.find_tournament()
        games = []
        for g in store.games(info.id):
            record = g.record
            outcome = record.outcome
            result = (outcome.winner.value, outcome.termination.value, outcome.reason) if outcome else None
            games.append(
                StoredGame(
                    key=str(g.key),
                    white=record.white.name,
                    black=record.black.name,
                    start_fen=record.start_fen,
                    time_control=record.time_control,
                    opening=(record.opening.name, tuple(record.opening.moves)) if record.opening else None,
                    moves=tuple(move.text for move in record.moves),
                    result=result,
                    termination=outcome.termination if outcome else None,
                    finished=g.finished,
                    ended_at=record.ended_at,
                )
            )
        return games


def played_on(database: Path) -> dict[str, list[str]]:
    """For each game, the workers its 'played on worker' events name (one each time it was stored)."""
    with TournamentStore.open(database, create=False) as store:
        info = store.find_tournament()
        workers: dict[str, list[str]] = {}
        for stored in store.events(info.id):
            found = PLAYED_ON.match(stored.event.message)
            if found and stored.game_key is not None:
                workers.setdefault(str(stored.game_key), []).append(found.group(1))
        return workers


def assert_each_game_stored_once(database: Path, out: str, planned: int = 20) -> dict[str, str]:
    """Every planned game finished and stored once, by one worker, and the coordinator never tried to
    store one twice; returns the worker that played each game."""
    games = stored_games(database)
    assert len(games) == planned and all(g.finished for g in games)
    assert ALREADY_STORED not in said(out), "the coordinator tried to store a game twice"
    workers = played_on(database)
    counts = Counter({key: len(names) for key, names in workers.items()})
    assert set(counts) == {g.key for g in games} and set(counts.values()) == {1}, (
        f"each stored game has exactly one 'played on' event: {counts}"
    )
    assert Termination.START_FAILURE not in {g.termination for g in games}
    return {key: names[0] for key, names in workers.items()}


def unfinished_keys(database: Path) -> set[str]:
    with TournamentStore.open(database, create=False) as store:
        return {str(key) for key in store.unfinished_keys(store.find_tournament().id)}


# ---------------------------------------------------------------------- the cluster seen from inside


@contextlib.contextmanager
def client_of(cluster: DaskCluster) -> Iterator[Any]:
    """A Dask client of the test's own, to ask the scheduler what its workers hold."""
    from distributed import Client

    client = Client(cluster.address, timeout=30)
    try:
        yield client
    finally:
        client.close(timeout=10)


def worker_address(client: Any, name: str) -> str:
    """The address of the worker called ``name``, asked again until the scheduler lists it: the client's
    picture of the workers can be empty for a moment (a busy machine, the client reconnecting)."""
    found: list[str] = []

    def listed() -> bool:
        workers: dict[str, Any] = client.scheduler_info(n_workers=-1).get("workers", {})
        found[:] = [address for address, worker in workers.items() if worker["name"] == name]
        return bool(found)

    wait_until(listed, f"the scheduler lists worker {name!r}")
    return found[0]


def worker_pids(client: Any) -> dict[str, int]:
    """The process id of each worker (not its nanny), by worker name."""
    pids: dict[str, int] = client.run(os.getpid)
    workers: dict[str, Any] = client.scheduler_info(n_workers=-1)["workers"]
    return {str(workers[address]["name"]): pid for address, pid in pids.items() if address in workers}


BUNDLED_ENGINES = b"arbiter.players."


def engines_under(pid: int, program: bytes = BUNDLED_ENGINES) -> dict[int, int]:
    """The engines running among the descendants of a process (by default the bundled ones; else those
    whose command holds `program`): their ids and start times."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            children.setdefault(stat.parent, []).append(int(entry.name))
    found: dict[int, int] = {}
    waiting = [pid]
    while waiting:
        for child in children.get(waiting.pop(), []):
            waiting.append(child)
            stat = _stat(child)
            if stat is not None and stat.state != "Z" and _runs(child, program):
                found[child] = stat.started
    return found


def still_running(engines: dict[int, int]) -> set[int]:
    """Those of these processes that have not exited (a zombie waiting for its parent has exited)."""
    running = set()
    for pid, started in engines.items():
        stat = _stat(pid)
        if stat is not None and stat.started == started and stat.state != "Z":
            running.add(pid)
    return running


def _runs(pid: int, program: bytes) -> bool:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return any(program in part for part in command)


@dataclass(frozen=True)
class _Stat:
    state: str
    parent: int
    started: int


def _stat(pid: int) -> _Stat | None:
    """A process's state letter, parent and start time (clock ticks after boot), from /proc/PID/stat."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # the name, in brackets, may hold spaces
    return _Stat(state=fields[0], parent=int(fields[1]), started=int(fields[19]))
