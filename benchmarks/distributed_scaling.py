"""Distributed scaling: one fixed match played by the local runner and through Dask workers on this machine.

Starts a real `dask scheduler` and `dask worker` processes on 127.0.0.1 and plays the same match
(alphabeta against greedy, English, depth=2, ACF ballots in pairs) four ways: the local runner at
concurrency 2, one worker playing 2 games at once, two workers playing 1 game each, and two workers
playing 2 each. For each it prints games per second and the coordinator's own CPU time per game (the
`arbiter run` process: the runner, the store and, with Dask, the client). It also measures how many
empty tasks per second the scheduler passes to a worker (the ceiling of games per second through one
scheduler) and the size of what travels per game (the order out, the record back).

Usage: python benchmarks/distributed_scaling.py [--games 400]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from arbiter.distributed.coordinator import engine_orders, run_on_cluster
from arbiter.distributed.orders import GameOrder, GameReturn, WorkerName
from arbiter.running.runner import QuietObserver, TournamentRunner
from arbiter.store import TournamentStore
from arbiter.tournament.config import load_tournament
from arbiter.tournament.plan import plan_tournament
from arbiter.tournament.schedule import PlannedGame

DASK = [sys.executable, "-m", "dask"]


def _noop(index: int) -> int:
    return index


class Cluster:
    """A scheduler and workers as child processes on loopback, ended on exit."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.file = folder / "scheduler.json"
        self.processes: list[subprocess.Popen[bytes]] = []
        self.address = ""

    def _spawn(self, name: str, command: list[str]) -> None:
        with open(self.folder / f"{name}.log", "wb") as log:
            self.processes.append(
                subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            )

    def start(self, workers: list[int]) -> None:
        self._spawn(
            "scheduler",
            [*DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard"]
            + ["--scheduler-file", str(self.file)],
        )
        deadline = time.monotonic() + 60
        while not self.address:
            if self.file.exists():
                with contextlib.suppress(json.JSONDecodeError, KeyError):
                    self.address = json.loads(self.file.read_text())["address"]
            if time.monotonic() > deadline:
                raise RuntimeError("the scheduler did not start")
            time.sleep(0.1)
        for number, games in enumerate(workers, start=1):
            self._spawn(
                f"w{number}",
                [*DASK, "worker", "--scheduler-file", str(self.file), "--name", f"w{number}"]
                + ["--nthreads", str(games), "--resources", f"games={games}", "--host", "127.0.0.1"]
                + ["--no-dashboard", "--memory-limit", "0", "--death-timeout", "60"],
            )
        for number in range(1, len(workers) + 1):
            log = self.folder / f"w{number}.log"
            while "Registered to:" not in log.read_text(errors="replace"):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"worker w{number} did not register")
                time.sleep(0.1)

    def close(self) -> None:
        for process in reversed(self.processes):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)


@contextlib.contextmanager
def cluster(folder: Path, workers: list[int]) -> Iterator[Cluster]:
    folder.mkdir()
    running = Cluster(folder)
    try:
        running.start(workers)
        yield running
    finally:
        running.close()


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class FirstStart(QuietObserver):
    """Notes when the first game starts: what came before is connecting and the engines' preflight."""

    def __init__(self) -> None:
        self.at: float | None = None

    def game_started(self, game: PlannedGame) -> None:
        if self.at is None:
            self.at = time.perf_counter()


def play(games: int, database: Path, scheduler: str | None) -> tuple[float, float, float]:
    """Wall seconds, of which start-up seconds, and the coordinator's CPU seconds for the whole match."""
    path = database.parent / f"{database.stem}.toml"
    path.write_text(tournament_file(games, database.name), encoding="utf-8")
    config, engines = load_tournament(path)
    first = FirstStart()
    runner = TournamentRunner(config, engines, observer=first)
    cpu, started = own_cpu(), time.perf_counter()
    with TournamentStore.open(config.database) as store:
        if scheduler is None:
            summary = asyncio.run(runner.run(store, handle_signals=False))
        else:
            summary = asyncio.run(run_on_cluster(runner, store, scheduler))
        assert summary.finished == games, f"{summary.finished} of {games} games finished"
    ended = time.perf_counter()
    return ended - started, (first.at or ended) - started, own_cpu() - cpu


def tournament_file(games: int, database: str) -> str:
    return (
        f'name = "distributed scaling"\ndatabase = "{database}"\nvariant = "english"\n'
        f'time_control = "depth=2"\nformat = "match"\ncycles = {games // 2}\n'
        "games_per_encounter = 2\nrepeat = true\nconcurrency = 2\n"
        '[openings]\ndeck = "acf-156"\n[adjudication]\nmax_plies = 160\n'
        '[[engines]]\nname = "alphabeta"\nbundled = "alphabeta"\n'
        '[[engines]]\nname = "greedy"\nbundled = "greedy"\n'
    )


def empty_tasks_per_second(scheduler: str, count: int) -> float:
    from distributed import Client

    with Client(scheduler, timeout=20) as client:  # type: ignore[no-untyped-call]
        client.gather(client.map(_noop, range(50), resources={"games": 1}, pure=False))  # warm up
        started = time.perf_counter()
        client.gather(client.map(_noop, range(count), resources={"games": 1}, pure=False))
        return count / (time.perf_counter() - started)


def message_sizes(database: Path) -> tuple[float, float, float]:
    """Average bytes of a game order and of a game's answer (the record and its events), as JSON text."""
    config, engines = load_tournament(database.parent / f"{database.stem}.toml")
    plan = plan_tournament(config)
    orders = engine_orders(config, engines)
    sent = []
    for game in plan.schedule.games:
        setup = plan.setup_for(game)
        order = GameOrder.of(str(game.key), setup, orders[game.white], orders[game.black], reuse_engines=True)
        sent.append(len(order.model_dump_json()))
    worker = WorkerName(address="tcp://127.0.0.1:40000", name="w1", host="host")
    with TournamentStore.open(database, create=False) as store:
        info = store.find_tournament()
        stored = store.games(info.id)
        back = [len(GameReturn(worker=worker, record=g.record).model_dump_json()) for g in stored]
        plies = sum(g.record.plies for g in stored) / len(stored)
    return sum(sent) / len(sent), sum(back) / len(back), plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400, help="games per match (even)")
    parser.add_argument("--tasks", type=int, default=2000, help="empty tasks for the scheduler's rate")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores; {args.games} games of alphabeta vs greedy (english, depth=2)")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        runs: list[tuple[str, list[int] | None]] = [
            ("local runner, concurrency 2", None),
            ("1 worker x 2 games", [2]),
            ("2 workers x 1 game", [1, 1]),
            ("2 workers x 2 games", [2, 2]),
        ]
        rate = 0.0
        for index, (label, workers) in enumerate(runs):
            run_folder = folder / f"run{index}"
            run_folder.mkdir()
            database = run_folder / "event.sqlite"
            if workers is None:
                wall, startup, cpu = play(args.games, database, None)
            else:
                with cluster(run_folder / "cluster", workers) as running:
                    wall, startup, cpu = play(args.games, database, running.address)
                    if workers == [2, 2]:
                        rate = empty_tasks_per_second(running.address, args.tasks)
            print(
                f"{label:28} {args.games / wall:5.1f} games/s  wall {wall:5.1f} s  "
                f"(start-up {startup:4.2f} s, then {args.games / (wall - startup):5.1f} games/s)  "
                f"coordinator CPU {1000 * cpu / args.games:5.1f} ms per game"
            )
        print(f"scheduler: {rate:.0f} empty tasks per second to 2 workers")
        sent, back, plies = message_sizes(folder / "run3" / "event.sqlite")
        print(
            f"per game: order {sent / 1024:.1f} kB out, record {back / 1024:.1f} kB back (JSON text); "
            f"{plies:.0f} plies on average"
        )


if __name__ == "__main__":
    main()
