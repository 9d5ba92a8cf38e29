"""A stamped stream read by a ``LoopReader`` on a running loop, with a sink that keeps what it hears:
shared by the tests of the reader and of the record stream it reads."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Awaitable, Callable

from arbiter.engines.arrival import stamped_stream
from arbiter.engines.loop_reader import LoopReader
from arbiter.engines.output_lines import ReadLimits

LIMITS = ReadLimits(line_bytes=64, output_bytes=1024)
STALL = 0.3  # seconds the loop is kept busy
CLOCK_MAPPING_SLACK = 0.001  # a kernel stamp carried onto the monotonic clock may land this much early


class Heard:
    """A reader's sink that keeps, in order, everything it is told."""

    def __init__(self) -> None:
        self.events: list[tuple[str, object, float]] = []
        self.lines: list[bytes] = []
        self.changed = asyncio.Event()

    def lines_read(self, lines: list[bytes], at: float) -> None:
        self.events.extend(("line", line, at) for line in lines)
        self.lines.extend(lines)
        self.changed.set()

    def stream_stopped(self, why: str) -> None:
        self.events.append(("stopped", why, time.monotonic()))
        self.changed.set()

    def stream_closed(self, exited: bool, returncode: int | None) -> None:
        self.events.append(("closed", (exited, returncode), time.monotonic()))
        self.changed.set()

    def kinds(self) -> list[str]:
        return [kind for kind, _, _ in self.events]

    async def until(self, done: Callable[[], bool], timeout: float = 5.0) -> None:
        give_up = time.monotonic() + timeout
        while not done():
            self.changed.clear()
            left = give_up - time.monotonic()
            assert left > 0, f"the reader said only {self.events}"
            await asyncio.wait_for(self.changed.wait(), left)


def with_loop_reader(
    test: Callable[[LoopReader, socket.socket, Heard], Awaitable[None]], limits: ReadLimits = LIMITS
) -> None:
    async def main() -> None:
        ours, engine_end = stamped_stream()
        heard = Heard()
        reader = LoopReader(ours, heard, limits)
        reader.start()
        try:
            await test(reader, engine_end, heard)
        finally:
            reader.close()
            engine_end.close()

    asyncio.run(main())
