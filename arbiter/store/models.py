"""What the store hands back: plain, typed values that do not hold on to the database."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from arbiter.engines.params import EngineIdentity
from arbiter.referee.record import GameRecord, Winner
from arbiter.store.records import GameKey, Outcome, ScoringScheme


class TournamentStatus(StrEnum):
    CREATED = "created"
    """Configured; no game played yet."""
    RUNNING = "running"
    """Being played: a run holds the database. One stored as running whose run is gone (killed, with
    no chance to say so) is read as stopped."""
    STOPPED = "stopped"
    """Interrupted before the schedule was done; a later run resumes it."""
    FINISHED = "finished"


@dataclass(frozen=True)
class PlayerEntry:
    """A player as the tournament is created: its name and the engine key in the configuration."""

    name: str
    engine_id: str | None = None


@dataclass(frozen=True)
class TournamentInfo:
    """An event as stored: its settings, its state and how many games it has finished."""

    id: int
    name: str
    variant: str
    format: str
    time_control: str
    scoring: ScoringScheme
    config_json: str
    """The validated configuration, as it was stored."""
    status: TournamentStatus
    created_at: datetime
    updated_at: datetime
    finished_games: int
    unfinished_games: int

    def config(self) -> dict[str, Any]:
        """The configuration as a JSON object (the config models validate it again, when needed)."""
        data: dict[str, Any] = json.loads(self.config_json)
        return data


@dataclass(frozen=True)
class StoredEngine:
    """An engine of an event as stored: its seat, its name and what it said about itself."""

    seat: int
    name: str
    engine_id: str | None
    identity: EngineIdentity | None
    """What the engine declared at start-up; None until it has started once."""
    identified_at: datetime | None


@dataclass(frozen=True)
class StoredGame:
    """A game as read back: where it sits in the schedule, and its full record."""

    id: int
    key: GameKey
    cycle: int
    pair_index: int | None
    opening_id: str | None
    opening_index: int | None
    record: GameRecord
    revision: int = 0
    """When it was stored, among the tournament's games: see `TournamentStore.games_since`."""

    @property
    def finished(self) -> bool:
        return self.record.winner is not Winner.UNFINISHED


@dataclass(frozen=True, slots=True)
class GameLine:
    """A stored game without its moves: what lists of games, standings and engine pages show.

    `timed`/`seconds`/`depths`/`depth_sum` are (White's, Black's): moves with a time and the seconds
    they took, moves with a depth and the depths added up, the opening's moves left out.
    """

    id: int
    key: GameKey
    revision: int
    cycle: int
    pair_index: int | None
    white: str
    black: str
    variant: str
    winner: Winner
    termination: str | None
    reason: str
    plies: int
    started_at: datetime
    ended_at: datetime | None
    opening_id: str | None
    opening: str | None
    """The opening record as JSON text, when the game started from one."""
    timed: tuple[int, int]
    seconds: tuple[float, float]
    depths: tuple[int, int]
    depth_sum: tuple[int, int]


@dataclass(frozen=True)
class ResultCounts:
    """A tournament's finished games counted by players and result, read in one transaction."""

    tournament: TournamentInfo
    players: tuple[str, ...]
    """The seated players, in the configuration's order."""
    counts: list[tuple[str, str, Outcome, int]]
    """(White, Black, result, number of games)."""
