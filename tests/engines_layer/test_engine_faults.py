"""Engines that misbehave on purpose (real programs under tests/engines/): each gives its own named fault,
the arbiter stays healthy, and afterwards the operating system shows no process of the engine left."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from engine_layer_support import (
    ENGLISH_START,
    assert_nothing_left,
    hub_config,
)

from arbiter.engines import (
    FAULT_KINDS,
    Depth,
    EngineConfig,
    EngineFault,
    HubEngine,
    Infinite,
    MoveTime,
)

Scenario = Callable[[HubEngine], Awaitable[None]]


async def open_and_search(engine: HubEngine) -> None:
    await engine.open("english")
    await engine.search(ENGLISH_START, [], MoveTime(0.1), timeout=0.3)


async def open_only(engine: HubEngine) -> None:
    await engine.open("english")


async def play_two_searches(engine: HubEngine) -> None:
    await engine.open("english")
    for moves in ([], ["11-15"]):
        await engine.search(ENGLISH_START, moves, Depth(1))


# script, config overrides, how it is driven, the fault it must give
CASES: list[tuple[str, dict[str, object], Scenario, str]] = [
    ("exit_at_start.py", {}, open_only, "startup_exit"),
    ("silent_on_hub.py", {"timeouts": {"handshake": 0.3}}, open_only, "handshake_timeout"),
    ("never_ready.py", {"timeouts": {"ready": 0.3}}, open_only, "ready_timeout"),
    ("crash_in_search.py", {}, open_and_search, "crashed"),
    ("hang_on_go.py", {"timeouts": {"stop": 0.3, "ping": 0.3}}, open_and_search, "unresponsive"),
    ("ignore_stop.py", {"timeouts": {"stop": 0.3}}, open_and_search, "stop_ignored"),
    ("garbage.py", {}, open_and_search, "garbage"),
    ("bad_move.py", {}, open_and_search, "bad_move_format"),
    ("flood.py", {"output_limit_bytes": 1024 * 1024}, open_and_search, "output_flood"),
    ("endless_line.py", {"line_limit_bytes": 4096}, open_and_search, "line_too_long"),
    ("ignore_quit.py", {"timeouts": {"quit": 0.3, "kill": 0.3}}, play_two_searches, "quit_timeout"),
    ("leaves_child.py", {}, play_two_searches, "stray_processes"),
    ("stderr_flood.py", {"stderr_limit_bytes": 64 * 1024}, play_two_searches, "stderr_flood"),
]


def make_config(script: str, overrides: dict[str, object]) -> EngineConfig:
    fields = dict(overrides)
    timeouts = fields.pop("timeouts", {})
    assert isinstance(timeouts, dict)
    return hub_config(script, timeouts=timeouts, **fields)


async def run_case(script: str, overrides: dict[str, object], scenario: Scenario, log: Path) -> HubEngine:
    engine = HubEngine(make_config(script, overrides), stderr_log=log)
    try:
        await scenario(engine)
    except EngineFault as fault:
        assert engine.faults[0] is fault  # what is raised is also on record
    finally:
        await engine.quit()
    return engine


@pytest.mark.parametrize(("script", "overrides", "scenario", "kind"), CASES, ids=[case[0] for case in CASES])
def test_each_misbehaving_engine_gives_its_own_fault_and_leaves_no_process(
    tmp_path: Path, script: str, overrides: dict[str, object], scenario: Scenario, kind: str
) -> None:
    engine = asyncio.run(run_case(script, overrides, scenario, tmp_path / "engine.log"))
    kinds = [fault.kind for fault in engine.faults]
    assert kinds[0] == kind, f"{script}: faults {kinds}"
    assert FAULT_KINDS[kind] is type(engine.faults[0])
    child = int(engine.identity.extra.get("child-pid", 0)) if engine.identity is not None else 0
    assert_nothing_left(engine.pid, *([child] if child else []))


def test_the_faults_named_by_the_misbehaving_engines_are_all_different() -> None:
    kinds = [case[3] for case in CASES]
    assert len(set(kinds)) == len(kinds)


def test_exit_at_start_reports_the_exit_code_and_the_engine_s_last_words(tmp_path: Path) -> None:
    engine = asyncio.run(run_case("exit_at_start.py", {}, open_only, tmp_path / "e.log"))
    message = engine.faults[0].message
    assert "exited with code 3" in message and "cannot open evaluation weights" in message


def test_a_crash_reports_the_signal(tmp_path: Path) -> None:
    engine = asyncio.run(run_case("crash_in_search.py", {}, open_and_search, tmp_path / "e.log"))
    assert "SIGSEGV" in engine.faults[0].message


def test_a_program_that_cannot_be_started_is_start_failed(tmp_path: Path) -> None:
    async def scenario() -> list[str]:
        missing = EngineConfig(name="ghost", command=[str(tmp_path / "no-such-engine")])
        not_executable = tmp_path / "engine.txt"
        not_executable.write_text("not a program")
        plain = EngineConfig(name="text", command=[str(not_executable)])
        nowhere = EngineConfig(name="lost", command=[sys.executable], working_dir=tmp_path / "gone")
        messages = []
        for config in (missing, plain, nowhere):
            engine = HubEngine(config, stderr_log=tmp_path / f"{config.name}.log")
            with pytest.raises(EngineFault) as caught:
                await engine.open()
            assert caught.value.kind == "start_failed"
            messages.append(caught.value.message)
        return messages

    missing, plain, nowhere = asyncio.run(scenario())
    assert "program not found" in missing
    assert "permission denied" in plain
    assert "working directory" in nowhere and "does not exist" in nowhere


def test_a_bad_move_leaves_the_engine_usable(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = HubEngine(hub_config("bad_move.py"), stderr_log=tmp_path / "e.log")
        await engine.open("english")
        with pytest.raises(EngineFault, match="move='e3-d4'"):
            await engine.search(ENGLISH_START, [], Depth(1))
        assert await engine.ping() >= 0
        await engine.quit()
        assert_nothing_left(engine.pid)

    asyncio.run(scenario())


def test_a_broken_engine_refuses_further_calls_with_the_same_fault(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = HubEngine(hub_config("garbage.py"), stderr_log=tmp_path / "e.log")
        await engine.open("english")
        with pytest.raises(EngineFault) as first:
            await engine.search(ENGLISH_START, [], Depth(1))
        with pytest.raises(EngineFault) as second:
            await engine.ping()
        assert first.value is second.value and first.value.kind == "garbage"
        await engine.quit()

    asyncio.run(scenario())


def test_the_stderr_log_is_capped_and_says_where_it_stopped(tmp_path: Path) -> None:
    log = tmp_path / "chatty.log"
    engine = asyncio.run(
        run_case("stderr_flood.py", {"stderr_limit_bytes": 64 * 1024}, play_two_searches, log)
    )
    assert [fault.kind for fault in engine.faults] == ["stderr_flood"]
    assert 64 * 1024 < log.stat().st_size < 64 * 1024 + 1024
    assert "stderr limit of 65536 bytes reached" in log.read_text()


def test_misbehaving_engines_running_at_once_do_not_disturb_a_healthy_one(tmp_path: Path) -> None:
    async def healthy_games() -> list[str]:
        engine = HubEngine(hub_config("instant_hub.py"), stderr_log=tmp_path / "healthy.log")
        await engine.open("english")
        moves: list[str] = []
        for _ in range(20):
            result = await engine.search(ENGLISH_START, moves[-1:], Depth(1))
            assert result.move is not None
            moves.append(result.move)
            await asyncio.sleep(0.02)
        await engine.quit()
        assert engine.faults == []
        return moves

    async def scenario() -> tuple[list[str], list[HubEngine]]:
        faulty = [
            run_case(script, overrides, drive, tmp_path / f"{script}.log")
            for script, overrides, drive, _ in CASES
        ]
        moves, *engines = await asyncio.gather(healthy_games(), *faulty)
        return moves, engines  # type: ignore[return-value]

    moves, engines = asyncio.run(scenario())
    assert len(moves) == 20
    assert [engine.faults[0].kind for engine in engines] == [case[3] for case in CASES]
    for engine in engines:
        assert_nothing_left(engine.pid)


def test_an_engine_that_ignores_stop_is_told_apart_from_one_that_hangs(tmp_path: Path) -> None:
    async def finish_after_stop(script: str) -> str:
        config = hub_config(script, timeouts={"stop": 0.3, "ping": 0.3})
        engine = HubEngine(config, stderr_log=tmp_path / f"{script}.log")
        await engine.open("english")
        handle = await engine.begin_search(ENGLISH_START, [], Infinite())
        with pytest.raises(EngineFault) as caught:
            await handle.finish()
        await engine.quit()
        assert_nothing_left(engine.pid)
        return caught.value.kind

    assert asyncio.run(finish_after_stop("ignore_stop.py")) == "stop_ignored"
    assert asyncio.run(finish_after_stop("hang_on_go.py")) == "unresponsive"


def test_an_engine_that_never_flushes_its_output_is_asked_whether_it_does(tmp_path: Path) -> None:
    overrides: dict[str, object] = {"timeouts": {"handshake": 0.5}}
    engine = asyncio.run(run_case("buffers_output.py", overrides, open_only, tmp_path / "e.log"))
    fault = engine.faults[0]
    assert fault.kind == "handshake_timeout"
    assert "nothing at all came from it: does it flush its output after every line?" in fault.message


def test_an_engine_that_stops_half_way_through_the_handshake_is_told_what_it_sent(tmp_path: Path) -> None:
    overrides: dict[str, object] = {"timeouts": {"handshake": 0.5}}
    engine = asyncio.run(run_case("forgets_wait.py", overrides, open_only, tmp_path / "e.log"))
    fault = engine.faults[0]
    assert fault.kind == "handshake_timeout"
    assert fault.message.endswith("no wait within 0.5 s after hub; it sent an id line and 6 param lines")
