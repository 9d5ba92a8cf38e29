"""On a worker, the stderr kept of an engine over an event is bounded too: one budget for all the
processes the worker starts for that engine in that event (their logs are the worker's temporary files),
and another event's games get a budget of their own."""

from __future__ import annotations

from pathlib import Path

from event_orders import chatty_event, event_orders

from arbiter.distributed.orders import WorkerName
from arbiter.distributed.worker import EngineHost
from arbiter.engines import EngineClient, EngineConfig

BUDGET = 200_000
PROCESS_LIMIT = 64 * 1024
DEBUG_LINE = b"debug: evaluating a very interesting position in great detail\n"  # all stderr_flood.py writes
EVENT = chatty_event(
    games=6,
    reuse_engines=False,
    max_plies=12,
    chatty_settings=f"stderr_limit_bytes = {PROCESS_LIMIT}\nstderr_event_limit_bytes = {BUDGET}",
)


def engine_text(log: Path) -> int:
    """The bytes of the engine's own stderr in a log, without the arbiter's notes (and the line break a
    note puts before itself where the engine's text stopped mid-line)."""
    kept = 0
    for line in log.read_bytes().splitlines(keepends=True):
        if not line.startswith(b"[arbiter]"):
            kept += len(line) if line == DEBUG_LINE else len(line) - 1
    return kept


def test_a_worker_keeps_one_budget_of_an_engine_s_stderr_per_event(tmp_path: Path) -> None:
    games = event_orders(tmp_path, EVENT, reuse_engines=False)
    other_event = games[0].model_copy(update={"tags": {**games[0].tags, "Event": "another event"}})
    host = EngineHost()
    logs: dict[str, list[Path]] = {"chatty event": [], "another event": []}
    every_log: set[Path] = set()  # the worker's temporary files, removed afterwards
    take = host._take

    async def take_and_note(config: EngineConfig, variant: str, event: str) -> EngineClient:
        engine = await take(config, variant, event)
        every_log.add(engine.stderr_log)
        if config.name == "chatty" and engine.stderr_log not in logs[event]:
            logs[event].append(engine.stderr_log)
        return engine

    host._take = take_and_note  # type: ignore[method-assign]
    worker = WorkerName(address="(test)", name="test", host="localhost")
    try:
        for order in [*games, other_event]:
            answer = host.submit(host.play(order, worker)).result(timeout=60)
            assert answer.record is not None, answer
        # Engines not reused: every game started the flooding engine afresh, 6 processes of 64 KiB each.
        assert len(logs["chatty event"]) == 6
        assert sum(engine_text(log) for log in logs["chatty event"]) == BUDGET
        assert sum("stderr budget of" in log.read_text(errors="replace") for log in logs["chatty event"]) >= 2
        [other] = logs["another event"]
        assert engine_text(other) == PROCESS_LIMIT
    finally:
        host.close()
        for log in every_log:
            log.unlink(missing_ok=True)
