"""When a command to an engine counts as sent, which is where a search's clock starts.

The clock is read just before the write and again just after it. A write to an engine's stdin or its
DXP connection takes microseconds; one that took longer means the arbiter was off the processor around
it (another process on a loaded machine, or a collection). The engine cannot read the command before it
is written, and the pause is the arbiter's, so the clock then starts after the write: the engine is
never charged for such a pause; at worst, when the pause fell after the data left, it gets that much
time free.
"""

from __future__ import annotations

# Seconds a write may take before the readings around it are taken to hold a pause of the arbiter's.
WRITE_PAUSE = 0.001


def sent_at(before: float, after: float) -> float:
    """The monotonic time a command counts as sent, from the readings just before and after its write."""
    return after if after - before > WRITE_PAUSE else before
