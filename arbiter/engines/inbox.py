"""Messages from an engine, waiting to be taken by the one call that expects them."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Generic, TypeVar

from arbiter.engines.faults import EngineFault

T = TypeVar("T")


class Inbox(Generic[T]):
    """A queue with one reader at a time, a deadline on every wait, and a terminal fault.

    Messages that arrived before the fault are still handed out first: an engine that prints its move
    and then dies has still made its move.
    """

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None
        self.fault: EngineFault | None = None

    def put(self, item: T) -> None:
        self._items.append(item)
        self._wake()

    def fail(self, fault: EngineFault) -> None:
        if self.fault is None:
            self.fault = fault
        self._wake()

    def clear(self) -> None:
        self._items.clear()

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def get(self, deadline: float) -> T | None:
        """The next message, or None when the monotonic ``deadline`` passes first; raises the fault."""
        if self._waiter is not None:
            raise RuntimeError("two calls are waiting for the same engine's answer at once")
        loop = asyncio.get_running_loop()
        while True:
            if self._items:
                return self._items.popleft()
            if self.fault is not None:
                raise self.fault
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self._waiter = loop.create_future()
            handle = loop.call_later(remaining, self._wake)
            try:
                await self._waiter
            finally:
                handle.cancel()
                self._waiter = None
