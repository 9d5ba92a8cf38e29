"""The store as a running event uses it, on the standard library's sqlite3 alone.

Creating the tournament, storing each game as it ends, and reading back what the runner, the live view
and the final standings need is a handful of plain statements; loading SQLAlchemy and SQLModel for them
cost a running match most of its memory and start-up time. `TournamentStore` (`arbiter.store.store`)
is this class with the ORM's reads and writes added, for the commands that look into a stored event.

The tables are `arbiter.store.schema`'s. Each method is one transaction: writes start with
``BEGIN IMMEDIATE`` (two writers queue up instead of failing half way), reads with ``BEGIN`` (what one
read returns belongs together while a runner writes). Each thread takes a connection of its own from
a small pool: the runner writes in a thread of its own while its event loop reads.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sqlite3
import threading
from collections import namedtuple
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from arbiter.engines.params import EngineIdentity, ParamDecl
from arbiter.referee.record import GameRecord, Termination, Winner
from arbiter.store.codec import (
    MOVE_COLUMNS,
    MoveValues,
    dump_json,
    game_columns,
    game_key_of,
    load_dict,
    load_list,
    record_from_rows,
)
from arbiter.store.database import Connector, open_database
from arbiter.store.errors import (
    GameAlreadyRecordedError,
    GameMismatchError,
    StoreError,
    StoreMovedError,
    UnknownTournamentError,
)
from arbiter.store.events import SPRT_DECIDED, Event, EventKind, now
from arbiter.store.fast_write import event_row, insert_moves, insert_new_game, insert_row, insert_rows
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
from arbiter.store.run_lock import run_holds

if TYPE_CHECKING:
    from pydantic import BaseModel

_OUTCOMES = {
    Winner.WHITE.value: Outcome.WHITE_WINS,
    Winner.BLACK.value: Outcome.BLACK_WINS,
    Winner.DRAW.value: Outcome.DRAW,
}
# SQLite's limit on bound parameters is far above this; lists of ids or keys are read in slices.
_SLICE = 500


def _file_identity(path: Path) -> tuple[int, int] | None:
    """Which file is at `path` (its device and inode), None when there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _write_back(connection: sqlite3.Connection) -> None:
    """Every game still in the write-ahead log into the file this connection opened (where it went, if
    it was moved), the log left empty: SQLite keeps the log of a moved file when it closes, at the old
    path, where it would be read as part of whatever file is put there."""
    with contextlib.suppress(sqlite3.Error):
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")


class RunStore:
    """A tournament database. Open it with `open`; close it (or use ``with``) when done."""

    def __init__(self, path: Path, connect: Connector) -> None:
        self.path = path
        self._connect = connect
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._closed = False
        self._file = _file_identity(path)  # to see the file deleted or replaced under a run

    @classmethod
    def open(
        cls, path: Path | str, *, create: bool = True, read_only: bool = False, check: bool = True
    ) -> Self:
        """Open the database at `path`, creating it when missing and `create` is set.

        Raises `StoreNotFoundError` for a missing file (without `create`), `StoreVersionError` for a
        file that is not an arbiter database of this schema version, `StoreDamagedError` when SQLite
        finds damaged pages, and (unless `read_only`) `StoreReadOnlyError` for a file it cannot write.
        `check` False skips the damage check (a reader opening the file again after every game).
        """
        path = Path(path)
        connect = open_database(path, create=create and not read_only, read_only=read_only, check=check)
        return cls(path, connect)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    # --- connections and transactions --------------------------------------------------------------

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            connection = self._idle.pop() if self._idle else None
        if connection is None:
            connection = self._connect()
            connection.row_factory = _named_row
        try:
            yield connection
        finally:
            with self._lock:
                keep = not self._closed and not connection.in_transaction
                if keep:
                    self._idle.append(connection)
            if not keep:
                connection.close()

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """A connection inside one read transaction (SQLite's errors go up as they are)."""
        with self._connection() as connection:
            connection.execute("BEGIN")
            try:
                yield connection
            finally:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")

    @contextmanager
    def _write(self, what: str = "the change") -> Iterator[sqlite3.Connection]:
        """A connection whose work is committed as one transaction, or not at all.

        SQLite's failures (a full disk, a damaged page) become `StoreError` naming the file."""
        try:
            with self._connection() as connection:
                if self._file is not None and _file_identity(self.path) != self._file:
                    _write_back(connection)
                    raise StoreMovedError(self.path, what)
                connection.execute("BEGIN IMMEDIATE")
                try:
                    yield connection
                    connection.execute("COMMIT")
                except BaseException:
                    if connection.in_transaction:
                        connection.execute("ROLLBACK")
                    raise
        except sqlite3.Error as exc:
            # Rolled back: nothing of it is stored.
            raise StoreError(f"{self.path}: {what} not stored: {exc}") from exc

    def _check_tournament(self, connection: sqlite3.Connection, tournament_id: int) -> None:
        if connection.execute("SELECT 1 FROM tournament WHERE id = ?", (tournament_id,)).fetchone() is None:
            raise UnknownTournamentError(self.path, tournament_id)

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
        config_json = config if isinstance(config, str) else config.model_dump_json()
        _check_config_json(self.path, name, config_json)
        _check_players(self.path, name, players)
        moment = now().isoformat()
        row = {
            "name": name,
            "variant": variant,
            "format": str(format),
            "time_control": time_control,
            "scoring": scoring.name,
            "points_win": scoring.win,
            "points_draw": scoring.draw,
            "points_loss": scoring.loss,
            "config": config_json,
            "status": status.value,
            "created_at": moment,
            "updated_at": moment,
        }
        with self._write() as connection:
            tournament_id = insert_row(connection, "tournament", row)
            insert_rows(
                connection,
                "engine",
                [
                    {
                        "tournament_id": tournament_id,
                        "seat": seat,
                        "name": player.name,
                        "engine_id": player.engine_id,
                    }
                    for seat, player in enumerate(players, start=1)
                ],
            )
            return tournament_id

    def set_status(self, tournament_id: int, status: TournamentStatus) -> None:
        with self._write() as connection:
            changed = connection.execute(
                "UPDATE tournament SET status = ?, updated_at = ? WHERE id = ?",
                (status.value, now().isoformat(), tournament_id),
            ).rowcount
            if not changed:
                raise UnknownTournamentError(self.path, tournament_id)

    def set_running(self, tournament_id: int) -> None:
        """Mark the tournament running; any other one still marked running is stopped. The database is
        played by one run at a time (`RunLock`): theirs was killed before it could say so."""
        with self._write() as connection:
            stamp = now().isoformat()
            connection.execute(
                "UPDATE tournament SET status = ?, updated_at = ? WHERE status = ? AND id != ?",
                (TournamentStatus.STOPPED.value, stamp, TournamentStatus.RUNNING.value, tournament_id),
            )
            changed = connection.execute(
                "UPDATE tournament SET status = ?, updated_at = ? WHERE id = ?",
                (TournamentStatus.RUNNING.value, stamp, tournament_id),
            ).rowcount
            if not changed:
                raise UnknownTournamentError(self.path, tournament_id)

    def tournaments(self) -> list[TournamentInfo]:
        """Every tournament of the database, oldest first."""
        played = run_holds(self.path)
        with self._read() as connection:
            counts = _game_counts(connection, None)
            rows = connection.execute("SELECT * FROM tournament ORDER BY id").fetchall()
            return [_tournament_info(row, counts, played) for row in rows]

    def tournament(self, tournament_id: int) -> TournamentInfo:
        played = run_holds(self.path)
        with self._read() as connection:
            return self._info(connection, tournament_id, played)

    def _info(self, connection: sqlite3.Connection, tournament_id: int, played: bool) -> TournamentInfo:
        row = connection.execute("SELECT * FROM tournament WHERE id = ?", (tournament_id,)).fetchone()
        if row is None:
            raise UnknownTournamentError(self.path, tournament_id)
        return _tournament_info(row, _game_counts(connection, tournament_id), played)

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
        with self._write() as connection:
            changed = connection.execute(
                "UPDATE engine SET id_name = ?, id_version = ?, id_author = ?, id_country = ?, id_extra = ?, "
                "params = ?, identified_at = ? WHERE tournament_id = ? AND name = ?",
                (
                    identity.name,
                    identity.version,
                    identity.author,
                    identity.country,
                    dump_json(identity.extra),
                    json.dumps([dataclasses.asdict(param) for param in identity.params.values()]),
                    now().isoformat(),
                    tournament_id,
                    name,
                ),
            ).rowcount
            if not changed:
                self._check_tournament(connection, tournament_id)
                raise StoreError(f"{self.path}: tournament {tournament_id} has no player {name!r}")

    def engines(self, tournament_id: int) -> list[StoredEngine]:
        """The players of a tournament in seat order."""
        with self._read() as connection:
            self._check_tournament(connection, tournament_id)
            rows = connection.execute(
                "SELECT * FROM engine WHERE tournament_id = ? ORDER BY seat", (tournament_id,)
            ).fetchall()
        return [_stored_engine(row) for row in rows]

    # --- games --------------------------------------------------------------------------------------

    def record_game(
        self, tournament_id: int, planned: ScheduledGame, record: GameRecord, events: Sequence[Event] = ()
    ) -> int:
        """Store a game with all its moves and events in one transaction; return the game's row id.

        A finished game is stored once: recording a key that already has a finished game raises
        `GameAlreadyRecordedError` and changes nothing. A game recorded without a result is replaced
        by the next record of the same key, keeping its row id and the events already attached to it.
        When SQLite fails part way (a full disk, say), the whole transaction is rolled back and
        `StoreError` says which game was not stored.
        """
        check_fits(planned, record)
        key = str(planned.key)
        rows = [event_row(tournament_id, event) for event in events]
        with self._write(f"game {key} of tournament {tournament_id}") as connection:
            game_id = insert_new_game(connection, tournament_id, planned, record, rows)
            if game_id is not None:
                return game_id
            self._check_tournament(connection, tournament_id)
            return self._replace_game(connection, tournament_id, planned, record, rows)

    def _replace_game(
        self,
        connection: sqlite3.Connection,
        tournament_id: int,
        planned: ScheduledGame,
        record: GameRecord,
        events: Sequence[dict[str, Any]],
    ) -> int:
        """Store `record` over the unfinished game of its key (`insert_new_game` found the key taken)."""
        key = str(planned.key)
        existing = connection.execute(
            "SELECT id, finished FROM game WHERE tournament_id = ? AND game_key = ?", (tournament_id, key)
        ).fetchone()
        if existing.finished:
            raise GameAlreadyRecordedError(self.path, tournament_id, key)
        game_id: int = existing.id
        columns = game_columns(tournament_id, planned, record)
        (highest,) = connection.execute(
            "SELECT max(revision) FROM game WHERE tournament_id = ?", (tournament_id,)
        ).fetchone()
        columns["revision"] = int(highest or 0) + 1
        assignments = ", ".join(f"{name} = ?" for name in columns)
        connection.execute(f"UPDATE game SET {assignments} WHERE id = ?", (*columns.values(), game_id))
        connection.execute("DELETE FROM move WHERE game_id = ?", (game_id,))
        insert_moves(connection, game_id, record.moves)
        insert_rows(connection, "event", [{**event, "game_id": game_id} for event in events])
        connection.execute(
            "UPDATE tournament SET updated_at = ? WHERE id = ?", (now().isoformat(), tournament_id)
        )
        return game_id

    def finished_keys(self, tournament_id: int) -> set[GameKey]:
        """The keys of the games that have a result: what a resumed run must not play again."""
        return self._keys(tournament_id, finished=True)

    def unfinished_keys(self, tournament_id: int) -> set[GameKey]:
        """The keys of games recorded without a result (abandoned); a resumed run plays them again."""
        return self._keys(tournament_id, finished=False)

    def _keys(self, tournament_id: int, *, finished: bool) -> set[GameKey]:
        with self._read() as connection:
            self._check_tournament(connection, tournament_id)
            rows = connection.execute(
                "SELECT round, board, game_number FROM game WHERE tournament_id = ? AND finished = ?",
                (tournament_id, finished),
            ).fetchall()
            return {GameKey(round=r, board=b, game=g) for r, b, g in rows}

    def games(
        self, tournament_id: int, *, finished_only: bool = False, keys: Iterable[GameKey] | None = None
    ) -> list[StoredGame]:
        """A tournament's games with their moves, in schedule order (round, board, game).

        `keys` limits the result to those games; `finished_only` leaves out games without a result.
        """
        query = "SELECT * FROM game WHERE tournament_id = ?" + (" AND finished = 1" if finished_only else "")
        with self._read() as connection:
            self._check_tournament(connection, tournament_id)
            if keys is None:
                rows = connection.execute(query, (tournament_id,)).fetchall()
            else:
                wanted = sorted({str(key) for key in keys})
                rows = []
                for start in range(0, len(wanted), _SLICE):
                    chunk = wanted[start : start + _SLICE]
                    marks = ", ".join("?" * len(chunk))
                    rows += connection.execute(f"{query} AND game_key IN ({marks})", (tournament_id, *chunk))
            rows.sort(key=lambda row: (row.round, row.board, row.game_number))
            moves = _moves_of(connection, [row.id for row in rows])
            return [_stored_game(row, moves.get(row.id, [])) for row in rows]

    def games_since(self, tournament_id: int, revision: int = 0, *, batch: int = 50) -> Iterator[StoredGame]:
        """The games written after `revision`, with their moves, in the order they were written; read
        `batch` games at a time, so that a whole event goes through in little memory. Plain SQL: a site
        published as games finish reads every game this way, and ORM rows cost it more than the rest."""
        last = revision
        while True:
            with self._read() as connection:
                self._check_tournament(connection, tournament_id)
                rows = connection.execute(
                    "SELECT * FROM game WHERE tournament_id = ? AND revision > ? ORDER BY revision LIMIT ?",
                    (tournament_id, last, batch),
                ).fetchall()
                moves = _moves_of(connection, [row.id for row in rows])
                found = [_stored_game(row, moves.get(row.id, [])) for row in rows]
            yield from found
            if len(found) < batch:
                return
            last = found[-1].revision

    def game_lines(self, tournament_id: int, since_revision: int = 0, *, limit: int = -1) -> list[GameLine]:
        """The games written after `since_revision` (all of them by default; the first `limit` when
        it is not negative), without their moves, in the order they were written. An event can hold
        100,000 games."""
        with self._read() as connection:
            self._check_tournament(connection, tournament_id)
            rows = connection.execute(
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

    def key_written_last(self, tournament_id: int, up_to_revision: int) -> str | None:
        """The key (as text) of the game written last at or before `up_to_revision`, or None."""
        with self._read() as connection:
            self._check_tournament(connection, tournament_id)
            row = connection.execute(
                "SELECT round, board, game_number FROM game WHERE tournament_id = ? AND revision <= ? "
                "ORDER BY revision DESC LIMIT 1",
                (tournament_id, up_to_revision),
            ).fetchone()
        return None if row is None else str(GameKey(round=row[0], board=row[1], game=row[2]))

    def game_lines_of(self, tournament_id: int, keys: Sequence[str]) -> dict[str, GameLine]:
        """The stored games among `keys` (game keys as text), without their moves, by key."""
        found: dict[str, GameLine] = {}
        with self._read() as connection:
            self._check_tournament(connection, tournament_id)
            for start in range(0, len(keys), _SLICE):
                chunk = list(keys[start : start + _SLICE])
                query = _LINE_KEYS_QUERY.format(marks=", ".join("?" * len(chunk)))
                for row in connection.execute(query, (tournament_id, *chunk)).fetchall():
                    line = _game_line(row)
                    found[str(line.key)] = line
        return found

    def game(self, tournament_id: int, key: GameKey) -> StoredGame | None:
        """The game stored under `key`, or None."""
        found = self.games(tournament_id, keys=[key])
        return found[0] if found else None

    # --- events -------------------------------------------------------------------------------------

    def record_event(self, tournament_id: int, event: Event, game_key: GameKey | None = None) -> int:
        """Store an event now, of the tournament as a whole or of a game already stored."""
        with self._write() as connection:
            self._check_tournament(connection, tournament_id)
            game_id = None
            if game_key is not None:
                found = connection.execute(
                    "SELECT id FROM game WHERE tournament_id = ? AND game_key = ?",
                    (tournament_id, str(game_key)),
                ).fetchone()
                if found is None:
                    raise StoreError(f"{self.path}: tournament {tournament_id} has no stored game {game_key}")
                game_id = found.id
            return insert_row(connection, "event", {**event_row(tournament_id, event), "game_id": game_id})

    def record_sprt_decision(self, tournament_id: int, message: str) -> None:
        """Store the note that the match's SPRT has decided (`message` begins with `SPRT_DECIDED`),
        with the finished game stored last: the games the test counted are those stored up to it,
        whatever games running then store after it."""
        if not message.startswith(SPRT_DECIDED):
            raise ValueError(f"an SPRT decision's note begins with {SPRT_DECIDED!r}, got {message!r}")
        with self._write() as connection:
            self._check_tournament(connection, tournament_id)
            last = connection.execute(
                "SELECT id FROM game WHERE tournament_id = ? AND finished = 1 ORDER BY revision DESC LIMIT 1",
                (tournament_id,),
            ).fetchone()
            if last is None:
                raise StoreError(f"{self.path}: tournament {tournament_id} has no finished game to decide on")
            row = event_row(tournament_id, Event(EventKind.NOTE, message))
            insert_row(connection, "event", {**row, "game_id": last.id})

    def sprt_decision_revision(self, tournament_id: int) -> int | None:
        """The revision of the game stored with the note that the match's SPRT decided (the first, if
        there were more); None when it has not decided. The test counted the finished games stored up
        to that revision."""
        with self._read() as connection:
            self._check_tournament(connection, tournament_id)
            (revision,) = connection.execute(
                "SELECT min(game.revision) FROM event JOIN game ON game.id = event.game_id "
                "WHERE event.tournament_id = ? AND event.kind = ? AND substr(event.message, 1, ?) = ?",
                (tournament_id, EventKind.NOTE.value, len(SPRT_DECIDED), SPRT_DECIDED),
            ).fetchone()
        return None if revision is None else int(revision)

    def event_counts(self, tournament_id: int) -> dict[EventKind, int]:
        """How many events of each kind the tournament has (faults, warnings, ...), counted in SQL."""
        with self._read() as connection:
            self._check_tournament(connection, tournament_id)
            rows = connection.execute(
                "SELECT kind, count(*) FROM event WHERE tournament_id = ? GROUP BY kind", (tournament_id,)
            ).fetchall()
            return {EventKind(kind): count for kind, count in rows}

    # --- results ------------------------------------------------------------------------------------

    def termination_counts(self, tournament_id: int) -> dict[Termination, int]:
        """How many finished games ended each way (no legal move, time forfeit, crash, ...)."""
        with self._read() as connection:
            self._check_tournament(connection, tournament_id)
            rows = connection.execute(
                "SELECT termination, count(*) FROM game WHERE tournament_id = ? AND finished = 1 "
                "GROUP BY termination",
                (tournament_id,),
            ).fetchall()
            return {Termination(termination): count for termination, count in rows if termination is not None}

    def game_tags(self, tournament_id: int) -> list[dict[str, str]]:
        """Each stored game's tags (an imported game's are its file's), without reading its moves."""
        with self._read() as connection:
            self._check_tournament(connection, tournament_id)
            rows = connection.execute(
                "SELECT tags FROM game WHERE tournament_id = ? AND tags IS NOT NULL", (tournament_id,)
            ).fetchall()
        return [load_dict(tags) for (tags,) in rows]

    def opening_names(self, tournament_id: int) -> dict[str, str]:
        """The name of each opening the tournament's stored games started from, by opening id."""
        with self._read() as connection:
            self._check_tournament(connection, tournament_id)
            rows = connection.execute(
                "SELECT DISTINCT opening_id, opening FROM game "
                "WHERE tournament_id = ? AND opening_id IS NOT NULL",
                (tournament_id,),
            ).fetchall()
        names: dict[str, str] = {}
        for opening_id, opening in rows:
            if opening_id not in names:
                names[opening_id] = str(load_dict(opening).get("name") or "")
        return names

    def finished_results(self, tournament_id: int, up_to_revision: int | None = None) -> list[FinishedGame]:
        """One result per finished game, in schedule order, with its opening and game pair; only the
        games stored up to revision `up_to_revision`, when given.

        Reads only the game table (never the moves), for the standings and statistics.
        """
        last = "" if up_to_revision is None else " AND revision <= ?"
        with self._read() as connection:
            self._check_tournament(connection, tournament_id)
            rows = connection.execute(
                "SELECT white, black, winner, opening_id, pair_index FROM game "
                f"WHERE tournament_id = ? AND finished = 1{last} ORDER BY round, board, game_number",
                (tournament_id,) if up_to_revision is None else (tournament_id, up_to_revision),
            ).fetchall()
        return [
            FinishedGame(white, black, _OUTCOMES[winner], opening_id=opening_id, pair_index=pair_index)
            for white, black, winner, opening_id, pair_index in rows
        ]

    def result_counts(self, tournament_id: int) -> ResultCounts:
        """The finished games counted in SQL by players and result, with the seated players.

        One read transaction, so the counts in the tournament's info and the games agree while a
        runner writes.
        """
        played = run_holds(self.path)
        with self._read() as connection:
            info = self._info(connection, tournament_id, played)
            grouped = connection.execute(
                "SELECT white, black, winner, count(*) FROM game WHERE tournament_id = ? AND finished = 1 "
                "GROUP BY white, black, winner",
                (tournament_id,),
            ).fetchall()
            seated = connection.execute(
                "SELECT name FROM engine WHERE tournament_id = ? ORDER BY seat", (tournament_id,)
            ).fetchall()
        counts = [(white, black, _OUTCOMES[winner], count) for white, black, winner, count in grouped]
        return ResultCounts(tournament=info, players=tuple(name for (name,) in seated), counts=counts)


# --- rows ---------------------------------------------------------------------------------------------

_ROW_TYPES: dict[tuple[str, ...], type[tuple[Any, ...]]] = {}


def _named_row(cursor: sqlite3.Cursor, values: tuple[Any, ...]) -> Any:
    """A row whose columns are read by name as attributes (as the ORM's rows are) or unpacked."""
    names = tuple(column[0] for column in cursor.description)
    kind = _ROW_TYPES.get(names)
    if kind is None:
        kind = _ROW_TYPES[names] = namedtuple("Row", names, rename=True)  # type: ignore[misc]
    return kind(*values)


_MOVES_QUERY = (
    f"SELECT game_id, {', '.join(MOVE_COLUMNS)} FROM move WHERE game_id IN ({{marks}}) ORDER BY game_id, ply"
)


def _moves_of(connection: sqlite3.Connection, game_ids: list[int]) -> dict[int, list[MoveValues]]:
    """Each game's move rows, as plain tuples (`MOVE_COLUMNS`): a game page reads every move of every
    game, and a named row a move cost a fifth of reading them."""
    moves: dict[int, list[MoveValues]] = {}
    cursor = connection.cursor()
    cursor.row_factory = None
    for start in range(0, len(game_ids), _SLICE):
        chunk = game_ids[start : start + _SLICE]
        for row in cursor.execute(_MOVES_QUERY.format(marks=", ".join("?" * len(chunk))), chunk):
            moves.setdefault(row[0], []).append(row[1:])
    return moves


def _stored_game(row: Any, moves: list[MoveValues]) -> StoredGame:
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


def _game_counts(connection: sqlite3.Connection, tournament_id: int | None) -> dict[tuple[int, bool], int]:
    query = "SELECT tournament_id, finished, count(*) FROM game"
    if tournament_id is None:
        rows = connection.execute(query + " GROUP BY tournament_id, finished").fetchall()
    else:
        where = " WHERE tournament_id = ? GROUP BY finished"
        rows = connection.execute(query + where, (tournament_id,)).fetchall()
    return {(tid, bool(finished)): count for tid, finished, count in rows}


def _tournament_info(row: Any, counts: dict[tuple[int, bool], int], played: bool) -> TournamentInfo:
    """The tournament of `row`; `played`: whether a run holds the database now (asked before the
    read, so that a run ending meanwhile is read with the status it left)."""
    status = TournamentStatus(row.status)
    if status is TournamentStatus.RUNNING and not played:
        status = TournamentStatus.STOPPED  # its run was killed before it could say so
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
        status=status,
        created_at=datetime.fromisoformat(row.created_at),
        updated_at=datetime.fromisoformat(row.updated_at),
        finished_games=counts.get((row.id, True), 0),
        unfinished_games=counts.get((row.id, False), 0),
    )


def check_fits(planned: ScheduledGame, record: GameRecord) -> None:
    """Refuse a record whose players are not the planned game's."""
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


def _stored_engine(row: Any) -> StoredEngine:
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
