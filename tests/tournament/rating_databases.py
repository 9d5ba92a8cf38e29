"""Tournament databases with chosen results and engine identities, for the rating list tests.

Written through the store as the runner writes them; the games carry results only (adjudicated at the
start position), which is all a rating list reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from arbiter.engines.params import EngineIdentity
from arbiter.referee.record import GameOutcome, GameRecord, PlayerRecord, Termination, Winner
from arbiter.rules import get_variant
from arbiter.store import PlayerEntry, TournamentStatus, TournamentStore
from arbiter.tournament.config import TournamentConfig
from arbiter.tournament.schedule import GameKey, PlannedGame

MOMENT = datetime(2026, 1, 1, tzinfo=UTC)
WINNERS = {"1-0": Winner.WHITE, "0-1": Winner.BLACK, "1/2": Winner.DRAW}


@dataclass(frozen=True)
class Entrant:
    name: str
    id_name: str | None = None
    """What the engine announced (None: it never started)."""
    id_version: str = "1.0"


def write_event(
    database: Path,
    name: str,
    entrants: list[Entrant],
    games: list[tuple[str, str, str]],
    *,
    paired: bool = False,
) -> None:
    """One tournament: `games` are (white, black, result) with result 1-0, 0-1 or 1/2; with `paired`,
    games 1-2, 3-4, ... are opening pairs."""
    config = TournamentConfig.model_validate(
        {"name": name, "format": "round-robin", "engines": [{"name": e.name} for e in entrants]}
    )
    start = get_variant("english").start_fen()
    with TournamentStore.open(database) as store:
        tid = store.create_tournament(
            name=name,
            variant="english",
            format="round-robin",
            time_control="st=1",
            players=[PlayerEntry(e.name) for e in entrants],
            config=config,
        )
        for entrant in entrants:
            if entrant.id_name is not None:
                identity = EngineIdentity(name=entrant.id_name, version=entrant.id_version)
                store.set_engine_identity(tid, entrant.name, identity)
        for number, (white, black, result) in enumerate(games):
            planned = PlannedGame(
                key=GameKey(number + 1, 1, 1),
                cycle=1,
                white=white,
                black=black,
                opening=None,
                opening_index=None,
                pair_index=number // 2 if paired else None,
            )
            winner = WINNERS[result]
            termination = (
                Termination.ADJUDICATION_DRAW if winner is Winner.DRAW else Termination.ADJUDICATION_WIN
            )
            record = GameRecord(
                variant="english",
                white=PlayerRecord(name=white),
                black=PlayerRecord(name=black),
                start_fen=start,
                time_control="st=1",
                outcome=GameOutcome.of(winner, termination),
                started_at=MOMENT,
                ended_at=MOMENT,
            )
            store.record_game(tid, planned, record)
        store.set_status(tid, TournamentStatus.FINISHED)
