"""How long the event loop's single steps take: the check that nothing slow runs on the loop.

While games are played the loop reads the engines' answers and their deadlines fire on it, so a step
that holds it (a store write, a look through /proc, a report) delays every other game's bookkeeping.
``LoopSteps`` times every callback the loop runs, in wall time and in the loop thread's CPU time, like
asyncio's debug mode does for its slow-callback log, and keeps the longest. CPU time is what the step
itself cost (a loaded machine does not inflate it); wall time also shows a step that blocked (a sleep,
a disk flush). It patches asyncio's handles for as long as it is entered, so it is for measurements
and tests, not for a production run.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any


@dataclass
class Step:
    wall: float = 0.0
    cpu: float = 0.0
    what: str = ""


class LoopSteps:
    """``with LoopSteps() as steps:`` ... ``steps.longest_wall`` / ``steps.longest_cpu``.

    Steps are counted while ``measuring`` is set (from the start by default): a caller that only cares
    about the time games are played sets it when the first game starts and clears it after the last.
    """

    def __init__(self, *, measuring: bool = True) -> None:
        self.measuring = measuring
        self.longest_wall = Step()
        self.longest_cpu = Step()
        self.count = 0
        self._original: Callable[[asyncio.Handle], None] | None = None

    def __enter__(self) -> LoopSteps:
        original = asyncio.Handle._run
        self._original = original
        watch = self

        def timed_run(handle: asyncio.Handle) -> None:
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                original(handle)
            finally:
                watch._note(handle, time.perf_counter() - wall, time.thread_time() - cpu)

        asyncio.Handle._run = timed_run  # type: ignore[method-assign,assignment]
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._original is not None:
            asyncio.Handle._run = self._original  # type: ignore[method-assign,assignment]

    def _note(self, handle: Any, wall: float, cpu: float) -> None:
        if not self.measuring:
            return
        self.count += 1
        if wall > self.longest_wall.wall:
            self.longest_wall = Step(wall, cpu, _describe(handle))
        if cpu > self.longest_cpu.cpu:
            self.longest_cpu = Step(wall, cpu, _describe(handle))

    def describe(self) -> str:
        wall, cpu = self.longest_wall, self.longest_cpu
        return (
            f"{self.count} steps; longest {wall.wall * 1000:.1f} ms wall ({wall.what}), "
            f"longest {cpu.cpu * 1000:.1f} ms CPU ({cpu.what})"
        )


def _describe(handle: Any) -> str:
    callback = getattr(handle, "_callback", None)
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coroutine = owner.get_coro()
        return f"task {getattr(coroutine, '__qualname__', coroutine)}"
    return getattr(callback, "__qualname__", repr(callback))
