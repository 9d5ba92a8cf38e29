"""`arbiter play` (one game from two engine configurations) settles the interpreter for timing as an
event does: once both engines are started, before the first move is timed."""

from __future__ import annotations

import asyncio
import time

import pytest

import arbiter.referee.session as session
from arbiter.engines import EngineConfig
from arbiter.referee.observer import GameObserver
from arbiter.referee.record import GameRecord
from arbiter.referee.setup import GameSetup
from arbiter.referee.timecontrol import parse_time_control
from arbiter.rules import Position
from arbiter.tournament.config import bundled_command


class FirstMove(GameObserver):
    def __init__(self) -> None:
        self.started: float | None = None

    def game_started(self, record: GameRecord, position: Position) -> None:
        self.started = time.monotonic()


def test_a_single_game_settles_for_timing_after_its_engines_start_and_before_its_first_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settled: list[float] = []
    monkeypatch.setattr(session, "settle_for_timing", lambda: settled.append(time.monotonic()))
    observer = FirstMove()
    setup = GameSetup(variant="english", time_control=parse_time_control("depth=1"))
    white = EngineConfig(name="white", command=bundled_command("random"))
    black = EngineConfig(name="black", command=bundled_command("random"))
    record = asyncio.run(session.play_game_from_configs(setup, white, black, observer=observer))
    assert record.plies > 0
    assert len(settled) == 1
    assert observer.started is not None and settled[0] <= observer.started
