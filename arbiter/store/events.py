"""Events: what happened in a tournament besides moves (warnings, faults, engines' error lines)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum

from arbiter.store.records import GameKey


class EventKind(StrEnum):
    WARNING = "warning"
    """Something odd that did not change a result (a slow start, a parameter the engine ignored)."""
    FAULT = "fault"
    """An engine broke a rule of the protocol or the game (a crash, an illegal move, a hang)."""
    ENGINE_ERROR = "engine_error"
    """An engine reported an error itself (a Hub ``error`` line)."""
    NOTE = "note"
    """A fact for the log (the run was stopped, resumed, a game was abandoned)."""


SPRT_DECIDED = "SPRT decided"
"""How the note that a match's SPRT has decided begins. It is stored with the finished game stored
last when the test decided: the games the test counted are the finished ones stored up to that game
(`RunStore.sprt_decision_revision`)."""


def now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Event:
    """An event to store. `engine` names the player it concerns, when it concerns one."""

    kind: EventKind
    message: str
    engine: str | None = None
    at: datetime = field(default_factory=now)

    def __post_init__(self) -> None:
        if self.at.tzinfo is None:
            raise ValueError(f"event {self.message!r}: its time needs a time zone")


@dataclass(frozen=True)
class StoredEvent:
    """An event as read back; `game_key` is None for an event of the tournament as a whole."""

    id: int
    tournament_id: int
    game_key: GameKey | None
    event: Event
