"""`arbiter run --scheduler` against a real Dask scheduler and real worker processes on loopback."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from datetime import UTC, datetime
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from cluster_runs import (  # noqa: E402
    GAME_KEY,
    arbiter_run,
    assert_each_game_stored_once,
    client_of,
    finish,
    finished_count,
    match,
    running,
    said,
    stored_games,
    wait_for_games,
    wait_until,
    worker_address,
    write,
)
from dask_cluster import DaskCluster  # noqa: E402

from arbiter.distributed.coordinator import DaskGames  # noqa: E402
from arbiter.running.runner import RunError, TournamentRunner  # noqa: E402
from arbiter.store import TournamentStore  # noqa: E402
from arbiter.tournament.config import load_tournament  # noqa: E402

ENGINES = Path(__file__).resolve().parents[1] / "engines"


def run_locally(path: Path, database: Path) -> None:
    config, engines = load_tournament(path)
    config = config.model_copy(update={"database": database, "concurrency": 2})
    with TournamentStore.open(database) as store:
        asyncio.run(TournamentRunner(config, engines).run(store, handle_signals=False))


def test_cluster_plays_the_same_twenty_games_as_a_local_run(tmp_path: Path, cluster: DaskCluster) -> None:
    cluster.start_worker("w1")
    cluster.start_worker("w2")
    cluster.wait_for_workers(["w1", "w2"])
    # Fixed-depth alphabeta against seeded greedy, each started afresh for every game: the same game is
    # the same wherever it is played, so the two databases must hold the very same games.
    path = write(tmp_path, match("depth=2", extra="reuse_engines = false"))
    code, out, err = finish(arbiter_run(path, "--scheduler", cluster.address, "--db", "cluster.sqlite"))
    assert code == 0, f"{out}\n{err}"
    assert "finished: 20/20 games" in out
    run_locally(path, tmp_path / "local.sqlite")

    remote = stored_games(tmp_path / "cluster.sqlite")
    local = stored_games(tmp_path / "local.sqlite")
    assert [g.as_played() for g in remote] == [g.as_played() for g in local], (
        "same keys, players, start positions, time controls, openings, moves and results"
    )
    assert all(g.opening and g.opening[1] for g in remote), "every game began with its opening's moves"
    assert len({g.moves for g in remote}) > 1, "the games differ from one another"
    workers = assert_each_game_stored_once(tmp_path / "cluster.sqlite", out)
    assert set(workers.values()) == {"w1", "w2"}


def test_the_games_of_a_worker_killed_mid_run_are_played_once_on_the_other(
    tmp_path: Path, cluster: DaskCluster
) -> None:
    cluster.start_worker("w1")
    cluster.start_worker("w2")
    cluster.wait_for_workers(["w1", "w2"])
    path = write(tmp_path, match("st=0.04"))
    database = tmp_path / "event.sqlite"
    with client_of(cluster) as client, running(arbiter_run(path, "--scheduler", cluster.address)) as run:
        wait_for_games(run, database, 3)
        w2 = worker_address(client, "w2")
        held: list[str] = []

        def w2_holds_games() -> bool:
            held[:] = [str(key) for key in client.processing(workers=[w2])[w2]]
            return bool(held)

        wait_until(w2_holds_games, "w2 holds a game", run)
        killed_at = datetime.now(UTC)
        cluster.kill("w2")
        code, out, err = finish(run)
    assert code == 0, f"{out}\n{err}"
    assert "worker 'w2' at" in said(out) and "left; now" in said(out), "the coordinator saw w2 leave"
    workers = assert_each_game_stored_once(database, out)
    games = {g.key: g for g in stored_games(database)}
    keys = [found.group(0) for task in held if (found := GAME_KEY.search(task))]
    assert len(keys) == len(held)
    # A game w2 finished in the instant between the question and the kill stays its own; every other
    # game it held was played again, once, by w1.
    unfinished_by_w2 = [key for key in keys if workers[key] != "w2"]
    assert all(workers[key] == "w1" for key in unfinished_by_w2)
    for key in set(keys) - set(unfinished_by_w2):
        ended = games[key].ended_at
        assert ended is not None and ended <= killed_at, f"{key} was credited to w2 after it died"
    assert unfinished_by_w2, f"w2 held {keys} when it was killed; none was played again by w1"


def test_a_coordinator_killed_and_restarted_resumes_like_a_local_run(
    tmp_path: Path, cluster: DaskCluster
) -> None:
    cluster.start_worker("w1")
    cluster.start_worker("w2")
    cluster.wait_for_workers(["w1", "w2"])
    path = write(tmp_path, match("st=0.04"))
    database = tmp_path / "event.sqlite"
    with running(arbiter_run(path, "--scheduler", cluster.address)) as first:
        wait_for_games(first, database, 3)
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
    stored_before = finished_count(database)
    assert stored_before < 20
    code, out, err = finish(arbiter_run(path, "--scheduler", cluster.address))
    assert code == 0, f"{out}\n{err}"
    assert f"resuming: {stored_before} of 20 games already played" in out.replace("\n", " ")
    assert_each_game_stored_once(database, out)


def test_workers_without_the_games_resource_are_named_as_the_reason_nothing_runs(
    tmp_path: Path, cluster: DaskCluster
) -> None:
    cluster.start_worker("idle", games=0)
    cluster.wait_for_workers(["idle"])
    config, engines = load_tournament(write(tmp_path, match("depth=2")))
    runner = TournamentRunner(config, engines)

    async def attempt() -> None:
        async with DaskGames(cluster.address, worker_wait_seconds=1) as games:
            runner.remote = games
            with TournamentStore.open(config.database) as store:
                await runner.run(store, handle_signals=False)

    with pytest.raises(RunError, match=r"none of the 1 worker\(s\).*--resources \"games=N\""):
        asyncio.run(attempt())
    assert finished_count(config.database) == 0


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free once closed: nothing listens there
    config, engines = load_tournament(write(tmp_path, match("depth=2")))
    runner = TournamentRunner(config, engines)

    async def attempt() -> None:
        async with DaskGames(f"tcp://127.0.0.1:{port}", connect_seconds=1) as games:
            runner.remote = games
            with TournamentStore.open(config.database) as store:
                await runner.run(store, handle_signals=False)

    with pytest.raises(RunError, match=rf"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}"):
        asyncio.run(attempt())
