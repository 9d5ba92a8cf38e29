"""The ACF jump limits in real games, under ``acf scale=0.005``: a scaled minute is 0.3 s, five are 1.5 s.

The engine under test is ``tests/engines/slow_on_capture.py``: instant, except that it sleeps a given
time whenever it must capture (ignoring ``stop`` unless told to honour it). Where a move must land
between "Time" and the end of the grace minute, the scale is 0.01 (a 0.6 s window) so that a busy
machine cannot push the move out of it.
"""

from __future__ import annotations

from pathlib import Path

from referee_games import game_setup, play, received, scripted, slow_on_capture

from arbiter.referee.record import Termination, Winner
from arbiter.referee.settings import RefereeRules

ACF = "acf scale=0.005"
ONE_WAY = "W:W22:B18"  # White must capture, and 22x15 is the only way (it takes Black's last piece)
SEVERAL_WAYS = "W:W22,32:B17,18,4"  # White must capture: 22x13 or 22x15


def test_one_way_to_capture_gets_time_called_at_one_scaled_minute_and_plays_on(tmp_path: Path) -> None:
    log = tmp_path / "white.log"
    white = slow_on_capture("white", 0.9, "--log", str(log))  # Time at 0.6 s, lost at 1.2 s
    record = play(game_setup("acf scale=0.01", fen=ONE_WAY), white, scripted("black"))
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.WHITE, Termination.NO_PIECES)
    [capture] = record.moves
    assert capture.text == "22x15"
    assert len(capture.warnings) == 1
    assert capture.warnings[0].startswith("Time: called at the jump limit of 0.600 s")
    assert received(log, "stop") == ["stop"]
    # What the engine is told is its clock capped by the jump limit.
    assert received(log, "level") == ["level moves=30 time=0.6 inc=0"]


def test_no_move_one_scaled_minute_after_time_loses_for_improper_delay(tmp_path: Path) -> None:
    log = tmp_path / "white.log"
    record = play(
        game_setup(ACF, fen=ONE_WAY), slow_on_capture("white", 0.9, "--log", str(log)), scripted("b")
    )
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.BLACK, Termination.IMPROPER_DELAY)
    assert record.plies == 0
    assert record.outcome.reason == (
        "Black wins: White lost for improper delay: Time was called at the jump limit of 0.300 s "
        "and no move came (0.600 s allowed)"
    )
    assert received(log, "stop")[0] == "stop"


def test_an_engine_that_stops_when_time_is_called_keeps_playing() -> None:
    white = slow_on_capture("white", 30, "--honour-stop")
    record = play(game_setup(ACF, fen=ONE_WAY), white, scripted("black"))
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.WHITE, Termination.NO_PIECES)
    assert record.moves[0].warnings[0].startswith("Time: called at the jump limit of 0.300 s")


def test_several_ways_to_capture_allow_five_scaled_minutes_without_a_call(tmp_path: Path) -> None:
    log = tmp_path / "white.log"
    rules = RefereeRules(max_plies=2)
    white = slow_on_capture("white", 0.9, "--log", str(log))
    record = play(game_setup(ACF, fen=SEVERAL_WAYS, rules=rules), white, scripted("black"))
    assert record.outcome is not None and record.outcome.termination is Termination.MAX_LENGTH
    assert record.moves[0].text in ("22x13", "22x15")
    assert record.moves[0].warnings == []
    assert received(log, "stop") == []
    assert received(log, "level") == ["level moves=30 time=1.5 inc=0"]


def test_several_ways_to_capture_get_time_called_at_five_scaled_minutes() -> None:
    rules = RefereeRules(max_plies=2)
    white = slow_on_capture("white", 30, "--honour-stop")
    record = play(game_setup(ACF, fen=SEVERAL_WAYS, rules=rules), white, scripted("black"))
    assert record.outcome is not None and record.outcome.termination is Termination.MAX_LENGTH
    assert record.moves[0].warnings[0].startswith("Time: called at the jump limit of 1.500 s")


def test_several_ways_to_capture_lose_for_improper_delay_one_scaled_minute_after_time() -> None:
    record = play(game_setup(ACF, fen=SEVERAL_WAYS), slow_on_capture("white", 2.2), scripted("black"))
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.BLACK, Termination.IMPROPER_DELAY)
    assert "jump limit of 1.500 s" in record.outcome.reason and "(1.800 s allowed)" in record.outcome.reason


def test_quiet_moves_are_told_the_whole_clock() -> None:
    record = play(
        game_setup(ACF, fen="W:WK1,K2:BK31,K32", rules=RefereeRules(max_plies=6)),
        scripted("w"),
        scripted("b"),
    )
    assert record.outcome is not None and record.outcome.termination is Termination.MAX_LENGTH
    assert all(move.warnings == [] for move in record.moves)
    assert all(move.clock is not None and 17.9 < move.clock <= 18 for move in record.moves)
