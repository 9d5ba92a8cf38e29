"""Hub ``level`` lines and the time a bundled engine allows itself for one move."""

from __future__ import annotations

import pytest

from arbiter.players.control import GoMode, SearchControl
from arbiter.players.hub_text import parse_hub_line
from arbiter.players.level import Level, LevelError, parse_level, safety_margin, time_budget


def level_of(text: str) -> Level:
    line = parse_hub_line(text)
    assert line is not None
    return parse_level(line)


def test_every_level_form_is_read() -> None:
    assert level_of("level depth=7") == Level(depth=7)
    assert level_of("level nodes=5000") == Level(nodes=5000)
    assert level_of("level move-time=2.5") == Level(move_time=2.5)
    assert level_of("level moves=40 time=300 inc=2") == Level(time=300.0, moves=40, inc=2.0)
    assert level_of("level time=60") == Level(time=60.0)
    assert level_of("level infinite") == Level(infinite=True)


@pytest.mark.parametrize(
    "text",
    ["level", "level depth=x", "level time=-3", "level nodes=1.5", "level move-time=nan", "level colour=red"],
)
def test_a_level_that_names_no_usable_limit_is_an_error(text: str) -> None:
    with pytest.raises(LevelError):
        level_of(text)


@pytest.mark.parametrize("time_left", [0.0, 0.05, 0.3, 1.0, 10.0, 60.0, 3600.0])
@pytest.mark.parametrize("moves", [None, 1, 2, 40])
@pytest.mark.parametrize("inc", [0.0, 0.5, 30.0])
def test_a_move_never_uses_the_clock_and_its_increment_beyond_the_safety_margin(
    time_left: float, moves: int | None, inc: float
) -> None:
    # Hub's time is the clock before the increment, which is added before the move.
    budget = time_budget(Level(time=time_left, moves=moves, inc=inc))
    assert budget.hard is not None and budget.soft is not None
    available = time_left + inc
    assert 0.0 <= budget.soft <= budget.hard <= max(0.0, available - safety_margin(available))


def test_moves_to_go_share_the_clock() -> None:
    few = time_budget(Level(time=100.0, moves=5))
    many = time_budget(Level(time=100.0, moves=50))
    assert few.hard is not None and many.hard is not None
    assert many.hard < few.hard


def test_one_move_to_go_stakes_at_most_half_the_clock() -> None:
    # ``moves=1`` is how a capture's ACF jump limit is told; the time it uses leaves the main clock too.
    budget = time_budget(Level(time=60.0, moves=1))
    assert budget.hard is not None and 0 < budget.hard <= 30.0


def test_a_clock_nearly_out_may_still_spend_most_of_its_increment() -> None:
    # time=0.1 inc=1: the move may take 1.1 s; staying under 0.1 s would waste the increment.
    budget = time_budget(Level(time=0.1, inc=1.0))
    assert budget.hard is not None and 0.5 < budget.hard < 1.1 - safety_margin(1.1) + 1e-9


def test_the_increment_adds_to_the_time_for_a_move() -> None:
    plain = time_budget(Level(time=100.0))
    with_inc = time_budget(Level(time=100.0, inc=2.0))
    assert plain.hard is not None and with_inc.hard is not None
    assert with_inc.hard > plain.hard


def test_move_time_stops_before_the_limit() -> None:
    budget = time_budget(Level(move_time=1.0))
    assert budget.hard is not None and 0 < budget.hard <= 1.0


def test_infinite_depth_and_node_levels_have_no_clock() -> None:
    for level in (Level(infinite=True), Level(depth=4), Level(nodes=100)):
        assert time_budget(level).hard is None


def test_pondering_ignores_the_clock_until_ponder_hit() -> None:
    control = SearchControl.for_level(Level(move_time=0.0), GoMode.PONDER)
    assert not control.should_abort(0)
    control.ponder_hit()
    assert control.should_abort(0)
    control.wait_for_release()  # released by ponder-hit: returns at once


def test_a_ponder_hit_read_before_the_search_began_still_counts() -> None:
    control = SearchControl()
    control.ponder_hit()
    control.configure(Level(move_time=0.0), GoMode.PONDER)
    assert control.mode is GoMode.THINK
    assert control.should_abort(0)


def test_stop_ends_any_search() -> None:
    control = SearchControl.for_level(Level(infinite=True))
    assert not control.should_abort(10**9)
    control.stop()
    assert control.should_abort(0)
    control.wait_for_release()


@pytest.mark.parametrize(
    ("move_time", "kept_back"), [(0.05, 0.025), (0.1, 0.05), (0.5, 0.2), (1.0, 0.3), (2.0, 0.5), (30.0, 1.0)]
)
def test_the_reserve_kept_from_a_fixed_move_time_grows_with_it(move_time: float, kept_back: float) -> None:
    budget = time_budget(Level(move_time=move_time))
    assert budget.hard == pytest.approx(move_time - kept_back)


def test_the_search_clock_runs_from_when_go_was_read_not_from_when_the_search_began() -> None:
    control = SearchControl()
    control.configure(Level(move_time=1.0), GoMode.THINK, started=100.0)
    assert control.started == 100.0
