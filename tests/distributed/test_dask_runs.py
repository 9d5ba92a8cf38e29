"""`arbiter run --scheduler` against a real Dask scheduler and real worker processes on loopback."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from dask_cluster import DaskCluster  # noqa: E402

from arbiter.distributed.coordinator import DaskGames  # noqa: E402
from arbiter.referee.record import Termination  # noqa: E402
from arbiter.store import TournamentStore  # noqa: E402
from arbiter.tournament.config import load_tournament  # noqa: E402
from arbiter.tournament.runner import RunError, TournamentRunner  # noqa: E402

ARBITER = [sys.executable, "-m", "arbiter.cli"]
ENGINES = Path(__file__).resolve().parents[1] / "engines"
RUN_SECONDS = 120

MATCH = """name = "cluster match"
database = "event.sqlite"
variant = "english"
time_control = "{tc}"
format = "match"
cycles = 10
games_per_encounter = 2
repeat = true
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
"""


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[DaskCluster]:
    folder = tmp_path / "cluster"
    folder.mkdir()
    running = DaskCluster(folder)
    try:
        running.start_scheduler()
        yield running
    finally:
        running.close()


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


def finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=RUN_SECONDS)
    return process.returncode, out, err


def finished_count(database: Path) -> int:
    if not database.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5) as db:
            return int(db.execute("select count(*) from game where finished = 1").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def games_of(database: Path) -> list[tuple[str, str, str, str | None, bool]]:
    """Each stored game as (key, White, Black, opening name, finished), in schedule order."""
    with TournamentStore.open(database, create=False) as store:
        info = store.find_tournament()
        return [
            (
                str(g.key),
                g.record.white.name,
                g.record.black.name,
                g.record.opening.name if g.record.opening else None,
                g.finished,
            )
            for g in store.games(info.id)
        ]


def played_on(database: Path) -> list[str]:
    with TournamentStore.open(database, create=False) as store:
        info = store.find_tournament()
        return [e.event.message for e in store.events(info.id) if e.event.message.startswith("played on")]


def terminations(database: Path) -> list[Termination]:
    with TournamentStore.open(database, create=False) as store:
        info = store.find_tournament()
        return [g.record.outcome.termination for g in store.games(info.id) if g.record.outcome]


def run_locally(path: Path, database: Path) -> None:
    config, engines = load_tournament(path)
    config = config.model_copy(update={"database": database, "concurrency": 2})
    with TournamentStore.open(database) as store:
        asyncio.run(TournamentRunner(config, engines).run(store, handle_signals=False))


def test_cluster_plays_the_same_twenty_games_as_a_local_run(tmp_path: Path, cluster: DaskCluster) -> None:
    cluster.start_worker("w1")
    cluster.start_worker("w2")
    cluster.wait_for_workers(["w1", "w2"])
    path = write(tmp_path, MATCH.format(tc="depth=2"))
    code, out, err = finish(arbiter_run(path, "--scheduler", cluster.address, "--db", "cluster.sqlite"))
    assert code == 0, f"{out}\n{err}"
    assert "finished: 20/20 games" in out
    run_locally(path, tmp_path / "local.sqlite")

    remote = games_of(tmp_path / "cluster.sqlite")
    local = games_of(tmp_path / "local.sqlite")
    assert len(remote) == 20 and all(finished for *_, finished in remote)
    assert remote == local, "same keys, players, colours and openings as the local run"
    assert Termination.START_FAILURE not in terminations(tmp_path / "cluster.sqlite")
    workers = played_on(tmp_path / "cluster.sqlite")
    assert len(workers) == 20
    assert any("'w1'" in text for text in workers) and any("'w2'" in text for text in workers)


def test_a_worker_killed_mid_run_leaves_exactly_twenty_games(tmp_path: Path, cluster: DaskCluster) -> None:
    cluster.start_worker("w1")
    cluster.start_worker("w2")
    cluster.wait_for_workers(["w1", "w2"])
    path = write(tmp_path, MATCH.format(tc="st=0.04"))
    database = tmp_path / "event.sqlite"
    run = arbiter_run(path, "--scheduler", cluster.address)
    try:
        deadline = time.monotonic() + RUN_SECONDS
        while finished_count(database) < 3:
            assert run.poll() is None, f"the run ended early: {run.communicate()}"
            assert time.monotonic() < deadline, "no game finished in time"
            time.sleep(0.05)
        cluster.kill("w2")
        killed_at = finished_count(database)
        code, out, err = finish(run)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait(timeout=10)
    assert code == 0, f"{out}\n{err}"
    assert killed_at < 20, "the worker was killed before the run ended"
    games = games_of(database)
    assert len(games) == 20
    assert len({key for key, *_ in games}) == 20, "a game was stored twice"
    assert all(finished for *_, finished in games)
    assert Termination.START_FAILURE not in terminations(database)
    after_kill = played_on(database)[killed_at:]
    assert after_kill and all("'w1'" in text for text in after_kill[2:]), "w1 played the rest"


def test_a_coordinator_killed_and_restarted_resumes_like_a_local_run(
    tmp_path: Path, cluster: DaskCluster
) -> None:
    cluster.start_worker("w1")
    cluster.start_worker("w2")
    cluster.wait_for_workers(["w1", "w2"])
    path = write(tmp_path, MATCH.format(tc="st=0.04"))
    database = tmp_path / "event.sqlite"
    first = arbiter_run(path, "--scheduler", cluster.address)
    try:
        deadline = time.monotonic() + RUN_SECONDS
        while finished_count(database) < 3:
            assert first.poll() is None, f"the run ended early: {first.communicate()}"
            assert time.monotonic() < deadline, "no game finished in time"
            time.sleep(0.05)
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(timeout=10)
    stored_before = finished_count(database)
    assert stored_before < 20
    code, out, err = finish(arbiter_run(path, "--scheduler", cluster.address))
    assert code == 0, f"{out}\n{err}"
    assert f"resuming: {stored_before} of 20 games already played" in out.replace("\n", " ")
    games = games_of(database)
    assert len(games) == 20 and len({key for key, *_ in games}) == 20
    assert all(finished for *_, finished in games)


def test_a_worker_missing_an_engine_stops_the_run_before_any_game(
    tmp_path: Path, cluster: DaskCluster
) -> None:
    host_engines = tmp_path / "w2-engines.toml"
    host_engines.write_text(
        '[[engines]]\nname = "greedy"\ncommand = ["/nonexistent/greedy-engine"]\n', encoding="utf-8"
    )
    cluster.start_worker("w1")
    cluster.start_worker("w2", env={"ARBITER_WORKER_ENGINES": str(host_engines)})
    cluster.wait_for_workers(["w1", "w2"])
    path = write(tmp_path, MATCH.format(tc="depth=2"))
    code, out, err = finish(arbiter_run(path, "--scheduler", cluster.address))
    assert code == 2, f"{out}\n{err}"
    message = err.replace("\n", " ")
    assert (
        "worker 'w2'" in message and "engine 'greedy'" in message and "/nonexistent/greedy-engine" in message
    )
    assert "'w1'" not in message, "only the worker that lacks the engine is named"
    assert finished_count(tmp_path / "event.sqlite") == 0, "no game was played or forfeited"


def test_an_engine_that_fails_to_start_for_a_game_stops_the_run_instead_of_forfeiting(
    tmp_path: Path, cluster: DaskCluster
) -> None:
    cluster.start_worker("w1")
    cluster.wait_for_workers(["w1"])
    # It answers the preflight's handshake, then never says `ready` when a game begins.
    command = f'["{sys.executable}", "{ENGINES / "never_ready.py"}"]'
    text = MATCH.format(tc="depth=2").replace(
        '[[engines]]\nname = "greedy"\nbundled = "greedy"\n',
        f'[[engines]]\nname = "stuck"\ncommand = {command}\ntimeouts = {{ ready = 1.0 }}\n',
    )
    path = write(tmp_path, text)
    code, out, err = finish(arbiter_run(path, "--scheduler", cluster.address))
    assert code == 2, f"{out}\n{err}"
    message = err.replace("\n", " ")
    assert "worker 'w1'" in message and "engine 'stuck'" in message and "nothing was forfeited" in message
    assert finished_count(tmp_path / "event.sqlite") == 0
    assert Termination.START_FAILURE not in terminations(tmp_path / "event.sqlite")


def test_workers_without_the_games_resource_are_named_as_the_reason_nothing_runs(
    tmp_path: Path, cluster: DaskCluster
) -> None:
    cluster.start_worker("idle", games=0)
    cluster.wait_for_workers(["idle"])
    config, engines = load_tournament(write(tmp_path, MATCH.format(tc="depth=2")))
    runner = TournamentRunner(config, engines)

    async def attempt() -> None:
        async with DaskGames(cluster.address, worker_wait_seconds=1) as games:
            runner.remote = games
            with TournamentStore.open(config.database) as store:
                await runner.run(store, handle_signals=False)

    with pytest.raises(RunError, match=r"none of the 1 worker\(s\).*--resources \"games=N\""):
        asyncio.run(attempt())
    assert finished_count(config.database) == 0


def test_an_unreachable_scheduler_is_a_clear_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free once closed: nothing listens there

    async def attempt() -> None:
        async with DaskGames(f"tcp://127.0.0.1:{port}", connect_seconds=1):
            pass

    with pytest.raises(RunError, match=rf"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}"):
        asyncio.run(attempt())
