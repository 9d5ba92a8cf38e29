"""A worker that cannot play (a wrong engines file, an engine missing on its machine) is turned away for
the run, and the workers that can play go on with the event: real `dask worker` processes on loopback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from cluster_runs import (  # noqa: E402
    arbiter_run,
    arbiter_run_logged,
    assert_database_sound,
    assert_each_game_stored_once,
    finish,
    finished_count,
    match,
    running,
    said,
    wait_for_output,
    write,
)
from dask_cluster import DaskCluster  # noqa: E402

ENGINES = Path(__file__).resolve().parents[1] / "engines"
TURNED_AWAY = "is turned away for this run"
WAITING = "no worker is left: the run waits for one to join (Ctrl-C stops it)"


def engines_file(folder: Path, name: str, *lines: str) -> Path:
    """A worker's engines file (ARBITER_WORKER_ENGINES) giving these lines for the engine `name`."""
    path = folder / "worker-engines.toml"
    path.write_text("\n".join(["[[engines]]", f'name = "{name}"', *lines, ""]), encoding="utf-8")
    return path


def missing_greedy(folder: Path) -> dict[str, str]:
    return {
        "ARBITER_WORKER_ENGINES": str(engines_file(folder, "greedy", 'command = ["/nonexistent/greedy"]'))
    }


def few_games(cycles: int, tc: str = "depth=2") -> str:
    return match(tc).replace("cycles = 10", f"cycles = {cycles}")


def test_a_worker_that_joins_without_an_engine_is_turned_away_and_the_others_play_the_event(
    tmp_path: Path, cluster: DaskCluster
) -> None:
    cluster.start_worker("w1")
    cluster.wait_for_workers(["w1"])
    path = write(tmp_path, match("st=0.1"))
    database, log = tmp_path / "event.sqlite", tmp_path / "run.log"
    with running(arbiter_run_logged(path, log, "--scheduler", cluster.address)) as run:
        wait_for_output(run, log, "playing on 1 Dask worker(s)")
        cluster.start_worker("w2", env=missing_greedy(tmp_path))
        wait_for_output(run, log, TURNED_AWAY)
        code, _, _ = finish(run)
    out = log.read_text(encoding="utf-8")
    assert code == 0, out
    text = said(out)
    assert text.count(TURNED_AWAY) == 1, "said once"
    assert (
        "worker 'w2' at tcp://" in text
        and "is turned away for this run: cannot start engine 'greedy': cannot start '/nonexistent/greedy'"
        in text
    )
    assert "now 2 game(s) at a time on 1 worker(s)" in text, "the run goes on with w1"
    workers = assert_each_game_stored_once(database, out)
    assert set(workers.values()) == {"w1"}, "w2 got no game"
    assert_database_sound(database)


def test_a_worker_without_an_engine_at_the_start_is_turned_away_and_the_others_play_the_event(
    tmp_path: Path, cluster: DaskCluster
) -> None:
    cluster.start_worker("w1")
    cluster.start_worker("w2", env=missing_greedy(tmp_path))
    cluster.wait_for_workers(["w1", "w2"])
    path = write(tmp_path, few_games(2))
    code, out, err = finish(arbiter_run(path, "--scheduler", cluster.address))
    assert code == 0, f"{out}\n{err}"
    text = said(out)
    assert text.count(TURNED_AWAY) == 1
    assert "worker 'w2'" in text and "cannot start engine 'greedy'" in text and "/nonexistent/greedy" in text
    assert "playing on 1 Dask worker(s)" in text and "worker 'w1'" in text
    workers = assert_each_game_stored_once(tmp_path / "event.sqlite", out, planned=4)
    assert set(workers.values()) == {"w1"}


def test_when_no_worker_can_play_at_the_start_the_run_stops_with_exit_status_1(
    tmp_path: Path, cluster: DaskCluster
) -> None:
    cluster.start_worker("w1", env=missing_greedy(tmp_path))
    cluster.wait_for_workers(["w1"])
    path = write(tmp_path, few_games(1))
    code, out, err = finish(arbiter_run(path, "--scheduler", cluster.address))
    assert code == 1, f"{out}\n{err}"
    message = said(err)
    assert "the tournament cannot start on the Dask workers: none of them can play its games" in message
    assert "worker 'w1'" in message and "engine 'greedy'" in message and "/nonexistent/greedy" in message
    assert "Traceback" not in out + err
    assert finished_count(tmp_path / "event.sqlite") == 0, "no game was played or forfeited"


def test_a_worker_whose_engine_fails_for_a_game_is_turned_away_the_run_waits_and_a_new_worker_plays(
    tmp_path: Path, cluster: DaskCluster
) -> None:
    # On w1 greedy answers the check's handshake, then never says `ready` when a game begins: w1 passes
    # its check and fails at its first game. It is the only worker, so the run waits for another.
    never_ready = f'command = ["{sys.executable}", "{ENGINES / "never_ready.py"}"]'
    host_engines = engines_file(tmp_path, "greedy", never_ready, "params = {}", "timeouts = { ready = 1.0 }")
    cluster.start_worker("w1", env={"ARBITER_WORKER_ENGINES": str(host_engines)})
    cluster.wait_for_workers(["w1"])
    path = write(tmp_path, few_games(2))
    database, log = tmp_path / "event.sqlite", tmp_path / "run.log"
    with running(arbiter_run_logged(path, log, "--scheduler", cluster.address)) as run:
        wait_for_output(run, log, WAITING)
        assert finished_count(database) == 0
        cluster.start_worker("w2")
        code, _, _ = finish(run)
    out = log.read_text(encoding="utf-8")
    assert code == 0, out
    text = said(out)
    assert text.count(TURNED_AWAY) == 1, "said once, however many of its games came back"
    assert "worker 'w1'" in text and "cannot start engine 'greedy'" in text and ", for game r" in text
    assert "worker 'w2' at" in text and "joined and was checked" in text
    workers = assert_each_game_stored_once(database, out, planned=4)
    assert set(workers.values()) == {"w2"}, "the game w1 could not play went to w2, unforfeited"
    assert_database_sound(database)


def test_a_worker_engines_file_may_name_a_bundled_engine(tmp_path: Path, cluster: DaskCluster) -> None:
    # The tournament's 'kingsrow' is a program no machine here has; w1's engines file plays it with the
    # bundled greedy engine, on w1's own Python.
    host_engines = engines_file(tmp_path, "kingsrow", 'bundled = "greedy"')
    cluster.start_worker("w1", env={"ARBITER_WORKER_ENGINES": str(host_engines)})
    cluster.wait_for_workers(["w1"])
    text = few_games(1).replace(
        'name = "greedy"\nbundled = "greedy"', 'name = "kingsrow"\ncommand = ["/opt/kingsrow/kingsrow"]'
    )
    path = write(tmp_path, text)
    code, out, err = finish(arbiter_run(path, "--scheduler", cluster.address))
    assert code == 0, f"{out}\n{err}"
    assert_each_game_stored_once(tmp_path / "event.sqlite", out, planned=2)
