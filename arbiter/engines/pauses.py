"""Keeping the interpreter's own pauses away from the engines' clocks.

A garbage collection stops every thread of the process, the threads that read and stamp the engines'
answers included, and a full collection of a large heap takes tens of milliseconds. ``settle_for_timing``
is called once start-up is over: what exists then (modules, configurations, tables) is moved out of the
collector's sight with ``gc.freeze()``, and the thresholds keep the young collections small and make
full ones rare in a process that runs for hours. It also shortens the interpreter's switch interval, so
a reader thread woken by an answer takes the interpreter lock within half a millisecond when another
thread (the event loop, the store or report thread) is busy in Python code.

``PauseLog`` measures the collections that remain: how many of each generation, and the longest.
"""

from __future__ import annotations

import gc
import sys
import time
from dataclasses import dataclass, field
from typing import Any

# A collection's pause grows with the generation it collects: the young one holds at most the first
# threshold's objects, the middle one about the first times the second. Both stay small (well under a
# millisecond), so they may come often; the full one, whose cost is the whole heap that was not frozen,
# comes only after 100 middle ones (and, as always in CPython, only when the objects that survived since
# the last full one are a quarter of that heap).
GC_THRESHOLDS = (1_000, 10, 100)
# Seconds a thread may run Python code before another one waiting for the interpreter lock gets it.
SWITCH_INTERVAL = 0.0005


def settle_for_timing() -> None:
    """Collect once, freeze what survives start-up, and set the thresholds and switch interval."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))


@dataclass
class PauseLog:
    """The garbage collections of this process while it is attached, with their durations."""

    counts: list[int] = field(default_factory=lambda: [0, 0, 0])
    longest: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])
    longest_cpu: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])  # the collecting thread's
    total: float = 0.0
    _began: float = 0.0
    _began_cpu: float = 0.0

    def attach(self) -> PauseLog:
        gc.callbacks.append(self._callback)
        return self

    def detach(self) -> None:
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began, self._began_cpu = time.perf_counter(), time.thread_time()
            return
        took = time.perf_counter() - self._began
        generation = int(info.get("generation", 0))
        self.counts[generation] += 1
        self.longest[generation] = max(self.longest[generation], took)
        self.longest_cpu[generation] = max(self.longest_cpu[generation], time.thread_time() - self._began_cpu)
        self.total += took

    def describe(self) -> str:
        parts = [
            f"gen{generation}: {count} (longest {self.longest[generation] * 1000:.1f} ms, "
            f"{self.longest_cpu[generation] * 1000:.1f} ms CPU)"
            for generation, count in enumerate(self.counts)
        ]
        return f"{', '.join(parts)}; {self.total * 1000:.1f} ms in all"
