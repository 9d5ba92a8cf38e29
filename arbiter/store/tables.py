"""The SQLite tables of a tournament database, as SQLModel classes.

Lists and dictionaries (warnings, tags, principal variations, identities, parameter declarations, the
configuration) are kept as JSON text, NULL when empty. Moments are ISO 8601 text with their time zone,
so a game record reads back exactly as it was written.

The tables have their own registry, so they never mix with table models defined elsewhere.
"""

from __future__ import annotations

from sqlalchemy import Index, UniqueConstraint
from sqlalchemy.orm import registry
from sqlmodel import Field, SQLModel

from arbiter.store.schema import APPLICATION as APPLICATION
from arbiter.store.schema import SCHEMA_VERSION as SCHEMA_VERSION


class StoreModel(SQLModel, registry=registry()):
    """The base of the store's tables, with a metadata of its own."""


class MetaRow(StoreModel, table=True):
    """Facts about the database itself: `application` and `schema_version`."""

    __tablename__ = "meta"

    key: str = Field(primary_key=True)
    value: str


class TournamentRow(StoreModel, table=True):
    __tablename__ = "tournament"

    id: int | None = Field(default=None, primary_key=True)
    name: str
    variant: str
    format: str
    time_control: str
    scoring: str
    """The scoring scheme's name; the points below are what the standings use."""
    points_win: float
    points_draw: float
    points_loss: float
    config: str
    """The validated configuration as JSON text."""
    status: str
    created_at: str
    updated_at: str


class EngineRow(StoreModel, table=True):
    """A player of a tournament, with what its engine said about itself once it started."""

    __tablename__ = "engine"
    __table_args__ = (UniqueConstraint("tournament_id", "name", name="uq_engine_name"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", ondelete="CASCADE")
    seat: int
    """The player's position in the configuration (1-based); the standings list players in this order."""
    name: str
    engine_id: str | None = None
    """The engine's key in the configuration."""
    id_name: str | None = None
    id_version: str | None = None
    id_author: str | None = None
    id_country: str | None = None
    id_extra: str | None = None
    """Further `id` fields (JSON object)."""
    params: str | None = None
    """The declared parameters (JSON list); NULL until the engine has started."""
    identified_at: str | None = None


class GameRow(StoreModel, table=True):
    """One game of the schedule, finished or abandoned; its moves are in `move`."""

    __tablename__ = "game"
    __table_args__ = (
        UniqueConstraint("tournament_id", "game_key", name="uq_game_key"),
        # The standings read only these columns of the finished games of one tournament: a covering
        # index answers them without visiting the table.
        Index("ix_game_results", "tournament_id", "finished", "white", "black", "winner"),
        # What changed since a revision: the published site reads only the games stored after its own.
        Index("ix_game_revision", "tournament_id", "revision"),
    )

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", ondelete="CASCADE")
    game_key: str
    """The planned game's stable key (``r3-b2-g1``): a resumed run skips the keys already finished."""
    round: int
    board: int
    game_number: int
    cycle: int
    pair_index: int | None = None
    white: str
    black: str
    white_engine_id: str | None = None
    black_engine_id: str | None = None
    white_identity: str | None = None
    black_identity: str | None = None
    variant: str
    time_control: str
    start_fen: str
    """The position before the first move, as PDN's FEN tag wants it."""
    opening_id: str | None = None
    opening_index: int | None = None
    opening: str | None = None
    """The opening record (JSON object), NULL when the game started without one."""
    finished: bool
    """True when the game has a result; an abandoned game is kept until a finished one replaces it."""
    winner: str
    termination: str | None = None
    rule: str | None = None
    reason: str | None = None
    plies: int
    started_at: str
    ended_at: str | None = None
    warnings: str | None = None
    tags: str | None = None
    revision: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    """Raised on every write of the game: one more than the tournament's highest so far. The site keeps
    the highest it has published, and reads only the games stored since."""
    white_timed: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    """White's moves with a time (its own, not the opening's), and the seconds they took; then the same
    for moves with a search depth. Kept with the game so the engine pages sum games, not moves."""
    white_seconds: float = Field(default=0.0, sa_column_kwargs={"server_default": "0"})
    white_depths: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    white_depth_sum: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    black_timed: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    black_seconds: float = Field(default=0.0, sa_column_kwargs={"server_default": "0"})
    black_depths: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    black_depth_sum: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class MoveRow(StoreModel, table=True):
    __tablename__ = "move"
    # Rows are found by (game_id, ply) only, so the key is the table itself: no rowid, no second index.
    __table_args__ = {"sqlite_with_rowid": False}

    game_id: int = Field(foreign_key="game.id", ondelete="CASCADE", primary_key=True)
    ply: int = Field(primary_key=True)
    side: str
    text: str
    hub: str
    from_opening: bool
    elapsed: float | None = None
    """Seconds the move took."""
    clock: float | None = None
    """The mover's remaining time after the move."""
    warnings: str | None = None
    draw_offered: bool
    has_info: bool
    """Whether the engine sent an `info` line; the columns below are its fields."""
    depth: int | None = None
    score: float | None = None
    nodes: int | None = None
    info_time: float | None = None
    nps: float | None = None
    pv: str | None = None
    info_extra: str | None = None


class EventRow(StoreModel, table=True):
    """Something worth telling that is not a move: a warning, a fault, an engine's error line."""

    __tablename__ = "event"

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", ondelete="CASCADE", index=True)
    game_id: int | None = Field(default=None, foreign_key="game.id", ondelete="CASCADE", index=True)
    engine: str | None = None
    kind: str
    message: str
    at: str


TABLES = [MetaRow, TournamentRow, EngineRow, GameRow, MoveRow, EventRow]


def metadata_ddl() -> list[str]:
    """The statements SQLAlchemy's `create_all` runs for these tables on SQLite, in its order: what
    `arbiter.store.schema.DDL` must equal."""
    from sqlalchemy.dialects import sqlite
    from sqlalchemy.schema import CreateIndex, CreateTable

    dialect = sqlite.dialect()
    statements = []
    for table in StoreModel.metadata.sorted_tables:
        statements.append(str(CreateTable(table).compile(dialect=dialect)))
        for index in sorted(table.indexes, key=lambda index: str(index.name)):
            statements.append(str(CreateIndex(index).compile(dialect=dialect)))
    return statements
