"""A game's clocks start only once both engines are ready for it: what an engine does on `new-game`
(clearing its tables) is answered by its `pong` and is never charged to its first move."""

from __future__ import annotations

import sys

from referee_games import ENGINES, QUICK, game_setup, play, scripted

from arbiter.engines import EngineConfig
from arbiter.referee.record import Termination, Winner

MOVE_TIME = 0.5


def slow_new_game(name: str, seconds: float, ready: float = QUICK.ready) -> EngineConfig:
    command = [sys.executable, str(ENGINES / "slow_new_game.py"), str(seconds)]
    return EngineConfig(name=name, command=command, timeouts=QUICK.model_copy(update={"ready": ready}))


def test_time_spent_on_new_game_is_not_charged_to_the_first_move() -> None:
    # Black moves first and takes twice the move time over new-game: charged to its first move, it
    # would lose on time before playing.
    record = play(game_setup(f"st={MOVE_TIME}"), scripted("white"), slow_new_game("black", 2 * MOVE_TIME))
    assert record.outcome is not None
    assert record.outcome.termination is not Termination.TIME_FORFEIT
    first = record.moves[0]
    assert (first.side, first.text) == ("black", "11-15")
    assert first.elapsed is not None and first.elapsed < MOVE_TIME


def test_an_engine_not_ready_for_the_game_within_the_ready_timeout_forfeits_it() -> None:
    record = play(
        game_setup(f"st={MOVE_TIME}"), slow_new_game("white", 3.0, ready=0.5), slow_new_game("b", 0)
    )
    assert record.outcome is not None
    assert (record.outcome.termination, record.winner) == (Termination.START_FAILURE, Winner.BLACK)
    assert record.plies == 0
    assert "no pong within 0.5 s after new-game" in record.outcome.reason
