"""The ACF jump limits in real games, under ``acf scale=0.005``: a scaled minute is 0.3 s, five are 1.5 s.

The engine under test is ``tests/engines/slow_on_capture.py``: instant, except that it sleeps a given
time whenever it must capture (ignoring ``stop`` unless told to honour it). Where a move must land
between "Time" and the end of the grace minute, the scale is 0.01 (a 0.6 s window) so that a busy
machine cannot push the move out of it. Where no move may come, the engine sleeps far longer than the
referee may wait, so a referee that waited for the late move would be seen doing so.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest
from referee_games import game_setup, play, received, scripted, slow_on_capture

from arbiter.notation.pdn import read_pdn_text
from arbiter.notation.pdn_writer import format_game
from arbiter.publishing.pdn_export import record_pdn_game
from arbiter.referee.observer import GameObserver
from arbiter.referee.record import GameRecord, Termination, Winner
from arbiter.referee.session import play_game_from_configs
from arbiter.referee.settings import RefereeRules
from arbiter.rules import Position

ACF = "acf scale=0.005"
ONE_WAY = "W:W22:B18"  # White must capture, and 22x15 is the only way (it takes Black's last piece)
# White must capture 22x15 (the only way); Black's man on 4 plays on, and no further capture comes
# within four plies.
PLAYS_ON = "W:W22:B4,18"
SEVERAL_WAYS = "W:W22,32:B17,18,4"  # White must capture: 22x13 or 22x15
FOUR_PLIES = RefereeRules(max_plies=4)


def told(level_line: str) -> tuple[int, float]:
    """The moves and the time of a ``level moves=M time=T inc=I`` line."""
    fields = dict(word.split("=") for word in level_line.split()[1:])
    return int(fields["moves"]), float(fields["time"])


def game_seconds(record: GameRecord) -> float:
    assert record.ended_at is not None
    return (record.ended_at - record.started_at).total_seconds()


def test_one_way_to_capture_gets_time_called_at_one_scaled_minute_and_plays_on(tmp_path: Path) -> None:
    log = tmp_path / "white.log"
    white = slow_on_capture("white", 0.9, "--log", str(log))  # Time at 0.6 s, lost at 1.2 s
    record = play(game_setup("acf scale=0.01", fen=PLAYS_ON, rules=FOUR_PLIES), white, scripted("black"))
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.DRAW, Termination.MAX_LENGTH)
    assert record.plies == 4  # the game went on after the late capture
    capture, *after = record.moves
    assert capture.text == "22x15"
    assert len(capture.warnings) == 1
    assert capture.warnings[0].startswith("Time: called at the jump limit of 0.600 s; the move came after ")
    assert all(move.warnings == [] for move in after)
    assert received(log, "stop") == ["stop"]
    # The capture is told as one move due within the jump limit; the next, quiet, move the whole clock.
    capped, quiet = received(log, "level")
    assert capped == "level moves=1 time=0.6 inc=0"
    assert capture.clock is not None
    moves, seconds = told(quiet)
    assert moves == 29 and seconds == pytest.approx(capture.clock, abs=0.0006)


def test_no_move_one_scaled_minute_after_time_loses_for_improper_delay(tmp_path: Path) -> None:
    log = tmp_path / "white.log"
    white = slow_on_capture("white", 3, "--log", str(log))  # its move would come after 3 s
    record = play(game_setup(ACF, fen=ONE_WAY), white, scripted("b"))
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.BLACK, Termination.IMPROPER_DELAY)
    assert record.plies == 0
    # The grace runs from the call, made as the referee's timer fired: a hair after the limit.
    assert re.fullmatch(
        r"Black wins: White lost for improper delay: Time was called at the jump limit of 0\.300 s "
        r"and no move came \(0\.6\d\d s allowed\)",
        record.outcome.reason,
    ), record.outcome.reason
    # "Time" is on record although no move followed it (and then, as the engine still sleeps on its
    # search, that it did not exit after `quit`).
    assert record.warnings[0] == "White, ply 1: Time: called at the jump limit of 0.300 s; no move came"
    assert all("after quit; terminated" in warning for warning in record.warnings[1:])
    assert received(log, "stop")[0] == "stop"
    assert 0.6 <= game_seconds(record) < 2.0


class _HeldUpAtTheCall(GameObserver):
    """Holds the referee's event loop up from 0.45 s to 0.95 s after the first ``go`` (the game is
    announced just after it is written), over the moment "Time" is due at 0.6 s, as a busy machine
    may: the call is made some 0.35 s late."""

    def game_started(self, record: GameRecord, position: Position) -> None:
        asyncio.get_running_loop().call_later(0.45, time.sleep, 0.5)


def test_the_grace_after_time_runs_from_the_call_so_a_late_call_costs_the_engine_nothing(
    tmp_path: Path,
) -> None:
    # Under acf scale=0.01 Time is due at 0.6 s and the grace ends 0.6 s after the call: at 1.2 s had
    # it been on time, at about 1.55 s as it is made late. The capture comes at 1.35 s.
    log = tmp_path / "white.log"
    white = slow_on_capture("white", 1.35, "--log", str(log))
    setup = game_setup("acf scale=0.01", fen=PLAYS_ON, rules=FOUR_PLIES)
    record = asyncio.run(play_game_from_configs(setup, white, scripted("black"), observer=_HeldUpAtTheCall()))
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.DRAW, Termination.MAX_LENGTH), (
        record.outcome.reason
    )
    capture = record.moves[0]
    assert capture.text == "22x15"
    assert capture.warnings[0].startswith("Time: called at the jump limit of 0.600 s; the move came after ")
    assert received(log, "stop") == ["stop"]


def test_an_engine_that_stops_when_time_is_called_keeps_playing(tmp_path: Path) -> None:
    log = tmp_path / "white.log"
    white = slow_on_capture("white", 30, "--honour-stop", "--log", str(log))
    record = play(game_setup(ACF, fen=PLAYS_ON, rules=FOUR_PLIES), white, scripted("black"))
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.DRAW, Termination.MAX_LENGTH)
    assert [move.side for move in record.moves] == ["white", "black", "white", "black"]
    warning = record.moves[0].warnings[0]
    called = re.fullmatch(r"Time: called at the jump limit of 0\.300 s; the move came after (\S+) s", warning)
    # Stopped at once, its move came within a millisecond or so: written so that it reads later.
    assert called is not None and float(called[1]) > 0.3, warning
    assert all(move.warnings == [] for move in record.moves[1:])
    assert len(received(log, "go")) == 2  # White was asked again after the capture, and moved


def test_several_ways_to_capture_allow_five_scaled_minutes_without_a_call(tmp_path: Path) -> None:
    log = tmp_path / "white.log"
    rules = RefereeRules(max_plies=2)
    white = slow_on_capture("white", 0.9, "--log", str(log))
    record = play(game_setup(ACF, fen=SEVERAL_WAYS, rules=rules), white, scripted("black"))
    assert record.outcome is not None and record.outcome.termination is Termination.MAX_LENGTH
    assert record.moves[0].text in ("22x13", "22x15")
    assert record.moves[0].warnings == []
    assert received(log, "stop") == []
    assert received(log, "level") == ["level moves=1 time=1.5 inc=0"]


def test_several_ways_to_capture_get_time_called_at_five_scaled_minutes() -> None:
    rules = RefereeRules(max_plies=2)
    white = slow_on_capture("white", 30, "--honour-stop")
    record = play(game_setup(ACF, fen=SEVERAL_WAYS, rules=rules), white, scripted("black"))
    assert record.outcome is not None and record.outcome.termination is Termination.MAX_LENGTH
    assert record.moves[0].warnings[0].startswith("Time: called at the jump limit of 1.500 s")


def test_several_ways_to_capture_lose_for_improper_delay_one_scaled_minute_after_time() -> None:
    # The engine ignores stop and would move after 6 s; the game must be over at 1.8 s.
    record = play(game_setup(ACF, fen=SEVERAL_WAYS), slow_on_capture("white", 6), scripted("black"))
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.BLACK, Termination.IMPROPER_DELAY)
    # The grace runs from the call, made as the referee's timer fired: a hair after the limit.
    assert re.fullmatch(
        r"Black wins: White lost for improper delay: Time was called at the jump limit of 1\.500 s "
        r"and no move came \(1\.8\d\d s allowed\)",
        record.outcome.reason,
    ), record.outcome.reason
    # Then, as the engine still sleeps on its search, that it did not exit after `quit`.
    assert record.warnings[0] == "White, ply 1: Time: called at the jump limit of 1.500 s; no move came"
    assert all("after quit; terminated" in warning for warning in record.warnings[1:])
    assert 1.8 <= game_seconds(record) < 4.0


def test_quiet_moves_are_told_the_whole_clock(tmp_path: Path) -> None:
    logs = {side: tmp_path / f"{side}.log" for side in ("white", "black")}
    record = play(
        game_setup(ACF, fen="W:WK1,K2:BK31,K32", rules=RefereeRules(max_plies=6)),
        scripted("w", "--log", str(logs["white"])),
        scripted("b", "--log", str(logs["black"])),
    )
    assert record.outcome is not None and record.outcome.termination is Termination.MAX_LENGTH
    assert all(move.warnings == [] for move in record.moves)
    assert all(move.clock is not None and 17.9 < move.clock <= 18 for move in record.moves)
    for side, log in logs.items():
        levels = [told(line) for line in received(log, "level")]
        clocks = [move.clock for move in record.moves if move.side == side]
        # Each move is told the moves left in the period and the clock as the last move left it.
        assert [moves for moves, _ in levels] == [30, 29, 28]
        before = [18.0, *clocks[:-1]]
        assert [seconds for _, seconds in levels] == pytest.approx(before, abs=0.0006)


def test_a_time_call_is_written_in_the_pdn_as_a_comment_on_that_move() -> None:
    white = slow_on_capture("white", 0.9)  # Time at 0.6 s, lost at 1.2 s
    record = play(game_setup("acf scale=0.01", fen=PLAYS_ON, rules=FOUR_PLIES), white, scripted("black"))
    [warning] = record.moves[0].warnings
    [game] = read_pdn_text(format_game(record_pdn_game(record)))
    assert warning in game.moves[0].comments
    assert all(not any(c.startswith("Time") for c in move.comments) for move in game.moves[1:])
