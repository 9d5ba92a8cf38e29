"""Time-control text: the grammar, presets, scaling, the canonical form and the words."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from arbiter.referee.timecontrol import (
    ACF_JUMP_LIMITS,
    GRAMMAR,
    ClockStages,
    FixedDepth,
    FixedMoveTime,
    FixedNodes,
    JumpLimits,
    Stage,
    TimeControl,
    TimeControlError,
    TimeControlText,
    from_cutechess,
    parse_time_control,
)


def test_moves_per_time_is_a_repeating_stage() -> None:
    control = parse_time_control("30/3600")
    assert control.base == ClockStages((Stage(moves=30, seconds=3600.0),))
    assert control.jump_limits is None
    assert control.scale == 1.0
    assert control.margin == 0.0


def test_fischer_is_a_sudden_death_stage_with_an_increment() -> None:
    assert parse_time_control("3600+5").base == ClockStages((Stage(None, 3600.0, 5.0),))


def test_moves_time_and_increment_together() -> None:
    assert parse_time_control("40/5400+30").base == ClockStages((Stage(40, 5400.0, 30.0),))


def test_stages_are_separated_by_colons() -> None:
    control = parse_time_control("50/7200:25/3600")
    assert control.base == ClockStages((Stage(50, 7200.0), Stage(25, 3600.0)))
    assert parse_time_control("40/5400+30:1800+30").base == ClockStages(
        (Stage(40, 5400.0, 30.0), Stage(None, 1800.0, 30.0))
    )


def test_fractional_seconds_are_allowed() -> None:
    assert parse_time_control("40/60+0.6").base == ClockStages((Stage(40, 60.0, 0.6),))
    assert parse_time_control("st=.5").base == FixedMoveTime(0.5)


def test_per_move_limits() -> None:
    assert parse_time_control("st=2").base == FixedMoveTime(2.0)
    assert parse_time_control("depth=6").base == FixedDepth(6)
    assert parse_time_control("nodes=100000").base == FixedNodes(100000)
    assert not parse_time_control("st=2").has_clock
    assert parse_time_control("3600+5").has_clock


def test_acf_preset_is_thirty_moves_an_hour_with_the_jump_limits() -> None:
    control = parse_time_control("acf")
    assert control.base == ClockStages((Stage(30, 3600.0),))
    assert control.jump_limits == JumpLimits(one_way=60.0, several_ways=300.0, grace=60.0)
    assert control.preset == "acf"


def test_fmjd_presets() -> None:
    assert parse_time_control("fmjd").base == ClockStages((Stage(50, 7200.0), Stage(25, 3600.0)))
    assert parse_time_control("fmjd").jump_limits is None
    assert parse_time_control("fmjd-fischer").base == ClockStages((Stage(None, 4800.0, 60.0),))


def test_jump_limits_can_be_added_to_any_control_or_removed_from_acf() -> None:
    assert parse_time_control("30/3600 jump").jump_limits == ACF_JUMP_LIMITS
    assert parse_time_control("st=500 jump=acf").jump_limits == ACF_JUMP_LIMITS
    assert parse_time_control("fmjd jump").jump_limits == ACF_JUMP_LIMITS
    assert parse_time_control("acf jump=off").jump_limits is None


def test_scale_multiplies_every_duration_but_not_the_margin() -> None:
    control = parse_time_control("acf scale=0.01 margin=0.5")
    assert control.scale == 0.01
    assert control.scaled(3600) == pytest.approx(36.0)
    assert control.scaled(60) == pytest.approx(0.6)
    assert control.margin == 0.5


def test_keywords_ignore_case_and_option_order() -> None:
    assert parse_time_control("SCALE=0.5  ACF") == parse_time_control("acf scale=0.5")


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("30/3600", "30/3600"),
        ("30/3600.0", "30/3600"),
        ("3600+5", "3600+5"),
        ("3600+0", "3600"),
        ("40/5400+30", "40/5400+30"),
        ("50/7200:25/3600", "50/7200:25/3600"),
        ("40/60+0.60", "40/60+0.6"),
        ("st=2", "st=2"),
        ("depth=6", "depth=6"),
        ("nodes=1000", "nodes=1000"),
        ("acf", "acf"),
        ("acf jump", "acf"),
        ("scale=0.01 acf", "acf scale=0.01"),
        ("acf jump=off", "acf jump=off"),
        ("30/3600 jump", "30/3600 jump=acf"),
        ("fmjd margin=0.25 scale=1", "fmjd margin=0.25"),
        ("fmjd-fischer", "fmjd-fischer"),
        ("3600 scale=0.00001", "3600 scale=0.00001"),
    ],
)
def test_canonical_text_round_trips(text: str, canonical: str) -> None:
    control = parse_time_control(text)
    assert str(control) == canonical
    assert parse_time_control(canonical) == control


_seconds = st.decimals(min_value=0, max_value=100000, places=3).map(float)


@st.composite
def _controls(draw: st.DrawFn) -> TimeControl:
    count = draw(st.integers(1, 3))
    stages = []
    for index in range(count):
        last = index == count - 1
        moves = draw(st.integers(1, 200) | st.none()) if last else draw(st.integers(1, 200))
        seconds = draw(_seconds)
        increment = draw(_seconds) if draw(st.booleans()) else 0.0
        if seconds == 0 and increment == 0:
            seconds = 1.0
        stages.append(Stage(moves, seconds, increment))
    jump = ACF_JUMP_LIMITS if draw(st.booleans()) else None
    scale = draw(st.decimals(min_value="0.0001", max_value=100, places=4).map(float))
    margin = draw(st.decimals(min_value=0, max_value=10, places=3).map(float))
    return TimeControl(ClockStages(tuple(stages)), jump, scale, margin)


@given(_controls())
def test_any_staged_control_round_trips_through_its_text(control: TimeControl) -> None:
    assert parse_time_control(str(control)) == control


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "it is empty"),
        ("   ", "it is empty"),
        ("30/", "'30/' is not a stage"),
        ("/3600", "'/3600' is not a stage"),
        ("30/3600+", "is not a stage"),
        ("1h", "'1h' is not a stage"),
        ("-5+1", "is not a stage"),
        ("3600:30/60", "must be the last stage"),
        ("0/60", "move count must be at least 1"),
        ("40/0", "gives no time at all"),
        ("acf fmjd", "second base control"),
        ("30/3600 3600", "second base control"),
        ("scale=0.5", "no base control"),
        ("acf scale=0", "scale= must be a finite number above 0"),
        ("acf scale=fast", "scale= needs a number"),
        ("acf scale", "scale= needs a number"),
        ("acf margin=-1", "margin= needs a number"),
        ("acf scale=2 scale=3", "'scale' is given twice"),
        ("acf jump=fide", "unknown jump limits 'fide'"),
        ("st=0", "st= must be a finite number of seconds above 0"),
        ("st=two", "st= needs a number"),
        ("depth=0", "depth= must be at least 1"),
        ("depth=6.5", "depth= needs a whole number"),
        ("nodes=", "nodes= needs a whole number"),
        ("tc=40/60", "unknown key 'tc'"),
        ("inf", "'inf' is not a stage"),
        ("1" * 400, "durations must be finite"),
    ],
)
def test_malformed_control_is_rejected_with_the_grammar(text: str, problem: str) -> None:
    with pytest.raises(TimeControlError) as caught:
        parse_time_control(text)
    message = str(caught.value)
    assert problem in message
    assert repr(text) in message
    assert GRAMMAR in message
    assert isinstance(caught.value, ValueError)


def test_a_preset_cannot_be_given_a_different_clock() -> None:
    with pytest.raises(ValueError, match="the 'acf' preset is 30/3600 jump=acf"):
        TimeControl(ClockStages((Stage(40, 3600.0),)), ACF_JUMP_LIMITS, preset="acf")


def test_description_of_moves_per_hour_mentions_the_carry_over() -> None:
    assert parse_time_control("30/3600").describe() == (
        "30 moves in 1 h, then 1 h for every further 30 moves (unused time carries over)"
    )


def test_description_of_fischer() -> None:
    assert parse_time_control("3600+5").describe() == "1 h for the game, plus 5 s added before every move"


def test_description_of_fmjd_stages() -> None:
    assert parse_time_control("fmjd").describe() == (
        "FMJD preset: 50 moves in 2 h, then 1 h for every further 25 moves (unused time carries over)"
    )


def test_description_shows_scaled_durations_and_the_jump_limits() -> None:
    text = parse_time_control("acf scale=0.01").describe()
    assert text.startswith("ACF preset: 30 moves in 36 s, then 36 s for every further 30 moves")
    assert "only one way to take must be made within 0.6 s, with several ways within 3 s" in text
    assert "after 0.6 s more the game is lost for improper delay" in text
    assert text.endswith("every duration scaled by 0.01")


def test_description_of_per_stage_increments_and_per_move_limits() -> None:
    assert parse_time_control("40/5400+30:1800+15").describe() == (
        "40 moves in 1 h 30 min (+30 s a move), then 30 min (+15 s a move) for the rest of the game"
        " (unused time carries over)"
    )
    assert parse_time_control("st=2 margin=0.05").describe() == (
        "2 s per move; a margin of 0.05 s before a loss on time"
    )
    assert parse_time_control("depth=6").describe() == "search to depth 6 on every move"
    assert parse_time_control("nodes=500").describe() == "search 500 nodes on every move"


class _Settings(BaseModel):
    time_control: TimeControlText


def test_pydantic_field_parses_text_and_saves_canonical_text() -> None:
    settings = _Settings.model_validate({"time_control": "scale=0.01  acf"})
    assert settings.time_control == parse_time_control("acf scale=0.01")
    assert settings.model_dump() == {"time_control": "acf scale=0.01"}
    assert _Settings.model_validate_json(settings.model_dump_json()) == settings


def test_pydantic_field_reports_the_grammar_for_bad_text() -> None:
    with pytest.raises(ValidationError) as caught:
        _Settings.model_validate({"time_control": "40 moves in 2 hours"})
    assert "time_control" in str(caught.value)
    assert "STAGE   = [MOVES/]SECONDS[+INCREMENT]" in str(caught.value)


@pytest.mark.parametrize(
    ("cutechess", "ours"),
    [
        ("1:30+1", "90+1"),
        ("40/4:00", "40/240"),
        ("40/0:30.5+0.1", "40/30.5+0.1"),
        ("0/60+0.5", "60+0.5"),
        ("0/1:00", "60"),
        ("40/60+0.6", "40/60+0.6"),
        ("50/7200:25/3600", "50/7200:25/3600"),  # stages, not minutes: left as they are
        ("depth=3", "depth=3"),
    ],
)
def test_cutechess_minutes_and_seconds_and_zero_moves_become_seconds_and_no_move_count(
    cutechess: str, ours: str
) -> None:
    assert from_cutechess(cutechess) == ours


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("40/1:00", "a colon separates stages here, as in PGN; for minutes and seconds give seconds: 40/60"),
        ("1:00+1", "for minutes and seconds give seconds: 60+1"),
        ("0/10+0.1", "for the whole game give no move count: 10+0.1"),
    ],
)
def test_stages_that_fail_and_read_as_cutechess_text_say_what_to_write(text: str, hint: str) -> None:
    with pytest.raises(TimeControlError, match=re.escape(hint)):
        parse_time_control(text)


def test_a_colon_between_valid_stages_stays_a_second_stage() -> None:
    control = parse_time_control("40/4:30+1")
    assert control.base == ClockStages(
        (Stage(moves=40, seconds=4.0), Stage(moves=None, seconds=30.0, increment=1.0))
    )
