"""How much of one engine's stderr is kept on disk over a whole event, by all its processes together.

Each process is held to ``stderr_limit_bytes`` of its own: beyond that its output is the fault
``stderr_flood``, judged on what that process wrote. But an event starts the same engine many times
(afresh after a fault, for every game when engines are not reused, once more on every resumed run),
and each start would get a whole allowance again: the logs of a chatty engine would grow with the
number of games until the disk is full. The budget is what all of an engine's processes may write to
its logs together; once it is spent their stderr is still read (so an engine never blocks on a full
pipe) but no longer written, and the engine plays on.
"""

from __future__ import annotations

import threading

from arbiter.engines.config import EngineConfig

# An engine's budget when its `stderr_event_limit_bytes` is not set: this many of its process limits.
PROCESS_LIMITS_PER_EVENT = 4


def event_limit(config: EngineConfig) -> int:
    """The bytes of stderr all of this engine's processes may keep over one event."""
    if config.stderr_event_limit_bytes is not None:
        return config.stderr_event_limit_bytes
    return PROCESS_LIMITS_PER_EVENT * config.stderr_limit_bytes


class StderrBudget:
    """The stderr one engine may still keep; shared by its processes, also by several running at once."""

    def __init__(self, limit: int, spent: int = 0) -> None:
        self.limit = limit
        self.spent = spent  # what its logs hold already (a resumed event counts what is on disk)
        # The processes are read on one event loop, but a budget costs nothing to make safe across threads.
        self._lock = threading.Lock()

    @classmethod
    def for_engine(cls, config: EngineConfig, spent: int = 0) -> StderrBudget:
        return cls(event_limit(config), spent)

    def take(self, wanted: int) -> int:
        """How many of ``wanted`` bytes may be written now; those are counted as written."""
        with self._lock:
            granted = max(0, min(wanted, self.limit - self.spent))
            self.spent += granted
            return granted
