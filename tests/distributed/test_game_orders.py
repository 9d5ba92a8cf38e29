"""What travels to a worker and back, and how a worker plays an order: no cluster needed.

The worker's side is run here in this process, as a Dask worker would run it in one of its threads:
real engines, real games.
"""

from __future__ import annotations

import concurrent.futures
import os
import sys
import time
from pathlib import Path

import pytest
from cluster_runs import engines_under, still_running

from arbiter.distributed.coordinator import engine_orders
from arbiter.distributed.host_engines import OVERRIDES_VARIABLE, HostEngineError, host_config, read_overrides
from arbiter.distributed.orders import EngineOrder, GameOrder, GameReturn, ProbeOrder, WorkerName
from arbiter.distributed.worker import EngineHost, play_game_task
from arbiter.engines import EngineClient, EngineConfig, Timeouts
from arbiter.referee.record import Winner
from arbiter.tournament.config import BUNDLED_SCORE_UNIT, TournamentConfig, bundled_command, load_tournament
from arbiter.tournament.plan import plan_tournament

ENGINES = Path(__file__).resolve().parents[1] / "engines"
EVENT = """name = "orders"
database = "event.sqlite"
variant = "english"
time_control = "depth=2"
format = "match"
games_per_encounter = 2
repeat = true
[openings]
deck = "acf-156"
count = 3
[adjudication]
max_plies = 120
draw_score = 5
draw_moves = 8
play_forced_moves = true
[[engines]]
name = "alphabeta"
bundled = "alphabeta"
[[engines]]
name = "greedy"
bundled = "greedy"
"""


def event(tmp_path: Path, text: str = EVENT) -> tuple[TournamentConfig, list[EngineConfig]]:
    path = tmp_path / "tournament.toml"
    path.write_text(text, encoding="utf-8")
    return load_tournament(path)


def first_order(tmp_path: Path) -> GameOrder:
    config, engines = event(tmp_path)
    plan = plan_tournament(config)
    game = plan.schedule.games[0]
    orders = engine_orders(config, engines)
    return GameOrder.of(
        str(game.key), plan.setup_for(game), orders[game.white], orders[game.black], reuse_engines=True
    )


def test_a_game_order_rebuilds_the_planned_setup_on_the_worker(tmp_path: Path) -> None:
    config, engines = event(tmp_path)
    plan = plan_tournament(config)
    orders = engine_orders(config, engines)
    for game in plan.schedule.games:
        setup = plan.setup_for(game)
        order = GameOrder.of(str(game.key), setup, orders[game.white], orders[game.black], reuse_engines=True)
        arrived = GameOrder.model_validate_json(order.model_dump_json())
        assert arrived.setup() == setup
        assert arrived.white.config == orders[game.white].config


def test_bundled_engines_are_marked_so_each_worker_uses_its_own_python(tmp_path: Path) -> None:
    text = EVENT.replace('bundled = "greedy"', 'bundled = "greedy"\ncommand = ["/opt/greedy"]')
    config, engines = event(tmp_path, text)
    orders = engine_orders(config, engines)
    assert orders["alphabeta"].bundled == "alphabeta"
    assert orders["greedy"].bundled is None, "an explicit command is the user's, kept as given"
    elsewhere = EngineOrder(
        config=orders["alphabeta"].config.model_copy(update={"command": ["/usr/bin/python3.11", "-m", "x"]}),
        bundled="alphabeta",
    )
    assert host_config(elsewhere, {}).command == bundled_command("alphabeta")


def test_a_bundled_engine_of_the_engines_file_is_marked_for_the_workers_too(tmp_path: Path) -> None:
    (tmp_path / "engines.toml").write_text(
        '[[engines]]\nname = "strong"\nbundled = "alphabeta"\n', encoding="utf-8"
    )
    path = tmp_path / "t.toml"
    path.write_text(
        'engines_file = "engines.toml"\n[[engines]]\nname = "strong"\n'
        '[[engines]]\nname = "g"\nbundled = "greedy"\n',
        encoding="utf-8",
    )
    config, engines = load_tournament(path)
    assert engine_orders(config, engines)["strong"].bundled == "alphabeta"


def test_a_host_engines_file_replaces_the_keys_it_gives(tmp_path: Path) -> None:
    path = tmp_path / "host.toml"
    path.write_text(
        '[[engines]]\nname = "kingsrow"\ncommand = ["/opt/kr/kingsrow", "--hub"]\nworking_dir = "/opt/kr"\n',
        encoding="utf-8",
    )
    order = EngineOrder(config=EngineConfig(name="kingsrow", command=["C:/kr.exe"], params={"hash": 64}))
    config = host_config(order, read_overrides(path))
    assert config.command == ["/opt/kr/kingsrow", "--hub"]
    assert str(config.working_dir) == "/opt/kr"
    assert config.params == {"hash": 64}, "what the file does not give stays the coordinator's"
    other = EngineOrder(config=EngineConfig(name="other", command=["/bin/other"]))
    assert host_config(other, read_overrides(path)).command == ["/bin/other"]


def test_a_bad_host_engines_file_names_the_file_and_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "host.toml"
    path.write_text('[[engines]]\nname = "kingsrow"\ncommand = []\n', encoding="utf-8")
    monkeypatch.setenv(OVERRIDES_VARIABLE, str(path))
    order = EngineOrder(config=EngineConfig(name="kingsrow", command=["/bin/kr"]))
    with pytest.raises(
        HostEngineError, match=rf"host\.toml \(from \${OVERRIDES_VARIABLE}\): engine 'kingsrow': command"
    ):
        host_config(order)
    path.write_text("[[engines]\n", encoding="utf-8")
    with pytest.raises(HostEngineError, match=rf"host\.toml \(from \${OVERRIDES_VARIABLE}\): not valid TOML"):
        host_config(order)


def test_a_host_engines_file_takes_bundled_entries_as_a_tournament_engines_file_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "host.toml"
    path.write_text('[[engines]]\nname = "kingsrow"\nbundled = "greedy"\n', encoding="utf-8")
    monkeypatch.setenv(OVERRIDES_VARIABLE, str(path))
    order = EngineOrder(
        config=EngineConfig(name="kingsrow", command=["/opt/kr/kingsrow"], params={"seed": 3})
    )
    config = host_config(order)
    assert config.command == bundled_command("greedy"), "the bundled engine, on this host's Python"
    assert config.score_unit == BUNDLED_SCORE_UNIT and config.params == {"seed": 3}
    path.write_text('[[engines]]\nname = "kingsrow"\nbundled = "kingsrow"\n', encoding="utf-8")
    with pytest.raises(
        HostEngineError, match=r"host\.toml \(from .*\): engine 'kingsrow': bundled: Input should be"
    ):
        host_config(order)


def test_a_worker_engines_file_that_cannot_be_read_is_one_problem_not_one_for_each_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "host.toml"
    path.write_text("[[engines]\n", encoding="utf-8")
    monkeypatch.setenv(OVERRIDES_VARIABLE, str(path))
    config, engines = event(tmp_path)
    order = ProbeOrder(variant=config.variant, engines=list(engine_orders(config, engines).values()))
    worker = WorkerName(address="tcp://127.0.0.1:1", name="w1", host="localhost")
    host = EngineHost()
    try:
        report = host.submit(host.probe(order, worker, 2.0)).result(timeout=30)
    finally:
        host.close()
    assert [problem.engine for problem in report.problems] == [None]
    assert (
        report.problems[0]
        .describe()
        .startswith(f"worker 'w1' at tcp://127.0.0.1:1 on host 'localhost': {path}")
    )
    assert "not valid TOML" in report.problems[0].describe()


def test_a_worker_plays_an_order_and_sends_back_the_record(tmp_path: Path) -> None:
    order = first_order(tmp_path)
    answer = GameReturn.model_validate_json(play_game_task(order.model_dump_json()))
    assert answer.problem is None and answer.error is None
    record = answer.record
    assert record is not None and record.outcome is not None
    assert record.outcome.winner is not Winner.UNFINISHED
    assert (record.white.name, record.black.name) == (order.white.config.name, order.black.config.name)
    assert record.opening == order.opening and record.time_control == order.time_control
    assert order.opening is not None
    assert [m.text for m in record.moves if m.from_opening] == order.opening.moves, "the ballot comes first"


def test_an_engine_a_worker_cannot_start_is_a_problem_not_a_forfeit(tmp_path: Path) -> None:
    order = first_order(tmp_path)
    missing = EngineOrder(config=EngineConfig(name="ghost", command=[str(tmp_path / "no-such-engine")]))
    order = order.model_copy(update={"black": missing})
    answer = GameReturn.model_validate_json(play_game_task(order.model_dump_json()))
    assert answer.record is None
    assert answer.problem is not None and answer.problem.engine == "ghost"
    assert "no-such-engine" in answer.problem.message
    assert "cannot start engine 'ghost'" in answer.problem.describe()


def test_an_order_with_an_illegal_opening_comes_back_as_an_error(tmp_path: Path) -> None:
    order = first_order(tmp_path)
    assert order.opening is not None
    bad = order.model_copy(update={"opening": order.opening.model_copy(update={"moves": ["9-14", "1-2"]})})
    answer = GameReturn.model_validate_json(play_game_task(bad.model_dump_json()))
    assert answer.record is None and answer.error is not None
    assert f"game {order.game}" in answer.error and "1-2" in answer.error


def test_a_game_dropped_while_its_engines_are_ending_still_ends_them_all(tmp_path: Path) -> None:
    # White ignores `quit` and SIGTERM, so ending it takes both its time-outs (4 s) once the game is
    # over (at once: its first move is not legal). The game is dropped in that while; Black, which quits
    # when asked, must be ended all the same, not left running with no game.
    stubborn = EngineOrder(
        config=EngineConfig(
            name="stubborn",
            command=[sys.executable, str(ENGINES / "ignore_quit.py")],
            timeouts=Timeouts(quit=2.0, kill=2.0),
        )
    )
    order = first_order(tmp_path).model_copy(update={"white": stubborn, "reuse_engines": False})
    host = EngineHost()
    # The game's engines, each noted with its start time as soon as it has started. (Watching for them
    # from outside can miss Black: the game is over at once, and Black quits when asked.)
    engines: dict[int, int] = {}
    take = host._take

    async def take_and_note(config: EngineConfig, variant: str, event: str) -> EngineClient:
        engine = await take(config, variant, event)
        engines.update(
            (pid, started) for pid, started in engines_under(os.getpid(), b"").items() if pid == engine.pid
        )
        return engine

    host._take = take_and_note  # type: ignore[method-assign]
    try:
        running = host.submit(host.play(order, WorkerName(address="(test)", name="test", host="localhost")))
        deadline = time.monotonic() + 30
        while len(engines) < 2:
            assert time.monotonic() < deadline and not running.done(), "the engines did not start"
            time.sleep(0.05)
        time.sleep(1.5)
        assert not running.done(), "White was still being ended"
        running.cancel()
        with pytest.raises(concurrent.futures.CancelledError):
            running.result(timeout=10)
        deadline = time.monotonic() + 15
        while still_running(engines) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not still_running(engines), "every engine of the dropped game ended"
    finally:
        host.close()
