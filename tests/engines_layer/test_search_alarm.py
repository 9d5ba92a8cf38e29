"""The alarm that wakes search waits at their timeouts: one loop timer, left armed from one wait to the
next, yet every wait is woken at its own deadline, never before it and never left sleeping past it."""

from __future__ import annotations

import asyncio
import time

from arbiter.engines.alarm import Alarm


def _timers(loop: asyncio.AbstractEventLoop) -> int:
    """Timers of the loop not cancelled (asyncio keeps them in ``_scheduled``)."""
    scheduled: list[asyncio.TimerHandle] = loop._scheduled  # type: ignore[attr-defined]
    return sum(1 for timer in scheduled if not timer.cancelled())


def test_a_wait_is_woken_at_its_deadline_and_not_before() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        alarm = Alarm()
        waiter: asyncio.Future[None] = loop.create_future()
        deadline = loop.time() + 0.05
        alarm.wake_at(loop, waiter, deadline)
        await waiter
        assert loop.time() >= deadline - 0.001

    asyncio.run(main())


def test_the_timer_stays_armed_between_waits_that_end_before_their_deadline() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        alarm = Alarm()
        before = _timers(loop)
        for _ in range(50):
            waiter: asyncio.Future[None] = loop.create_future()
            alarm.wake_at(loop, waiter, loop.time() + 60.0)
            waiter.set_result(None)  # the answer came
            alarm.forget(waiter)
        assert _timers(loop) == before + 1, "one timer for all the waits, not one each"
        alarm.cancel()
        assert _timers(loop) == before

    asyncio.run(main())


def test_an_earlier_deadline_than_the_armed_one_is_kept() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        alarm = Alarm()
        late: asyncio.Future[None] = loop.create_future()
        alarm.wake_at(loop, late, loop.time() + 60.0)
        soon: asyncio.Future[None] = loop.create_future()
        began = time.monotonic()
        alarm.wake_at(loop, soon, loop.time() + 0.03)
        await asyncio.wait_for(soon, 5.0)
        assert time.monotonic() - began < 2.0
        assert not late.done(), "a wait is not woken before its own deadline"
        alarm.cancel()

    asyncio.run(main())


def test_a_timer_armed_for_an_earlier_wait_wakes_only_the_waits_that_are_due_and_rearms() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        alarm = Alarm()
        first: asyncio.Future[None] = loop.create_future()
        alarm.wake_at(loop, first, loop.time() + 0.02)
        first.set_result(None)  # answered: the timer stays armed for its deadline
        alarm.forget(first)
        second: asyncio.Future[None] = loop.create_future()
        deadline = loop.time() + 0.1
        alarm.wake_at(loop, second, deadline)
        await asyncio.sleep(0.05)  # the stale timer has fired by now
        assert not second.done()
        await asyncio.wait_for(second, 5.0)
        assert loop.time() >= deadline - 0.001

    asyncio.run(main())
