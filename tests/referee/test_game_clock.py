"""Clocks in real games: ``30/N`` periods with carry-over, Fischer increments, what engines are told."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from referee_games import game_setup, play, received, scripted

from arbiter.referee.record import Termination, Winner
from arbiter.referee.settings import RefereeRules

KINGS = "W:WK1,K2:BK31,K32"  # the scripted engines play 80 quiet plies here: 40 moves each, then a draw
PERIOD = 1.2  # 30/120 at scale 0.01


def test_using_more_than_the_allowance_before_the_thirtieth_move_loses_on_time() -> None:
    record = play(
        game_setup("30/120 scale=0.01", fen=KINGS), scripted("white", "--sleep", "0.1"), scripted("b")
    )
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.BLACK, Termination.TIME_FORFEIT)
    white_moves = [move for move in record.moves if move.side == "white"]
    assert 6 <= len(white_moves) < 30


def test_unused_time_carries_into_the_next_period(tmp_path: Path) -> None:
    log = tmp_path / "white.log"
    # Instant for 30 moves, then 10 moves of 0.15 s: 1.5 s, more than a fresh period of 1.2 s.
    white = scripted("white", "--sleep", "0.15", "--sleep-from", "31", "--log", str(log))
    record = play(game_setup("30/120 scale=0.01", fen=KINGS), white, scripted("black"))
    assert record.outcome is not None
    assert (record.outcome.termination, record.outcome.rule) == (Termination.MOVE_COUNT_RULE, "40-move rule")
    clocks = [move.clock for move in record.moves if move.side == "white"]
    assert len(clocks) == 40
    after_30, after_40 = clocks[29], clocks[39]
    assert after_30 is not None and after_40 is not None
    assert PERIOD < after_30 < 2 * PERIOD  # the new period plus what was left of the first
    assert after_30 - after_40 > PERIOD  # the second period used more than its own allowance
    levels = received(log, "level")
    assert levels[0] == "level moves=30 time=1.2 inc=0"
    assert levels[29].startswith("level moves=1 time=")
    told_31 = float(levels[30].split("time=")[1].split()[0])
    assert levels[30].startswith("level moves=30 ") and told_31 == pytest.approx(after_30, abs=0.001)


def test_the_increment_is_added_before_every_move_and_the_record_adds_up() -> None:
    record = play(game_setup("5+0.05", fen=KINGS), scripted("white", "--sleep", "0.02"), scripted("black"))
    assert record.outcome is not None and record.outcome.termination is Termination.MOVE_COUNT_RULE
    before = 5.0
    for move in (move for move in record.moves if move.side == "white"):
        assert move.elapsed is not None and move.clock is not None
        assert move.clock == pytest.approx(before + 0.05 - move.elapsed)
        before = move.clock
    assert before > 5.0  # 40 moves gained more increment than they spent


def test_a_players_time_margin_forgives_a_small_overrun_and_the_other_player_has_none() -> None:
    slow = ("--sleep", "0.3", "--sleep-from", "2")
    setup = replace(game_setup("st=0.15", fen=KINGS, rules=RefereeRules(max_plies=6)), white_margin=0.5)
    forgiven = play(setup, scripted("white", *slow), scripted("black"))
    assert forgiven.outcome is not None and forgiven.outcome.termination is Termination.MAX_LENGTH
    assert all(move.clock is None for move in forgiven.moves)  # st= has no running clock
    not_forgiven = play(setup, scripted("white"), scripted("black", *slow))
    assert not_forgiven.outcome is not None
    assert (not_forgiven.winner, not_forgiven.outcome.termination) == (Winner.WHITE, Termination.TIME_FORFEIT)
