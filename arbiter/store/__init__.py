"""The tournament store: SQLite through SQLModel, one transaction per finished game."""

from arbiter.store.errors import (
    GameAlreadyRecordedError,
    GameMismatchError,
    StoreDamagedError,
    StoreError,
    StoreNotFoundError,
    StoreReadOnlyError,
    StoreVersionError,
    UnknownTournamentError,
)
from arbiter.store.events import Event, EventKind, StoredEvent
from arbiter.store.models import (
    GameLine,
    PlayerEntry,
    StoredEngine,
    StoredGame,
    TournamentInfo,
    TournamentStatus,
)
from arbiter.store.store import TournamentStore
from arbiter.store.tables import SCHEMA_VERSION

__all__ = [
    "SCHEMA_VERSION",
    "Event",
    "EventKind",
    "GameAlreadyRecordedError",
    "GameLine",
    "GameMismatchError",
    "PlayerEntry",
    "StoreDamagedError",
    "StoreError",
    "StoreNotFoundError",
    "StoreReadOnlyError",
    "StoreVersionError",
    "StoredEngine",
    "StoredEvent",
    "StoredGame",
    "TournamentInfo",
    "TournamentStatus",
    "TournamentStore",
    "UnknownTournamentError",
]
