"""What DXP can say about the clock, and what it cannot.

A DXP game request announces whole minutes and a move count that is the length of the whole game
(either side may end the game there; the arbiter announces none, ending games by its own rules): no
increment, no second period, no moves per period, no time per move, no depth. The arbiter keeps the
real clocks; the engine plans its time from the announcement, so the announcement must never give it
more time than it has (minutes are rounded down), and what it cannot carry is refused (less than a
minute) or warned about before the game.

DXP moves also report whole seconds only, so an engine that keeps its own clock drifts from the
arbiter's by up to a second over a game: DXP engines get a time margin of ``DEFAULT_DXP_MARGIN``
seconds (``dxp.margin``), unless the time control gives a larger one.
"""

from __future__ import annotations

import math

from arbiter.engines.config import DEFAULT_DXP_MARGIN

__all__ = ["DEFAULT_DXP_MARGIN", "announced_minutes"]


def announced_minutes(seconds: float) -> int:
    """The whole minutes a DXP game request announces for ``seconds``: never more than there are."""
    return min(max(math.floor(seconds / 60 + 1e-9), 0), 999)
