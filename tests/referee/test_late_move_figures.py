"""The figures of a move lost on the clock: the time it took and its allowance never read alike."""

from __future__ import annotations

import pytest

from arbiter.referee.game import seconds_told_apart


@pytest.mark.parametrize(
    ("taken", "limit", "shown"),
    [
        (0.35, 0.3, ("0.350", "0.300")),  # milliseconds tell most apart
        (0.0104, 0.01, ("0.0104", "0.010")),  # 0.4 ms late at st=0.01: once "0.010 s (0.010 s allowed)"
        (0.01004, 0.01, ("0.01004", "0.010")),
        # Both rounded alike, so that the allowance cannot read as the later figure (0.011 and 0.01052).
        (0.01052, 0.01051, ("0.01052", "0.01051")),
        (0.3000004, 0.3, ("0.300000", "0.300")),  # microseconds at most
    ],
)
def test_a_late_move_s_time_is_written_with_the_decimals_that_tell_it_from_its_allowance(
    taken: float, limit: float, shown: tuple[str, str]
) -> None:
    assert seconds_told_apart(taken, limit) == shown
