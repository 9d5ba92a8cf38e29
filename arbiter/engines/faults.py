"""What can go wrong with an engine, as typed exceptions the referee can record.

Every fault has a stable ``kind`` (a short snake_case name stored with the game) and a message that says
what happened in words a user can act on. Fatal faults are raised by the call that ran into them; the
others (``fatal = False``) are only noted in ``EngineClient.faults`` while play goes on.

Configuration problems (a parameter value the engine does not accept, a variant it cannot play) are not
engine faults: they are ``EngineConfigError`` and are found before any game starts.
"""

from __future__ import annotations

from typing import ClassVar


class EngineFault(Exception):
    """Something an engine did (or failed to do) that the referee records against it."""

    kind: ClassVar[str] = "engine_fault"
    fatal: ClassVar[bool] = True

    def __init__(self, engine: str, message: str) -> None:
        super().__init__(f"engine '{engine}': {message}")
        self.engine = engine
        self.message = message


class StartFailed(EngineFault):
    """The program could not be started at all (not found, not executable, bad working directory)."""

    kind = "start_failed"


class StartupExit(EngineFault):
    """The program started but exited before it finished the start-up handshake."""

    kind = "startup_exit"


class HandshakeTimeout(EngineFault):
    """No complete answer to the opening handshake (`hub` ... `wait`, or the DXP connection) in time."""

    kind = "handshake_timeout"


class ReadyTimeout(EngineFault):
    """No `ready` after `init`, no `pong` after `new-game` (or no DXP game acceptance) in time."""

    kind = "ready_timeout"


class Crashed(EngineFault):
    """The engine exited or closed its output after the handshake."""

    kind = "crashed"


class SearchTimeout(EngineFault):
    """No move before the search deadline. The engine still answered `stop`, so it can play on."""

    kind = "search_timeout"


class StopIgnored(EngineFault):
    """After `stop` the engine kept searching: it still answers `ping` but sends no `done`."""

    kind = "stop_ignored"


class Unresponsive(EngineFault):
    """The engine answers nothing any more: no `done` after `stop`, and no `pong` either."""

    kind = "unresponsive"


class PingTimeout(EngineFault):
    """No `pong` in time."""

    kind = "ping_timeout"


class Garbage(EngineFault):
    """Output that is not protocol text: undecodable bytes, control characters, broken quoting."""

    kind = "garbage"


class BadMoveFormat(EngineFault):
    """A move that does not even have the shape of a move (squares joined by `-` or `x`)."""

    kind = "bad_move_format"


class ProtocolError(EngineFault):
    """A well-formed message at a place where the protocol does not allow it."""

    kind = "protocol_error"


class OutputFlood(EngineFault):
    """More output after one command than the configured limit; the arbiter stopped reading."""

    kind = "output_flood"


class LineTooLong(EngineFault):
    """One line longer than the configured limit; the arbiter stopped reading."""

    kind = "line_too_long"


class GameRefused(EngineFault):
    """A DXP engine answered the game request with a refusal code."""

    kind = "game_refused"


class StderrFlood(EngineFault):
    """More stderr than the log keeps; the rest is discarded, play goes on."""

    kind = "stderr_flood"
    fatal = False


class QuitTimeout(EngineFault):
    """The engine did not exit after `quit` and the grace period; it was terminated."""

    kind = "quit_timeout"
    fatal = False


class StrayProcesses(EngineFault):
    """Processes the engine started (in its process group or not) were still running after it exited;
    they were ended."""

    kind = "stray_processes"
    fatal = False


class EngineReportedError(EngineFault):
    """The engine sent `error message=...`; recorded, play goes on."""

    kind = "engine_error"
    fatal = False


FAULT_KINDS: dict[str, type[EngineFault]] = {
    cls.kind: cls
    for cls in (
        StartFailed,
        StartupExit,
        HandshakeTimeout,
        ReadyTimeout,
        Crashed,
        SearchTimeout,
        StopIgnored,
        Unresponsive,
        PingTimeout,
        Garbage,
        BadMoveFormat,
        ProtocolError,
        OutputFlood,
        LineTooLong,
        GameRefused,
        StderrFlood,
        QuitTimeout,
        StrayProcesses,
        EngineReportedError,
    )
}


class EngineConfigError(ValueError):
    """An engine's configuration does not fit what the engine declares; found before any game."""

    def __init__(self, engine: str, message: str) -> None:
        super().__init__(f"engine '{engine}': {message}")
        self.engine = engine
        self.message = message


class VariantUnsupported(EngineConfigError):
    """The engine cannot play the tournament's variant."""
