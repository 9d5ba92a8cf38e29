"""One event-loop timer for all of an engine's search deadlines, kept armed from one search to the next.

Every move is waited for with a deadline (the move's time limit). A timer of its own for each wait
(``loop.call_later``, cancelled when the answer comes) is an object, a heap entry and a cancellation per
move, and the deadline is almost never reached. The alarm instead keeps one timer and leaves it armed
when a wait ends: the next wait's deadline is nearly always later (the clock only moves on), so the
timer armed for an earlier one still fires first; when it does, it wakes only the waits whose deadline
has come, and arms itself again for the earliest one left. A deadline earlier than the armed time (a
jump limit, a short grace) re-arms it at once. So every wait is still woken at its own deadline, exactly
as its own timer would wake it, and a long game costs a timer about once per time limit, not once per
move.
"""

from __future__ import annotations

import asyncio
import math
import time

# asyncio runs a timer whose time is within this of now (``BaseEventLoop._clock_resolution``): a wait is
# woken by the same rule.
_RESOLUTION = time.get_clock_info("monotonic").resolution


class Alarm:
    """Wakes futures at their deadlines (monotonic times, as ``loop.time()``) by setting their result."""

    __slots__ = ("_loop", "_timer", "_armed_at", "_waits")

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._armed_at = math.inf  # when the timer fires (inf: not armed)
        self._waits: dict[asyncio.Future[None], float] = {}  # each waiting future and its deadline

    def wake_at(self, loop: asyncio.AbstractEventLoop, waiter: asyncio.Future[None], deadline: float) -> None:
        """Set ``waiter``'s result at ``deadline`` unless it is done or ``forget`` is called first."""
        if loop is not self._loop:  # an engine serves one loop; a new loop starts afresh
            self.cancel()
            self._loop = loop
        self._waits[waiter] = deadline
        if deadline < self._armed_at:
            self._arm(loop, deadline)

    def forget(self, waiter: asyncio.Future[None]) -> None:
        """The wait is over. The timer stays armed: firing once for nothing costs less than re-arming."""
        self._waits.pop(waiter, None)

    def cancel(self) -> None:
        """Disarm (the engine is closed): no timer of the alarm is left in the loop."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._armed_at = math.inf
        self._waits.clear()

    def _arm(self, loop: asyncio.AbstractEventLoop, when: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._armed_at = when
        self._timer = loop.call_at(when, self._ring)

    def _ring(self) -> None:
        self._timer = None
        self._armed_at = math.inf
        loop = self._loop
        if loop is None or not self._waits:
            return
        due = loop.time() + _RESOLUTION
        later = math.inf
        for waiter, deadline in list(self._waits.items()):
            if deadline < due:
                del self._waits[waiter]
                if not waiter.done():
                    waiter.set_result(None)
            elif deadline < later:
                later = deadline
        if later < math.inf:
            self._arm(loop, later)
