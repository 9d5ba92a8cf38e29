"""On a worker, an engine's faults go back with a game even when they were met before its first move
(while the engine started), and an engine with such a fault is not kept for the next game: as a local
run stores them and starts the engine afresh."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

from arbiter.distributed.coordinator import engine_orders
from arbiter.distributed.orders import GameOrder, WorkerName
from arbiter.distributed.worker import EngineHost
from arbiter.tournament.config import load_tournament
from arbiter.tournament.plan import plan_tournament

ENGINES = Path(__file__).resolve().parents[1] / "engines"
# stderr_flood.py writes 2 MiB to stderr before it reads its first command: far past this limit.
EVENT = f"""name = "chatty event"
database = "event.sqlite"
variant = "english"
time_control = "depth=1"
games_per_encounter = 3
reuse_engines = true
[adjudication]
max_plies = 8
[[engines]]
name = "quiet"
command = ["{sys.executable}", "{ENGINES / "instant_hub.py"}"]
[[engines]]
name = "chatty"
command = ["{sys.executable}", "{ENGINES / "stderr_flood.py"}"]
stderr_limit_bytes = 65536
"""


def orders(tmp_path: Path) -> list[GameOrder]:
    path = tmp_path / "tournament.toml"
    path.write_text(EVENT, encoding="utf-8")
    config, engines = load_tournament(path)
    plan = plan_tournament(config)
    by_name = engine_orders(config, engines)
    return [
        GameOrder.of(
            str(game.key), plan.setup_for(game), by_name[game.white], by_name[game.black], reuse_engines=True
        )
        for game in plan.schedule.games
    ]


def test_a_fault_met_while_the_engine_started_goes_back_with_its_game_and_the_engine_is_started_afresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the worker's engine logs: removed with it
    host = EngineHost()
    worker = WorkerName(address="(test)", name="test", host="localhost")
    try:
        for order in orders(tmp_path):
            answer = host.submit(host.play(order, worker)).result(timeout=60)
            assert answer.record is not None, answer
            floods = [n for n in answer.events if n.engine == "chatty" and "stderr_flood" in n.message]
            # Each game's chatty engine is a fresh process that floods as it starts: one fault a game.
            assert len(floods) == 1, (order.game, answer.events)
    finally:
        host.close()
