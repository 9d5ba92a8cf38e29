"""An answer is charged at the moment it is read from the engine's pipe, not when the event loop gets
round to it: a loop held up by slow work adds nothing to the engine's time."""

from __future__ import annotations

import asyncio
import time

from engine_layer_support import ENGLISH_START, hub_config

from arbiter.engines import HubEngine, MoveTime, SearchResult

STALL = 0.5  # seconds the loop is held up by something slow (a disk flush, say)


async def search_through_a_stalled_loop() -> tuple[SearchResult, float, float]:
    """(the result, the monotonic time the search began, the time the loop was free again)."""
    engine = HubEngine(hub_config("stamps_answer.py"))
    await engine.open("english")
    try:
        handle = await engine.begin_search(ENGLISH_START, [], MoveTime(10.0))
        time.sleep(STALL)  # the loop is blocked: the answer arrives meanwhile
        resumed = time.monotonic()
        result = await handle.wait(10.0)
        assert result is not None
        return result, handle.started, resumed
    finally:
        await engine.quit()


def test_an_answer_that_arrives_while_the_loop_is_busy_is_charged_at_its_arrival() -> None:
    result, started, resumed = asyncio.run(search_through_a_stalled_loop())
    info = result.last_info
    assert info is not None
    sent = float(info.extra["sent"])
    assert started <= sent < resumed, "the engine answered while the loop was held up"
    charged_until = started + result.elapsed
    assert sent <= charged_until < resumed
