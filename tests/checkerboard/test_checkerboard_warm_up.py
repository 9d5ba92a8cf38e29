"""The adapter's warm-up: a CheckerBoard engine sets itself up (book, endgame databases) in its first
getmove, so the adapter makes that call before `ready`, off every clock, and the first game's first move
is charged for its search only. Builds of tests/engines/cb_engine.c."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

from checkerboard_builds import ENGLISH_START, cb_config, english_game
from typer.testing import CliRunner

from arbiter.cli import app
from arbiter.engines import MoveTime, create_engine
from arbiter.referee.record import Side, Termination, Winner
from arbiter.running.preflight import preflight_engines

Library = Callable[[str], Path]

SET_UP_SECONDS = 1.5  # the slow_first build's wait in its first getmove


def test_an_engine_that_sets_itself_up_in_its_first_getmove_does_it_before_the_game_off_the_clock(
    cb_library: Library, tmp_path: Path
) -> None:
    # 0.3 s a move: the 1.5 s set-up on the first move's clock would lose the game on time at once.
    record = english_game(cb_library("slow_first"), cb_library("english"), tmp_path, control="st=0.3")
    assert record.outcome is not None
    assert record.outcome.termination is not Termination.TIME_FORFEIT, record.outcome.reason
    first = next(move for move in record.moves if move.side is Side.WHITE)
    assert first.elapsed is not None and first.elapsed < SET_UP_SECONDS / 2
    [white_log] = [log for log in tmp_path.glob("*.log") if "set up in" in log.read_text()]
    logged = white_log.read_text()
    assert re.search(r"first getmove \(the engine's set-up, off the clock\): 1\.\d+ s", logged)
    assert logged.index("set up in") < logged.index("getmove color=", logged.index("off the clock"))


ABOUT = "A small CheckerBoard engine / written for the arbiter's tests"
SET_UP_ABOUT = f"{ABOUT} / book loaded in its first getmove"


def test_the_identity_kept_is_the_engines_about_once_set_up_as_the_game_record_holds_it(
    cb_library: Library, tmp_path: Path
) -> None:
    """Cake's `about` says "Engine not initialized yet!" until its first getmove, GuiNN's "Opening Book :
    not loaded"; once set up they say what they loaded, and that is what the game and the site show."""
    record = english_game(cb_library("slow_first"), cb_library("english"), tmp_path, control="st=0.3")
    assert record.white.identity["about"] == SET_UP_ABOUT
    assert record.black.identity["about"] == ABOUT


def test_an_event_stores_the_identity_the_engine_gives_once_set_up(
    cb_library: Library, tmp_path: Path
) -> None:
    """The identity the event keeps (`arbiter run` stores what the check before its first game found)."""
    identities = asyncio.run(preflight_engines([cb_config(cb_library("slow_first"))], "english", tmp_path))
    [identity] = identities.values()
    assert identity.extra["about"] == SET_UP_ABOUT
    assert identity.name == "Test engine (English)" and "hashsize" in identity.params


def test_a_set_up_longer_than_the_warm_up_limit_answers_ready_and_the_first_search_waits_for_it(
    cb_library: Library, tmp_path: Path
) -> None:
    """No engine fails to start because of the warm-up: past its limit (a share of the ready timeout)
    `ready` is answered and the set-up goes on, charged to the first search as it would be without it."""
    log = tmp_path / "e.log"

    async def scenario() -> tuple[float, str]:
        config = cb_config(cb_library("slow_first"), timeouts={"ready": 1.0})
        engine = create_engine(config, stderr_log=log)
        await engine.open("english")
        result = await engine.search(ENGLISH_START, [], MoveTime(0.1), timeout=5)
        await engine.quit()
        assert engine.faults == [] and engine.identity is not None
        return result.elapsed, engine.identity.extra["about"]

    elapsed, about = asyncio.run(scenario())
    assert elapsed > 0.3, "the search waited for the rest of the set-up"
    assert "still running after 0.8 s: ready is answered now" in log.read_text()
    # Not asked again while its getmove runs (a library serves one call at a time): as the handshake said.
    assert about.endswith("/ not set up yet")


def test_a_library_that_crashes_while_it_sets_itself_up_fails_at_start_naming_the_signal(
    cb_library: Library, tmp_path: Path
) -> None:
    record = english_game(cb_library("crash_at_set_up"), cb_library("english"), tmp_path)
    assert record.outcome is not None and record.outcome.winner is Winner.BLACK
    assert record.outcome.termination is Termination.START_FAILURE, record.outcome.reason
    assert "failed to start" in record.outcome.reason and "SIGSEGV" in record.outcome.reason
    assert record.moves == []


def test_the_warm_up_limit_is_a_share_of_the_ready_timeout(cb_library: Library) -> None:
    from arbiter.engines.checkerboard.client import adapter_command

    command = adapter_command(cb_config(cb_library("english"), timeouts={"ready": 30.0}))
    assert command[command.index("--warm-up-limit") + 1] == "24"


def test_engine_check_shows_the_set_up_under_configure_and_a_first_move_in_time(cb_library: Library) -> None:
    result = CliRunner().invoke(
        app, ["engine", "check", "--move-time", "0.5", "--", f"cb:{cb_library('slow_first')}"]
    )
    assert result.exit_code == 0, result.output
    [configure] = re.findall(r"configure \(init/ready\) +([\d.]+) s", result.output)
    assert float(configure) >= SET_UP_SECONDS
    assert "late:" not in result.output and "faults: none" in result.output
    # The `about` of the handshake, then what the engine says once set up.
    assert f"about      {ABOUT} / not set up yet\n" in result.output
    assert f"about      {SET_UP_ABOUT}  (once set up)" in result.output
