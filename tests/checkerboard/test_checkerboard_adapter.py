"""The adapter with a real library (tests/engines/cb_engine.c): what the engine is told (time flags,
reset, game history, parameters), and that `ping`, `stop` and the watchdog work while it thinks.
The engine notes every call on stderr, which is its log."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from checkerboard_builds import cb_config, left_behind
from typer.testing import CliRunner

from arbiter.cli import app
from arbiter.engines import (
    Clock,
    EngineConfigError,
    Infinite,
    MoveTime,
    VariantUnsupported,
    create_engine,
    probe_engine,
)
from arbiter.engines.checkerboard.timing import reserve
from arbiter.rules import Position, get_variant

ENGLISH_START = "B" + "b" * 12 + "e" * 8 + "w" * 12
Library = Callable[[str], Path]
runner = CliRunner()


def getmove_calls(log: Path) -> list[tuple[float, int, int]]:
    """(maxtime, info, moreinfo) of every getmove the engine noted."""
    found = re.findall(r"getmove color=\d maxtime=([\d.]+) info=(\d+) moreinfo=(-?\d+)", log.read_text())
    return [(float(maxtime), int(info), int(more)) for maxtime, info, more in found]


def test_the_engine_is_told_reset_then_exact_time_then_fischer_fields(
    cb_library: Library, tmp_path: Path
) -> None:
    log = tmp_path / "e.log"

    async def scenario() -> None:
        engine = create_engine(cb_config(cb_library("english")), stderr_log=log)
        await engine.open("english")
        await engine.new_game()
        await engine.search(ENGLISH_START, [], MoveTime(0.5))
        await engine.search(ENGLISH_START, ["11-15"], Clock(time=10, inc=1))
        await engine.search(ENGLISH_START, ["11-15", "23-19"], Clock(time=40, moves=20, inc=0))
        await engine.quit()

    asyncio.run(scenario())
    warm_up, first, second, third = getmove_calls(log)
    assert warm_up[1] == 1 | 2, "the warm-up before the first game: reset + exact time"
    assert first[1] == 1 | 2 and first[0] == pytest.approx(0.5 - reserve(0.5), abs=1e-3), "reset + exact time"
    assert second[1] == 1 << 2 and second[2] == 10000 << 16 | 1000, "incremental, in milliseconds"
    assert third[1] == 2 and third[0] == pytest.approx((40 - reserve(40)) / 20, abs=1e-3), "a time per move"


def test_game_history_is_sent_from_the_last_man_move_with_the_king_moves_since(
    cb_library: Library, tmp_path: Path
) -> None:
    variant = get_variant("english")
    start = Position.from_fen(variant, "B:WK29,32:BK3,12")
    log = tmp_path / "e.log"

    async def scenario() -> None:
        engine = create_engine(cb_config(cb_library("english")), stderr_log=log)
        await engine.open("english")
        # 12-16 is a man move (irreversible); the king moves after it are the history.
        await engine.search(start.hub(), ["12-16", "29-25", "3-7", "25-29"], MoveTime(0.2))
        await engine.quit()

    asyncio.run(scenario())
    *_warm_up, history = re.findall(r"gamehist (.*)", log.read_text())
    assert history == "W:WK29,32:BK3,16 29-25 3-7 25-29"


def test_an_engine_that_does_not_handle_game_history_is_asked_once(
    cb_library: Library, tmp_path: Path
) -> None:
    log = tmp_path / "e.log"

    async def scenario() -> None:
        engine = create_engine(cb_config(cb_library("no_gamehist")), stderr_log=log)
        await engine.open("english")
        for moves in ([], ["11-15"], ["11-15", "23-19"]):
            await engine.search(ENGLISH_START, moves, MoveTime(0.2))
        await engine.quit()

    asyncio.run(scenario())
    assert log.read_text().count("gamehist refused") == 1
    assert len(getmove_calls(log)) == 1 + 3, "the warm-up and the three searches"


def test_the_watchdog_sets_playnow_before_the_move_would_be_late(cb_library: Library, tmp_path: Path) -> None:
    log = tmp_path / "e.log"

    async def scenario() -> float:
        engine = create_engine(cb_config(cb_library("english"), params={"think": 20}), stderr_log=log)
        await engine.open("english")
        result = await engine.search(ENGLISH_START, [], MoveTime(0.4), timeout=5)
        await engine.quit()
        assert not engine.faults
        return result.elapsed

    elapsed = asyncio.run(scenario())
    assert "playnow seen" in log.read_text()
    assert elapsed < 5, "an engine told to think 20 times maxtime was stopped by the watchdog"


def test_stop_and_ping_work_while_the_engine_thinks(cb_library: Library, tmp_path: Path) -> None:
    log = tmp_path / "e.log"

    async def scenario() -> tuple[float, bool]:
        engine = create_engine(cb_config(cb_library("english"), params={"think": 1}), stderr_log=log)
        await engine.open("english")
        handle = await engine.begin_search(ENGLISH_START, [], Infinite())
        assert await handle.wait(0.3) is None, "an infinite search goes on until stopped"
        pong = await engine.ping()
        await handle.stop()
        result = await handle.wait(5)
        await engine.quit()
        return pong, result is not None and result.stopped

    pong, stopped = asyncio.run(scenario())
    assert pong < 3 and stopped
    assert "playnow seen" in log.read_text()


def test_parameters_are_the_options_the_engine_answers_get_for(cb_library: Library, tmp_path: Path) -> None:
    log = tmp_path / "e.log"

    async def scenario() -> list[str]:
        config = cb_config(cb_library("english"), params={"hashsize": 64, "seed": 7})
        engine = create_engine(config, stderr_log=log)
        await engine.open("english")
        await engine.quit()
        assert engine.identity is not None
        return sorted(engine.identity.params)

    assert asyncio.run(scenario()) == ["hashsize", "seed", "variant"]
    text = log.read_text()
    assert "set hashsize 64" in text and "set seed 7" in text


def test_a_setting_the_engine_takes_is_no_error_whatever_set_returns(
    cb_library: Library, tmp_path: Path
) -> None:
    # CheckerBoard does not look at what `set` returns, and Cake returns 0 for settings it takes: whether
    # the engine took a value is read back with `get`.
    async def errors(params: dict[str, int]) -> list[str]:
        config = cb_config(cb_library("set_says_0"), params=params)
        engine = create_engine(config, stderr_log=tmp_path / "e.log")
        await engine.open("english")
        await engine.quit()
        return [fault.message for fault in engine.faults if fault.kind == "engine_error"]

    assert asyncio.run(errors({"hashsize": 64})) == []
    [refused] = asyncio.run(errors({"seed": 7}))
    assert "did not take 'set seed 7'" in refused and "'get seed' answers '12345'" in refused, refused
    assert "it replied 'seed stays 12345'" in refused, refused


def test_an_option_the_engine_does_not_answer_is_refused_before_any_game(cb_library: Library) -> None:
    config = cb_config(cb_library("english"), params={"colour": "red"})
    with pytest.raises(EngineConfigError, match="'colour' is not declared by the engine"):
        asyncio.run(probe_engine(config, ["english"]))


def test_a_variant_the_engine_s_game_type_does_not_play_is_refused_before_any_game(
    cb_library: Library,
) -> None:
    with pytest.raises(VariantUnsupported, match="offers only english, english\\+iyt-draws"):
        asyncio.run(probe_engine(cb_config(cb_library("english")), ["russian"]))
    with pytest.raises(VariantUnsupported, match="offers only russian"):
        asyncio.run(probe_engine(cb_config(cb_library("russian")), ["english"]))
    identity = asyncio.run(probe_engine(cb_config(cb_library("english")), ["english+iyt-draws"]))
    assert identity.extra["gametype"] == "21"


def test_two_engines_of_one_library_are_two_processes(cb_library: Library, tmp_path: Path) -> None:
    async def scenario() -> tuple[int, int]:
        config = cb_config(cb_library("english"))
        first = create_engine(config, stderr_log=tmp_path / "1.log")
        second = create_engine(config, stderr_log=tmp_path / "2.log")
        await asyncio.gather(first.open("english"), second.open("english"))
        await asyncio.gather(*(e.search(ENGLISH_START, [], MoveTime(0.2)) for e in (first, second)))
        pids = first.pid, second.pid
        await asyncio.gather(first.quit(), second.quit())
        return pids

    first, second = asyncio.run(scenario())
    assert first != second and not left_behind(first) and not left_behind(second)


def test_engine_check_reports_a_checkerboard_library(cb_library: Library) -> None:
    library = cb_library("english")
    result = runner.invoke(app, ["engine", "check", "--", f"cb:{library}"])
    assert result.exit_code == 0, result.output
    for expected in (
        f"engine 'cb_english' (checkerboard): library {library}",
        "name       Test engine (English)",
        "about      A small CheckerBoard engine / written for the arbiter's tests",
        "protocol-version 2",
        "gametype   21",
        "hashsize         int",
        "(with the library's first getmove, where it sets itself up: off every clock)",
        "faults: none",
    ):
        assert expected in result.output
    russian = runner.invoke(
        app,
        [
            "engine",
            "check",
            "--variant",
            "russian",
            "--protocol",
            "checkerboard",
            "--",
            str(cb_library("russian")),
        ],
    )
    assert russian.exit_code == 0, russian.output
    assert "gametype   25" in russian.output


def test_engine_check_names_the_fault_of_a_crashing_library(cb_library: Library) -> None:
    result = runner.invoke(app, ["engine", "check", "--", f"cb:{cb_library('crash')}"])
    assert result.exit_code == 1
    assert "FAULT crashed" in result.output and "SIGSEGV" in result.output


def test_a_long_game_history_is_sent_whole(cb_library: Library, tmp_path: Path) -> None:
    start = Position.from_fen(get_variant("english"), "B:WK29,32:BK3,12")
    shuffle = ["3-7", "29-25", "7-3", "25-29"] * 15  # 60 king moves: far beyond 256 bytes
    log = tmp_path / "e.log"

    async def scenario() -> None:
        engine = create_engine(cb_config(cb_library("english")), stderr_log=log)
        await engine.open("english")
        await engine.search(start.hub(), shuffle, MoveTime(0.2))
        await engine.quit()

    asyncio.run(scenario())
    *_warm_up, history = re.findall(r"gamehist (.*)", log.read_text())
    assert history == "B:WK29,32:BK3,12 " + " ".join(shuffle)
