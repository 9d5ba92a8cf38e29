"""The site of a tournament database, kept up to date game by game at the cost of what changed.

    site = StoreSite(Path("event.sqlite"), Path("site"))
    site.refresh()          # the first time: every page; then: what the games stored since changed

Every write of a game raises the tournament's revision in the store (`RunStore.games_since`).
The site keeps the revision it has published in its manifest (``.arbiter-site.json``), so a refresh
reads the games stored since then, and only those with their moves: it writes their pages, appends
them to the event's PDN, rewrites the pages of the games list that hold them, and renders the
event-wide pages from counts kept game by game (`Tallies`). A `StoreSite` kept between refreshes
(the publisher of a running event) keeps those counts, so it reads the changed lines only; a new one
reads them all once, a batch at a time.

The folder may hold other files than the site's (a README, a CNAME): only files the site's builds
wrote are ever removed, and they are on the folder's record (``.arbiter-site-files``, a name a line).
A refresh adds the files it wrote first; a full build (`--full`, or over the site of another event)
removes the files on the record that its site lacks, such as the pages of another event's engines and
games. A folder written by an arbiter that kept no record is left as it is (`left_in_place`).

Memory does not grow with the games: a build reads the games a batch at a time and writes their
pages as it goes; the games list reads the lines of the games on each page it writes; what is held
is the plan and the keys of games it lacks. A game page links to the game stored before it (and to
the list).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from itertools import takewhile
from pathlib import Path
from typing import overload

from arbiter.referee.game import identity_fields
from arbiter.referee.record import Winner
from arbiter.report.event_pages import GAMES_PER_PAGE
from arbiter.report.files import (
    engine_slugs,
    page_key,
    remove_site_files,
    remove_stale_temporaries,
    site_files_in,
    write_atomic,
)
from arbiter.report.from_store import Schedule, load_schedule
from arbiter.report.game_page import EVENT_PDN, GameJob, Neighbour
from arbiter.report.inputs import EventInfo, GameEntry, OpeningInfo
from arbiter.report.lines import Line, entry_line, stored_line, stored_opening
from arbiter.report.pages import PageWriter, write_game_pages
from arbiter.report.replay import replay
from arbiter.report.site import MANIFEST, SiteBuild
from arbiter.report.site_pdn import game_pdn
from arbiter.report.summary import Tallies
from arbiter.report.templating import code_fingerprint, templates_dir
from arbiter.store import GameLine, RunStore, StoredGame
from arbiter.tournament.piece_scoring import winner_pieces
from arbiter.tournament.sprt_status import SprtStatus, match_sprt_status

RECORD = ".arbiter-site-files"
_RECORD_HEADER = (
    "# The files arbiter wrote into this folder for its site, one a line. A build of another event\n"
    "# removes those its own site does not have; no other file in the folder is ever removed.\n"
)


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
    created: str = ""
    """When the tournament was created: a database made anew at the same path, whose tournament has
    the same id, holds another event ("" in the manifest of an arbiter that did not keep it)."""

    @classmethod
    def load(cls, out: Path) -> _Published | None:
        try:
            data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
            return cls(**data["store"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def save(self, out: Path) -> None:
        write_atomic(out / MANIFEST, json.dumps({"store": self.__dict__}, indent=0, sort_keys=True))

    def same_event(self, other: _Published) -> bool:
        """Whether `other` is a build of this one's event, as far as the two tell (a manifest without
        the creation time may be of that event)."""
        same = (self.database, self.tournament) == (other.database, other.tournament)
        return same and (self.created == other.created or not (self.created and other.created))


def _recorded_files(out: Path) -> set[str] | None:
    """The files the folder's record (`RECORD`) says the site's builds wrote, with those `build_site`
    lists in its manifest; None when there is neither (a new folder, or one an older arbiter wrote)."""
    found: set[str] | None = None
    try:
        text = (out / RECORD).read_text(encoding="utf-8")
        found = {line for line in text.splitlines() if line and not line.startswith("#")}
    except (OSError, UnicodeDecodeError):
        pass
    try:
        listed = json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"]
        if isinstance(listed, dict):
            found = (found or set()) | {str(name) for name in listed}
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return found


def _record(out: Path, names: set[str], *, adding: bool) -> None:
    """Write `names` as the folder's record of the site's files or, when `adding`, add them to it."""
    lines = "".join(f"{name}\n" for name in sorted(names))
    if adding:
        with (out / RECORD).open("a", encoding="utf-8") as stream:
            stream.write(lines)
    else:
        write_atomic(out / RECORD, _RECORD_HEADER + lines)


@dataclass(frozen=True, slots=True)
class _Fresh:
    """A game stored since the site was last published, as the refresh needs it."""

    key: str
    opening: str | None
    revision: int
    row_id: int


class _GamesList(Sequence[Line]):
    """Every game in playing order (the schedule's, then the games the plan lacks in the order they
    were stored), read from the store a page at a time: only the plan and the keys of the games it
    lacks are held, so that the publisher's memory does not grow with the games' lines."""

    def __init__(
        self, planned: Sequence[Line], extras: Sequence[str], store: RunStore, tournament: int
    ) -> None:
        self.planned = planned
        self.extras = extras
        self.store = store
        self.tournament = tournament

    def __len__(self) -> int:
        return len(self.planned) + len(self.extras)

    @overload
    def __getitem__(self, index: int) -> Line: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Line]: ...

    def __getitem__(self, index: int | slice) -> Line | Sequence[Line]:
        if isinstance(index, slice):
            return self._lines(range(len(self))[index])
        found = self._lines(range(len(self))[index : index + 1] if index >= 0 else [len(self) + index])
        if not found:
            raise IndexError(index)
        return found[0]

    def _lines(self, places: Sequence[int]) -> list[Line]:
        count = len(self.planned)
        wanted: list[tuple[str, Line | None]] = [
            (self.planned[place].key, self.planned[place])
            if place < count
            else (self.extras[place - count], None)
            for place in places
        ]
        stored = self.store.game_lines_of(self.tournament, [key for key, _ in wanted])
        lines = []
        for key, planned in wanted:
            line = stored.get(key)
            if line is not None:
                lines.append(stored_line(line, planned))
            elif planned is not None:
                lines.append(planned)
        return lines


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
        keep_open: bool = False,
    ) -> None:
        self.read_only = read_only
        self.keep_open = keep_open
        self._store: RunStore | None = None
        self.per_page = games_per_page
        self.database = database
        self.out = out
        self.reference = tournament
        self.workers = max(1, workers)
        self.code = code_fingerprint(templates_dir())
        self._schedule: Schedule | None = None
        self._planned: list[Line] = []
        self._plan_index: dict[str, int] = {}
        self._extras: list[str] = []
        """The keys of the stored games the plan lacks, in the order they were stored."""
        self._extra_index: dict[str, int] = {}
        self._played = 0
        """How many games are stored, as of `_revision`."""
        self._fresh: list[_Fresh] = []
        """The games of the last read stored after the published site's revision."""
        self._revision = 0
        self._top_id = 0
        self._decided_sprt: SprtStatus | None = None
        """The match's SPRT as it decided, once it has: the games counted by the tallies include those
        that were still running then and finished after it."""
        self.played: dict[str, tuple[int, ...]] = {}
        """The positions the referee went through in games of this run, by key, as the publisher of a
        running event is handed them: a game's page is made from them (taken when it is written)."""
        self.pages_seconds = 0.0
        """Seconds the last refresh spent on the pages and PDN of the games it wrote (the rest went to
        the event-wide pages, which every refresh writes again)."""
        self._recorded: set[str] | None = None
        """The folder's record of the site's files, as this site last read or wrote it."""
        self.left_in_place: list[str] = []
        """Files of an earlier site that the last refresh's site lacks and left where they are: the
        arbiter that wrote them kept no record of its files, so they cannot be told from the user's."""

    @property
    def left_note(self) -> str | None:
        """What to tell the user of `left_in_place`, in one line; None when nothing was left."""
        left = self.left_in_place
        if not left:
            return None
        return (
            f"{self.out}: {len(left)} files of an earlier site left in place (such as {left[0]}): the "
            "arbiter that wrote them kept no record of its files; delete them by hand if they are not wanted"
        )

    @property
    def schedule_note(self) -> str | None:
        return None if self._schedule is None else self._schedule.note

    @property
    def event_name(self) -> str:
        return "" if self._schedule is None else self._schedule.event.name

    @property
    def games(self) -> tuple[int, int]:
        """(played, planned or played) games, as of the last refresh."""
        return self._played, len(self._planned) + len(self._extras)

    def refresh(self, *, full: bool = False) -> SiteBuild:
        """Bring the site up to the database: everything when `full` or when the folder holds the site
        of something else (or of other code); otherwise what changed since its last build."""
        first = self._schedule is None
        self.pages_seconds = 0.0
        self.left_in_place = []
        if first and self.out.is_dir():
            remove_stale_temporaries(self.out)  # left by a build that was killed half way
        with self._opened(check=first) as store:
            if self._schedule is None:
                self._start(load_schedule(store, self.reference))
            else:
                self._update(store)
            assert self._schedule is not None
            tournament = self._schedule.info.id
            self._decided_sprt = self._sprt_decision(store, tournament)
            now = _Published(
                database=str(self.database.resolve()),
                tournament=tournament,
                code=self.code,
                per_page=self.per_page,
                revision=0,
                top_id=0,
                created=self._schedule.info.created_at.isoformat(),
            )
            earlier = _Published.load(self.out)
            published = None if full else earlier
            if published is not None and (
                not published.same_event(now)
                or published.created != now.created  # not known to be of this event
                or published.code != self.code
                or published.per_page != self.per_page
                or not (self.out / EVENT_PDN).is_file()
                or not (self.out / RECORD).is_file()  # an older arbiter's site: built anew, and recorded
            ):
                published = None
            self._read_changes(store, tournament, None if published is None else published.revision)
            if published is not None and published.revision > self._revision:
                published = None
            if published is None:
                another = earlier is not None and not earlier.same_event(now)
                build = self._full(store, tournament, another_event=another, earlier_site=earlier is not None)
            else:
                build = self._incremental(store, tournament, published)
        replace(now, revision=self._revision, top_id=self._top_id).save(self.out)
        self._fresh = []
        return build

    def close(self) -> None:
        """Close the database kept open between refreshes (`keep_open`)."""
        if self._store is not None:
            self._store.close()
            self._store = None

    @contextmanager
    def _opened(self, *, check: bool) -> Iterator[RunStore]:
        """The database, checked for damage when `check` (the first refresh); the refreshes after each
        game only read what changed. Kept open with `keep_open`, so that a refresh does not pay again
        for opening the file and for turning the store's queries into SQL."""
        if self._store is not None:
            yield self._store
            return
        store = RunStore.open(self.database, create=False, read_only=self.read_only, check=check)
        try:
            yield store
        finally:
            if self.keep_open:
                self._store = store
            else:
                store.close()

    # --- what the site knows of the games ------------------------------------------------------------

    def _start(self, schedule: Schedule) -> None:
        self._planned = [entry_line(GameEntry.planned(game)) for game in schedule.planned]
        self._schedule = replace(schedule, planned=())  # its lines are what is kept
        self._plan_index = {line.key: index for index, line in enumerate(self._planned)}
        self._extras, self._extra_index, self._played = [], {}, 0
        self._revision, self._top_id = 0, 0
        self._planned_openings = any(line.opening is not None for line in self._planned)
        self._tallies = self._planned_tallies(schedule.event)

    def _sprt_decision(self, store: RunStore, tournament: int) -> SprtStatus | None:
        """The match's SPRT over the games it counted when it decided; None before it has decided
        (then the tallies' test, over every finished game, is the one)."""
        assert self._schedule is not None
        event = self._schedule.event
        if event.sprt is None or len(event.players) != 2 or store.sprt_decision_revision(tournament) is None:
            return None
        first, second = event.players
        try:
            return match_sprt_status(store, tournament, event.sprt, first, second, paired=event.ballot_pairs)
        except ValueError:  # pairs that do not fit together: no sound test to show, as in the tallies
            return None

    def _planned_tallies(self, event: EventInfo) -> Tallies:
        tallies = Tallies(event)
        for line in self._planned:
            tallies.add(line)
        return tallies

    def _update(self, store: RunStore) -> None:
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

    def _read_changes(self, store: RunStore, tournament: int, published: int | None) -> None:
        """Count the games stored since the last read, a batch of lines at a time; note those stored
        after revision `published` (of the site on the disk) for the refresh."""
        # Games read by a refresh that failed before the site was saved are still fresh.
        self._fresh = [] if published is None else [game for game in self._fresh if game.revision > published]
        recount = False
        moved = False
        for stored in store.stream_game_lines(tournament, self._revision):
            key = str(stored.key)
            place = self._plan_index.get(key)
            planned = None if place is None else self._planned[place]
            if stored.id <= self._top_id:
                # Counted before (a stopped game played anew): its old line is not held, so every
                # game is counted again below. Rare: only when a stopped event is resumed.
                recount = True
                if place is None:
                    self._extras.remove(key)  # now the latest
                    self._extras.append(key)
                    moved = True
            else:
                self._played += 1
                if place is None:
                    self._extra_index[key] = len(self._extras)
                    self._extras.append(key)
                if not recount:
                    pieces = self._pieces_of(store, tournament, stored)
                    self._tallies.add(stored_line(stored, planned, pieces), planned)
            if published is not None and stored.revision > published:
                opening = planned.opening if planned is not None else stored_opening(stored.opening)
                self._fresh.append(
                    _Fresh(key, None if opening is None else opening.id, stored.revision, stored.id)
                )
            self._revision = max(self._revision, stored.revision)
            self._top_id = max(self._top_id, stored.id)
        if moved:
            self._extra_index = {key: index for index, key in enumerate(self._extras)}
        if recount:
            self._recount(store, tournament)

    def _pieces_of(self, store: RunStore, tournament: int, stored: GameLine) -> int:
        """The winner's pieces left in a finished game, when the event scores by pieces (replayed
        from the moves, which a line does not hold); 0 otherwise."""
        assert self._schedule is not None
        if not self._schedule.event.scoring.by_pieces or stored.winner is Winner.UNFINISHED:
            return 0
        games = store.games(tournament, finished_only=True, keys=[stored.key])
        return winner_pieces(games[0].record) if games else 0

    def _recount(self, store: RunStore, tournament: int) -> None:
        """Count every game again, from the plan and the stored games' lines."""
        assert self._schedule is not None
        tallies = self._planned_tallies(self._schedule.event)
        for stored in store.stream_game_lines(tournament):
            place = self._plan_index.get(str(stored.key))
            planned = None if place is None else self._planned[place]
            tallies.add(stored_line(stored, planned, self._pieces_of(store, tournament, stored)), planned)
        self._tallies = tallies

    def _place(self, key: str) -> int | None:
        """Where the game `key` is in the games list (from 0)."""
        place = self._plan_index.get(key)
        if place is not None:
            return place
        extra = self._extra_index.get(key)
        return None if extra is None else len(self._planned) + extra

    # --- building ------------------------------------------------------------------------------------

    def _writer(self) -> PageWriter:
        schedule = self._schedule
        assert schedule is not None
        summary = self._tallies.summary(schedule.identities)
        if self._decided_sprt is not None and summary.sprt is not None:
            summary = replace(summary, sprt=self._decided_sprt)
        slugs = engine_slugs(summary.players)
        has_openings = (
            schedule.event.ballot_pairs or self._planned_openings or bool(self._tallies.openings.infos)
        )
        return PageWriter(self.out, summary, slugs, has_openings, self.per_page)

    def _full(
        self, store: RunStore, tournament: int, *, another_event: bool, earlier_site: bool
    ) -> SiteBuild:
        """Every page; then the files of the earlier build (on the folder's record) that this site
        lacks are removed. With `another_event` the folder held another event's site, whose live page
        data would show that event's games."""
        recorded = _recorded_files(self.out)  # the earlier build's, read before this one writes
        self.out.mkdir(parents=True, exist_ok=True)
        writer = self._writer()
        writer.static()
        written = self._pdn_and_pages(
            writer, self._games_since(store, tournament), append=False, count=self._played, previous=None
        )
        writer.games_pages(_GamesList(self._planned, self._extras, store, tournament))
        if another_event:
            writer.no_live_games()
        writer.event_pages()
        files = set(writer.written)
        removed: list[str] = []
        if recorded is not None:
            removed, kept = remove_site_files(self.out, recorded - files)
            files |= set(kept)  # still on the record: a later build tries again
        elif earlier_site:
            self.left_in_place = site_files_in(self.out, besides=files)
        _record(self.out, files, adding=False)
        self._recorded = files
        return SiteBuild(self.out, written, 0, len(set(writer.written)), len(removed))

    def _incremental(self, store: RunStore, tournament: int, published: _Published) -> SiteBuild:
        writer = self._writer()
        fresh = self._fresh
        # A game published before and written again: its old text is in the event's PDN, so the whole
        # file is written anew (only when a stopped event is resumed).
        again = any(game.row_id <= published.top_id for game in fresh)
        changed = self._games_since(store, tournament, published.revision)
        # Asked of the store: a game played again after a stop is no longer where it was first stored.
        before = store.key_written_last(tournament, published.revision)
        if again:
            written = sum(1 for _ in self._game_pages(writer, changed, previous=before))
            self._pdn_and_pages(writer, self._games_since(store, tournament), append=False, pages=False)
        else:
            written = self._pdn_and_pages(writer, changed, append=True, previous=before)
        places = [self._place(game.key) for game in fresh]
        pages = {place // self.per_page + 1 for place in places if place is not None}
        writer.games_pages(_GamesList(self._planned, self._extras, store, tournament), pages)
        opened = [game.opening for game in fresh if game.opening is not None]
        writer.event_pages(openings=opened)
        # The files it wrote that are new to the record, on it before the manifest says they are
        # published: a refresh that stops in between writes them again.
        if self._recorded is None:
            self._recorded = _recorded_files(self.out) or set()
        new = set(writer.written) - self._recorded
        if new:
            _record(self.out, new, adding=True)
            self._recorded |= new
        return SiteBuild(self.out, written, self._played - written, len(set(writer.written)))

    def _games_since(self, store: RunStore, tournament: int, revision: int = 0) -> Iterator[StoredGame]:
        """The games stored after `revision` up to the revision this refresh read: a game the runner
        stores while the pages are being written is left to the next refresh, which would otherwise
        write its page and append its PDN a second time."""
        return takewhile(
            lambda game: game.revision <= self._revision, store.games_since(tournament, revision)
        )

    def _pdn_and_pages(
        self,
        writer: PageWriter,
        games: Iterator[StoredGame],
        *,
        append: bool,
        pages: bool = True,
        count: int = 1,
        previous: str | None = None,
    ) -> int:
        """Write the pages of `games` (unless not `pages`; the first one's link goes to the game
        `previous`) and their PDN, appended to the event's PDN or, without `append`, as the whole of
        it; return how many games."""
        began = time.perf_counter()
        target = self.out / EVENT_PDN
        texts = (
            self._game_pages(writer, games, count, previous)
            if pages
            else (self._pdn(writer, game) for game in games)
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
        self.pages_seconds += time.perf_counter() - began
        return count

    def _game_pages(
        self, writer: PageWriter, games: Iterator[StoredGame], count: int = 1, previous: str | None = None
    ) -> Iterator[str]:
        return write_game_pages(self.out, self._jobs(writer, games, previous), self.workers, count)

    def _jobs(
        self, writer: PageWriter, games: Iterator[StoredGame], previous: str | None
    ) -> Iterator[GameJob]:
        """The pages of `games` (in the order they were stored), each linked to the game before."""
        for game in games:
            job = self._job(writer, game, previous, self.played.pop(str(game.key), None))
            writer.written += [f"games/{job.page}.html", f"games/{job.page}.pdn"]
            yield job
            previous = str(game.key)

    def _pdn(self, writer: PageWriter, stored: StoredGame) -> str:
        job = self._job(writer, stored, None)
        record = job.game.record
        assert record is not None
        return game_pdn(writer.event, job.game, record, replay(record))

    def _job(
        self,
        writer: PageWriter,
        stored: StoredGame,
        previous: str | None,
        played: tuple[int, ...] | None = None,
    ) -> GameJob:
        key = str(stored.key)
        place = self._plan_index.get(key)
        record = stored.record
        if place is not None:
            opening = self._planned[place].opening
        elif record.opening is not None:
            opening = OpeningInfo.recorded(
                record.opening.acf_number, record.opening.name, record.opening.moves
            )
        else:
            opening = None
        entry = GameEntry(
            key=key,
            white=record.white.name,
            black=record.black.name,
            record=record,
            round=stored.key.round,
            board=stored.key.board,
            cycle=stored.cycle,
            opening=opening,
            pair_index=stored.pair_index,
        )
        # A page links to the game stored before it, which never changes; a link to the next one would
        # mean writing this page again when that game is stored.
        return GameJob(
            event=writer.event,
            game=entry,
            page=page_key(key),
            previous=None if previous is None else Neighbour(previous, page_key(previous)),
            following=None,
            slugs={name: writer.slugs[name] for name in (record.white.name, record.black.name)},
            has_openings=writer.has_openings,
            played=played,
        )
