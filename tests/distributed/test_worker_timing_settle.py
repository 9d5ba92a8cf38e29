"""A worker's engine host settles the interpreter for timing as a local run does: after the preflight,
and before a game when no other game's clock runs on the host."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_game_orders import first_order

import arbiter.distributed.worker as worker
from arbiter.distributed.orders import WorkerName

WORKER = WorkerName(address="(test)", name="test", host="localhost")


def test_the_engine_host_settles_before_a_game_played_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settled: list[int] = []
    host = worker.EngineHost()
    monkeypatch.setattr(worker, "settle_for_timing", lambda: settled.append(host._playing))
    try:
        answer = host.submit(host.play(first_order(tmp_path), WORKER)).result(timeout=120)
    finally:
        host.close()
    assert answer.record is not None and answer.record.plies > 0
    assert settled == [1], "settled once, with this game the only one on the host"
