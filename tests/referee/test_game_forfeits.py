"""Forfeits: each way an engine can lose a game by misbehaving, played out with real engine programs."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from referee_games import QUICK, game_setup, play, received, replay, scripted

from arbiter.engines import EngineConfig
from arbiter.referee.record import GameOutcome, Termination, Winner

KINGS = "W:WK1,K2:BK31,K32"  # a quiet position in which the scripted engines play 80 plies


def ending(outcome: GameOutcome | None) -> tuple[Winner, Termination]:
    assert outcome is not None
    return outcome.winner, outcome.termination


def test_running_out_of_the_game_clock_loses_on_time() -> None:
    record = play(
        game_setup("60 scale=0.01", fen=KINGS), scripted("white", "--sleep", "0.1"), scripted("black")
    )
    assert ending(record.outcome) == (Winner.BLACK, Termination.TIME_FORFEIT)
    assert record.outcome is not None and record.outcome.reason.startswith("Black wins: White lost on time")
    white_clocks = [move.clock or 0.0 for move in record.moves if move.side == "white"]
    assert 3 <= len(white_clocks) <= 6  # 0.6 s for the game at 0.1 s a move
    assert all(clock > 0 for clock in white_clocks)
    assert white_clocks == sorted(white_clocks, reverse=True)


def test_going_over_a_fixed_move_time_loses_on_time() -> None:
    white = scripted("white", "--sleep", "0.4", "--sleep-from", "2")
    record = play(game_setup("st=0.15", fen=KINGS), white, scripted("black"))
    assert ending(record.outcome) == (Winner.BLACK, Termination.TIME_FORFEIT)
    assert record.plies == 2  # White's second move never came in time


def test_an_engine_that_hangs_under_a_clock_loses_on_time_not_for_silence() -> None:
    record = play(game_setup("st=0.2", fen=KINGS), scripted("white"), scripted("black", "--hang-at", "2"))
    assert ending(record.outcome) == (Winner.WHITE, Termination.TIME_FORFEIT)
    assert record.plies == 3


def test_an_illegal_move_loses_and_the_reason_names_the_move_and_the_position() -> None:
    black = scripted("black", "--say-at", "2", "--say", "done move=1-5")
    record = play(game_setup(opening="11-15 23-19"), scripted("white"), black)
    assert ending(record.outcome) == (Winner.WHITE, Termination.ILLEGAL_MOVE)
    assert record.plies == 4  # the opening, Black's first move, White's reply
    reason = record.outcome.reason if record.outcome else ""
    assert reason.startswith("White wins: Black played an illegal move: '1-5' is not a legal move in B:")
    assert replay(record)[-1].fen() in reason


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("done move=banana", id="not-a-move"),
        pytest.param("done", id="no-move"),
        pytest.param("\\x01\\x02 binary noise", id="control-characters"),
        pytest.param('done move="11-15', id="broken-quoting"),
    ],
)
def test_output_that_cannot_be_read_loses_as_unparsable(line: str) -> None:
    record = play(game_setup(), scripted("white", "--say-at", "1", "--say", line), scripted("black"))
    assert ending(record.outcome) == (Winner.BLACK, Termination.UNPARSABLE_OUTPUT)
    assert record.plies == 1
    assert (
        record.outcome is not None
        and "White's engine wrote output that cannot be read" in record.outcome.reason
    )


def test_an_engine_that_exits_during_a_search_loses_by_crash() -> None:
    record = play(game_setup(fen=KINGS), scripted("white", "--crash-at", "3"), scripted("black"))
    assert ending(record.outcome) == (Winner.BLACK, Termination.CRASH)
    assert record.plies == 4
    assert record.outcome is not None and "exited with code 3" in record.outcome.reason


def test_an_engine_that_answers_nothing_without_a_clock_loses_for_no_answer() -> None:
    timeouts = QUICK.model_copy(update={"search": 0.5})
    black = scripted("black", "--hang-at", "2", timeouts=timeouts)
    record = play(game_setup("depth=3", fen=KINGS), scripted("white"), black)
    assert ending(record.outcome) == (Winner.WHITE, Termination.NO_ANSWER)
    assert record.plies == 3
    assert record.outcome is not None and "no done" in record.outcome.reason


def test_without_a_clock_a_move_that_comes_only_after_stop_still_loses_for_no_answer(tmp_path: Path) -> None:
    log = tmp_path / "black.log"
    timeouts = QUICK.model_copy(update={"search": 0.5})
    # From its second move on, Black thinks 3 s but moves at once when told to stop.
    slow = ("--sleep", "3", "--sleep-from", "2", "--honour-stop", "--log", str(log))
    black = scripted("black", *slow, timeouts=timeouts)
    record = play(game_setup("depth=3", fen=KINGS), scripted("white"), black)
    assert ending(record.outcome) == (Winner.WHITE, Termination.NO_ANSWER)
    assert record.plies == 3  # the late move is not played
    assert record.outcome is not None
    said = re.fullmatch(
        r"White wins: Black's engine gave no move within its search timeout of 0.5 s "
        r"\(it moved (\d+\.\d{3}) s after go, when told to stop\)",
        record.outcome.reason,
    )
    assert said is not None, record.outcome.reason
    assert 0.5 <= float(said[1]) < 2.5  # it moved on stop, not when its own 3 s were up
    assert received(log, "stop") == ["stop"]


def test_a_program_that_cannot_be_started_forfeits_the_game() -> None:
    missing = EngineConfig(name="missing", command=["/nonexistent/engine-program"], timeouts=QUICK)
    record = play(game_setup(), scripted("white"), missing)
    assert ending(record.outcome) == (Winner.WHITE, Termination.START_FAILURE)
    assert record.plies == 0 and record.black.name == "missing"
    assert record.outcome is not None and "program not found" in record.outcome.reason


def test_an_engine_that_dies_during_the_handshake_forfeits_the_game() -> None:
    record = play(game_setup(), scripted("white", "--exit-at-start"), scripted("black"))
    assert ending(record.outcome) == (Winner.BLACK, Termination.START_FAILURE)


def test_when_neither_engine_starts_the_game_stays_unfinished() -> None:
    missing = EngineConfig(name="missing", command=[sys.executable, "/nonexistent/engine.py"], timeouts=QUICK)
    record = play(game_setup(), missing, missing.model_copy(update={"name": "also-missing"}))
    assert ending(record.outcome) == (Winner.UNFINISHED, Termination.START_FAILURE)
    assert record.outcome is not None and "neither engine could be started" in record.outcome.reason


def test_a_move_the_frisian_king_move_limit_forbids_loses_as_an_illegal_move_named_by_the_rule() -> None:
    # White's king goes 1-6-1-6 while Black moves its man: a fourth quiet move of that king is illegal
    # although the position alone allows it. It loses the game; the referee does not stop with an error.
    white = scripted("white", "--moves", "1-6 6-1 1-6 6-1")
    black = scripted("black", "--moves", "22-27 27-32 32-38")
    record = play(game_setup(variant="frisian", fen="W:WK1,9:BK35,22"), white, black)
    assert record.outcome is not None
    assert record.outcome.termination is Termination.ILLEGAL_MOVE
    assert record.outcome.winner is Winner.BLACK
    assert len(record.moves) == 6
    assert "'6-1' is not allowed" in record.outcome.reason
    assert "king-move limit" in record.outcome.reason
    assert "allowed moves: 9-3, 9-4" in record.outcome.reason


@pytest.mark.parametrize("flag", ["--close-output-at", "--close-output-after"])
def test_an_engine_that_closes_its_output_crashes_at_once_even_at_a_fast_control(flag: str) -> None:
    # During its search, or right after its move and so before its next one: the crash is named as soon
    # as it is asked to move, well before a 0.3 s deadline, never taken for a loss on time.
    # Black takes 0.1 s a move, so White's output is known closed before White is asked again.
    black = scripted("black", "--sleep", "0.1")
    record = play(game_setup("st=0.3", fen=KINGS), scripted("white", flag, "2"), black)
    assert ending(record.outcome) == (Winner.BLACK, Termination.CRASH)
    assert record.outcome is not None and "closed its output" in record.outcome.reason
