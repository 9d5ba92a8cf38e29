"""One budget of stderr kept on disk for all the processes of an engine, also several running at once:
what they write together stops at the budget, each process whose stderr is dropped says so once in its
log, and each process's own `stderr_flood` fault is judged on its own output, as before."""

from __future__ import annotations

import asyncio
from pathlib import Path

from engine_layer_support import ENGLISH_START, hub_config

from arbiter.engines import Depth, EngineConfig, HubEngine, StderrBudget
from arbiter.engines.stderr_budget import PROCESS_LIMITS_PER_EVENT, event_limit

PROCESS_LIMIT = 64 * 1024  # stderr_flood.py writes 2 MiB at its start: every process floods
NOTE = "[arbiter] stderr budget of"
DEBUG_LINE = b"debug: evaluating a very interesting position in great detail\n"  # all stderr_flood.py writes


def engine_text(log: Path) -> int:
    """The bytes of the engine's own stderr in its log: its debug lines, without the arbiter's notes and
    the line break a note puts before itself where the engine's text stopped mid-line."""
    kept = 0
    for line in log.read_bytes().splitlines(keepends=True):
        if line.startswith(b"[arbiter]"):
            continue
        kept += len(line) if line == DEBUG_LINE else len(line) - 1  # a line cut short, then the note's break
    return kept


async def flood_and_search(config: EngineConfig, log: Path, budget: StderrBudget) -> HubEngine:
    engine = HubEngine(config, stderr_log=log, stderr_budget=budget)
    try:
        await engine.open("english")
        await engine.search(ENGLISH_START, [], Depth(1))
    finally:
        await engine.quit()
    return engine


def test_processes_running_at_once_share_one_budget_and_each_still_floods(tmp_path: Path) -> None:
    config = hub_config("stderr_flood.py", name="chatty", stderr_limit_bytes=PROCESS_LIMIT)
    budget = StderrBudget(100_000)
    logs = [tmp_path / f"chatty-{n}.log" for n in range(3)]

    async def scenario() -> list[HubEngine]:
        together = await asyncio.gather(*(flood_and_search(config, log, budget) for log in logs[:2]))
        later = await flood_and_search(config, logs[2], budget)
        return [*together, later]

    engines = asyncio.run(scenario())
    # Two processes of 64 KiB each wanted 128 KiB: what they kept together is the budget, to the byte.
    assert budget.spent == 100_000
    assert sum(engine_text(log) for log in logs) == 100_000
    texts = [log.read_text(encoding="utf-8", errors="replace") for log in logs]
    assert all(text.count(NOTE) <= 1 for text in texts), texts
    assert sum(text.count(NOTE) for text in texts[:2]) >= 1
    # Started once the budget was spent: its log holds only the arbiter's lines, its note among them.
    assert engine_text(logs[2]) == 0
    assert texts[2].count(NOTE) == 1 and "stderr budget of 100000 bytes" in texts[2]
    # The fault is each process's own, whatever the budget let it keep, and each engine played its move.
    for engine, text in zip(engines, texts, strict=True):
        assert [fault.kind for fault in engine.faults] == ["stderr_flood"]
        assert f"stderr limit of {PROCESS_LIMIT} bytes reached" in text


def test_a_process_under_its_limit_stops_writing_when_the_budget_is_spent(tmp_path: Path) -> None:
    # 8 KiB at the start and at every search, far under the process's limit: no fault, but the budget
    # still holds what is kept.
    config = hub_config("stderr_flood.py", "8", name="chatty")
    budget = StderrBudget(12 * 1024)
    log = tmp_path / "chatty.log"

    async def scenario() -> HubEngine:
        engine = HubEngine(config, stderr_log=log, stderr_budget=budget)
        try:
            await engine.open("english")
            for moves in ([], ["11-15"], ["11-15", "23-19"]):
                await engine.search(ENGLISH_START, moves, Depth(1))
        finally:
            await engine.quit()
        return engine

    engine = asyncio.run(scenario())
    assert engine.faults == []
    assert engine_text(log) == 12 * 1024
    assert log.read_text(encoding="utf-8").count(NOTE) == 1


def test_the_event_budget_is_four_process_limits_unless_set() -> None:
    assert PROCESS_LIMITS_PER_EVENT == 4
    assert event_limit(EngineConfig(name="e", command=["e"])) == 64 * 1024 * 1024
    assert event_limit(EngineConfig(name="e", command=["e"], stderr_limit_bytes=1000)) == 4000
    chosen = EngineConfig(name="e", command=["e"], stderr_limit_bytes=1000, stderr_event_limit_bytes=10)
    assert event_limit(chosen) == 10
    assert StderrBudget.for_engine(chosen, spent=4).take(100) == 6
