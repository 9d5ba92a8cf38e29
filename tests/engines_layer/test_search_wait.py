"""Waiting for a search: the wait ends with the answer, or with None at its timeout while the search goes
on; every call waiting at once is woken by the answer, and a fault reaches each of them."""

from __future__ import annotations

import asyncio
import time

import pytest
from engine_layer_support import hub_config

from arbiter.engines import HubEngine
from arbiter.engines.alarm import Alarm
from arbiter.engines.client import SearchHandle
from arbiter.engines.faults import Crashed
from arbiter.engines.hub import HubSearch
from arbiter.engines.hub_wire import parse_line
from arbiter.engines.results import SearchResult


def a_search() -> HubSearch:
    return HubSearch(HubEngine(hub_config("instant_hub.py")), started=time.monotonic())


def test_a_wait_that_times_out_returns_none_and_the_search_still_takes_its_answer() -> None:
    async def main() -> None:
        search = a_search()
        began = time.monotonic()
        assert await search.wait(0.05) is None
        assert time.monotonic() - began >= 0.04
        assert not search.finished
        asyncio.get_running_loop().call_later(0.02, search._complete, parse_line("done move=11-15"), 1.0)
        result = await search.wait(5.0)
        assert result is not None and result.move == "11-15"

    asyncio.run(main())


def test_every_call_waiting_is_woken_by_the_answer_at_once() -> None:
    async def main() -> None:
        search = a_search()
        loop = asyncio.get_running_loop()
        loop.call_later(0.02, search._complete, parse_line("done move=11-15"), time.monotonic())
        began = time.monotonic()
        first, second = await asyncio.gather(search.wait(5.0), search.wait(5.0))
        assert time.monotonic() - began < 2.0, "a waiter slept until its timeout"
        assert first is second is not None
        assert search._waiters == []

    asyncio.run(main())


def test_a_fault_during_the_wait_is_raised_to_every_waiter() -> None:
    async def main() -> None:
        search = a_search()
        fault = Crashed("instant_hub", "stopped unexpectedly")
        asyncio.get_running_loop().call_later(0.02, search._abort, fault)
        outcomes = await asyncio.gather(search.wait(5.0), search.wait(5.0), return_exceptions=True)
        assert outcomes == [fault, fault]

    asyncio.run(main())


def test_a_cancelled_wait_leaves_nothing_behind() -> None:
    async def main() -> None:
        search = a_search()
        waiting = asyncio.create_task(search.wait(5.0))
        await asyncio.sleep(0.01)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert search._waiters == []
        assert not search.finished

    asyncio.run(main())


def test_a_wait_until_a_moment_ends_at_that_moment_or_with_the_answer_before_it() -> None:
    async def main() -> None:
        search = a_search()
        moment = time.monotonic() + 0.05
        assert await search.wait_until(moment) is None
        assert time.monotonic() >= moment, "a wait never ends before its moment"
        asyncio.get_running_loop().call_later(0.02, search._complete, parse_line("done move=11-15"), 1.0)
        began = time.monotonic()
        result = await search.wait_until(time.monotonic() + 60.0)
        assert result is not None and result.move == "11-15"
        assert time.monotonic() - began < 30.0, "the answer ends the wait, not the moment"

    asyncio.run(main())


def test_the_waits_of_an_engine_s_searches_share_one_loop_timer() -> None:
    async def main() -> None:
        engine = HubEngine(hub_config("instant_hub.py"))
        loop = asyncio.get_running_loop()
        scheduled: list[asyncio.TimerHandle] = loop._scheduled  # type: ignore[attr-defined]
        for number in range(20):
            search = HubSearch(engine, started=time.monotonic())
            loop.call_soon(search._complete, parse_line("done move=11-15"), time.monotonic())
            assert await search.wait_until(time.monotonic() + 60.0 + number) is not None
        assert sum(1 for timer in scheduled if not timer.cancelled()) == 1

    asyncio.run(main())


class _OnItsOwn(SearchHandle):
    """A handle made without an engine's alarm: it has one of its own."""

    async def stop(self) -> None:
        """Nothing runs."""

    async def finish(self, timeout: float | None = None) -> SearchResult:
        raise NotImplementedError


def test_a_handle_made_on_its_own_disarms_its_timer_when_the_search_ends() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        scheduled: list[asyncio.TimerHandle] = loop._scheduled  # type: ignore[attr-defined]
        search = _OnItsOwn(time.monotonic())
        loop.call_soon(search._settle, SearchResult("11-15"))
        assert await search.wait_until(time.monotonic() + 60.0) == SearchResult("11-15")
        assert not any(not timer.cancelled() for timer in scheduled)

    asyncio.run(main())


def test_a_handle_given_its_engine_s_alarm_leaves_it_armed_for_the_next_search() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        scheduled: list[asyncio.TimerHandle] = loop._scheduled  # type: ignore[attr-defined]
        search = _OnItsOwn(time.monotonic(), Alarm(), loop)
        loop.call_soon(search._settle, SearchResult("11-15"))
        assert await search.wait_until(time.monotonic() + 60.0) is not None
        assert sum(1 for timer in scheduled if not timer.cancelled()) == 1

    asyncio.run(main())
