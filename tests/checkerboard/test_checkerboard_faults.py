"""Misbehaving CheckerBoard engines (builds of tests/engines/cb_engine.c): each costs only its own
game, with its named fault, and leaves no process behind."""

from __future__ import annotations

import asyncio
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from checkerboard_builds import ENGLISH_START, cb_config, english_game, left_behind, search_once

from arbiter.engines import EngineFault, MoveTime, create_engine
from arbiter.referee.record import Termination, Winner

Library = Callable[[str], Path]


@pytest.mark.parametrize(
    ("build", "timeout", "timeouts", "kind"),
    [
        ("crash", 2.0, {}, "crashed"),
        ("hang", 0.3, {"stop": 0.5}, "stop_ignored"),
        ("ignore_playnow", 0.1, {}, "search_timeout"),  # it thinks 3 x (0.1 s - reserve) = 0.15 s
    ],
)
def test_each_misbehaving_library_gives_its_fault_and_leaves_no_process(
    cb_library: Library, tmp_path: Path, build: str, timeout: float, timeouts: dict[str, float], kind: str
) -> None:
    engine = asyncio.run(search_once(cb_library(build), tmp_path / "e.log", timeout, timeouts))
    assert [fault.kind for fault in engine.faults][:1] == [kind]
    assert engine.pid > 0 and not left_behind(engine.pid)


def test_a_crash_in_getmove_names_the_signal(cb_library: Library, tmp_path: Path) -> None:
    engine = asyncio.run(search_once(cb_library("crash"), tmp_path / "e.log"))
    assert "SIGSEGV" in engine.faults[0].message


def test_an_engine_that_ignores_playnow_still_moves_late_and_stays_usable(
    cb_library: Library, tmp_path: Path
) -> None:
    async def scenario() -> tuple[list[str], float]:
        engine = create_engine(cb_config(cb_library("ignore_playnow")), stderr_log=tmp_path / "e.log")
        await engine.open("english")
        with pytest.raises(EngineFault):
            await engine.search(ENGLISH_START, [], MoveTime(0.1), timeout=0.12)
        pong = await engine.ping()
        await engine.quit()
        return [fault.kind for fault in engine.faults], pong

    kinds, pong = asyncio.run(scenario())
    assert kinds == ["search_timeout"] and pong >= 0


def test_a_missing_library_fails_to_start_with_its_path(tmp_path: Path) -> None:
    engine = asyncio.run(search_once(tmp_path / "nowhere" / "engine.so", tmp_path / "e.log"))
    assert engine.faults[0].kind == "start_failed"
    assert "nowhere/engine.so" in engine.faults[0].message and "no such file" in engine.faults[0].message


def test_a_file_that_is_no_checkerboard_library_stops_at_start_up_saying_why(tmp_path: Path) -> None:
    fake = tmp_path / "fake.so"
    fake.write_text("not a library")
    engine = asyncio.run(search_once(fake, tmp_path / "e.log"))
    assert engine.faults[0].kind == "startup_exit"
    assert "cannot load" in engine.faults[0].message and str(fake) in engine.faults[0].message
    assert not left_behind(engine.pid)


def test_a_windows_dll_under_another_name_is_told_to_be_named_dll(tmp_path: Path) -> None:
    # Windows DLLs start with the MZ header; only a .dll name sends one to Wine.
    renamed = tmp_path / "engine.so"
    renamed.write_bytes(b"MZ" + bytes(4094))
    engine = asyncio.run(search_once(renamed, tmp_path / "e.log"))
    assert engine.faults[0].kind == "startup_exit"
    assert "it is a Windows DLL: name it NAME.dll to run it under Wine" in engine.faults[0].message
    assert not left_behind(engine.pid)


@pytest.mark.parametrize(
    ("build", "termination"),
    [
        ("crash", Termination.CRASH),
        ("hang", Termination.TIME_FORFEIT),
        ("ignore_playnow", Termination.TIME_FORFEIT),
        ("illegal", Termination.ILLEGAL_MOVE),
    ],
)
def test_a_misbehaving_library_costs_only_its_own_game(
    cb_library: Library, tmp_path: Path, build: str, termination: Termination
) -> None:
    record = english_game(cb_library(build), cb_library("english"), tmp_path)
    assert record.outcome is not None
    assert record.outcome.termination is termination, record.outcome.reason
    assert record.outcome.winner is Winner.BLACK, "White's engine misbehaved; Black wins"


def test_an_illegal_board_loses_the_game_and_the_reason_shows_the_engine_s_board(
    cb_library: Library, tmp_path: Path
) -> None:
    record = english_game(cb_library("english"), cb_library("illegal"), tmp_path)
    outcome = record.outcome
    assert outcome is not None
    assert outcome.termination is Termination.ILLEGAL_MOVE
    assert "Black played an illegal move" in outcome.reason
    assert "the engine's board after its move: W:W21,22,23,24,25,26,27,28,29,30,31,32:B" in outcome.reason


def test_what_a_library_prints_goes_to_its_log_never_into_the_protocol(
    cb_library: Library, tmp_path: Path
) -> None:
    record = english_game(cb_library("printf"), cb_library("english"), tmp_path, "st=0.05")
    outcome = record.outcome
    assert outcome is not None
    assert outcome.termination not in (Termination.UNPARSABLE_OUTPUT, Termination.CRASH), outcome.reason
    assert not record.warnings
    log = (tmp_path / "white-white.log").read_text()
    assert "this text must never reach the arbiter's protocol" in log
    assert "enginecommand name" in log


def test_getmove_has_the_stack_checkerboard_gives_its_engines_whatever_the_stack_limit(
    cb_library: Library,
) -> None:
    # CheckerBoard runs engines with 8 MB of stack; a thread's default is the stack limit, here 2 MB.
    library = cb_library("deep_stack")

    def two_megabytes() -> None:
        resource.setrlimit(resource.RLIMIT_STACK, (2 << 20, resource.getrlimit(resource.RLIMIT_STACK)[1]))

    command = [sys.executable, "-m", "arbiter.cli", "engine", "check", "--", f"cb:{library}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, preexec_fn=two_megabytes)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "faults: none" in done.stdout
