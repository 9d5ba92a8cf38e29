"""Workers that join a cluster run or die under it, with real `dask worker` processes on loopback."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from cluster_runs import (  # noqa: E402
    arbiter_run,
    assert_each_game_stored_once,
    client_of,
    engines_under,
    finish,
    match,
    running,
    said,
    still_running,
    stored_games,
    wait_for_games,
    wait_until,
    worker_pids,
    write,
)
from dask_cluster import DaskCluster  # noqa: E402

ENGINES = Path(__file__).resolve().parents[1] / "engines"


def test_a_worker_that_joins_mid_run_is_checked_and_then_plays_games(
    tmp_path: Path, cluster: DaskCluster
) -> None:
    cluster.start_worker("w1")
    cluster.wait_for_workers(["w1"])
    path = write(tmp_path, match("st=0.2"))
    database = tmp_path / "event.sqlite"
    with client_of(cluster) as client, running(arbiter_run(path, "--scheduler", cluster.address)) as run:
        wait_for_games(run, database, 1)
        cluster.start_worker("w2")
        # w1 alone has 3 seats (2 games and 1 waiting); with w2 checked, more games are in flight at once.
        wait_until(lambda: sum(map(len, client.processing().values())) > 3, "more games in flight", run)
        code, out, err = finish(run)
    assert code == 0, f"{out}\n{err}"
    text = said(out)
    assert "playing on 1 Dask worker(s)" in text and "2 game(s) at a time on 1 worker(s)" in text
    assert (
        "worker 'w2' at" in text and "joined and was checked; now 4 game(s) at a time on 2 worker(s)" in text
    )
    workers = assert_each_game_stored_once(database, out)
    assert "w2" in workers.values(), f"the worker that joined played no game: {workers}"
    assert workers[stored_games(database)[0].key] == "w1"


def test_a_worker_process_killed_alone_leaves_no_engine_running(tmp_path: Path, cluster: DaskCluster) -> None:
    # Only the worker process dies (as under the out-of-memory killer): not its nanny, not its engines'
    # sessions. Its engines must end on their own, and its nanny's new worker plays the rest.
    cluster.start_worker("w1")
    cluster.wait_for_workers(["w1"])
    path = write(tmp_path, match("st=0.1"))
    database = tmp_path / "event.sqlite"
    with client_of(cluster) as client, running(arbiter_run(path, "--scheduler", cluster.address)) as run:
        wait_for_games(run, database, 1)
        pid = worker_pids(client)["w1"]
        engines: dict[int, int] = {}

        def engines_in_play() -> bool:
            engines.update(engines_under(pid))
            return len(engines) >= 2

        wait_until(engines_in_play, "the worker runs engines", run)
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while still_running(engines) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = still_running(engines)
        code, out, err = finish(run)
    assert not left, f"engines {sorted(left)} of the killed worker process are still running"
    assert code == 0, f"{out}\n{err}"
    assert_each_game_stored_once(database, out)
    text = said(out)
    assert "joined and was checked" in text, "the nanny's new worker was checked before it played"
    assert "the workers it was given to left; given to others" in text, "the dead worker's games moved"


def test_a_worker_lost_during_the_preflight_is_dropped_and_the_others_play_the_event(
    tmp_path: Path, cluster: DaskCluster
) -> None:
    # w2's alphabeta takes a minute to answer `hub`: the preflight waits on it, and w2 dies meanwhile.
    host_engines = tmp_path / "w2-engines.toml"
    slow = [sys.executable, str(ENGINES / "slow_start.py"), "60"]
    host_engines.write_text(
        '[[engines]]\nname = "alphabeta"\ncommand = [' + ", ".join(f'"{part}"' for part in slow) + "]\n",
        encoding="utf-8",
    )
    cluster.start_worker("w1")
    cluster.start_worker("w2", env={"ARBITER_WORKER_ENGINES": str(host_engines)})
    cluster.wait_for_workers(["w1", "w2"])
    path = write(tmp_path, match("st=0.1"))
    database = tmp_path / "event.sqlite"
    with client_of(cluster) as client, running(arbiter_run(path, "--scheduler", cluster.address)) as run:
        pid = worker_pids(client)["w2"]
        wait_until(lambda: bool(engines_under(pid, b"slow_start.py")), "w2 checks its slow engine", run)
        cluster.kill("w2")
        code, out, err = finish(run)
    assert code == 0, f"{out}\n{err}"
    assert "Traceback" not in out + err
    text = said(out)
    assert "left during the preflight; going on without it" in text
    assert "playing on 1 Dask worker(s)" in text
    workers = assert_each_game_stored_once(database, out)
    assert set(workers.values()) == {"w1"}
