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


class CommLog:
    """What was said to one engine and what it answered; written to ``path`` when one is given."""

    def __init__(
        self, engine: str, path: Path | None = None, *, echo: Callable[[str], None] | None = None
    ) -> None:
        self.engine = engine
        self.path = path
        self.echo = echo  # also shown as it happens (`arbiter play --debug`)
        self.context = ""  # the game being played, as the runner names it ("game 3")
        self._recent: deque[tuple[float, str, str, str]] = deque(maxlen=KEPT_LINES)
        self._file: TextIO | None = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            # Line-buffered append: several engines of one event may share the file, each line whole.
            self._file = path.open("a", encoding="utf-8", buffering=1)

    def sent(self, text: str) -> None:
        if "\n" not in text:
            self._add(">", text)
            return
        # The lines of one write (``pos``, ``level``, ``go``) leave together: one time for all of them.
        at = time.time()
        for line in text.split("\n"):
            self._add(">", line, at)

    def received(self, text: str) -> None:
        self._add("<", text)

    @property
    def recent(self) -> list[str]:
        """The last lines, oldest first."""
        return [self._format(*entry) for entry in self._recent]

    def _add(self, direction: str, text: str, at: float | None = None) -> None:
        entry = (time.time() if at is None else at, self.context, direction, text)
        self._recent.append(entry)
        if self.echo is None and self._file is None:
            return
        line = self._format(*entry)
        if self.echo is not None:
            self.echo(line)
        if self._file is not None:
            self._file.write(line + "\n")

    def _format(self, at: float, context: str, direction: str, text: str) -> str:
        stamp = datetime.fromtimestamp(at, UTC).isoformat(timespec="microseconds")
        where = f" {context}" if context else ""
        return f"{stamp}{where} {self.engine} {direction} {text}"

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
