"""What a DXP game request can announce: whole minutes, rounded down; what it cannot is refused or
warned about; DXP engines get a margin that covers their whole-second clock."""

from __future__ import annotations

import sys

from arbiter.engines import DxpSettings, EngineConfig
from arbiter.engines.dxp_clock import DEFAULT_DXP_MARGIN, announced_minutes
from arbiter.referee.dxp_terms import dxp_clock_notes, dxp_time_problem, with_dxp_margins
from arbiter.referee.setup import GameSetup
from arbiter.referee.timecontrol import parse_time_control

HUB = EngineConfig(name="hub", command=[sys.executable, "x.py"])
DXP = EngineConfig(name="dxp", command=["dxp", "{port}"], protocol="dxp")


def test_the_announced_minutes_are_never_more_than_the_time_there_is() -> None:
    assert [announced_minutes(s) for s in (20, 59.9, 60, 90, 119.99, 120, 10**6)] == [0, 0, 1, 1, 1, 2, 999]


def test_a_clock_under_a_minute_is_refused_and_what_dxp_cannot_say_is_warned_about() -> None:
    problem, _ = dxp_time_problem(parse_time_control("20"))
    assert problem is not None and "a clock of 20 s cannot be announced" in problem
    assert dxp_time_problem(parse_time_control("300")) == (None, None)
    _, warning = dxp_time_problem(parse_time_control("90+1"))
    assert warning == (
        "90 s is announced as 1 minute(s), rounded down; DXP cannot announce the increment: "
        "the engine is not told of it"
    )
    _, warning = dxp_time_problem(parse_time_control("fmjd"))
    assert warning == (
        "DXP announces only the first period of the clock; DXP's move count is the game's length, at which "
        "an engine may end the game: the clock's 50 moves a period are not announced"
    )
    _, warning = dxp_time_problem(parse_time_control("acf"))
    assert warning == (
        "DXP's move count is the game's length, at which an engine may end the game: the clock's 30 moves "
        "a period are not announced; DXP cannot announce the jump limits: the engine is held to them without "
        "being told"
    )
    for control in ("st=1", "depth=5"):
        problem, warning = dxp_time_problem(parse_time_control(control))
        assert problem is None and warning is not None and "DXP cannot announce" in warning


def test_only_dxp_engines_clocks_are_checked_each_under_its_own_control_and_named() -> None:
    short, long = parse_time_control("20"), parse_time_control("90")
    problems, warnings = dxp_clock_notes([(HUB, short), (DXP, long)])
    assert problems == [] and warnings == ["engine 'dxp': 90 s is announced as 1 minute(s), rounded down"]
    problems, warnings = dxp_clock_notes([(HUB, long), (DXP, short)])
    assert len(problems) == 1 and problems[0].startswith("engine 'dxp': DXP announces whole minutes")
    assert warnings == []


def test_dxp_engines_get_the_default_margin_and_others_keep_the_controls() -> None:
    setup = GameSetup(variant="international", time_control=parse_time_control("300"))
    played = with_dxp_margins(setup, HUB, DXP)
    assert (played.white_margin, played.black_margin) == (None, DEFAULT_DXP_MARGIN) == (None, 1.0)
    assert with_dxp_margins(setup, HUB, HUB) is setup
    wider = GameSetup(variant="international", time_control=parse_time_control("300 margin=3"))
    assert with_dxp_margins(wider, DXP, HUB).white_margin == 3.0
    own = DXP.model_copy(update={"dxp": DxpSettings(margin=0.25)})
    assert with_dxp_margins(setup, own, HUB).white_margin == 0.25


def test_a_dxp_engine_s_own_time_control_gives_its_margin_not_the_game_s() -> None:
    # White plays under its own control (an engine's tc= and timemargin=); Black under the game's.
    setup = GameSetup(
        variant="international",
        time_control=parse_time_control("st=1"),
        white_time_control=parse_time_control("st=1 margin=3"),
    )
    played = with_dxp_margins(setup, DXP, DXP)
    assert (played.white_margin, played.black_margin) == (3.0, DEFAULT_DXP_MARGIN)
