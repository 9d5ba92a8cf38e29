"""Search levels (Hub's ``level`` command) and how much of the clock one move may use."""

from __future__ import annotations

import math
from dataclasses import dataclass

from arbiter.players.hub_text import HubLine

# With no ``moves=`` to go, assume the game lasts about this many more moves of ours.
DEFAULT_MOVES_TO_GO = 30
# Part of the increment to spend on each move: the rest is a cushion for later.
INCREMENT_SHARE = 0.8
# The most of the clock one move may use.
MAX_CLOCK_SHARE = 0.5


@dataclass(frozen=True)
class Level:
    """How long one search may run. Every limit that is set applies; ``infinite`` lifts the clock ones."""

    depth: int | None = None
    nodes: int | None = None
    move_time: float | None = None
    time: float | None = None  # time left on the clock, seconds, before this move's increment
    moves: int | None = None  # moves to play before the clock gets more time
    inc: float = 0.0  # seconds added to the clock before every move, this one's too
    infinite: bool = False

    @property
    def is_timed(self) -> bool:
        return not self.infinite and (self.move_time is not None or self.time is not None)


DEFAULT_LEVEL = Level(move_time=1.0)


class LevelError(ValueError):
    """A ``level`` line that cannot be read."""


def _number(line: HubLine, key: str) -> float | None:
    text = line.get(key)
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        raise LevelError(f"level {key}={text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise LevelError(f"level {key}={text!r} must be a number of 0 or more")
    return value


def _count(line: HubLine, key: str) -> int | None:
    text = line.get(key)
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise LevelError(f"level {key}={text!r} is not a whole number") from None
    if value < 0:
        raise LevelError(f"level {key}={text!r} must be 0 or more")
    return value


def parse_level(line: HubLine) -> Level:
    """The level a ``level`` line sets: ``depth=N``, ``nodes=N``, ``move-time=S``,
    ``[moves=N] time=S [inc=S]`` or ``infinite``."""
    level = Level(
        depth=_count(line, "depth"),
        nodes=_count(line, "nodes"),
        move_time=_number(line, "move-time"),
        time=_number(line, "time"),
        moves=_count(line, "moves"),
        inc=_number(line, "inc") or 0.0,
        infinite=line.has_flag("infinite") or line.get("infinite") is not None,
    )
    if not (level.infinite or level.depth is not None or level.nodes is not None or level.is_timed):
        raise LevelError(
            "level names no limit: expected depth=N, nodes=N, move-time=S, "
            "time=S [moves=N] [inc=S] or infinite"
        )
    return level


@dataclass(frozen=True)
class TimeBudget:
    """Seconds from the start of a search: ``soft`` is when no new iteration should start, ``hard``
    when the search must end. None means no limit from the clock."""

    soft: float | None
    hard: float | None


def move_time_reserve(move_time: float) -> float:
    """Seconds of a fixed move time never used: 100 ms and a fifth of it (at most 1 s, never more than
    half), for the last look at the clock, writing the answer, and a loaded machine's delays (where the
    engine may wait 100 ms and more for a core between its deadline and its answer)."""
    return min(0.5 * move_time, 0.1 + 0.2 * move_time, 1.0)


def safety_margin(time_left: float) -> float:
    """Time never spent from the clock: room for the process, the pipe and the arbiter's own overhead."""
    return min(1.0, 0.02 + 0.05 * time_left)


def time_budget(level: Level) -> TimeBudget:
    if level.infinite:
        return TimeBudget(None, None)
    hard: float | None = None
    soft: float | None = None
    if level.move_time is not None:
        # The arbiter measures from its side of the pipe, and a loaded machine delays both the search's
        # stop check and the pipe: keep a reserve that grows with the move time.
        hard = max(0.0, level.move_time - move_time_reserve(level.move_time))
        soft = 0.6 * hard
    if level.time is not None:
        available = level.time + level.inc  # Hub adds the increment before the move, this one's too
        usable = max(0.0, available - safety_margin(available))
        moves_to_go = level.moves if level.moves else DEFAULT_MOVES_TO_GO
        target = min(usable, level.time / moves_to_go + INCREMENT_SHARE * level.inc)
        # Never stake more than half the clock on one move: ``moves=1`` is also how the arbiter tells a
        # capture's ACF jump limit, which counts against the main clock too.
        clock_hard = min(usable, 2.5 * target, MAX_CLOCK_SHARE * level.time + level.inc)
        # An iteration usually costs several times the previous one: don't start one past half the target.
        clock_soft = 0.5 * target
        hard = clock_hard if hard is None else min(hard, clock_hard)
        soft = clock_soft if soft is None else min(soft, clock_soft)
    return TimeBudget(soft, hard)
