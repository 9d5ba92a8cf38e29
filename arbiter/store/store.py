"""The tournament store: one SQLite file holding tournaments, their players, games, moves and events.

The runner's side of it::

    with TournamentStore.open(path) as store:
        tid = store.create_tournament(name=..., variant=..., format=..., time_control=...,
                                      players=[PlayerEntry("Greedy", "greedy"), ...], config=config)
        done = store.finished_keys(tid)              # resume: skip these planned games
        store.set_engine_identity(tid, "Greedy", identity)
        store.record_game(tid, planned, record, events)   # one transaction per game
        store.set_status(tid, TournamentStatus.FINISHED)

A game is stored under its planned game's key, at most once per tournament. A game recorded without
a result (abandoned when the run was stopped) does not count as finished; recording the same key again
replaces it in place, keeping its row id and the events already attached to it.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from pydantic import BaseModel
from sqlalchemy import Engine, delete, func, insert
from sqlalchemy import select as sql_select
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlmodel import Session, col, select

from arbiter.engines.params import EngineIdentity, ParamDecl
from arbiter.referee.record import GameRecord, Termination, Winner
from arbiter.store.codec import (
    MoveColumns,
    dump_json,
    game_columns,
    game_key_of,
    load_dict,
    load_list,
    move_columns,
    record_from_rows,
)
from arbiter.store.database import open_engines
from arbiter.store.errors import (
    GameAlreadyRecordedError,
    GameMismatchError,
    StoreError,
    UnknownTournamentError,
)
from arbiter.store.events import Event, EventKind, StoredEvent, now
from arbiter.store.fast_write import event_row, insert_new_game
from arbiter.store.models import (
    GameLine,
    PlayerEntry,
    ResultCounts,
    StoredEngine,
    StoredGame,
    TournamentInfo,
    TournamentStatus,
)
from arbiter.store.records import (
    PIECES,
    STANDARD,
    FinishedGame,
    GameKey,
    Outcome,
    ScheduledGame,
    ScoringScheme,
)
from arbiter.store.tables import EngineRow, EventRow, GameRow, MoveRow, StoreModel, TournamentRow

_OUTCOMES = {
    Winner.WHITE.value: Outcome.WHITE_WINS,
    Winner.BLACK.value: Outcome.BLACK_WINS,
    Winner.DRAW.value: Outcome.DRAW,
}

_MOVE_INSERT = insert(StoreModel.metadata.tables["move"])
_GAME_INSERT = insert(StoreModel.metadata.tables["game"])
_EVENT_INSERT = insert(StoreModel.metadata.tables["event"])


class TournamentStore:
    """A tournament database. Open it with `TournamentStore.open`; close it (or use ``with``) when done."""

    def __init__(self, path: Path, reader: Engine, writer: Engine) -> None:
        self.path = path
        self._reader = reader
        self._writer = writer

    @classmethod
    def open(
        cls, path: Path | str, *, create: bool = True, read_only: bool = False, check: bool = True
    ) -> TournamentStore:
        """Open the database at `path`, creating it when missing and `create` is set.

        Raises `StoreNotFoundError` for a missing file (without `create`), `StoreVersionError` for a
        file that is not an arbiter database of this schema version, `StoreDamagedError` when SQLite
        finds damaged pages, and (unless `read_only`) `StoreReadOnlyError` for a file it cannot write.
        `check` False skips the damage check (a reader opening the file again after every game).
        """
        path = Path(path)
        reader, writer = open_engines(path, create=create and not read_only, read_only=read_only, check=check)
        return cls(path, reader, writer)

    def close(self) -> None:
        self._reader.dispose()

    def __enter__(self) -> TournamentStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    @contextmanager
    def _write(self, what: str = "the change") -> Iterator[Session]:
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

    # --- tournaments --------------------------------------------------------------------------------

    def create_tournament(
        self,
        *,
        name: str,
        variant: str,
        format: str,
        time_control: str,
        players: Sequence[PlayerEntry],
        config: BaseModel | str,
        scoring: ScoringScheme = STANDARD,
        status: TournamentStatus = TournamentStatus.CREATED,
    ) -> int:
        """Store a new tournament with its players (in seat order) and return its id.

        `config` is the validated configuration, a pydantic model or its JSON text.
        """
        config_json = config.model_dump_json() if isinstance(config, BaseModel) else config
        _check_config_json(self.path, name, config_json)
        _check_players(self.path, name, players)
        moment = now().isoformat()
        with self._write() as session:
            row = TournamentRow(
                name=name,
                variant=variant,
                format=str(format),
                time_control=time_control,
                scoring=scoring.name,
                points_win=scoring.win,
                points_draw=scoring.draw,
                points_loss=scoring.loss,
                config=config_json,
                status=status.value,
                created_at=moment,
                updated_at=moment,
            )
            session.add(row)
            session.flush()
            assert row.id is not None
            for seat, player in enumerate(players, start=1):
                session.add(
                    EngineRow(tournament_id=row.id, seat=seat, name=player.name, engine_id=player.engine_id)
                )
            return row.id

    def set_status(self, tournament_id: int, status: TournamentStatus) -> None:
        with self._write() as session:
            row = self._tournament_row(session, tournament_id)
            row.status = status.value
            row.updated_at = now().isoformat()

    def tournaments(self) -> list[TournamentInfo]:
        """Every tournament of the database, oldest first."""
        with Session(self._reader) as session:
            counts = self._game_counts(session, None)
            rows = session.exec(select(TournamentRow).order_by(col(TournamentRow.id))).all()
            return [_tournament_info(row, counts) for row in rows]

    def tournament(self, tournament_id: int) -> TournamentInfo:
        with Session(self._reader) as session:
            row = self._tournament_row(session, tournament_id)
            return _tournament_info(row, self._game_counts(session, tournament_id))

    def find_tournament(self, reference: str | int | None = None) -> TournamentInfo:
        """A tournament by id or name (the latest of that name); without a reference, the latest one."""
        infos = self.tournaments()
        if reference is None:
            if not infos:
                raise StoreError(f"{self.path}: the database holds no tournament yet")
            return infos[-1]
        text = str(reference).strip()
        for info in reversed(infos):
            if (text.isdigit() and info.id == int(text)) or info.name == text:
                return info
        raise UnknownTournamentError(self.path, reference)

    # --- engines ------------------------------------------------------------------------------------

    def set_engine_identity(self, tournament_id: int, name: str, identity: EngineIdentity) -> None:
        """Keep what player `name`'s engine declared when it started (Hub ``id`` and ``param`` lines)."""
        with self._write() as session:
            row = session.exec(
                select(EngineRow).where(EngineRow.tournament_id == tournament_id, EngineRow.name == name)
            ).first()
            if row is None:
                self._tournament_row(session, tournament_id)
                raise StoreError(f"{self.path}: tournament {tournament_id} has no player {name!r}")
            row.id_name = identity.name
            row.id_version = identity.version
            row.id_author = identity.author
            row.id_country = identity.country
            row.id_extra = dump_json(identity.extra)
            row.params = json.dumps([dataclasses.asdict(param) for param in identity.params.values()])
            row.identified_at = now().isoformat()

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

    def record_game(
        self, tournament_id: int, planned: ScheduledGame, record: GameRecord, events: Sequence[Event] = ()
    ) -> int:
        """Store a game with all its moves and events in one transaction; return the game's row id.

        A finished game is stored once: recording a key that already has a finished game raises
        `GameAlreadyRecordedError` and changes nothing. A game recorded without a result is replaced
        by the next record of the same key. When SQLite fails part way (a full disk, say), the whole
        transaction is rolled back and `StoreError` says which game was not stored.
        """
        _check_fits(planned, record)
        key = str(planned.key)
        what = f"game {key} of tournament {tournament_id}"
        with self._write(what) as session:
            connection = session.connection().connection.dbapi_connection
            assert isinstance(connection, sqlite3.Connection)
            try:
                rows = [event_row(tournament_id, event) for event in events]
                game_id = insert_new_game(connection, tournament_id, planned, record, rows)
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: {what} not stored: {exc}") from exc
            if game_id is not None:
                return game_id
            tournament = self._tournament_row(session, tournament_id)
            game_id = self._store_game(session, tournament_id, planned, record, events)
            tournament.updated_at = now().isoformat()
            return game_id

    def record_games(
        self, tournament_id: int, games: Sequence[tuple[ScheduledGame, GameRecord]]
    ) -> list[int]:
        """Store several games in one transaction (an import's batch): all of them, or none; return
        their row ids. Each is stored as `record_game` stores it."""
        for planned, record in games:
            _check_fits(planned, record)
        what = f"{len(games)} game(s) of tournament {tournament_id}"
        with self._write(what) as session:
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
                _EVENT_INSERT, [_event_columns(tournament_id, game.id, e) for e in events]
            )
        return game.id

    def add_players(self, tournament_id: int, names: Sequence[str]) -> None:
        """Seat more players after the last one (an import meeting new names as it reads)."""
        with self._write(f"players of tournament {tournament_id}") as session:
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
        with self._write(f"tournament {tournament_id}") as session:
            row = self._tournament_row(session, tournament_id)
            row.variant = variant
            row.time_control = time_control

    def _next_revision(self, session: Session, tournament_id: int) -> int:
        highest = session.execute(
            sql_select(func.max(col(GameRow.revision))).where(col(GameRow.tournament_id) == tournament_id)
        ).scalar()
        return int(highest or 0) + 1

    def finished_keys(self, tournament_id: int) -> set[GameKey]:
        """The keys of the games that have a result: what a resumed run must not play again."""
        return self._keys(tournament_id, finished=True)

    def unfinished_keys(self, tournament_id: int) -> set[GameKey]:
        """The keys of games recorded without a result (abandoned); a resumed run plays them again."""
        return self._keys(tournament_id, finished=False)

    def _keys(self, tournament_id: int, *, finished: bool) -> set[GameKey]:
        with Session(self._reader) as session:
            self._tournament_row(session, tournament_id)
            rows = session.exec(
                select(GameRow.round, GameRow.board, GameRow.game_number).where(
                    GameRow.tournament_id == tournament_id, GameRow.finished == finished
                )
            ).all()
            return {GameKey(round=r, board=b, game=g) for r, b, g in rows}

    def games(
        self, tournament_id: int, *, finished_only: bool = False, keys: Iterable[GameKey] | None = None
    ) -> list[StoredGame]:
        """A tournament's games with their moves, in schedule order (round, board, game).

        `keys` limits the result to those games; `finished_only` leaves out games without a result.
        """
        wanted = None if keys is None else {str(key) for key in keys}
        with Session(self._reader) as session:
            self._tournament_row(session, tournament_id)
            query = select(GameRow).where(GameRow.tournament_id == tournament_id)
            if finished_only:
                query = query.where(col(GameRow.finished).is_(True))
            if wanted is not None:
                query = query.where(col(GameRow.game_key).in_(wanted))
            rows = session.exec(
                query.order_by(col(GameRow.round), col(GameRow.board), col(GameRow.game_number))
            ).all()
            moves = self._moves_of(session, [row.id for row in rows if row.id is not None])
            return [_stored_game(row, moves.get(row.id or 0, [])) for row in rows]

    def revision(self, tournament_id: int) -> int:
        """The tournament's highest game revision: every write of a game raises it by one."""
        with Session(self._reader) as session:
            self._tournament_row(session, tournament_id)
            return self._next_revision(session, tournament_id) - 1

    def games_since(self, tournament_id: int, revision: int = 0, *, batch: int = 50) -> Iterator[StoredGame]:
        """The games written after `revision`, with their moves, in the order they were written; read
        `batch` games at a time, so that a whole event goes through in little memory."""
        last = revision
        while True:
            with Session(self._reader) as session:
                self._tournament_row(session, tournament_id)
                rows = session.exec(
                    select(GameRow)
                    .where(GameRow.tournament_id == tournament_id, col(GameRow.revision) > last)
                    .order_by(col(GameRow.revision))
                    .limit(batch)
                ).all()
                moves = self._moves_of(session, [row.id for row in rows if row.id is not None])
                found = [_stored_game(row, moves.get(row.id or 0, [])) for row in rows]
            yield from found
            if len(found) < batch:
                return
            last = found[-1].revision

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

    def game(self, tournament_id: int, key: GameKey) -> StoredGame | None:
        """The game stored under `key`, or None."""
        found = self.games(tournament_id, keys=[key])
        return found[0] if found else None

    def _moves_of(self, session: Session, game_ids: list[int]) -> dict[int, list[MoveColumns]]:
        moves: dict[int, list[MoveColumns]] = {}
        # Read with plain SQL (rows named by column, as the ORM's would be): a game has a hundred
        # moves, and making an ORM object of each costs more than the rest of reading the game.
        connection = session.connection()
        # In slices, to stay below SQLite's limit on bound parameters.
        for start in range(0, len(game_ids), 500):
            chunk = game_ids[start : start + 500]
            query = _MOVES_QUERY.format(marks=", ".join("?" * len(chunk)))
            for row in connection.exec_driver_sql(query, tuple(chunk)).fetchall():
                moves.setdefault(row.game_id, []).append(row)
        return moves

    # --- events -------------------------------------------------------------------------------------

    def record_event(self, tournament_id: int, event: Event, game_key: GameKey | None = None) -> int:
        """Store an event now, of the tournament as a whole or of a game already stored."""
        with self._write() as session:
            self._tournament_row(session, tournament_id)
            game_id = None
            if game_key is not None:
                game_id = session.exec(
                    select(GameRow.id).where(
                        GameRow.tournament_id == tournament_id, GameRow.game_key == str(game_key)
                    )
                ).first()
                if game_id is None:
                    raise StoreError(f"{self.path}: tournament {tournament_id} has no stored game {game_key}")
            row = EventRow(**_event_columns(tournament_id, game_id, event))
            session.add(row)
            session.flush()
            assert row.id is not None
            return row.id

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

    def event_counts(self, tournament_id: int) -> dict[EventKind, int]:
        """How many events of each kind the tournament has (faults, warnings, ...), counted in SQL."""
        with Session(self._reader) as session:
            self._tournament_row(session, tournament_id)
            rows = session.exec(
                select(EventRow.kind, func.count())
                .where(EventRow.tournament_id == tournament_id)
                .group_by(col(EventRow.kind))
            ).all()
            return {EventKind(kind): count for kind, count in rows}

    # --- results ------------------------------------------------------------------------------------

    def termination_counts(self, tournament_id: int) -> dict[Termination, int]:
        """How many finished games ended each way (no legal move, time forfeit, crash, ...)."""
        with Session(self._reader) as session:
            self._tournament_row(session, tournament_id)
            rows = session.exec(
                select(GameRow.termination, func.count())
                .where(GameRow.tournament_id == tournament_id, col(GameRow.finished).is_(True))
                .group_by(col(GameRow.termination))
            ).all()
            return {Termination(termination): count for termination, count in rows if termination is not None}

    def opening_names(self, tournament_id: int) -> dict[str, str]:
        """The name of each opening the tournament's stored games started from, by opening id."""
        with Session(self._reader) as session:
            self._tournament_row(session, tournament_id)
            rows = session.exec(
                select(GameRow.opening_id, GameRow.opening)
                .where(GameRow.tournament_id == tournament_id, col(GameRow.opening_id).is_not(None))
                .distinct()
            ).all()
        names: dict[str, str] = {}
        for opening_id, opening in rows:
            if opening_id is not None and opening_id not in names:
                names[opening_id] = str(load_dict(opening).get("name") or "")
        return names

    def finished_results(self, tournament_id: int) -> list[FinishedGame]:
        """One result per finished game, in schedule order, with its opening and game pair.

        Reads only the game table (never the moves), for the standings and statistics.
        """
        with Session(self._reader) as session:
            self._tournament_row(session, tournament_id)
            columns = (GameRow.white, GameRow.black, GameRow.winner, GameRow.opening_id, GameRow.pair_index)
            rows = session.execute(
                sql_select(*(col(column) for column in columns))
                .where(col(GameRow.tournament_id) == tournament_id, col(GameRow.finished).is_(True))
                .order_by(col(GameRow.round), col(GameRow.board), col(GameRow.game_number))
            ).all()
            return [
                FinishedGame(white, black, _OUTCOMES[winner], opening_id=opening_id, pair_index=pair_index)
                for white, black, winner, opening_id, pair_index in rows
            ]

    def result_counts(self, tournament_id: int) -> ResultCounts:
        """The finished games counted in SQL by players and result, with the seated players.

        One read transaction, so the counts in the tournament's info and the games agree while a
        runner writes.
        """
        with Session(self._reader) as session:
            row = self._tournament_row(session, tournament_id)
            info = _tournament_info(row, self._game_counts(session, tournament_id))
            grouped = session.exec(
                select(GameRow.white, GameRow.black, GameRow.winner, func.count())
                .where(col(GameRow.tournament_id) == tournament_id, col(GameRow.finished).is_(True))
                .group_by(col(GameRow.white), col(GameRow.black), col(GameRow.winner))
            ).all()
            seated = session.exec(
                select(EngineRow.name)
                .where(EngineRow.tournament_id == tournament_id)
                .order_by(col(EngineRow.seat))
            ).all()
        counts = [(white, black, _OUTCOMES[winner], count) for white, black, winner, count in grouped]
        return ResultCounts(tournament=info, players=tuple(seated), counts=counts)

    # --- helpers ------------------------------------------------------------------------------------

    def _tournament_row(self, session: Session, tournament_id: int) -> TournamentRow:
        row = session.get(TournamentRow, tournament_id)
        if row is None:
            raise UnknownTournamentError(self.path, tournament_id)
        return row

    def _game_counts(self, session: Session, tournament_id: int | None) -> dict[tuple[int, bool], int]:
        query = select(GameRow.tournament_id, GameRow.finished, func.count()).group_by(
            col(GameRow.tournament_id), col(GameRow.finished)
        )
        if tournament_id is not None:
            query = query.where(GameRow.tournament_id == tournament_id)
        return {(tid, finished): count for tid, finished, count in session.exec(query).all()}


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


def _check_fits(planned: ScheduledGame, record: GameRecord) -> None:
    for colour, scheduled, played in (
        ("White", planned.white, record.white.name),
        ("Black", planned.black, record.black.name),
    ):
        if scheduled != played:
            raise GameMismatchError(
                f"game {planned.key}: the schedule has {scheduled!r} as {colour}, the record {played!r}"
            )


def _check_config_json(path: Path, name: str, config_json: str) -> None:
    try:
        data = json.loads(config_json)
    except json.JSONDecodeError as exc:
        raise StoreError(f"{path}: tournament {name!r}: the configuration is not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise StoreError(f"{path}: tournament {name!r}: the configuration must be a JSON object")


def _check_players(path: Path, name: str, players: Sequence[PlayerEntry]) -> None:
    seen: set[str] = set()
    for seat, player in enumerate(players, start=1):
        if not player.name.strip():
            raise StoreError(f"{path}: tournament {name!r}: player {seat} has an empty name")
        if player.name in seen:
            raise StoreError(f"{path}: tournament {name!r}: player {player.name!r} is listed twice")
        seen.add(player.name)


def _tournament_info(row: TournamentRow, counts: dict[tuple[int, bool], int]) -> TournamentInfo:
    assert row.id is not None
    return TournamentInfo(
        id=row.id,
        name=row.name,
        variant=row.variant,
        format=row.format,
        time_control=row.time_control,
        scoring=PIECES
        if row.scoring == PIECES.name
        else ScoringScheme(name=row.scoring, win=row.points_win, draw=row.points_draw, loss=row.points_loss),
        config_json=row.config,
        status=TournamentStatus(row.status),
        created_at=datetime.fromisoformat(row.created_at),
        updated_at=datetime.fromisoformat(row.updated_at),
        finished_games=counts.get((row.id, True), 0),
        unfinished_games=counts.get((row.id, False), 0),
    )


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
_MOVES_QUERY = (
    "SELECT game_id, ply, side, text, hub, from_opening, elapsed, clock, warnings, draw_offered, "
    "has_info, depth, score, nodes, info_time, nps, pv, info_extra "
    "FROM move WHERE game_id IN ({marks}) ORDER BY game_id, ply"
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


def _stored_game(row: GameRow, moves: list[MoveColumns]) -> StoredGame:
    assert row.id is not None
    return StoredGame(
        id=row.id,
        key=game_key_of(row),
        cycle=row.cycle,
        pair_index=row.pair_index,
        opening_id=row.opening_id,
        opening_index=row.opening_index,
        record=record_from_rows(row, moves),
        revision=row.revision,
    )


def _event_columns(tournament_id: int, game_id: int | None, event: Event) -> dict[str, Any]:
    return {
        "tournament_id": tournament_id,
        "game_id": game_id,
        "engine": event.engine,
        "kind": event.kind.value,
        "message": event.message,
        "at": event.at.isoformat(),
    }
