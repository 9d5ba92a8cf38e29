"""The tournament store: one SQLite file holding tournaments, their players, games, moves and events.

The runner's side of it is `RunStore` (`arbiter.store.run_store`, sqlite3 alone)::

    with RunStore.open(path) as store:
        tid = store.create_tournament(name=..., variant=..., format=..., time_control=...,
                                      players=[PlayerEntry("Greedy", "greedy"), ...], config=config)
        done = store.finished_keys(tid)              # resume: skip these planned games
        store.set_engine_identity(tid, "Greedy", identity)
        store.record_game(tid, planned, record, events)   # one transaction per game
        store.set_status(tid, TournamentStatus.FINISHED)

`TournamentStore` is the same with the ORM's reads and writes added (whole events read in batches,
imports, the engines' identities, the events): what the reporting and PDN commands use.

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

from arbiter.engines.params import EngineIdentity, ParamDecl
from arbiter.referee.record import GameRecord, Winner
from arbiter.store.codec import (
    game_columns,
    load_dict,
    load_list,
    move_columns,
)
from arbiter.store.database import Connector
from arbiter.store.errors import GameAlreadyRecordedError, StoreError, UnknownTournamentError
from arbiter.store.events import Event, EventKind, StoredEvent, now
from arbiter.store.fast_write import event_row
from arbiter.store.models import GameLine, StoredEngine
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

    # --- engines ------------------------------------------------------------------------------------

    def engines(self, tournament_id: int) -> list[StoredEngine]:
        """The players of a tournament in seat order."""
        with Session(self._reader) as session:
            self._tournament_row(session, tournament_id)
            rows = session.exec(
                select(EngineRow)
                .where(EngineRow.tournament_id == tournament_id)
                .order_by(col(EngineRow.seat))
            ).all()
            return [_stored_engine(row) for row in rows]

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

    def game_lines(self, tournament_id: int, since_revision: int = 0, *, limit: int = -1) -> list[GameLine]:
        """The games written after `since_revision` (all of them by default; the first `limit` when
        it is not negative), without their moves, in the order they were written. Read with plain SQL:
        an event can hold 100,000 games."""
        with self._reader.connect() as connection:
            with Session(self._reader) as session:
                self._tournament_row(session, tournament_id)
            rows = connection.exec_driver_sql(
                _LINE_QUERY + " LIMIT ?", (tournament_id, since_revision, limit)
            ).fetchall()
        return [_game_line(row) for row in rows]

    def stream_game_lines(
        self, tournament_id: int, since_revision: int = 0, *, batch: int = 2000
    ) -> Iterator[GameLine]:
        """`game_lines`, read `batch` games at a time: a reader of a whole event holds one batch."""
        last = since_revision
        while True:
            found = self.game_lines(tournament_id, last, limit=batch)
            yield from found
            if len(found) < batch:
                return
            last = found[-1].revision

    def game_lines_of(self, tournament_id: int, keys: Sequence[str]) -> dict[str, GameLine]:
        """The stored games among `keys` (game keys as text), without their moves, by key."""
        found: dict[str, GameLine] = {}
        with self._reader.connect() as connection:
            with Session(self._reader) as session:
                self._tournament_row(session, tournament_id)
            # In slices, to stay below SQLite's limit on bound parameters.
            for start in range(0, len(keys), 500):
                chunk = list(keys[start : start + 500])
                query = _LINE_KEYS_QUERY.format(marks=", ".join("?" * len(chunk)))
                for row in connection.exec_driver_sql(query, (tournament_id, *chunk)).fetchall():
                    line = _game_line(row)
                    found[str(line.key)] = line
        return found

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


def _stored_engine(row: EngineRow) -> StoredEngine:
    identity = None
    if row.identified_at is not None:
        params = [_param_decl(data) for data in load_list(row.params)]
        identity = EngineIdentity(
            name=row.id_name or "",
            version=row.id_version or "",
            author=row.id_author or "",
            country=row.id_country or "",
            extra=load_dict(row.id_extra),
            params={param.name: param for param in params},
        )
    return StoredEngine(
        seat=row.seat,
        name=row.name,
        engine_id=row.engine_id,
        identity=identity,
        identified_at=None if row.identified_at is None else datetime.fromisoformat(row.identified_at),
    )


def _param_decl(data: dict[str, Any]) -> ParamDecl:
    return ParamDecl(
        name=data["name"],
        type=data["type"],
        default=data["default"],
        min=data["min"],
        max=data["max"],
        values=tuple(data["values"]),
    )


_LINE_QUERY = (
    "SELECT id, round, board, game_number, revision, cycle, pair_index, white, black, variant, winner, "
    "termination, reason, plies, started_at, ended_at, opening_id, opening, white_timed, black_timed, "
    "white_seconds, black_seconds, white_depths, black_depths, white_depth_sum, black_depth_sum "
    "FROM game WHERE tournament_id = ? AND revision > ? ORDER BY revision"
)
_LINE_KEYS_QUERY = _LINE_QUERY.split(" WHERE ")[0] + " WHERE tournament_id = ? AND game_key IN ({marks})"


def _game_line(row: Any) -> GameLine:
    (id_, round_, board, number, revision, cycle, pair_index, white, black, variant, winner) = row[:11]
    (termination, reason, plies, started_at, ended_at, opening_id, opening) = row[11:18]
    return GameLine(
        id=id_,
        key=GameKey(round=round_, board=board, game=number),
        revision=revision,
        cycle=cycle,
        pair_index=pair_index,
        white=white,
        black=black,
        variant=variant,
        winner=Winner(winner),
        termination=termination,
        reason=reason or "",
        plies=plies,
        started_at=datetime.fromisoformat(started_at),
        ended_at=None if ended_at is None else datetime.fromisoformat(ended_at),
        opening_id=opening_id,
        opening=opening,
        timed=(row[18], row[19]),
        seconds=(row[20], row[21]),
        depths=(row[22], row[23]),
        depth_sum=(row[24], row[25]),
    )
