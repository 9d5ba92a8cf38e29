"""The tournament store: one SQLite file holding tournaments, their players, games, moves and events.

The runner's side of it is `RunStore` (`arbiter.store.run_store`, sqlite3 alone)::

    with RunStore.open(path) as store:
        tid = store.create_tournament(name=..., variant=..., format=..., time_control=...,
                                      players=[PlayerEntry("Greedy", "greedy"), ...], config=config)
        done = store.finished_keys(tid)              # resume: skip these planned games
        store.set_engine_identity(tid, "Greedy", identity)
        store.record_game(tid, planned, record, events)   # one transaction per game
        store.set_status(tid, TournamentStatus.FINISHED)

`RunStore` also reads what a site needs (the players, each game's line, the games with their moves), so
that the publisher of a running event never loads the ORM. `TournamentStore` is the same with the
ORM's reads and writes added (imports, the events): what the other reporting and PDN commands use.

A game is stored under its planned game's key, at most once per tournament. A game recorded without
a result (abandoned when the run was stopped) does not count as finished; recording the same key again
replaces it in place, keeping its row id and the events already attached to it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import delete, func, insert
from sqlalchemy import select as sql_select
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlmodel import Session, col, select

from arbiter.referee.record import GameRecord
from arbiter.store.codec import (
    game_columns,
    move_columns,
)
from arbiter.store.database import Connector
from arbiter.store.errors import GameAlreadyRecordedError, StoreError, UnknownTournamentError
from arbiter.store.events import Event, EventKind, StoredEvent, now
from arbiter.store.fast_write import event_row
from arbiter.store.orm import orm_engines
from arbiter.store.records import GameKey, ScheduledGame
from arbiter.store.run_store import RunStore, check_fits
from arbiter.store.tables import EngineRow, EventRow, GameRow, MoveRow, StoreModel, TournamentRow

_MOVE_INSERT = insert(StoreModel.metadata.tables["move"])
_GAME_INSERT = insert(StoreModel.metadata.tables["game"])
_EVENT_INSERT = insert(StoreModel.metadata.tables["event"])


class TournamentStore(RunStore):
    """A tournament database with the ORM's reads and writes besides `RunStore`'s. Open it with
    `TournamentStore.open`; close it (or use ``with``) when done."""

    def __init__(self, path: Path, connect: Connector) -> None:
        super().__init__(path, connect)
        self._reader, self._writer = orm_engines(path, connect)

    def close(self) -> None:
        super().close()
        self._reader.dispose()

    @contextmanager
    def _orm_write(self, what: str = "the change") -> Iterator[Session]:
        """A session whose work is committed as one transaction, or not at all.

        SQLite's failures (a full disk, a damaged page) become `StoreError` naming the file."""
        try:
            with Session(self._writer) as session, session.begin():
                yield session
        except SQLAlchemyError as exc:
            # The transaction was rolled back: nothing of it is stored. The driver's message says why
            # without the statement and its hundreds of parameters.
            reason = exc.orig if isinstance(exc, DBAPIError) else exc
            raise StoreError(f"{self.path}: {what} not stored: {reason}") from exc

    # --- games --------------------------------------------------------------------------------------

    def record_games(
        self, tournament_id: int, games: Sequence[tuple[ScheduledGame, GameRecord]]
    ) -> list[int]:
        """Store several games in one transaction (an import's batch): all of them, or none; return
        their row ids. Each is stored as `record_game` stores it."""
        for planned, record in games:
            check_fits(planned, record)
        what = f"{len(games)} game(s) of tournament {tournament_id}"
        with self._orm_write(what) as session:
            tournament = self._tournament_row(session, tournament_id)
            keys = [str(planned.key) for planned, _ in games]
            taken = session.exec(
                select(GameRow.game_key).where(
                    GameRow.tournament_id == tournament_id, col(GameRow.game_key).in_(keys)
                )
            ).first()
            if taken is None:
                first = self._next_revision(session, tournament_id)
                ids = _insert_new_games(session, tournament_id, games, first)
            else:  # some keys are stored already: each game as `record_game` would store it
                ids = [
                    self._store_game(session, tournament_id, planned, record, ()) for planned, record in games
                ]
            tournament.updated_at = now().isoformat()
            return ids

    def _store_game(
        self,
        session: Session,
        tournament_id: int,
        planned: ScheduledGame,
        record: GameRecord,
        events: Sequence[Event],
    ) -> int:
        columns = game_columns(tournament_id, planned, record)
        columns["revision"] = self._next_revision(session, tournament_id)
        key = columns["game_key"]
        existing = session.exec(
            select(GameRow).where(GameRow.tournament_id == tournament_id, GameRow.game_key == key)
        ).first()
        if existing is None:
            game = GameRow(**columns)
            session.add(game)
            session.flush()
        else:
            if existing.finished:
                raise GameAlreadyRecordedError(self.path, tournament_id, key)
            game = existing
            for name, value in columns.items():
                setattr(game, name, value)
            session.execute(delete(MoveRow).where(col(MoveRow.game_id) == game.id))
            session.flush()
        assert game.id is not None
        if record.moves:
            # Core executemany: the ORM's per-row bookkeeping would cost more than the insert itself.
            connection = session.connection()
            connection.execute(_MOVE_INSERT, [move_columns(game.id, move) for move in record.moves])
        if events:
            session.connection().execute(
                _EVENT_INSERT, [{**event_row(tournament_id, e), "game_id": game.id} for e in events]
            )
        return game.id

    def add_players(self, tournament_id: int, names: Sequence[str]) -> None:
        """Seat more players after the last one (an import meeting new names as it reads)."""
        with self._orm_write(f"players of tournament {tournament_id}") as session:
            self._tournament_row(session, tournament_id)
            seated = session.exec(
                select(EngineRow.name).where(EngineRow.tournament_id == tournament_id)
            ).all()
            seat = len(seated)
            for name in names:
                if name in seated:
                    continue
                seat += 1
                session.add(EngineRow(tournament_id=tournament_id, seat=seat, name=name, engine_id=None))

    def set_labels(self, tournament_id: int, *, variant: str, time_control: str) -> None:
        """Name a tournament's variant and time control again (an import, once it has read every game)."""
        with self._orm_write(f"tournament {tournament_id}") as session:
            row = self._tournament_row(session, tournament_id)
            row.variant = variant
            row.time_control = time_control

    def _next_revision(self, session: Session, tournament_id: int) -> int:
        highest = session.execute(
            sql_select(func.max(col(GameRow.revision))).where(col(GameRow.tournament_id) == tournament_id)
        ).scalar()
        return int(highest or 0) + 1

    def revision(self, tournament_id: int) -> int:
        """The tournament's highest game revision: every write of a game raises it by one."""
        with Session(self._reader) as session:
            self._tournament_row(session, tournament_id)
            return self._next_revision(session, tournament_id) - 1

    # --- events -------------------------------------------------------------------------------------

    def events(self, tournament_id: int, game_key: GameKey | None = None) -> list[StoredEvent]:
        """The events of a tournament (of one game when `game_key` is given), in the order stored."""
        with Session(self._reader) as session:
            self._tournament_row(session, tournament_id)
            query = (
                select(EventRow, GameRow.round, GameRow.board, GameRow.game_number)
                .join(GameRow, col(EventRow.game_id) == col(GameRow.id), isouter=True)
                .where(EventRow.tournament_id == tournament_id)
            )
            if game_key is not None:
                query = query.where(GameRow.game_key == str(game_key))
            result: list[StoredEvent] = []
            for row, round_, board, number in session.exec(query.order_by(col(EventRow.id))).all():
                assert row.id is not None
                key = None if round_ is None else GameKey(round=round_, board=board, game=number)
                event = Event(
                    kind=EventKind(row.kind),
                    message=row.message,
                    engine=row.engine,
                    at=datetime.fromisoformat(row.at),
                )
                result.append(StoredEvent(id=row.id, tournament_id=tournament_id, game_key=key, event=event))
            return result

    # --- helpers ------------------------------------------------------------------------------------

    def _tournament_row(self, session: Session, tournament_id: int) -> TournamentRow:
        row = session.get(TournamentRow, tournament_id)
        if row is None:
            raise UnknownTournamentError(self.path, tournament_id)
        return row


def _insert_new_games(
    session: Session,
    tournament_id: int,
    games: Sequence[tuple[ScheduledGame, GameRecord]],
    first_revision: int,
) -> list[int]:
    """Insert games whose keys are not stored yet, with one statement for all their moves (the ORM's
    bookkeeping of each game row would cost more than the rows themselves); their revisions follow on
    from `first_revision` in the order given."""
    connection = session.connection()
    ids: list[int] = []
    moves: list[dict[str, Any]] = []
    for offset, (planned, record) in enumerate(games):
        columns = game_columns(tournament_id, planned, record)
        columns["revision"] = first_revision + offset
        inserted = connection.execute(_GAME_INSERT, columns)
        key = inserted.inserted_primary_key
        assert key is not None
        game_id = int(key[0])
        ids.append(game_id)
        moves.extend(move_columns(game_id, move) for move in record.moves)
    if moves:
        connection.execute(_MOVE_INSERT, moves)
    return ids
