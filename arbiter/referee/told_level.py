"""A clock ``Level`` as the engine layer's search level (``engines.level``).

The clock makes the search level itself (``MoveBudget.told``, what the referee sends); this is the way
back from its ``MoveBudget.level`` view, for code that holds a ``clock.Level``."""

from __future__ import annotations

from arbiter.engines.level import Clock, Depth, MoveTime, Nodes
from arbiter.engines.level import Level as SearchLevel
from arbiter.referee.clock import Level as ToldLevel


def search_level(told: ToldLevel) -> SearchLevel:
    """What the engine is told for one search: its true remaining clock, or ``moves=1`` with the jump
    limit when a jump limit caps it (see ``clock.PlayerClock.start_move``)."""
    if told.time is not None:
        return Clock(time=told.time, moves=told.moves, inc=told.inc)
    if told.depth is not None:
        return Depth(told.depth)
    if told.nodes is not None:
        return Nodes(told.nodes)
    assert told.move_time is not None  # a clock Level is exactly one of the four forms
    return MoveTime(told.move_time)
