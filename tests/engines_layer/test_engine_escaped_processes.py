"""Processes an engine started that left its process group and session (setsid) are ended with it:
after `quit`, as soon as the engine crashes or is killed, and when the arbiter has to kill the engine.
Checked through /proc, with tests/engines/escapes_session.py, a real engine whose helper does that."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from engine_layer_support import (
    ENGLISH_START,
    assert_nothing_left,
    group_and_session,
    hub_config,
    process_exists,
)

from arbiter.engines import Depth, EngineFault, HubEngine
from arbiter.engines.process_group import read_entry, signal_process
from arbiter.engines.process_marker import MARKER_VARIABLE


async def open_escaper(tmp_path: Path, *options: str, **timeouts: float) -> tuple[HubEngine, int]:
    """The engine, opened, and the pid of its helper, checked to be outside the engine's group and
    session (else these tests would prove nothing)."""
    config = hub_config("escapes_session.py", *options, timeouts=timeouts)
    engine = HubEngine(config, stderr_log=tmp_path / f"escaper{'-'.join(options)}.log")
    await engine.open("english")
    assert engine.identity is not None
    helper = int(engine.identity.extra["child-pid"])
    group, session = group_and_session(helper)
    assert group != engine.pid and session != engine.pid and session == helper
    return engine, helper


async def gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while process_exists(pid):
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


def stray_messages(engine: HubEngine) -> list[str]:
    return [fault.message for fault in engine.faults if fault.kind == "stray_processes"]


def test_a_helper_that_left_the_session_is_ended_after_quit_and_recorded(tmp_path: Path) -> None:
    async def scenario() -> tuple[HubEngine, int]:
        engine, helper = await open_escaper(tmp_path)
        assert (await engine.search(ENGLISH_START, [], Depth(1))).move == "11-15"
        await engine.quit()
        return engine, helper

    engine, helper = asyncio.run(scenario())
    assert [fault.kind for fault in engine.faults] == ["stray_processes"]
    assert f"{helper} (python" in engine.faults[0].message
    assert "outside its process group" in engine.faults[0].message
    assert_nothing_left(engine.pid, helper)


def test_an_adopted_helper_the_engine_ends_itself_at_quit_is_reaped(tmp_path: Path) -> None:
    # As a Wine engine's processes: orphaned early (the arbiter adopts them), out of the engine's session,
    # and killed by the engine at its quit, so they are zombies of the arbiter's by the time it has exited,
    # their token unreadable. The arbiter must still reap them: else each run of such an engine leaves a
    # handful of zombies until the arbiter exits.
    async def scenario() -> tuple[HubEngine, int]:
        engine, helper = await open_escaper(tmp_path, "--like-wine")
        entry = read_entry(helper)
        assert entry is not None and entry.ppid == os.getpid(), "the helper was not adopted"
        await engine.quit()
        return engine, helper

    engine, helper = asyncio.run(scenario())
    assert not engine.faults, engine.faults
    assert read_entry(helper) is None, "the helper is left as a zombie of the arbiter's"


def test_a_helper_that_left_the_session_is_ended_as_soon_as_the_engine_crashes(tmp_path: Path) -> None:
    async def scenario() -> tuple[HubEngine, int]:
        engine, helper = await open_escaper(tmp_path, "--crash-on-go")
        with pytest.raises(EngineFault) as caught:
            await engine.search(ENGLISH_START, [], Depth(1))
        assert caught.value.kind == "crashed"
        assert await gone_within(helper, 10.0), "the helper outlived the crashed engine"
        await engine.quit()
        return engine, helper

    engine, helper = asyncio.run(scenario())
    assert [fault.kind for fault in engine.faults] == ["crashed", "stray_processes"]
    assert str(helper) in stray_messages(engine)[0]
    assert_nothing_left(engine.pid, helper)


def test_a_helper_that_left_the_session_is_ended_when_the_engine_is_killed_from_outside(
    tmp_path: Path,
) -> None:
    async def scenario() -> tuple[HubEngine, int]:
        engine, helper = await open_escaper(tmp_path)
        os.kill(engine.pid, signal.SIGKILL)  # as the out-of-memory killer or a user would
        assert await gone_within(helper, 10.0), "the helper outlived the killed engine"
        with pytest.raises(EngineFault) as caught:
            await engine.search(ENGLISH_START, [], Depth(1))
        assert caught.value.kind == "crashed" and "SIGKILL" in caught.value.message
        await engine.quit()
        return engine, helper

    engine, helper = asyncio.run(scenario())
    assert [fault.kind for fault in engine.faults] == ["crashed", "stray_processes"]
    assert_nothing_left(engine.pid, helper)


def test_a_helper_that_left_the_session_is_ended_when_the_arbiter_kills_the_engine(tmp_path: Path) -> None:
    async def scenario() -> tuple[HubEngine, int]:
        # Both ignore SIGTERM: the engine is killed after `quit` and `kill`, the helper after `kill`.
        engine, helper = await open_escaper(tmp_path, "--ignore-quit", quit=0.3, kill=0.3)
        await engine.quit()
        return engine, helper

    engine, helper = asyncio.run(scenario())
    assert [fault.kind for fault in engine.faults] == ["quit_timeout", "stray_processes"]
    assert str(helper) in stray_messages(engine)[0]
    assert_nothing_left(engine.pid, helper)


def test_ending_one_engine_leaves_the_processes_of_another_running(tmp_path: Path) -> None:
    async def scenario() -> tuple[HubEngine, int, HubEngine, int]:
        first, first_helper = await open_escaper(tmp_path)
        second, second_helper = await open_escaper(tmp_path, "--crash-on-go")
        await first.quit()
        assert not process_exists(first_helper)
        assert process_exists(second_helper) and process_exists(second.pid)
        assert await second.ping() >= 0
        await second.quit()
        return first, first_helper, second, second_helper

    first, first_helper, second, second_helper = asyncio.run(scenario())
    assert_nothing_left(first.pid, first_helper)
    assert_nothing_left(second.pid, second_helper)


def test_each_engine_carries_its_own_token_in_its_environment(tmp_path: Path) -> None:
    async def token_of_one_engine() -> tuple[str, str]:
        engine, helper = await open_escaper(tmp_path)
        tokens = []
        for pid in (engine.pid, helper):
            environment = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            (marker,) = [item for item in environment if item.startswith(MARKER_VARIABLE.encode() + b"=")]
            tokens.append(marker.decode())
        await engine.quit()
        assert tokens[0] == tokens[1]  # the helper inherited the engine's token
        return tokens[0], tokens[1]

    first, _ = asyncio.run(token_of_one_engine())
    second, _ = asyncio.run(token_of_one_engine())
    assert first != second


def test_a_process_whose_pid_was_taken_by_another_is_never_signalled() -> None:
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        entry = read_entry(sleeper.pid)
        assert entry is not None
        # The same pid, but another start time: what the arbiter sees after the pid was reused.
        earlier = dataclasses.replace(entry, start_time=entry.start_time - 1)
        assert not signal_process(earlier, signal.SIGKILL)
        assert sleeper.poll() is None
        assert signal_process(entry, signal.SIGKILL)
        assert sleeper.wait(timeout=10) == -signal.SIGKILL
    finally:
        sleeper.kill()
        sleeper.wait()
