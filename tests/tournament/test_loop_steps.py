"""Nothing slow runs on the event loop that reads and times the engines.

The store, the report and the looks through /proc are made slow here (each call sleeps
``SLOW`` seconds, as a loaded disk or a large process table can), and a short event is run with engines
started and ended for every game. Every step of the loop is timed (``LoopSteps``): none may block for
anything near ``SLOW``, and none may cost more CPU than ``LONGEST_LOOP_STEP``, the longest step the
runner allows itself (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import gc
import time
from pathlib import Path
from typing import Any

import pytest
from tournament_files import bundled, write_tournament

import arbiter.engines.leftovers as leftovers
from arbiter.engines.pauses import GC_THRESHOLDS
from arbiter.referee.record import GameRecord
from arbiter.running.loop_steps import LoopSteps
from arbiter.running.runner import LONGEST_LOOP_STEP, QuietObserver, TournamentRunner
from arbiter.store import TournamentStore
from arbiter.tournament.config import load_tournament
from arbiter.tournament.schedule import PlannedGame

SLOW = 0.5


def slowed(function: Any) -> Any:
    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(SLOW)
        return function(*args, **kwargs)

    return slow


class WhileGamesArePlayed(QuietObserver):
    """Measures the loop's steps from the first game's start to the last game's end."""

    def __init__(self, steps: LoopSteps, games: int) -> None:
        self.steps = steps
        self.left = games

    def game_started(self, game: PlannedGame) -> None:
        self.steps.measuring = True

    def game_finished(self, game: PlannedGame, record: GameRecord) -> None:
        self.left -= 1
        if self.left == 0:
            self.steps.measuring = False


def test_no_loop_step_waits_on_the_store_the_report_or_proc_while_games_are_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(TournamentStore, "record_game", slowed(TournamentStore.record_game))
    monkeypatch.setattr(leftovers, "group_members", slowed(leftovers.group_members))
    monkeypatch.setattr(leftovers, "marked_processes", slowed(leftovers.marked_processes))
    body = (
        'variant = "english"\ntime_control = "st=2"\nformat = "match"\ngames_per_encounter = 4\n'
        "concurrency = 2\nreuse_engines = false\n[adjudication]\nmax_plies = 30\n"
    )
    engines = bundled("random-1", "random", seed=1) + bundled("random-2", "random", seed=2)
    config, configs = load_tournament(write_tournament(tmp_path, body, engines))
    refreshes: list[int] = []

    def report(tournament_id: int) -> None:
        time.sleep(SLOW)
        refreshes.append(tournament_id)

    with TournamentStore.open(config.database) as store:
        with LoopSteps(measuring=False) as steps:
            runner = TournamentRunner(
                config, configs, after_game=report, observer=WhileGamesArePlayed(steps, 4)
            )
            summary = asyncio.run(runner.run(store, handle_signals=False))
        assert summary.finished == 4
    assert refreshes, "the report was refreshed"
    assert steps.longest_wall.wall < SLOW * 0.8, steps.describe()
    assert steps.longest_cpu.cpu < LONGEST_LOOP_STEP, steps.describe()


class NotesTheCollector(QuietObserver):
    def __init__(self) -> None:
        self.seen: list[tuple[tuple[int, int, int], int]] = []

    def game_started(self, game: PlannedGame) -> None:
        self.seen.append((gc.get_threshold(), gc.get_freeze_count()))


def test_games_are_played_with_start_up_frozen_out_of_the_collector_and_its_thresholds_raised(
    tmp_path: Path,
) -> None:
    body = 'variant = "english"\ntime_control = "depth=1"\nformat = "match"\ngames_per_encounter = 1\n'
    engines = bundled("random-1", "random", seed=1) + bundled("random-2", "random", seed=2)
    config, configs = load_tournament(
        write_tournament(tmp_path, body + "[adjudication]\nmax_plies = 4\n", engines)
    )
    observer = NotesTheCollector()
    gc.unfreeze()  # as a fresh process starts (an earlier event in this process may have settled it)
    gc.set_threshold(700, 10, 10)
    with TournamentStore.open(config.database) as store:
        asyncio.run(TournamentRunner(config, configs, observer=observer).run(store, handle_signals=False))
    [(thresholds, frozen)] = observer.seen
    assert thresholds == GC_THRESHOLDS and frozen > 0
