"""An engine's output stream cut into lines, with the caps that stop a misbehaving engine.

Both readers of an engine's output (``stamped_reader``, a thread of its own; ``loop_reader``, the event
loop itself) cut what they read here, so the longest line and the bytes allowed after one command are
enforced the same way whoever reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class StreamSink(Protocol):
    """What the loop hears from a reader; every call is made on the loop's thread."""

    def lines_read(self, lines: list[bytes], at: float) -> None:
        """Complete lines (without their separator), all read at the monotonic time ``at``."""

    def stream_stopped(self, why: str) -> None:
        """The reader stopped taking output: ``why`` is "line" (too long a line) or "flood"."""

    def stream_closed(self, exited: bool, returncode: int | None) -> None:
        """End of the stream. ``exited``: the engine had exited by then, with ``returncode`` when the
        reader could read it (None when asyncio's child watcher had already reaped it)."""


@dataclass(frozen=True)
class ReadLimits:
    line_bytes: int
    output_bytes: int  # after one command (``command_sent`` resets the count)


class LineCutter:
    """Cuts the bytes of one stream into complete lines and counts them against the limits."""

    def __init__(self, limits: ReadLimits, separator: bytes = b"\n") -> None:
        self._line_bytes = limits.line_bytes  # both looked at for every read
        self._output_bytes = limits.output_bytes
        self._separator = separator
        self._since_command = 0
        self._partial = b""

    def command_sent(self) -> None:
        """A command was written: the engine may print another ``output_bytes`` before it floods."""
        self._since_command = 0

    @property
    def unfinished(self) -> bytes:
        """What was read after the last separator: a line still waiting for its end."""
        return self._partial

    def cut(self, data: bytes) -> tuple[list[bytes], str | None]:
        """(the complete lines ``data`` ends, the reason to stop reading, if any). On a reason, the lines
        are those before the offending one, and the incomplete rest is dropped."""
        since = self._since_command = self._since_command + len(data)
        if since > self._output_bytes:
            self._partial = b""
            return [], "flood"
        partial = self._partial
        whole = partial + data if partial else data
        lines = whole.split(self._separator)
        self._partial = lines.pop()  # all of it when no line ends in ``data``
        limit = self._line_bytes
        if len(whole) <= limit:  # no line can be too long (an answer is usually one short line)
            return lines, None
        for index, line in enumerate(lines):
            if len(line) > limit:
                self._partial = b""
                return lines[:index], "line"
        return lines, self._too_long_rest()

    def _too_long_rest(self) -> str | None:
        if len(self._partial) > self._line_bytes:
            self._partial = b""
            return "line"
        return None
