"""The engine communication log: every line the arbiter sends an engine and every line it reads back,
with the time and the game, as `arbiter --debug` (cutechess-cli's `-debug`, fastchess's `-log`) keeps it.

One line per message::

    2026-11-24T11:20:00.123456+00:00 game 3 scan > go think
    2026-11-24T11:20:00.125000+00:00 game 3 scan < info depth=1 score=0.02

``>`` is sent to the engine, ``<`` read from it. The last lines are also kept in memory, so that
`arbiter engine check` can print them when the engine fails; they are formatted only when read (or
written out), as most are never looked at.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

KEPT_LINES = 200
_now = time.time


class CommLog:
    """What was said to one engine and what it answered; written to ``path`` when one is given."""

    def __init__(
        self, engine: str, path: Path | None = None, *, echo: Callable[[str], None] | None = None
    ) -> None:
        self.engine = engine
        self.path = path
        self.echo = echo  # also shown as it happens (`arbiter play --debug`)
        self.context = ""  # the game being played, as the runner names it ("game 3")
        # Entries of one or more lines (one write): at most KEPT_LINES entries hold at least as many lines.
        self._recent: deque[tuple[float, str, str, str]] = deque(maxlen=KEPT_LINES)
        self._file: TextIO | None = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            # Line-buffered append: several engines of one event may share the file, each line whole.
            self._file = path.open("a", encoding="utf-8", buffering=1)

    def sent(self, text: str) -> None:
        # The lines of one write (``pos``, ``level``, ``go``) leave together: one entry, one time for all
        # of them, cut into lines only when they are read or written out.
        entry = (_now(), self.context, ">", text)
        self._recent.append(entry)
        if self.echo is not None or self._file is not None:
            self._write_out(entry)

    def received(self, text: str) -> None:
        # Written out as ``sent``: two lines of every move, so without a call to share.
        entry = (_now(), self.context, "<", text)
        self._recent.append(entry)
        if self.echo is not None or self._file is not None:
            self._write_out(entry)

    def heard_from(self) -> bool:
        """Whether any of the last lines kept came from the engine (at start-up: whether it said anything)."""
        return any(direction == "<" for _, _, direction, _ in self._recent)

    @property
    def recent(self) -> list[str]:
        """The last lines, oldest first."""
        lines = [(entry, line) for entry in self._recent for line in _lines(entry)][-KEPT_LINES:]
        return [self._format(at, context, direction, line) for (at, context, direction, _), line in lines]

    def _write_out(self, entry: tuple[float, str, str, str]) -> None:
        for line in _lines(entry):
            formatted = self._format(entry[0], entry[1], entry[2], line)
            if self.echo is not None:
                self.echo(formatted)
            if self._file is not None:
                self._file.write(formatted + "\n")

    def _format(self, at: float, context: str, direction: str, text: str) -> str:
        stamp = datetime.fromtimestamp(at, UTC).isoformat(timespec="microseconds")
        where = f" {context}" if context else ""
        return f"{stamp}{where} {self.engine} {direction} {text}"

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _lines(entry: tuple[float, str, str, str]) -> list[str]:
    """The lines of an entry: a write sent may hold several, a line read is one."""
    text = entry[3]
    return text.split("\n") if entry[2] == ">" else [text]
