"""The event loop games are played on: asyncio's selector loop, with the wake-up an answer causes run
in the same pass that read the answer.

An engine's answer reaches its game in two steps. The loop's reader callback reads it and completes the
search's future; the future then wakes the game's task with a callback of its own (``call_soon``).
asyncio runs only the callbacks that were ready when a pass began, so that wake-up waits for the next
pass, which first polls the selector again: since a callback is ready, that poll returns at once, with
nothing to report. That is a system call and a pass of the loop per move, spent between the arrival of
one engine's move and the ``go`` to the other engine.

``ChainingEventLoop`` ends each pass by running, once, the callbacks that the pass's own callbacks made
ready: the game's task judges the move and writes the next ``go`` before the loop polls again. Every
ready callback still runs in the order it became ready, and the selector is still polled after at most
two generations of callbacks, so no reader waits behind a chain of callbacks that keep scheduling more.
In debug mode the loop runs as asyncio's does (its slow-callback log times each callback there).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class ChainingEventLoop(asyncio.SelectorEventLoop):
    """A selector event loop whose pass also runs the callbacks its callbacks made ready; see the
    module's doc."""

    # Set by asyncio's base loop (``BaseEventLoop.__init__`` and ``stop``); named here for the checker.
    _ready: deque[asyncio.Handle]
    _stopping: bool

    def _run_once(self) -> None:
        super()._run_once()  # type: ignore[misc]
        ready = self._ready
        if not ready or self._stopping or self.get_debug():
            return
        for _ in range(len(ready)):
            handle = ready.popleft()
            if not handle.cancelled():
                handle._run()  # type: ignore[attr-defined]


# A loop's pass (``_run_once``) is not public asyncio: on a Python without it, games run on asyncio's own.
CHAINING = callable(getattr(asyncio.BaseEventLoop, "_run_once", None))


def new_loop() -> asyncio.AbstractEventLoop:
    """A new loop to play games on: a ``ChainingEventLoop`` (asyncio's own where it cannot chain)."""
    return ChainingEventLoop() if CHAINING else asyncio.new_event_loop()


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` on a ``new_loop()``."""
    with asyncio.Runner(loop_factory=new_loop) as runner:
        return runner.run(main)
