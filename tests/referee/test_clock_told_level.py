"""What the clock tells the engine, made without re-checking its own figures, and the deadline that
decides a late move: the clock's shortcuts give what the checked and spelled-out forms give."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.engines.hub_wire import format_seconds
from arbiter.engines.level import Clock, Depth, MoveTime, Nodes, level_line
from arbiter.referee.clock import ClockLoss, JumpSituation, PlayerClock, parse_time_control

ONE_WAY = JumpSituation(capture_moves=1)
SECONDS = st.floats(min_value=0.0, max_value=1e7, allow_nan=False)


@given(
    time=SECONDS,
    moves=st.none() | st.integers(1, 10_000),
    inc=st.none() | SECONDS,
)
def test_a_clock_level_made_without_checks_is_the_checked_one(
    time: float, moves: int | None, inc: float | None
) -> None:
    checked = Clock(time=time, moves=moves, inc=inc)
    trusted = Clock.trusted(time, moves, inc)
    assert trusted == checked and hash(trusted) == hash(checked)
    assert vars(trusted) == vars(checked) and list(vars(trusted)) == list(vars(checked))
    assert repr(trusted) == repr(checked)
    assert level_line(trusted) == level_line(checked)


@pytest.mark.parametrize(
    ("text", "jump", "told"),
    [
        ("30/3600", None, Clock(time=3600.0, moves=30, inc=0.0)),
        ("3600+5", None, Clock(time=3600.0, moves=None, inc=5.0)),
        ("acf scale=0.01", ONE_WAY, Clock(time=0.6, moves=1, inc=0.0)),
        ("st=2", None, MoveTime(2.0)),
        ("st=100 jump", ONE_WAY, MoveTime(60.0)),
        ("depth=6", None, Depth(6)),
        ("nodes=1000", ONE_WAY, Nodes(1000)),
    ],
)
def test_the_clock_tells_the_engine_its_level_in_the_engine_layers_terms(
    text: str, jump: JumpSituation | None, told: object
) -> None:
    budget = PlayerClock(parse_time_control(text)).start_move(0.0, jump)
    assert budget.told == told and type(budget.told) is type(told)


def test_an_engine_that_cannot_be_told_a_jump_limit_is_told_the_main_clock_and_still_held_to_it() -> None:
    # A DXP engine: its game request announces the first level as the game's clock.
    told = PlayerClock(parse_time_control("acf scale=0.01"))
    untold = PlayerClock(parse_time_control("acf scale=0.01"), tell_jump_limits=False)
    capped, main = told.start_move(0.0, ONE_WAY), untold.start_move(0.0, ONE_WAY)
    assert main.told == Clock(time=36.0, moves=30, inc=0.0)
    assert (main.jump_limit, main.time_call_at, main.forfeit_at) == (
        capped.jump_limit,
        capped.time_call_at,
        capped.forfeit_at,
    )
    assert untold.finish_move(1.3).loss is ClockLoss.IMPROPER_DELAY


def test_a_move_time_capped_by_a_jump_limit_is_capped_for_that_move_only() -> None:
    player = PlayerClock(parse_time_control("st=100 jump"))
    assert player.start_move(0.0, ONE_WAY).told == MoveTime(60.0)
    player.finish_move(1.0)
    assert player.start_move(0.0).told == MoveTime(100.0)


@given(
    clock_seconds=st.integers(1, 400),
    scale=st.sampled_from([0.01, 1.0]),
    margin=st.sampled_from([0.0, 0.5]),
    ways=st.sampled_from([1, 3]),
    elapsed=st.floats(min_value=0.0, max_value=500.0, allow_nan=False),
)
def test_a_late_move_is_lost_to_the_deadline_that_passed_first_the_main_clock_on_a_tie(
    clock_seconds: int, scale: float, margin: float, ways: int, elapsed: float
) -> None:
    player = PlayerClock(parse_time_control(f"30/{clock_seconds} jump scale={scale} margin={margin}"))
    player.start_move(0.0, JumpSituation(capture_moves=ways))
    outcome = player.finish_move(elapsed)
    # The rule spelled out: the main clock falls at its time plus the margin; improper delay comes one
    # (scaled) minute after the jump limit, plus the margin.
    main = clock_seconds * scale + margin
    delay = (60.0 if ways == 1 else 300.0) * scale + 60.0 * scale + margin
    expected: ClockLoss | None = None
    if elapsed > delay and delay < main:
        expected = ClockLoss.IMPROPER_DELAY
    elif elapsed > main:
        expected = ClockLoss.TIME
    assert outcome.loss is expected
    if expected is None:
        assert outcome.remaining == max(0.0, clock_seconds * scale - elapsed)


@given(time=SECONDS, inc=st.floats(min_value=0.0, max_value=1e6, allow_nan=False))
def test_the_level_line_says_the_increment_the_same_every_time_it_is_told(time: float, inc: float) -> None:
    level = Clock.trusted(time, None, inc)
    line = f"level time={format_seconds(time)} inc={format_seconds(inc)}"
    assert level_line(level) == line
    assert level_line(level) == line  # the increment's text remembered from the first move
