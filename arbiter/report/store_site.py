"""The site of a tournament database, kept up to date game by game at the cost of what changed.

    site = StoreSite(Path("event.sqlite"), Path("site"))
    site.refresh()          # the first time: every page; then: what the games stored since changed

Every write of a game raises the tournament's revision in the store (`TournamentStore.games_since`).
The site keeps the revision it has published in its manifest (``.arbiter-site.json``), so a refresh
reads the games stored since then, and only those with their moves: it writes their pages, appends
them to the event's PDN, rewrites the pages of the games list that hold them, and renders the
event-wide pages from the games' lines (small rows without moves). A `StoreSite` kept between
refreshes (the publisher of a running event) holds those lines, so it reads the changed ones only; a
new one reads them all once.

A full build reads the games a batch at a time and writes their pages as it goes, so its memory
does not grow with their moves. A game page links to the game stored before it (and to the list).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from arbiter.referee.game import identity_fields
from arbiter.referee.record import Winner
from arbiter.report.event_pages import GAMES_PER_PAGE
from arbiter.report.files import engine_slugs, page_key, remove_stale_temporaries, write_atomic
from arbiter.report.from_store import Schedule, load_schedule
from arbiter.report.game_page import EVENT_PDN, GameJob, Neighbour
from arbiter.report.inputs import GameEntry
from arbiter.report.lines import Line, entry_line, stored_line
from arbiter.report.pages import PageWriter, write_game_pages
from arbiter.report.pdn_export import game_pdn
from arbiter.report.replay import replay
from arbiter.report.site import MANIFEST, SiteBuild
from arbiter.report.summary import Tallies
from arbiter.report.templating import code_fingerprint, templates_dir
from arbiter.store import GameLine, StoredGame, TournamentStore
from arbiter.tournament.piece_scoring import winner_pieces
from arbiter.tournament.schedule import GameKey


@dataclass
class _Published:
    """What the manifest remembers of the last build: which event, by which code, up to which game."""

    database: str
    tournament: int
    code: str
    per_page: int
    revision: int
    """The highest game revision published."""
    top_id: int
    """The highest game row id published: a changed game at or below it was published before (a game
    stopped without a result, played again), so the event's PDN is written again, not appended to."""

    @classmethod
    def load(cls, out: Path) -> _Published | None:
        try:
            data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
            return cls(**data["store"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def save(self, out: Path) -> None:
        write_atomic(out / MANIFEST, json.dumps({"store": self.__dict__}, indent=0, sort_keys=True))


@dataclass(frozen=True, slots=True)
class _Played:
    """A stored game as the site keeps it between refreshes."""

    line: Line
    key: GameKey
    revision: int
    row_id: int


class StoreSite:
    """The site of one tournament of the database at `database`, written into `out`."""

    def __init__(
        self,
        database: Path,
        out: Path,
        tournament: str | int | None = None,
        *,
        workers: int = 1,
        games_per_page: int = GAMES_PER_PAGE,
        read_only: bool = False,
    ) -> None:
        self.read_only = read_only
        self.per_page = games_per_page
        self.database = database
        self.out = out
        self.reference = tournament
        self.workers = max(1, workers)
        self.code = code_fingerprint(templates_dir())
        self._schedule: Schedule | None = None
        self._planned: list[Line] = []
        self._plan_index: dict[str, Line] = {}
        self._played: dict[str, _Played] = {}
        """Every stored game, by key, as of `_revision`."""
        self._order: list[str] = []
        """The stored games' keys in the order they were stored (their pages' neighbours)."""
        self._position: dict[str, int] = {}
        self._revision = 0
        self._top_id = 0

    @property
    def schedule_note(self) -> str | None:
        return None if self._schedule is None else self._schedule.note

    @property
    def event_name(self) -> str:
        return "" if self._schedule is None else self._schedule.event.name

    @property
    def games(self) -> tuple[int, int]:
        """(played, planned or played) games, as of the last refresh."""
        return len(self._played), len(self._all_lines())

    def refresh(self, *, full: bool = False) -> SiteBuild:
        """Bring the site up to the database: everything when `full` or when the folder holds the site
        of something else (or of other code); otherwise what changed since its last build."""
        first = self._schedule is None
        if first and self.out.is_dir():
            remove_stale_temporaries(self.out)  # left by a build that was killed half way
        # The file is checked for damage once; the refreshes after each game only read what changed.
        with TournamentStore.open(
            self.database, create=False, read_only=self.read_only, check=first
        ) as store:
            if self._schedule is None:
                self._start(load_schedule(store, self.reference))
            else:
                self._update(store)
            assert self._schedule is not None
            tournament = self._schedule.info.id
            self._read_changes(store, tournament)
            published = None if full else _Published.load(self.out)
            if published is not None and (
                published.database != str(self.database.resolve())
                or published.tournament != tournament
                or published.code != self.code
                or published.per_page != self.per_page
                or published.revision > self._revision
                or not (self.out / EVENT_PDN).is_file()
            ):
                published = None
            if published is None:
                build = self._full(store, tournament)
            else:
                build = self._incremental(store, tournament, published)
        _Published(
            database=str(self.database.resolve()),
            tournament=tournament,
            code=self.code,
            per_page=self.per_page,
            revision=self._revision,
            top_id=self._top_id,
        ).save(self.out)
        return build

    # --- what the site knows of the games ------------------------------------------------------------

    def _start(self, schedule: Schedule) -> None:
        self._planned = [entry_line(GameEntry.planned(game)) for game in schedule.planned]
        self._schedule = replace(schedule, planned=())  # its lines are what is kept
        self._plan_index = {line.key: line for line in self._planned}
        self._played, self._order, self._position, self._revision, self._top_id = {}, [], {}, 0, 0
        self._planned_openings = any(line.opening is not None for line in self._planned)
        self._tallies = Tallies(schedule.event)
        for line in self._planned:
            self._tallies.add(line)

    def _update(self, store: TournamentStore) -> None:
        """The tournament's state and its engines' identities, which change while it runs (its
        schedule does not: it is planned once)."""
        schedule = self._schedule
        assert schedule is not None
        info = store.tournament(schedule.info.id)
        engines = store.engines(info.id)
        event = replace(schedule.event, status=info.status.value)
        identities = {engine.name: (identity_fields(engine.identity), engine.engine_id) for engine in engines}
        self._schedule = replace(schedule, info=info, event=event, identities=identities)
        self._tallies.event = event

    def _read_changes(self, store: TournamentStore, tournament: int) -> None:
        """Read the lines of the games stored since the last read."""
        found = store.game_lines(tournament, self._revision)
        if not found:
            return
        pieces = self._pieces_left(store, tournament, found)
        for stored in found:
            key = str(stored.key)
            if key in self._played:
                self._order.remove(key)  # written again (a stopped game played anew): now the latest
            line = stored_line(stored, self._plan_index.get(key), pieces.get(key, 0))
            self._tallies.add(line)
            self._played[key] = _Played(line, stored.key, stored.revision, stored.id)
            self._order.append(key)
            self._revision = max(self._revision, stored.revision)
            self._top_id = max(self._top_id, stored.id)
        self._position = {key: index for index, key in enumerate(self._order)}

    def _pieces_left(
        self, store: TournamentStore, tournament: int, found: Sequence[GameLine]
    ) -> dict[str, int]:
        """The winner's pieces left in each finished game of `found`, when the event scores by pieces
        (replayed from the moves, which a line does not hold); nothing otherwise."""
        assert self._schedule is not None
        if not self._schedule.event.scoring.by_pieces:
            return {}
        keys = [stored.key for stored in found if stored.winner is not Winner.UNFINISHED]
        games = store.games(tournament, finished_only=True, keys=keys) if keys else []
        return {str(game.key): winner_pieces(game.record) for game in games}

    def _all_lines(self) -> list[Line]:
        """Every game in playing order (the schedule's), played or not; then games the plan lacks."""
        played = self._played
        lines = [played[line.key].line if line.key in played else line for line in self._planned]
        lines.extend(played[key].line for key in self._order if key not in self._plan_index)
        return lines

    # --- building ------------------------------------------------------------------------------------

    def _writer(self, lines: Sequence[Line]) -> PageWriter:
        schedule = self._schedule
        assert schedule is not None
        summary = self._tallies.summary(schedule.identities)
        slugs = engine_slugs(summary.players)
        has_openings = (
            schedule.event.ballot_pairs or self._planned_openings or bool(self._tallies.openings.infos)
        )
        return PageWriter(self.out, summary, slugs, has_openings, self.per_page)

    def _full(self, store: TournamentStore, tournament: int) -> SiteBuild:
        self.out.mkdir(parents=True, exist_ok=True)
        lines = self._all_lines()
        writer = self._writer(lines)
        writer.static()
        written = self._pdn_and_pages(
            writer, store.games_since(tournament), append=False, count=len(self._played)
        )
        writer.games_pages(lines)
        writer.event_pages()
        return SiteBuild(self.out, written, 0, len(writer.written) + 2 * written)

    def _incremental(self, store: TournamentStore, tournament: int, published: _Published) -> SiteBuild:
        lines = self._all_lines()
        writer = self._writer(lines)
        fresh = [self._played[key] for key in self._order if self._played[key].revision > published.revision]
        # A game published before and written again: its old text is in the event's PDN, so the whole
        # file is written anew (only when a stopped event is resumed).
        again = any(game.row_id <= published.top_id for game in fresh)
        changed = store.games_since(tournament, published.revision)
        if again:
            written = sum(1 for _ in self._game_pages(writer, changed))
            self._pdn_and_pages(writer, store.games_since(tournament), append=False, pages=False)
        else:
            written = self._pdn_and_pages(writer, changed, append=True)
        position = {line.key: index for index, line in enumerate(lines)}
        keys = [str(game.key) for game in fresh]
        pages = {position[key] // self.per_page + 1 for key in keys if key in position}
        writer.games_pages(lines, pages)
        opened = [game.line.opening.id for game in fresh if game.line.opening is not None]
        writer.event_pages(openings=opened)
        return SiteBuild(self.out, written, len(self._played) - written, len(writer.written) + 2 * written)

    def _pdn_and_pages(
        self,
        writer: PageWriter,
        games: Iterator[StoredGame],
        *,
        append: bool,
        pages: bool = True,
        count: int = 1,
    ) -> int:
        """Write the pages of `games` (unless not `pages`) and their PDN, appended to the event's PDN
        or, without `append`, as the whole of it; return how many games."""
        target = self.out / EVENT_PDN
        texts = (
            self._game_pages(writer, games, count) if pages else (self._pdn(writer, game) for game in games)
        )
        count = 0
        if append:
            with target.open("a", encoding="utf-8") as stream:
                for pdn in texts:
                    stream.write(pdn)
                    count += 1
        else:
            temporary = target.with_name(f".{EVENT_PDN}.tmp")
            with temporary.open("w", encoding="utf-8") as stream:
                for pdn in texts:
                    stream.write(pdn)
                    count += 1
            os.replace(temporary, target)
        writer.written.append(EVENT_PDN)
        return count

    def _game_pages(self, writer: PageWriter, games: Iterator[StoredGame], count: int = 1) -> Iterator[str]:
        return write_game_pages(self.out, (self._job(writer, game) for game in games), self.workers, count)

    def _pdn(self, writer: PageWriter, stored: StoredGame) -> str:
        job = self._job(writer, stored)
        record = job.game.record
        assert record is not None
        return game_pdn(writer.event, job.game, record, replay(record))

    def _job(self, writer: PageWriter, stored: StoredGame) -> GameJob:
        key = str(stored.key)
        played = self._played.get(key)
        record = stored.record
        entry = GameEntry(
            key=key,
            white=record.white.name,
            black=record.black.name,
            record=record,
            round=stored.key.round,
            board=stored.key.board,
            cycle=stored.cycle,
            opening=played.line.opening if played is not None else None,
            pair_index=stored.pair_index,
        )
        # A page links to the game stored before it, which never changes; a link to the next one would
        # mean writing this page again when that game is stored.
        index = self._position.get(key, -1)
        previous = self._order[index - 1] if index > 0 else None
        return GameJob(
            event=writer.event,
            game=entry,
            page=page_key(key),
            previous=None if previous is None else Neighbour(previous, page_key(previous)),
            following=None,
            slugs={name: writer.slugs[name] for name in (record.white.name, record.black.name)},
            has_openings=writer.has_openings,
        )
