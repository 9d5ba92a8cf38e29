"""Game setups checked before any engine runs; the told level and fault terminations as mappings."""

from __future__ import annotations

import pytest

from arbiter.engines import faults
from arbiter.engines.level import Clock
from arbiter.referee.clock import JumpSituation, PlayerClock
from arbiter.referee.forfeits import termination_for
from arbiter.referee.record import OpeningRecord, Termination
from arbiter.referee.setup import GameSetup, GameSetupError
from arbiter.referee.timecontrol import parse_time_control
from arbiter.rules import Color

DEPTH = parse_time_control("depth=1")


def test_an_opening_is_resolved_against_the_rules() -> None:
    prepared = GameSetup("english", DEPTH, opening=OpeningRecord(moves=["11-15", "23-19", "8-11"])).prepare()
    assert prepared.start.fen() == "B:W21-32:B1-12"
    assert [move.start for move in prepared.opening_moves] == [11, 23, 8]


def test_the_games_of_one_setup_share_its_resolution_and_a_bad_setup_is_refused_every_time() -> None:
    opening = OpeningRecord(name="Old Fourteenth", moves=["11-15", "23-19", "8-11"])
    first = GameSetup("english", DEPTH, opening=opening, tags={"Round": "1"}).prepare()
    again = GameSetup("english", DEPTH, opening=opening.model_copy(), tags={"Round": "2"}).prepare()
    assert again is first and again.start_fen == "B:W21-32:B1-12"
    other = GameSetup("english", DEPTH, opening=OpeningRecord(moves=["11-15", "23-19", "9-14"])).prepare()
    assert other is not first and [move.start for move in other.opening_moves] == [11, 23, 9]
    bad = GameSetup("english", DEPTH, opening=OpeningRecord(moves=["11-18"]))
    for _ in range(2):
        with pytest.raises(GameSetupError, match="11-18"):
            bad.prepare()


def test_an_illegal_opening_move_is_a_setup_error_naming_the_move() -> None:
    setup = GameSetup(
        "english", DEPTH, opening=OpeningRecord(name="Bristol", moves=["11-16", "24-20", "16-18"])
    )
    with pytest.raises(
        GameSetupError, match=r"opening 'Bristol', move 3 \('16-18'\): '16-18' is not a legal"
    ):
        setup.prepare()


def test_a_frisian_opening_that_breaks_the_king_move_limit_is_a_setup_error() -> None:
    moves = ["1-6", "22-27", "6-1", "27-32", "1-6", "32-38", "6-1"]
    setup = GameSetup("frisian", DEPTH, start_fen="W:WK1,9:BK35,22", opening=OpeningRecord(moves=moves))
    with pytest.raises(
        GameSetupError,
        match=r"move 7 \('6-1'\) is not allowed in W:WK6,9:BK35,38: it breaks the king-move limit",
    ):
        setup.prepare()
    assert (
        len(
            GameSetup("frisian", DEPTH, start_fen="W:WK1,9:BK35,22", opening=OpeningRecord(moves=moves[:6]))
            .prepare()
            .opening_moves
        )
        == 6
    )


def test_a_bad_start_position_or_variant_is_a_setup_error() -> None:
    with pytest.raises(GameSetupError, match="start position 'W:W99:B1'"):
        GameSetup("english", DEPTH, start_fen="W:W99:B1").prepare()
    with pytest.raises(GameSetupError, match="checkers-on-mars"):
        GameSetup("checkers-on-mars", DEPTH).prepare()


def test_an_international_start_position_comes_with_white_to_move() -> None:
    prepared = GameSetup("international", DEPTH).prepare()
    assert prepared.start.turn is Color.WHITE and prepared.opening_moves == ()


def test_a_jump_limit_caps_the_time_the_engine_is_told() -> None:
    clock = PlayerClock(parse_time_control("acf scale=0.01"))
    budget = clock.start_move(0.0, JumpSituation(capture_moves=1))
    assert budget.told == Clock(time=0.6, moves=1, inc=0.0)


@pytest.mark.parametrize(
    ("fault", "termination"),
    [
        (faults.StartFailed, Termination.START_FAILURE),
        (faults.StartupExit, Termination.START_FAILURE),
        (faults.HandshakeTimeout, Termination.START_FAILURE),
        (faults.ReadyTimeout, Termination.START_FAILURE),
        (faults.Crashed, Termination.CRASH),
        (faults.SearchTimeout, Termination.NO_ANSWER),
        (faults.StopIgnored, Termination.NO_ANSWER),
        (faults.Unresponsive, Termination.NO_ANSWER),
        (faults.PingTimeout, Termination.NO_ANSWER),
        (faults.Garbage, Termination.UNPARSABLE_OUTPUT),
        (faults.BadMoveFormat, Termination.UNPARSABLE_OUTPUT),
        (faults.ProtocolError, Termination.UNPARSABLE_OUTPUT),
        (faults.OutputFlood, Termination.UNPARSABLE_OUTPUT),
        (faults.LineTooLong, Termination.UNPARSABLE_OUTPUT),
    ],
)
def test_each_fatal_engine_fault_has_its_termination(
    fault: type[faults.EngineFault], termination: Termination
) -> None:
    assert termination_for(fault("engine", "what happened")) is termination
