"""A move is charged from just before its command is written, after the arbiter has logged it: writing
the communication log (`--debug`'s file, `play --debug`'s echo to a terminal) is the arbiter's own time,
never the engine's. Each test notes when the command was logged and checks the clock started later."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from engine_layer_support import ENGLISH_START, INTERNATIONAL_START, hub_config
from test_dxp_engine_games import dxp_config

from arbiter.engines import Clock, DxpEngine, HubEngine, MoveTime
from arbiter.engines.comm_log import CommLog


class LoggedAt:
    """A comm log's echo that notes the monotonic time the first line holding ``marker`` was logged."""

    def __init__(self, marker: str) -> None:
        self.marker = marker
        self.at: float | None = None

    def __call__(self, line: str) -> None:
        if self.at is None and self.marker in line:
            self.at = time.monotonic()


async def hub_search(tmp_path: Path) -> tuple[float | None, float]:
    """(when `go` was logged, when the search's clock started)."""
    logged = LoggedAt(" > go think")
    log = CommLog("stamps_answer", tmp_path / "comm.log", echo=logged)
    engine = HubEngine(hub_config("stamps_answer.py"), stderr_log=tmp_path / "engine.log", comm_log=log)
    await engine.open("english")
    try:
        handle = await engine.begin_search(ENGLISH_START, [], MoveTime(10.0))
        assert await handle.wait(10.0) is not None
        return logged.at, handle.started
    finally:
        await engine.quit()
        log.close()


def test_a_hub_search_is_charged_from_after_its_commands_are_logged(tmp_path: Path) -> None:
    logged, started = asyncio.run(hub_search(tmp_path))
    assert logged is not None, "the search's commands were logged"
    assert logged <= started, "the clock started before the arbiter had written its comm log"


async def dxp_search(tmp_path: Path) -> tuple[float | None, float]:
    """(when the opponent's move was logged, when the search for the engine's answer started)."""
    logged = LoggedAt(" > M")  # the arbiter sends no move before the one relayed to the second search
    log = CommLog("follower", tmp_path / "comm.log", echo=logged)
    config = dxp_config("engine_listens", "--moves", "32-28,28x19x23")
    engine = DxpEngine(config, stderr_log=tmp_path / "engine.log", comm_log=log)
    await engine.open("international")
    try:
        await engine.search(INTERNATIONAL_START, [], Clock(150, moves=40))  # the engine moves first
        clock = Clock(150, moves=40)
        handle = await engine.begin_search(INTERNATIONAL_START, ["32-28", "18x27x22x23"], clock)
        assert await handle.wait(10.0) is not None
        return logged.at, handle.started
    finally:
        await engine.quit()
        log.close()


def test_a_dxp_search_is_charged_from_after_the_relayed_move_is_logged(tmp_path: Path) -> None:
    logged, started = asyncio.run(dxp_search(tmp_path))
    assert logged is not None, "the relayed move was logged"
    assert logged <= started, "the clock started before the arbiter had written its comm log"
