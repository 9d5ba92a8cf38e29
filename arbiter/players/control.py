"""The handle between a running search and the protocol loop: stop requests, ponder-hit and limits.

The loop's reader thread calls ``stop`` or ``ponder_hit`` while the search runs in another thread; the
search polls ``should_abort`` every few nodes. Only an ``Event`` and plain attribute writes cross
threads, which is safe under the interpreter lock.
"""

from __future__ import annotations

import threading
import time
from enum import StrEnum

from arbiter.players.level import Level, time_budget


class GoMode(StrEnum):
    THINK = "think"
    PONDER = "ponder"  # thinking on the opponent's time; ``ponder-hit`` turns it into ``think``
    ANALYZE = "analyze"  # think until stopped, never move on its own


class SearchControl:
    def __init__(self) -> None:
        self._stopped = threading.Event()
        self._released = threading.Event()
        self.level = Level(infinite=True)
        self.mode = GoMode.THINK
        self.started = time.monotonic()
        self._soft: float | None = None
        self._hard: float | None = None
        self.max_nodes: int | None = None
        self.max_depth: int | None = None
        self._configured = False
        self._early_ponder_hit = False  # ``ponder-hit`` read before the search was set up

    @classmethod
    def for_level(cls, level: Level, mode: GoMode = GoMode.THINK) -> SearchControl:
        control = cls()
        control.configure(level, mode)
        return control

    def configure(self, level: Level, mode: GoMode, started: float | None = None) -> None:
        """Set the limits and start the clock, at ``started`` (the monotonic time ``go`` was read: the
        arbiter's clock runs from then, however long earlier commands took) or now. A ``stop`` that
        came earlier still counts."""
        self.level = level
        self.mode = GoMode.THINK if mode is GoMode.PONDER and self._early_ponder_hit else mode
        self._configured = True
        self.max_nodes = level.nodes
        self.max_depth = level.depth
        self._start_clock(started)

    def _start_clock(self, started: float | None = None) -> None:
        self.started = time.monotonic() if started is None else started
        if self.free_running:
            self._soft = self._hard = None
        else:
            budget = time_budget(self.level)
            self._soft, self._hard = budget.soft, budget.hard
        if not self.holds_answer and not self._stopped.is_set():
            self._released.set()

    @property
    def free_running(self) -> bool:
        """No clock limit applies: infinite level, pondering or analysing."""
        return self.level.infinite or self.mode is not GoMode.THINK

    @property
    def holds_answer(self) -> bool:
        """The answer must wait for ``stop`` (or ``ponder-hit``) even if the search ends by itself."""
        return self.free_running

    # ------------------------------------------------------------------ called by the protocol loop

    def stop(self) -> None:
        self._stopped.set()
        self._released.set()

    def ponder_hit(self) -> None:
        """The opponent played the expected move: go on as a normal search from now."""
        if not self._configured:
            self._early_ponder_hit = True
        elif self.mode is GoMode.PONDER:
            self.mode = GoMode.THINK
            self._start_clock()

    def wait_for_release(self) -> None:
        """Block until the answer may be sent (at once unless the search is free-running)."""
        self._released.wait()

    # ------------------------------------------------------------------ called by the search

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def should_abort(self, nodes: int) -> bool:
        if self._stopped.is_set():
            return True
        if self.max_nodes is not None and nodes >= self.max_nodes:
            return True
        return self._hard is not None and self.elapsed() >= self._hard

    def may_start_iteration(self, depth: int, nodes: int) -> bool:
        """Whether iteration ``depth`` is worth starting under the limits."""
        if self.max_depth is not None and depth > self.max_depth:
            return False
        if self.should_abort(nodes):
            return False
        return self._soft is None or self.elapsed() < self._soft
