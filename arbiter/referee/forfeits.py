"""Which termination an engine fault is, when it ends a game."""

from __future__ import annotations

from arbiter.engines.faults import (
    BadMoveFormat,
    Crashed,
    EngineFault,
    GameRefused,
    Garbage,
    HandshakeTimeout,
    LineTooLong,
    OutputFlood,
    PingTimeout,
    ProtocolError,
    ReadyTimeout,
    SearchTimeout,
    StartFailed,
    StartupExit,
    StopIgnored,
    Unresponsive,
)
from arbiter.referee.record import Termination

_BY_FAULT: tuple[tuple[type[EngineFault], Termination], ...] = (
    (StartFailed, Termination.START_FAILURE),
    (StartupExit, Termination.START_FAILURE),
    (HandshakeTimeout, Termination.START_FAILURE),
    (ReadyTimeout, Termination.START_FAILURE),
    (GameRefused, Termination.START_FAILURE),
    (Crashed, Termination.CRASH),
    (SearchTimeout, Termination.NO_ANSWER),
    (StopIgnored, Termination.NO_ANSWER),
    (Unresponsive, Termination.NO_ANSWER),
    (PingTimeout, Termination.NO_ANSWER),
    (Garbage, Termination.UNPARSABLE_OUTPUT),
    (BadMoveFormat, Termination.UNPARSABLE_OUTPUT),
    (ProtocolError, Termination.UNPARSABLE_OUTPUT),
    (OutputFlood, Termination.UNPARSABLE_OUTPUT),
    (LineTooLong, Termination.UNPARSABLE_OUTPUT),
)


def termination_for(fault: EngineFault) -> Termination:
    """The termination a fatal fault during a game stands for (an unknown kind counts as a crash)."""
    for kind, termination in _BY_FAULT:
        if isinstance(fault, kind):
            return termination
    return Termination.CRASH
