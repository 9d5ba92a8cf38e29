"""A cluster run stopped from outside: Ctrl-C at the coordinator, or its scheduler going away."""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("distributed")

from cluster_runs import (  # noqa: E402
    arbiter_run,
    assert_each_game_stored_once,
    client_of,
    engines_under,
    finish,
    finished_count,
    match,
    running,
    said,
    unfinished_keys,
    wait_for_games,
    worker_pids,
    write,
)
from dask_cluster import DaskCluster  # noqa: E402

DROPPED = re.compile(r"game (r\d+-b\d+-g\d+) abandoned: the coordinator no longer wants it")
"""What a worker logs when it drops a game of a run that stopped."""
SETTLE_SECONDS = 30.0
"""How long the workers may take to drop the games and end the engines of a stopped run."""


def test_ctrl_c_stops_a_cluster_run_cleanly_and_the_next_run_plays_its_abandoned_games(
    tmp_path: Path, cluster: DaskCluster
) -> None:
    cluster.start_worker("w1")
    cluster.start_worker("w2")
    cluster.wait_for_workers(["w1", "w2"])
    # Engines are not kept between games, so any engine still running afterwards is a game left going.
    path = write(tmp_path, match("st=0.1", extra="reuse_engines = false"))
    database = tmp_path / "event.sqlite"
    with client_of(cluster) as client:
        pids = worker_pids(client)
        with running(arbiter_run(path, "--scheduler", cluster.address)) as run:
            wait_for_games(run, database, 2)
            assert any(engines_under(pid) for pid in pids.values()), "games were under way"
            run.send_signal(signal.SIGINT)
            code, out, err = finish(run)
        assert code == 130, f"{out}\n{err}"
        text = said(out)
        assert "stopping: running games are abandoned" in text and "abandoned (run again to resume)" in text
        abandoned = unfinished_keys(database)
        assert abandoned, "the games under way were kept as abandoned"
        stored_before = finished_count(database)

        deadline = time.monotonic() + SETTLE_SECONDS
        while (busy := _busy(client, pids)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not busy, f"still running on the workers after the run stopped: {busy}"
        logs = cluster.log("w1") + cluster.log("w2")
        dropped = set(DROPPED.findall(logs))
        assert dropped, "the workers dropped the games under way instead of playing them out"
        assert dropped <= abandoned, "a game a worker dropped is stored as abandoned, to be played again"

    code, out, err = finish(arbiter_run(path, "--scheduler", cluster.address))
    assert code == 0, f"{out}\n{err}"
    assert f"resuming: {stored_before} of 20 games already played" in said(out)
    assert_each_game_stored_once(database, out)
    assert not unfinished_keys(database), "the abandoned games were played"


def test_losing_the_scheduler_stops_the_run_with_a_clear_error_and_exit_status_1_and_a_new_cluster_resumes_it(
    tmp_path: Path, cluster: DaskCluster
) -> None:
    cluster.start_worker("w1")
    cluster.wait_for_workers(["w1"])
    path = write(tmp_path, match("st=0.1"))
    database = tmp_path / "event.sqlite"
    with running(arbiter_run(path, "--scheduler", cluster.address)) as run:
        wait_for_games(run, database, 2)
        cluster.kill("scheduler")
        code, out, err = finish(run)
    # 1, the status of a run that could not go on (the games stored are kept), not 2: nothing given was wrong.
    assert code == 1, f"{out}\n{err}"
    message = said(err)
    assert "the Dask scheduler dropped the task" in message and "is the scheduler still running?" in message
    assert "run again to resume" in message
    assert "Traceback" not in err, "Dask's cancelled reconnection is not shown as an error"
    assert 2 <= finished_count(database) < 20, "the games played before are kept"
    stored_before = finished_count(database)

    again = DaskCluster(tmp_path / "second-cluster")
    again.folder.mkdir()
    try:
        again.start_scheduler()
        again.start_worker("w1")
        again.wait_for_workers(["w1"])
        code, out, err = finish(arbiter_run(path, "--scheduler", again.address))
    finally:
        again.close()
    assert code == 0, f"{out}\n{err}"
    assert f"resuming: {stored_before} of 20 games already played" in said(out)
    assert_each_game_stored_once(database, out)


def _busy(client: Any, pids: dict[str, int]) -> dict[str, object]:
    """What the workers still have of a stopped run: tasks the scheduler sees on them, tasks they are
    executing, engines among their processes."""
    busy: dict[str, object] = {}
    tasks = {address: keys for address, keys in client.processing().items() if keys}
    if tasks:
        busy["tasks at the scheduler"] = tasks
    executing = {
        address: count
        for address, count in client.run(lambda dask_worker: len(dask_worker.state.executing)).items()
        if count
    }
    if executing:
        busy["tasks executing"] = executing
    engines = {name: sorted(found) for name, pid in pids.items() if (found := engines_under(pid))}
    if engines:
        busy["engines"] = engines
    return busy
