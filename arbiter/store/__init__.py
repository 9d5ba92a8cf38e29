"""The tournament store: SQLite, one transaction per finished game.

`RunStore` is what a running event uses, on sqlite3 alone; `TournamentStore` adds the ORM's reads and
writes (SQLModel, SQLAlchemy), and is loaded only when a command names it: a match never pays for it.
"""

from typing import TYPE_CHECKING

from arbiter.store.errors import (
    GameAlreadyRecordedError,
    GameMismatchError,
    StoreDamagedError,
    StoreError,
    StoreMovedError,
    StoreNotFoundError,
    StoreReadOnlyError,
    StoreVersionError,
    UnknownTournamentError,
)
from arbiter.store.events import SPRT_DECIDED, Event, EventKind, StoredEvent
from arbiter.store.models import (
    GameLine,
    PlayerEntry,
    StoredEngine,
    StoredGame,
    TournamentInfo,
    TournamentStatus,
)
from arbiter.store.run_store import RunStore
from arbiter.store.schema import SCHEMA_VERSION

if TYPE_CHECKING:
    from arbiter.store.store import TournamentStore


def __getattr__(name: str) -> object:
    if name == "TournamentStore":
        from arbiter.store.store import TournamentStore

        return TournamentStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "SCHEMA_VERSION",
    "SPRT_DECIDED",
    "Event",
    "EventKind",
    "GameAlreadyRecordedError",
    "GameLine",
    "GameMismatchError",
    "PlayerEntry",
    "RunStore",
    "StoreDamagedError",
    "StoreError",
    "StoreMovedError",
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
