"""A Hub `level` as getmove's time arguments, and the deadline at which the adapter sets ``*playnow``.

CheckerBoard engines take ``maxtime`` as an average (a simple one may think three times as long), so
every search with a clock also gets a watchdog: ``*playnow`` is set a little before the move would be
late. How each level is told:

- ``move-time=S``: ``maxtime`` a little under S, with the exact-time bit.
- ``moves=N time=T [inc=I]`` (periods, and the ACF jump limit told as ``moves=1``): a fixed time per
  move, ``(T + I - reserve) / N``, with the exact-time bit. CheckerBoard has no moves-to-go, and engines
  given the incremental fields would spend a period's time as if it were the whole game's.
- ``time=T [inc=I]`` (Fischer, sudden death): the incremental fields, ``moreinfo = remaining << 16 |
  increment`` in the finest unit that holds both, and for engines that ignore them a ``maxtime`` of
  ``I + T / 10``.

Hub's ``time`` is the clock before this move's increment, which is added before the move: the move may
take ``T + I``, and that is what the watchdog allows. CheckerBoard's ``remaining`` is the same reading
(its engines budget about ``increment + remaining / 9``).
- ``depth=``, ``nodes=``: the API has neither; the engine gets one second a move (see the docs).
- ``infinite``: a day, no watchdog; `stop` sets ``*playnow``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from arbiter.engines.checkerboard.api import EXACT_TIME, INCREMENT_SHIFT

NO_DEPTH_SECONDS = 1.0
_DAY = 86400.0
_UNITS = (0.001, 0.01, 0.1)  # seconds per unit for the increment bits 1, 2, 3
_FIELD_MAX = 0xFFFF


@dataclass(frozen=True)
class TimeArgs:
    maxtime: float
    info: int  # the time bits of getmove's `info` (the reset bit is added by the caller)
    moreinfo: int
    watchdog: float | None  # seconds after the start of the search at which *playnow is set
    note: str | None = None  # what the engine should know it was not given


# The reserve: a fixed part (an engine on a loaded machine may wait tens of milliseconds for a core to
# notice *playnow, and again to write its answer), a part that grows with the limit, and a ceiling.
RESERVE_FLOOR = 0.08
RESERVE_SHARE = 0.1
RESERVE_MOST = 0.5


def reserve(limit: float) -> float:
    """Time kept back from a hard limit for the engine to notice *playnow and the answer to travel:
    80 ms and a tenth of the limit, at most half a second and never more than half the limit."""
    return min(RESERVE_FLOOR + RESERVE_SHARE * limit, RESERVE_MOST, 0.5 * limit)


def time_args(fields: Mapping[str, str], flags: frozenset[str] = frozenset()) -> TimeArgs:
    """The arguments for one `level` line's fields (raises ValueError for numbers that are not)."""
    if "move-time" in fields:
        limit = _seconds(fields["move-time"])
        return TimeArgs(max(limit - reserve(limit), 0.001), EXACT_TIME, 0, limit - reserve(limit) / 2)
    if "time" in fields:
        remaining = _seconds(fields["time"])
        increment = _seconds(fields.get("inc", "0"))
        available = remaining + increment  # the increment is added before the move (Hub)
        hard = available - reserve(available)
        watchdog = available - reserve(available) / 2
        if "moves" in fields:
            moves = max(int(fields["moves"]), 1)
            return TimeArgs(max(hard / moves, 0.001), EXACT_TIME, 0, watchdog)
        info, moreinfo = increment_fields(remaining, increment)
        return TimeArgs(max(min(hard, increment + remaining / 10), 0.001), info, moreinfo, watchdog)
    if "depth" in fields or "nodes" in fields:
        which = "depth" if "depth" in fields else "node count"
        note = (
            f"a CheckerBoard engine cannot search to a fixed {which}; "
            f"it was given {NO_DEPTH_SECONDS:g} s a move instead"
        )
        return TimeArgs(NO_DEPTH_SECONDS, 0, 0, None, note)
    return TimeArgs(_DAY, 0, 0, None)


def increment_fields(remaining: float, increment: float) -> tuple[int, int]:
    """(info bits, moreinfo) for a Fischer clock: 16 bits each, in the finest unit that holds both."""
    remaining = max(remaining, 0.0)
    largest = max(remaining, increment)
    for code, unit in enumerate(_UNITS, start=1):
        if largest / unit <= _FIELD_MAX or code == len(_UNITS):
            high = min(int(remaining / unit), _FIELD_MAX)
            low = min(int(increment / unit), _FIELD_MAX)
            return code << INCREMENT_SHIFT, high << 16 | low
    raise AssertionError("unreachable")


def _seconds(text: str) -> float:
    value = float(text)
    if value != value or value < 0:
        raise ValueError(f"not a number of seconds: {text!r}")
    return value
