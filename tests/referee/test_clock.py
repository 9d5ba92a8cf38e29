"""The pure clock: periods, increments, per-move limits, margins and the ACF jump limits, with numbers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.engines.level import Clock, level_line
from arbiter.referee.clock import (
    ClockError,
    ClockLoss,
    JumpSituation,
    MoveOutcome,
    PlayerClock,
    parse_time_control,
)

ONE_WAY = JumpSituation(capture_moves=1)
SEVERAL_WAYS = JumpSituation(capture_moves=3)


def clock(text: str, margin: float | None = None) -> PlayerClock:
    return PlayerClock(parse_time_control(text), margin=margin)


def play(
    player: PlayerClock, elapsed: float, now: float = 0.0, jump: JumpSituation | None = None
) -> MoveOutcome:
    player.start_move(now, jump)
    return player.finish_move(elapsed)


# Periods: 30 moves in an hour, repeating, unused time carried over.


def test_thirty_moves_an_hour_tells_the_engine_the_moves_and_the_hour() -> None:
    budget = clock("30/3600").start_move(now=1000.0)
    assert budget.told == Clock(time=3600.0, moves=30, inc=0.0)
    assert level_line(budget.told) == "level moves=30 time=3600 inc=0"
    assert budget.forfeit_at == 4600.0
    assert budget.forfeit_reason is ClockLoss.TIME
    assert budget.time_call_at is None


def test_moves_to_go_counts_down_within_the_period() -> None:
    player = clock("30/3600")
    for _ in range(10):
        play(player, 10.0)
    assert player.moves_to_go == 20
    assert level_line(player.start_move(0.0).told) == "level moves=20 time=3500 inc=0"


def test_using_more_than_the_allowance_before_the_thirtieth_move_loses_on_time() -> None:
    player = clock("30/3600")
    for _ in range(29):
        assert not play(player, 100.0).lost
    assert player.remaining == 700.0
    budget = player.start_move(now=50.0)
    assert level_line(budget.told) == "level moves=1 time=700 inc=0"
    assert budget.forfeit_at == 750.0
    outcome = player.finish_move(700.5)
    assert outcome.loss is ClockLoss.TIME
    assert outcome.remaining == 0.0
    assert outcome.added == 0.0
    assert player.loss is ClockLoss.TIME


def test_finishing_the_thirtieth_move_on_the_last_second_is_in_time() -> None:
    player = clock("30/3600")
    for _ in range(29):
        play(player, 100.0)
    outcome = play(player, 700.0)
    assert not outcome.lost
    assert outcome.added == 3600.0
    assert outcome.remaining == 3600.0


def test_unused_time_carries_into_the_next_period() -> None:
    player = clock("30/3600")
    outcomes = [play(player, 100.0) for _ in range(30)]
    assert [outcome.added for outcome in outcomes[:29]] == [0.0] * 29
    assert outcomes[-1].added == 3600.0
    assert player.remaining == 600.0 + 3600.0
    assert player.moves_to_go == 30
    assert level_line(player.start_move(0.0).told) == "level moves=30 time=4200 inc=0"


def test_the_allowance_repeats_every_thirty_moves() -> None:
    player = clock("30/3600")
    added_at = [move for move in range(1, 91) if play(player, 1.0).added]
    assert added_at == [30, 60, 90]
    assert player.remaining == 4 * 3600.0 - 90.0
    assert player.moves_made == 90


def test_fmjd_stages_two_hours_for_fifty_then_an_hour_per_twenty_five() -> None:
    player = clock("fmjd")
    assert player.moves_to_go == 50
    added = {move: outcome.added for move in range(1, 126) if (outcome := play(player, 10.0)).added}
    assert added == {50: 3600.0, 75: 3600.0, 100: 3600.0, 125: 3600.0}
    assert player.moves_to_go == 25
    assert player.remaining == 7200.0 + 4 * 3600.0 - 1250.0


def test_a_final_stage_without_moves_lasts_the_rest_of_the_game() -> None:
    player = clock("40/5400+30:1800+30")
    for _ in range(40):
        play(player, 30.0)
    # Each move was paid for by its own increment, so the 1800 s of the last stage is all extra.
    assert player.remaining == 5400.0 + 1800.0
    assert player.moves_to_go is None
    assert level_line(player.start_move(0.0).told) == "level time=7200 inc=30"


# Fischer: the increment is added before every move (Hub).


def test_the_increment_is_credited_before_the_move_and_told_beside_the_clock() -> None:
    # Hub's time is the clock before the increment; the engine adds inc for the move (Scan does).
    player = clock("3600+5")
    budget = player.start_move(now=0.0)
    assert budget.told == Clock(time=3600.0, moves=None, inc=5.0)
    assert level_line(budget.told) == "level time=3600 inc=5"
    assert budget.forfeit_at == 3605.0
    outcome = player.finish_move(10.0)
    assert outcome.remaining == 3595.0
    assert level_line(player.start_move(now=0.0).told) == "level time=3595 inc=5"


def test_what_the_engine_is_told_plus_its_increment_is_what_the_move_may_take() -> None:
    player = clock("1+0.5")
    for _ in range(40):
        budget = player.start_move(now=0.0)
        told = budget.told
        assert isinstance(told, Clock) and told.inc == 0.5
        assert budget.forfeit_at == told.time + told.inc
        player.finish_move(0.45)


def test_a_fischer_move_may_spend_its_own_increment() -> None:
    assert not play(clock("10+5"), 15.0).lost
    assert play(clock("10+5"), 15.001).loss is ClockLoss.TIME


def test_the_increment_keeps_a_fast_player_alive_forever() -> None:
    player = clock("1+2")
    for _ in range(500):
        assert not play(player, 2.0).lost
    assert player.remaining == 1.0


def test_increment_with_periods() -> None:
    player = clock("2/10+1")
    assert play(player, 3.0).remaining == 8.0
    outcome = play(player, 3.0)
    assert outcome.added == 10.0
    assert outcome.remaining == 16.0
    assert level_line(player.start_move(0.0).told) == "level moves=2 time=16 inc=1"


# Per-move limits.


def test_fixed_move_time_is_told_and_going_over_it_loses_on_time() -> None:
    player = clock("st=2")
    budget = player.start_move(now=10.0)
    assert level_line(budget.told) == "level move-time=2"
    assert budget.forfeit_at == 12.0
    assert budget.forfeit_reason is ClockLoss.TIME
    outcome = player.finish_move(2.0)
    assert not outcome.lost
    assert outcome.remaining is None
    assert player.remaining is None
    assert play(player, 2.1).loss is ClockLoss.TIME


@pytest.mark.parametrize(("text", "hub"), [("depth=6", "level depth=6"), ("nodes=1000", "level nodes=1000")])
def test_fixed_searches_have_no_clock(text: str, hub: str) -> None:
    player = clock(text)
    budget = player.start_move(now=0.0)
    assert level_line(budget.told) == hub
    assert budget.forfeit_at is None
    assert budget.forfeit_reason is None
    outcome = player.finish_move(100000.0)
    assert not outcome.lost
    assert outcome.remaining is None
    player.start_move(now=0.0)
    with pytest.raises(ClockError, match="no deadline"):
        player.expire()


# Scale and margin.


def test_scaled_acf_gives_a_hundredth_of_every_duration() -> None:
    player = clock("acf scale=0.01")
    budget = player.start_move(now=0.0)
    assert level_line(budget.told) == "level moves=30 time=36 inc=0"
    player.finish_move(1.0)
    jump = player.start_move(now=100.0, jump=ONE_WAY)
    assert jump.jump_limit == pytest.approx(0.6)
    assert jump.time_call_at == pytest.approx(100.6)
    assert jump.forfeit_at == pytest.approx(101.2)
    player.finish_move(0.1)
    several = player.start_move(now=0.0, jump=SEVERAL_WAYS)
    assert several.jump_limit == pytest.approx(3.0)
    assert several.forfeit_at == pytest.approx(3.6)


def test_scaled_periods_add_scaled_allowances() -> None:
    player = clock("30/3600 scale=0.5")
    outcomes = [play(player, 1.0) for _ in range(30)]
    assert outcomes[-1].added == 1800.0
    assert player.remaining == 1800.0 - 30.0 + 1800.0


def test_the_time_margin_forgives_a_small_overrun_and_the_clock_reads_zero() -> None:
    player = clock("30/60 margin=0.5")
    budget = player.start_move(now=0.0)
    assert budget.forfeit_at == 60.5
    assert budget.told.time == 60.0  # the margin is not told
    outcome = player.finish_move(60.4)
    assert not outcome.lost
    assert outcome.remaining == 0.0
    assert play(player, 0.5).loss is None
    assert play(player, 0.51).loss is ClockLoss.TIME


def test_the_margin_is_not_scaled_and_applies_to_fixed_move_time() -> None:
    budget = clock("st=1 scale=0.5 margin=0.25").start_move(now=0.0)
    assert level_line(budget.told) == "level move-time=0.5"
    assert budget.forfeit_at == 0.75


def test_a_per_player_margin_overrides_the_control() -> None:
    assert clock("st=1 margin=0.25", margin=0.0).start_move(now=0.0).forfeit_at == 1.0
    assert clock("st=1", margin=0.1).start_move(now=0.0).forfeit_at == 1.1
    with pytest.raises(ValueError, match="negative"):
        clock("st=1", margin=-1.0)


def test_without_margin_any_overrun_loses() -> None:
    assert play(clock("30/60"), 60.000001).loss is ClockLoss.TIME


# ACF jump limits.


def test_one_way_to_capture_gives_one_minute_then_time_then_one_more_minute() -> None:
    budget = clock("acf").start_move(now=1000.0, jump=ONE_WAY)
    assert budget.jump_limit == 60.0
    assert budget.time_call_at == 1060.0
    assert budget.forfeit_at == 1120.0
    assert budget.forfeit_reason is ClockLoss.IMPROPER_DELAY


def test_several_ways_to_capture_give_five_minutes_then_time_then_one_more_minute() -> None:
    budget = clock("acf").start_move(now=1000.0, jump=SEVERAL_WAYS)
    assert budget.jump_limit == 300.0
    assert budget.time_call_at == 1300.0
    assert budget.forfeit_at == 1360.0
    assert budget.forfeit_reason is ClockLoss.IMPROPER_DELAY


@pytest.mark.parametrize(("ways", "limit"), [(1, 60.0), (2, 300.0), (7, 300.0)])
def test_two_ways_to_capture_already_count_as_several(ways: int, limit: float) -> None:
    assert clock("acf").start_move(now=0.0, jump=JumpSituation(ways)).jump_limit == limit


def test_a_jump_limit_shorter_than_the_clock_is_told_as_one_move_in_the_limit() -> None:
    player = clock("acf")
    assert level_line(player.start_move(0.0, ONE_WAY).told) == "level moves=1 time=60 inc=0"
    player.finish_move(1.0)
    assert level_line(player.start_move(0.0, SEVERAL_WAYS).told) == "level moves=1 time=300 inc=0"
    player.finish_move(1.0)
    # The next quiet move is told the whole clock and the moves left in the period again.
    assert level_line(player.start_move(0.0).told) == "level moves=28 time=3598 inc=0"


def test_a_capped_jump_move_is_told_the_limit_alone_without_the_increment_on_top() -> None:
    player = clock("3600+5 jump")
    assert level_line(player.start_move(0.0, ONE_WAY).told) == "level moves=1 time=60 inc=0"


def test_a_clock_at_or_below_the_jump_limit_is_told_as_it_is() -> None:
    player = clock("30/600 jump")
    for _ in range(3):
        play(player, 190.0)
    assert level_line(player.start_move(0.0, ONE_WAY).told) == "level moves=27 time=30 inc=0"
    at_the_limit = clock("30/600 jump")
    for _ in range(3):
        play(at_the_limit, 180.0)
    assert level_line(at_the_limit.start_move(0.0, ONE_WAY).told) == "level moves=27 time=60 inc=0"


def test_a_jump_move_within_the_limit_draws_no_warning() -> None:
    outcome = play(clock("acf"), 60.0, jump=ONE_WAY)
    assert not outcome.time_called
    assert not outcome.lost
    assert outcome.remaining == 3540.0


def test_a_jump_move_after_time_is_called_counts_and_is_charged_to_the_clock() -> None:
    outcome = play(clock("acf"), 90.0, jump=ONE_WAY)
    assert outcome.time_called
    assert not outcome.lost
    assert outcome.remaining == 3510.0


def test_no_move_within_the_extra_minute_loses_for_improper_delay() -> None:
    player = clock("acf")
    outcome = play(player, 120.5, jump=ONE_WAY)
    assert outcome.loss is ClockLoss.IMPROPER_DELAY
    assert outcome.time_called
    assert outcome.remaining == 3600.0 - 120.5
    assert player.loss is ClockLoss.IMPROPER_DELAY


def test_several_ways_allow_what_one_way_forbids() -> None:
    assert play(clock("acf"), 200.0, jump=ONE_WAY).loss is ClockLoss.IMPROPER_DELAY
    outcome = play(clock("acf"), 200.0, jump=SEVERAL_WAYS)
    assert not outcome.lost
    assert not outcome.time_called


def test_the_margin_extends_the_improper_delay_deadline_too() -> None:
    budget = clock("acf margin=0.5").start_move(now=0.0, jump=ONE_WAY)
    assert budget.time_call_at == 60.0
    assert budget.forfeit_at == 120.5
    assert not play(clock("acf margin=0.5"), 120.4, jump=ONE_WAY).lost


def test_the_grace_after_time_runs_from_a_late_call_so_the_engine_keeps_all_of_it() -> None:
    # "Time" called 0.7 s after the limit (the referee held up): the minute after it ends 0.7 s later.
    player = clock("acf")
    budget = player.start_move(now=10.0, jump=ONE_WAY)
    player.time_called(60.7)
    assert budget.forfeit_at == 10.0 + 120.7
    assert budget.forfeit_reason is ClockLoss.IMPROPER_DELAY
    assert not player.finish_move(120.5).lost


def test_a_late_call_of_time_still_loses_a_move_a_minute_after_it() -> None:
    player = clock("acf")
    player.start_move(now=0.0, jump=ONE_WAY)
    player.time_called(60.7)
    outcome = player.finish_move(120.8)
    assert outcome.loss is ClockLoss.IMPROPER_DELAY
    player = clock("acf")
    player.start_move(now=0.0, jump=ONE_WAY)
    player.time_called(60.7)
    expired = player.expire()
    assert expired.loss is ClockLoss.IMPROPER_DELAY
    assert expired.elapsed == pytest.approx(120.7)


def test_time_called_on_time_or_without_a_jump_limit_moves_no_deadline() -> None:
    player = clock("acf")
    budget = player.start_move(now=0.0, jump=ONE_WAY)
    player.time_called(60.0)
    assert budget.forfeit_at == 120.0
    quiet = clock("acf")
    budget = quiet.start_move(now=0.0)
    quiet.time_called(70.0)
    assert budget.forfeit_at == 3600.0
    assert budget.forfeit_reason is ClockLoss.TIME


def test_a_late_call_of_time_never_moves_the_main_clock_deadline() -> None:
    player = clock("acf")
    for _ in range(29):
        play(player, 118.5)
    assert player.remaining == 163.5
    budget = player.start_move(now=0.0, jump=ONE_WAY)
    assert budget.forfeit_at == 120.0
    assert budget.forfeit_reason is ClockLoss.IMPROPER_DELAY
    # Called 60 s late, the grace would end at 180 s; the main clock falls at 163.5 s first.
    player.time_called(120.0)
    assert budget.forfeit_at == 163.5
    assert budget.forfeit_reason is ClockLoss.TIME
    assert player.finish_move(170.0).loss is ClockLoss.TIME


def test_the_main_clock_still_runs_during_a_jump_move() -> None:
    player = clock("acf")
    for _ in range(29):
        play(player, 122.0)
    assert player.remaining == 62.0
    budget = player.start_move(now=0.0, jump=ONE_WAY)
    # Time is called at 60 s, but the clock falls at 62 s, before the improper-delay minute ends.
    assert budget.told.time == 60.0
    assert budget.time_call_at == 60.0
    assert budget.forfeit_at == 62.0
    assert budget.forfeit_reason is ClockLoss.TIME
    outcome = player.finish_move(100.0)
    assert outcome.loss is ClockLoss.TIME
    assert outcome.time_called


def test_no_time_call_when_the_main_clock_falls_before_the_jump_limit() -> None:
    player = clock("acf")
    for _ in range(29):
        play(player, 123.0)
    assert player.remaining == 33.0
    budget = player.start_move(now=0.0, jump=SEVERAL_WAYS)
    assert level_line(budget.told) == "level moves=1 time=33 inc=0"
    assert budget.time_call_at is None
    assert budget.forfeit_at == 33.0
    outcome = player.finish_move(40.0)
    assert outcome.loss is ClockLoss.TIME
    assert not outcome.time_called


def test_a_tie_between_the_two_deadlines_is_a_loss_on_time() -> None:
    player = clock("30/3600 jump")
    for _ in range(29):
        play(player, 120.0)
    assert player.remaining == 120.0
    budget = player.start_move(now=0.0, jump=ONE_WAY)
    assert budget.forfeit_reason is ClockLoss.TIME
    assert player.finish_move(121.0).loss is ClockLoss.TIME


def test_jump_situations_are_ignored_without_jump_limits() -> None:
    budget = clock("30/3600").start_move(now=0.0, jump=ONE_WAY)
    assert budget.jump_limit is None
    assert budget.time_call_at is None
    assert budget.told.time == 3600.0
    assert budget.forfeit_reason is ClockLoss.TIME


def test_jump_limits_with_fixed_move_time_cap_the_move_time() -> None:
    budget = clock("st=100 jump").start_move(now=0.0, jump=ONE_WAY)
    assert level_line(budget.told) == "level move-time=60"
    assert budget.time_call_at == 60.0
    assert budget.forfeit_at == 100.0
    assert budget.forfeit_reason is ClockLoss.TIME


def test_jump_limits_with_a_fixed_depth_still_call_time() -> None:
    budget = clock("depth=20 jump").start_move(now=0.0, jump=SEVERAL_WAYS)
    assert level_line(budget.told) == "level depth=20"
    assert budget.time_call_at == 300.0
    assert budget.forfeit_at == 360.0
    assert budget.forfeit_reason is ClockLoss.IMPROPER_DELAY


def test_a_move_without_a_capture_has_no_jump_limit_under_acf() -> None:
    budget = clock("acf").start_move(now=0.0)
    assert budget.jump_limit is None
    assert budget.time_call_at is None
    assert budget.forfeit_at == 3600.0


def test_jump_situation_needs_a_capture() -> None:
    with pytest.raises(ValueError, match="at least one capture"):
        JumpSituation(capture_moves=0)


# No move at all by the deadline.


def test_expire_after_the_improper_delay_deadline() -> None:
    player = clock("acf")
    player.start_move(now=5.0, jump=ONE_WAY)
    outcome = player.expire()
    assert outcome.loss is ClockLoss.IMPROPER_DELAY
    assert outcome.elapsed == 120.0
    assert outcome.time_called
    assert not player.in_move


def test_expire_on_the_main_clock() -> None:
    player = clock("3600+5 margin=0.5")
    player.start_move(now=5.0)
    outcome = player.expire()
    assert outcome.loss is ClockLoss.TIME
    assert outcome.elapsed == 3605.5
    assert outcome.remaining == 0.0
    assert not outcome.time_called


# Driving the clock out of order.


def test_finishing_a_move_that_never_started_is_an_error() -> None:
    with pytest.raises(ClockError, match="no move is in progress"):
        clock("30/3600").finish_move(1.0)
    with pytest.raises(ClockError, match="no move is in progress"):
        clock("30/3600").expire()


def test_starting_two_moves_at_once_is_an_error() -> None:
    player = clock("30/3600")
    player.start_move(0.0)
    assert player.in_move
    with pytest.raises(ClockError, match="already in progress"):
        player.start_move(1.0)


def test_a_clock_that_lost_accepts_no_more_moves() -> None:
    player = clock("st=1")
    play(player, 5.0)
    with pytest.raises(ClockError, match="already lost"):
        player.start_move(10.0)


def test_negative_elapsed_time_is_rejected() -> None:
    player = clock("30/3600")
    player.start_move(0.0)
    with pytest.raises(ValueError, match="negative"):
        player.finish_move(-0.1)


# Properties over many games.


@given(
    base=st.integers(1, 10000),
    increment=st.integers(0, 60),
    moves=st.lists(st.integers(0, 120), max_size=60),
)
def test_fischer_clock_is_base_plus_increments_minus_time_used(
    base: int, increment: int, moves: list[int]
) -> None:
    player = clock(f"{base}+{increment}")
    used = 0
    for number, elapsed in enumerate(moves, start=1):
        outcome = play(player, float(elapsed))
        if base + number * increment - used - elapsed < 0:
            assert outcome.loss is ClockLoss.TIME
            return
        used += elapsed
        assert outcome.remaining == base + number * increment - used


@given(period_moves=st.integers(1, 40), moves=st.lists(st.integers(0, 300), max_size=120))
def test_period_clock_adds_an_allowance_after_every_completed_period(
    period_moves: int, moves: list[int]
) -> None:
    player = clock(f"{period_moves}/3600")
    used = 0
    for number, elapsed in enumerate(moves, start=1):
        completed_before = (number - 1) // period_moves
        available = 3600 * (1 + completed_before) - used
        outcome = play(player, float(elapsed))
        if elapsed > available:
            assert outcome.loss is ClockLoss.TIME
            return
        used += elapsed
        assert outcome.added == (3600.0 if number % period_moves == 0 else 0.0)
        assert outcome.remaining == 3600 * (1 + number // period_moves) - used
        assert player.moves_to_go == period_moves - number % period_moves
