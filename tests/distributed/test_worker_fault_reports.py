"""On a worker, an engine's faults go back with a game even when they were met before its first move
(while the engine started), and an engine with such a fault is not kept for the next game: as a local
run stores them and starts the engine afresh."""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

import pytest
from event_orders import chatty_event, event_orders

from arbiter.distributed.orders import WorkerName
from arbiter.distributed.worker import EngineHost

# stderr_flood.py writes 2 MiB to stderr before it reads its first command: far past this limit.
EVENT = chatty_event(games=3, reuse_engines=True, max_plies=8, chatty_settings="stderr_limit_bytes = 65536")


def test_a_fault_met_while_the_engine_started_goes_back_with_its_game_and_the_engine_is_started_afresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the worker's engine logs: removed with it
    host = EngineHost()
    worker = WorkerName(address="(test)", name="test", host="localhost")
    try:
        for order in event_orders(tmp_path, EVENT, reuse_engines=True):
            answer = host.submit(host.play(order, worker)).result(timeout=60)
            assert answer.record is not None, answer
            floods = [n for n in answer.events if n.engine == "chatty" and "stderr_flood" in n.message]
            # Each game's chatty engine is a fresh process that floods as it starts: one fault a game.
            assert len(floods) == 1, (order.game, answer.events)
    finally:
        host.close()


def test_a_fault_met_while_the_engine_ended_after_its_game_goes_back_with_that_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    # leaves_child.py leaves a helper running when it exits: found (and ended) only as it is ended.
    event = EVENT.replace("stderr_flood.py", "leaves_child.py").replace("reuse_engines = true", "")
    host = EngineHost()
    worker = WorkerName(address="(test)", name="test", host="localhost")
    try:
        order = event_orders(tmp_path, event, reuse_engines=True)[0].model_copy(
            update={"reuse_engines": False}
        )
        answer = host.submit(host.play(order, worker)).result(timeout=60)
        assert answer.record is not None, answer
        kinds = [n.message.split(":")[0] for n in answer.events if n.engine == "chatty"]
        assert kinds == ["stray_processes"], answer.events
    finally:
        host.close()


def test_a_fault_met_while_an_idle_engine_is_ended_is_in_the_workers_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    event = EVENT.replace("stderr_flood.py", "leaves_child.py")
    host = EngineHost()
    worker = WorkerName(address="(test)", name="test", host="localhost")
    try:
        answer = host.submit(host.play(event_orders(tmp_path, event, reuse_engines=True)[0], worker)).result(
            timeout=60
        )
        assert answer.record is not None and not answer.events, answer
        with caplog.at_level(logging.WARNING, logger="arbiter.distributed"):
            host.submit(host._quit_idle(0.0)).result(timeout=30)  # as the sweep ends an idle engine
        assert "engine 'chatty', ended after its last game: stray_processes" in caplog.text
    finally:
        host.close()
