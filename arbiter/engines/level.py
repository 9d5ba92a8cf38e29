"""How long or how deep an engine may search: the five forms of Hub's `level` line."""

from __future__ import annotations

import math
from dataclasses import dataclass

from arbiter.engines.hub_wire import format_seconds
from arbiter.engines.unchecked import filled_in


@dataclass(frozen=True)
class Depth:
    """Search to a fixed depth (plies)."""

    plies: int

    def __post_init__(self) -> None:
        if self.plies < 1:
            raise ValueError(f"a search depth must be at least 1, not {self.plies}")


@dataclass(frozen=True)
class Nodes:
    """Search a fixed number of nodes."""

    count: int

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"a node count must be at least 1, not {self.count}")


@dataclass(frozen=True)
class MoveTime:
    """Think this many seconds on the move."""

    seconds: float

    def __post_init__(self) -> None:
        _check_seconds("move time", self.seconds)


@dataclass(frozen=True)
class Clock:
    """The engine's own clock: ``time`` seconds left for ``moves`` moves (None: the rest of the game),
    plus ``inc`` seconds added before every move."""

    time: float
    moves: int | None = None
    inc: float | None = None

    def __post_init__(self) -> None:
        # Made for every move: the usual finite values pass one comparison each.
        if not 0.0 <= self.time < math.inf:
            _check_seconds("time", self.time)
        if self.inc is not None and not 0.0 <= self.inc < math.inf:
            _check_seconds("increment", self.inc)
        if self.moves is not None and self.moves < 1:
            raise ValueError(f"moves to the time control must be at least 1, not {self.moves}")

    @classmethod
    def trusted(cls, time: float, moves: int | None, inc: float | None) -> Clock:
        """A clock level whose values the caller has already checked, made without checking them again:
        the referee's clock tells one at nearly every move, from a time control validated when it was
        read (finite seconds of 0 or more, a move count of at least 1). The result is the one the
        checking constructor makes, equal and with the same attributes."""
        return filled_in(cls, {"time": time, "moves": moves, "inc": inc})


@dataclass(frozen=True)
class Infinite:
    """Search until told to stop."""


Level = Depth | Nodes | MoveTime | Clock | Infinite


def _check_seconds(what: str, seconds: float) -> None:
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"{what} must be a finite number of seconds >= 0, not {seconds}")


def level_line(level: Level) -> str:
    """The Hub `level` line for ``level``.

    Written for every search, so it is put together directly: its keys are fixed words and its values
    numbers, which Hub writes bare (what ``format_line`` would check and quote is never needed)."""
    if isinstance(level, Clock):  # the usual level, looked at first
        left = format_seconds(level.time)
        text = f"level time={left}" if level.moves is None else f"level moves={level.moves} time={left}"
        inc = level.inc
        if inc is None:
            return text
        # Told at every move, written once: a game has one or two increments (a text is never empty).
        return f"{text} inc={_INCREMENTS.get(inc) or _remember_increment(inc)}"
    match level:
        case Depth(plies):
            return f"level depth={plies}"
        case Nodes(count):
            return f"level nodes={count}"
        case MoveTime(seconds):
            return f"level move-time={format_seconds(seconds)}"
        case Infinite():
            return "level infinite"
    raise TypeError(f"not a search level: {level!r}")


_INCREMENTS: dict[float, str] = {}  # the text of each increment told so far (a few dozen at most)


def _remember_increment(seconds: float) -> str:
    text = format_seconds(seconds)
    if len(_INCREMENTS) < 64:
        _INCREMENTS[seconds] = text
    return text
