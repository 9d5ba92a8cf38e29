"""The tournament runner: plays the planned games, ``concurrency`` at a time on one asyncio loop.

Every finished game is written to the store in one transaction as soon as it ends, so a run stopped
with Ctrl-C, or killed outright, loses nothing that had finished; ``run`` on the same database plays
only the games still missing. Engines are kept running between games (``new-game``) unless the
tournament says otherwise, and an engine that crashed or misbehaved is started afresh for its next game.

With a ``RemoteGames`` (see ``arbiter.distributed``) the games are played elsewhere instead: this
process keeps the schedule, the store, the live view and the SPRT, and only the playing moves away.

The event loop reads and times the engines of every running game, so nothing slow runs on it while
games are played: the store is written and read by a thread of its own (one, so writes keep their
order), the report is refreshed in another, and ending an engine looks through /proc in worker threads
(see ``arbiter.engines.leftovers``). Once the engines have been probed, the interpreter is settled for
timing (``arbiter.engines.pauses``). ``LONGEST_LOOP_STEP`` is the longest the loop may be held by one
step; the tests check it with asyncio's slow-callback log.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol, TypeVar

from pydantic import ValidationError

from arbiter.engines import (
    CommLog,
    EngineClient,
    EngineConfig,
    EngineConfigError,
    EngineFault,
    EngineIdentity,
    StderrBudget,
    create_engine,
    probe_engine,
)
from arbiter.engines.pauses import settle_for_timing
from arbiter.referee.dxp_terms import with_dxp_margins
from arbiter.referee.game import Referee
from arbiter.referee.observer import GameObserver
from arbiter.referee.record import GameOutcome, GameRecord, PlayerRecord, Termination, Winner
from arbiter.referee.setup import GameSetup
from arbiter.rules import Color
from arbiter.rules.variants import engine_variant
from arbiter.running.engine_logs import debug_log, game_log, stderr_budgets
from arbiter.store import (
    Event,
    EventKind,
    GameAlreadyRecordedError,
    PlayerEntry,
    RunStore,
    StoreError,
    TournamentStatus,
)
from arbiter.tournament.config import TournamentConfig
from arbiter.tournament.plan import TournamentPlan, plan_tournament
from arbiter.tournament.schedule import GameKey, PlannedGame
from arbiter.tournament.scoring import scheme_named
from arbiter.tournament.stats import SprtSettings

if TYPE_CHECKING:
    from arbiter.tournament.sprt_status import SprtStatus

_T = TypeVar("_T")

# The most CPU seconds one step of the event loop may take while games are played (docs/protocol.md).
LONGEST_LOOP_STEP = 0.01


class RunError(Exception):
    """A tournament that cannot be run as configured (the message says why)."""


class RunFailed(RunError):
    """The run could not go on for a cause outside its configuration (the Dask cluster it plays on:
    its scheduler lost, its workers dying or none able to play); the games stored are kept. Told
    apart from a ``RunError`` by its exit status (1, not 2)."""


class RunObserver(Protocol):
    """What a live view hears from the runner."""

    def run_started(self, total: int, done: int, pending: int, *, abandoned: int, resumed: bool) -> None:
        """The run begins: `pending` of `total` games to play, `done` finished before; `abandoned` of the
        pending ones were begun by a run that was stopped; `resumed` when an earlier run was stopped or
        killed (with or without a game finished)."""
        ...

    def game_started(self, game: PlannedGame) -> None: ...

    def game_finished(self, game: PlannedGame, record: GameRecord) -> None: ...

    def events_recorded(self, events: Sequence[Event]) -> None:
        """Events just stored: a game's faults and warnings, or an engine that would not start."""
        ...

    def message(self, text: str) -> None: ...

    def sprt_updated(self, status: SprtStatus) -> None:
        """Where the match's SPRT stands, after each game (and once before the first)."""
        ...


class QuietObserver:
    def run_started(self, total: int, done: int, pending: int, *, abandoned: int, resumed: bool) -> None:
        pass

    def game_started(self, game: PlannedGame) -> None:
        pass

    def game_finished(self, game: PlannedGame, record: GameRecord) -> None:
        pass

    def events_recorded(self, events: Sequence[Event]) -> None:
        pass

    def message(self, text: str) -> None:
        pass

    def sprt_updated(self, status: SprtStatus) -> None:
        pass


@dataclass
class RunSummary:
    """What one run of an event did: the games planned, played now and in all, and how it ended."""

    tournament_id: int
    planned: int
    played_now: int
    finished: int
    abandoned: int = 0
    stopped: bool = False
    complete: bool = False
    """Whether the event is over: every game finished, or the SPRT decided."""
    sprt: SprtStatus | None = None
    """Where the SPRT stood when the run ended (decided or not), for a match with one."""
    faults: list[str] = field(default_factory=list)


AfterGame = Callable[[int], None]
GameWatch = Callable[[PlannedGame], GameObserver]
"""Gives the observer of a game the runner plays here (the published site's live page)."""


class _Seating(NamedTuple):
    """What every seat of one run shares."""

    store: RunStore
    tournament_id: int
    queue: asyncio.Queue[PlannedGame]
    summary: RunSummary


class RemoteGames(Protocol):
    """Plays the runner's games somewhere else than in this process (on a cluster's workers)."""

    async def preflight(self, runner: TournamentRunner, store: RunStore, tournament_id: int) -> None:
        """Check, before any game, that the games can be played there; raise ``RunError`` if not."""
        ...

    def capacity(self) -> int:
        """How many games can be played at once now. The runner asks again after every game and when
        told ``seats_changed``, and starts or lets go of seats to match."""
        ...

    async def play(self, game: PlannedGame, setup: GameSetup) -> tuple[GameRecord, list[Event]]:
        """Play one game and return its record and events; raise ``RunError`` when the run must stop."""
        ...


class TournamentRunner:
    def __init__(
        self,
        config: TournamentConfig,
        engines: list[EngineConfig],
        *,
        observer: RunObserver | None = None,
        sprt: SprtSettings | None = None,
        after_game: AfterGame | None = None,
        log_dir: Path | None = None,
        remote: RemoteGames | None = None,
        game_observer: GameWatch | None = None,
    ) -> None:
        self.config = config
        self.game_observer = game_observer
        self.engines = {e.name: e for e in engines}
        self.plan: TournamentPlan = plan_tournament(config)
        self.observer: RunObserver = observer or QuietObserver()
        self.sprt = sprt if sprt is not None else config.sprt
        self.after_game = after_game
        self.game_stored: AfterGame | None = None
        """Told on the event loop, right after each game is stored, for what costs next to nothing (a
        note for the site's publisher): unlike `after_game`, no thread is woken for it."""
        self.log_dir = log_dir
        self.remote = remote
        self._stop = asyncio.Event()  # Ctrl-C: abandon running games
        self._draining = False  # an SPRT decided: start no more games, finish the running ones
        self._refresh_task: asyncio.Task[None] | None = None
        self._refresh_wanted = False
        self._sprt_status: SprtStatus | None = None  # once decided, it stands
        # The seats of concurrency: what they share, and the running ones (their number follows the
        # remote's capacity, which can change while the run lasts).
        self._seating: _Seating | None = None
        self._seats: set[asyncio.Task[None]] = set()  # the seats counted against the capacity
        self._seat_tasks: set[asyncio.Task[None]] = set()  # every seat not yet awaited
        self._seats_changed = asyncio.Event()
        # Identities from a preflight the caller ran before opening the store: stored, not probed again.
        self.checked: dict[str, EngineIdentity] | None = None
        # How many of each engine's faults are stored already: the rest (met while starting, while
        # quitting, or after its last game) are stored with the game they belong to.
        self._faults_stored: weakref.WeakKeyDictionary[EngineClient, int] = weakref.WeakKeyDictionary()
        self._store_thread: ThreadPoolExecutor | None = None
        # The referee of each game being played here, so a game abandoned by a stop keeps what was played.
        self._refereeing: dict[GameKey, Referee] = {}
        self._stderr_budgets: dict[str, StderrBudget] | None = None  # by engine name, once counted

    # ------------------------------------------------------------------ set-up

    def open_tournament(self, store: RunStore) -> int:
        """The tournament's id in the store: the existing one of this name (resume) or a new one."""
        config_json = self.config.model_dump_json()
        wanted = _event_settings(self.config)
        for info in reversed(store.tournaments()):
            if info.name != self.config.name:
                continue
            try:
                # Validated again, so that settings added since the event was stored take their defaults.
                stored = _event_settings(TournamentConfig.model_validate(info.config(), strict=False))
            except ValidationError:
                stored = None
            changed = sorted(k for k in wanted if stored is None or wanted[k] != stored.get(k))
            if changed:
                differing = "" if stored is None else f" (differing: {', '.join(changed)})"
                raise RunError(
                    f"{store.path} already holds a tournament named {self.config.name!r} with another "
                    f"configuration{differing}; give this one another name or another database"
                )
            return info.id
        return store.create_tournament(
            name=self.config.name,
            variant=self.config.variant,
            format=self.config.format,
            time_control=self.config.time_control,
            players=[PlayerEntry(name=name) for name in self.engines],
            config=config_json,
            scoring=scheme_named(self.config.scoring),
        )

    def stderr_budgets(self) -> dict[str, StderrBudget]:
        """Each engine's budget of stderr kept in its logs over the event, shared by all its processes in
        this run, less what the logs of earlier runs of the event hold (counted the first time)."""
        if self._stderr_budgets is None:
            self._stderr_budgets = stderr_budgets(self.log_dir, self.engines.values())
        return self._stderr_budgets

    async def preflight(self, store: RunStore, tournament_id: int) -> None:
        """Start each engine once: refuse the run when one cannot play the variant or rejects a setting.

        An engine that fails to start is only noted: its games are forfeited, the event goes on.
        """
        if self.checked is not None:
            for name, identity in self.checked.items():
                store.set_engine_identity(tournament_id, name, identity)
            return
        results = await asyncio.gather(
            *(
                probe_engine(config, [engine_variant(self.config.variant)])
                for config in self.engines.values()
            ),
            return_exceptions=True,
        )
        problems = []
        for (name, _), outcome in zip(self.engines.items(), results, strict=True):
            if isinstance(outcome, EngineConfigError):
                problems.append(str(outcome))
            elif isinstance(outcome, EngineFault):
                text = f"engine {name!r} did not start cleanly: {outcome}; its games will be forfeited"
                event = Event(EventKind.FAULT, text, engine=name)
                store.record_event(tournament_id, event)
                self.observer.events_recorded([event])
                self.observer.message(text)
            elif isinstance(outcome, BaseException):
                raise outcome
            else:
                store.set_engine_identity(tournament_id, name, outcome)
        if problems:
            raise RunError("the tournament cannot start:\n" + "\n".join(f"  {p}" for p in problems))

    # ------------------------------------------------------------------ running

    async def run(self, store: RunStore, *, handle_signals: bool = True) -> RunSummary:
        """Play the games left; Ctrl-C (SIGINT) and SIGTERM stop the run (`request_stop`) from its start:
        left to asyncio, one before the first game would cancel this task and with it engines half
        started, which asyncio cannot always wind up (the run then never ended)."""
        loop = asyncio.get_running_loop()
        if handle_signals:
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, self.request_stop)
        try:
            return await self._run(store)
        finally:
            if handle_signals:
                for sig in (signal.SIGINT, signal.SIGTERM):
                    loop.remove_signal_handler(sig)

    async def _run(self, store: RunStore) -> RunSummary:
        tournament_id = self.open_tournament(store)
        earlier = store.tournament(tournament_id).status
        done_keys = store.finished_keys(tournament_id)
        games = self.plan.schedule.games
        pending = [g for g in games if g.key not in done_keys]
        if pending and self._sprt_pending() and store.sprt_decision_revision(tournament_id) is not None:
            pending = []  # the match's SPRT decided in an earlier run: the match is over
        abandoned = len(store.unfinished_keys(tournament_id) & {g.key for g in pending})
        summary = RunSummary(tournament_id, len(games), 0, len(done_keys))
        stopped_before = earlier in (TournamentStatus.RUNNING, TournamentStatus.STOPPED)  # killed or stopped
        resumed = bool(done_keys or abandoned) or stopped_before
        self.observer.run_started(
            len(games), len(done_keys), len(pending), abandoned=abandoned, resumed=resumed
        )
        if not pending:
            summary.complete = True
            store.set_status(tournament_id, TournamentStatus.FINISHED)
            self._check_sprt(store, tournament_id)
            summary.sprt = self._sprt_status
            return summary
        if self.remote is None:
            await self.preflight(store, tournament_id)
            await asyncio.to_thread(self.stderr_budgets)  # a look through the logs folder: off the loop
        else:
            await self.remote.preflight(self, store, tournament_id)
        store.set_running(tournament_id)
        self._check_sprt(store, tournament_id)
        settle_for_timing()
        self._store_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="arbiter-store")
        queue: asyncio.Queue[PlannedGame] = asyncio.Queue()
        for game in pending:
            queue.put_nowait(game)
        self._seating = _Seating(store, tournament_id, queue, summary)
        try:
            self.seats_changed()
            await self._until_seats_end()
        except Exception:
            # One seat failed (say a remote worker could not start an engine): stop the others, whose
            # running games are kept as abandoned and played again on resume, and leave the event stopped.
            self._stop.set()
            await asyncio.gather(*self._seat_tasks, return_exceptions=True)
            with contextlib.suppress(StoreError):
                store.set_status(tournament_id, TournamentStatus.STOPPED)
            raise
        finally:
            self._seating = None
            self._store_thread.shutdown(wait=True)  # every write was awaited: nothing is left to wait for
            self._store_thread = None
        summary.finished = len(store.finished_keys(tournament_id))
        summary.sprt = self._final_sprt(store, tournament_id)
        summary.stopped = self._stop.is_set()
        summary.complete = complete = summary.finished == len(games) or self._decided
        store.set_status(tournament_id, TournamentStatus.FINISHED if complete else TournamentStatus.STOPPED)
        return summary

    def _after_game(self, tournament_id: int) -> None:
        """Tell the hooks a game was stored: `game_stored` at once (the site's publisher, a note for its
        next batch), `after_game` in a thread, one at a time, never in the engines' way.

        The event loop reads the engines' answers and times them, so nothing slow may run on it. When
        games end while `after_game` is running, it runs once more after it.
        """
        if self.game_stored is not None:
            try:
                self.game_stored(tournament_id)
            except Exception as exc:  # as with `after_game`: the site must not stop the event
                self.observer.message(f"report not refreshed: {exc}")
        if self.after_game is None:
            return
        self._refresh_wanted = True
        if self._refresh_task is None or self._refresh_task.done():
            self._refresh_task = asyncio.create_task(self._refresh(tournament_id))

    async def _refresh(self, tournament_id: int) -> None:
        assert self.after_game is not None
        while self._refresh_wanted:
            self._refresh_wanted = False
            try:
                await asyncio.to_thread(self.after_game, tournament_id)
            except Exception as exc:  # a report that fails must not stop the event
                self.observer.message(f"report not refreshed: {exc}")

    def _capacity(self) -> int:
        return max(1, self.config.concurrency if self.remote is None else self.remote.capacity())

    def seats_changed(self) -> None:
        """Start seats while there are fewer than the capacity and games waiting for one; the seats
        beyond it end after their game (``_slot``). Called on the event loop."""
        seating = self._seating
        if seating is None or self._stop.is_set() or self._draining:
            return
        wanted = min(self._capacity(), len(self._seats) + seating.queue.qsize()) - len(self._seats)
        for _ in range(wanted):
            seat = asyncio.create_task(self._slot(seating))
            self._seats.add(seat)
            self._seat_tasks.add(seat)
        if wanted > 0:  # the seats' waiter wakes only for new seats: a seat that ends wakes it anyway
            self._seats_changed.set()

    async def _until_seats_end(self) -> None:
        """Wait until every seat has ended, raising the first failure of one."""
        while self._seat_tasks:
            self._seats_changed.clear()
            woken = asyncio.create_task(self._seats_changed.wait())
            done, _ = await asyncio.wait({*self._seat_tasks, woken}, return_when=asyncio.FIRST_COMPLETED)
            woken.cancel()
            for seat in done - {woken}:
                self._seat_tasks.discard(seat)
                self._seats.discard(seat)
                seat.result()

    def request_stop(self) -> None:
        """Stop cleanly: running games are abandoned and recorded as unfinished, engines are ended."""
        if not self._stop.is_set():
            self.observer.message("stopping: running games are abandoned and will be played again on resume")
        self._stop.set()

    async def _slot(self, seating: _Seating) -> None:
        """One seat of concurrency: takes games from the queue, keeping its engines between games."""
        store, tournament_id, queue, summary = seating
        pool: dict[str, EngineClient] = {}
        last_game: dict[str, GameKey] = {}  # each engine's latest game in this seat
        this = asyncio.current_task()
        # Waits for a stop while each game is played: one for all of the seat's games, not one a game.
        stopper = asyncio.create_task(self._stop.wait())
        try:
            while not self._stop.is_set() and not self._draining and not queue.empty():
                if len(self._seats) > self._capacity():
                    # The remote plays fewer games at once now (a worker left): this seat ends. It leaves
                    # the count at once, so that no other seat ends for the same reason.
                    self._seats.discard(this)  # type: ignore[arg-type]
                    break
                game = queue.get_nowait()
                self.observer.game_started(game)
                play = asyncio.create_task(
                    self._play(game, pool)
                    if self.remote is None
                    else self.remote.play(game, self.plan.setup_for(game))
                )
                finished, _ = await asyncio.wait({play, stopper}, return_when=asyncio.FIRST_COMPLETED)
                if play in finished:
                    record, events = play.result()
                else:
                    referee = self._refereeing.get(game.key)
                    play.cancel()
                    with contextlib.suppress(asyncio.CancelledError, EngineFault):
                        await play
                    record, events = (
                        self._abandoned(game, None if referee is None else referee.record),
                        [Event(EventKind.NOTE, "game abandoned: run stopped")],
                    )
                    summary.abandoned += 1
                    for name, engine in pool.items():
                        await engine.quit()
                        events.extend(self._fault_events(name, engine))
                    pool.clear()
                try:
                    await self._in_store_thread(store.record_game, tournament_id, game, record, events)
                except GameAlreadyRecordedError:
                    # Another run stored this game first (a second coordinator on the same database):
                    # its copy is kept, and this one dropped, so no game counts twice.
                    stored = await self._in_store_thread(store.game, tournament_id, game.key)
                    self.observer.message(f"game {game.key} was already stored; the stored game is kept")
                    if stored is None:
                        raise
                    record = stored.record
                    self.observer.game_finished(game, record)
                    continue
                last_game.update({game.white: game.key, game.black: game.key})
                if record.outcome is not None and record.outcome.winner is not Winner.UNFINISHED:
                    summary.played_now += 1
                if events:
                    self.observer.events_recorded(events)
                self.observer.game_finished(game, record)
                self._after_game(tournament_id)
                if self._sprt_pending():
                    # Reading every result and the statistics: in the store's thread, off the loop.
                    result = await self._in_store_thread(self._sprt_of, store, tournament_id)
                    self._apply_sprt(result)
                self.seats_changed()
        finally:
            stopper.cancel()
            await asyncio.gather(*(engine.quit() for engine in pool.values()), return_exceptions=True)
            self._store_late_faults(store, tournament_id, pool, last_game)

    def _fault_events(self, name: str, engine: EngineClient) -> list[Event]:
        """Events for the faults of `engine` not stored yet, which are then counted as stored."""
        stored = self._faults_stored.get(engine, 0)
        self._faults_stored[engine] = len(engine.faults)
        return [
            Event(EventKind.FAULT, f"{problem.kind}: {problem}", engine=name)
            for problem in engine.faults[stored:]
        ]

    def _store_late_faults(
        self,
        store: RunStore,
        tournament_id: int,
        pool: dict[str, EngineClient],
        last_game: dict[str, GameKey],
    ) -> None:
        """Faults met while quitting engines after their last game (no exit after `quit`, processes left
        behind), stored with that game."""
        for name, engine in pool.items():
            events = self._fault_events(name, engine)
            key = last_game.get(name)
            if not events or key is None:
                continue
            try:
                for event in events:
                    store.record_event(tournament_id, event, game_key=key)
            except StoreError as exc:
                self.observer.message(f"the faults of {name} after game {key} were not stored: {exc}")
                continue
            self.observer.events_recorded(events)

    async def _engine(self, name: str, pool: dict[str, EngineClient], game: str = "") -> EngineClient:
        """An opened engine for the next game: the slot's running one, or a fresh start."""
        engine = pool.get(name)
        if engine is not None and engine.reusable:
            engine.comm_log.context = game
            return engine
        if engine is not None:
            await engine.quit()
        # Starting an engine (its log files, its process) is the heaviest work a game does on the loop: it
        # is cut into steps of its own, apart from the game's set-up and from each other, so that no
        # one step holds the other games' reads and deadlines for long (``LONGEST_LOOP_STEP``).
        await asyncio.sleep(0)
        config = self.engines[name]
        log = comm_log = None
        if self.log_dir is not None:
            # Named by the engine and the game it was started for (it may play more, when reused).
            log = game_log(self.log_dir, name, game or str(id(pool)))
            if config.debug:
                comm_log = CommLog(name, debug_log(self.log_dir, name))
        budget = self.stderr_budgets()[name]
        engine = create_engine(config, stderr_log=log, comm_log=comm_log, stderr_budget=budget)
        engine.comm_log.context = game
        pool[name] = engine
        await asyncio.sleep(0)
        await engine.open(engine_variant(self.config.variant))
        return engine

    async def _play(self, game: PlannedGame, pool: dict[str, EngineClient]) -> tuple[GameRecord, list[Event]]:
        white, black = self.engines[game.white], self.engines[game.black]
        setup = with_dxp_margins(self.plan.setup_for(game), white, black)
        names = {Color.WHITE: game.white, Color.BLACK: game.black}
        opened: dict[Color, EngineClient] = {}
        failures: dict[Color, EngineFault] = {}
        for color, name in names.items():
            try:
                opened[color] = await self._engine(name, pool, f"game {game.key}")
            except EngineFault as fault:
                failures[color] = fault
                opened[color] = pool[name]
        if failures:
            from arbiter.referee.session import start_failure_record  # rare: loaded when it happens

            record = start_failure_record(setup, opened, failures)
        else:
            referee = Referee(
                setup,
                opened[Color.WHITE],
                opened[Color.BLACK],
                observer=None if self.game_observer is None else self.game_observer(game),
            )
            self._refereeing[game.key] = referee
            try:
                record = await referee.play(PlayerRecord(name=game.white), PlayerRecord(name=game.black))
            finally:
                del self._refereeing[game.key]
        events = []
        for color, engine in opened.items():
            # Faults since the last stored ones: while starting (a stderr flood), during the game, and
            # while quitting (no exit after `quit`, processes left behind) all belong to this game.
            new_faults = len(engine.faults) > self._faults_stored.get(engine, 0)
            if not self.config.reuse_engines or new_faults or not engine.reusable:
                await engine.quit()
                pool.pop(names[color], None)
            events.extend(self._fault_events(names[color], engine))
        return record, events

    def _abandoned(self, game: PlannedGame, played: GameRecord | None) -> GameRecord:
        """The record of a game the stop abandoned: what its referee had recorded (its start, moves and
        clock readings), or, for a game that had not begun, its setup alone. It has no result, so the
        next run plays the game again from its start."""
        now = datetime.now(UTC)
        outcome = GameOutcome.of(
            Winner.UNFINISHED, Termination.ABANDONED, reason="Unfinished: the run was stopped"
        )
        if played is not None:
            return played.model_copy(update={"outcome": outcome, "ended_at": now})
        setup = self.plan.setup_for(game)
        prepared = setup.prepare()
        return GameRecord(
            variant=prepared.variant.id,
            white=PlayerRecord(name=game.white),
            black=PlayerRecord(name=game.black),
            start_fen=prepared.start.fen(),
            opening=setup.opening,
            time_control=str(setup.time_control),
            outcome=outcome,
            started_at=now,
            ended_at=now,
            tags=dict(setup.tags),
        )

    async def _in_store_thread(self, call: Callable[..., _T], *args: object) -> _T:
        """``call(*args)`` in the store's thread, off the loop that times the engines."""
        assert self._store_thread is not None
        return await asyncio.get_running_loop().run_in_executor(self._store_thread, call, *args)

    @property
    def _decided(self) -> bool:
        return self._sprt_status is not None and self._sprt_status.decided

    def _sprt_pending(self) -> bool:
        return self.sprt is not None and self.config.format == "match" and not self._decided

    def _check_sprt(self, store: RunStore, tournament_id: int) -> None:
        """For a two-engine match with an SPRT: tell where it stands, and stop starting games once it
        has decided. The decision stands: games still running then finish and are stored, but the
        test is over."""
        if self._sprt_pending():
            self._apply_sprt(self._sprt_of(store, tournament_id))

    def _sprt_of(self, store: RunStore, tournament_id: int) -> SprtStatus:
        """The test on the games stored so far, or up to its decision in an earlier run (touches
        nothing of the runner: it runs in a thread)."""
        from arbiter.tournament.sprt_status import decision_note, match_sprt_status  # only with --sprt

        assert self.sprt is not None
        first, second = list(self.engines)
        status = match_sprt_status(store, tournament_id, self.sprt, first, second, paired=self.config.repeat)
        if status.decided and not status.decision_stored:
            # In the store's thread, before any other game is written: stored with the game written
            # last, the decision counts these games and no game still running, now or when resumed.
            store.record_sprt_decision(tournament_id, decision_note(status))
        return status

    def _final_sprt(self, store: RunStore, tournament_id: int) -> SprtStatus | None:
        """The test as the run leaves it: once decided, as it decided, the games that were still
        running then and finished after it told apart, as `arbiter standings` tells them."""
        status = self._sprt_status
        if status is None or not status.decided or self.sprt is None:
            return status
        from arbiter.tournament.sprt_status import match_sprt_status  # only with --sprt

        first, second = list(self.engines)
        return match_sprt_status(store, tournament_id, self.sprt, first, second, paired=self.config.repeat)

    def _apply_sprt(self, status: SprtStatus) -> None:
        if self._decided:
            return
        self._sprt_status = status
        self.observer.sprt_updated(status)
        if status.decided:
            if not status.decision_stored:  # decided just now (not in an earlier run of the match)
                from arbiter.tournament.sprt_status import decision_note

                self.observer.message(decision_note(status))
            self._draining = True


# Where files live, which cluster plays, how many games at a time and whether engines are kept between
# games may differ from one run of an event to the next; the event itself may not.
_RUN_SETTINGS = frozenset({"database", "report", "engines_file", "scheduler", "concurrency", "reuse_engines"})


def _event_settings(config: TournamentConfig) -> dict[str, object]:
    """The settings that make the event what it is: those a resumed run must share with the first."""
    return {k: v for k, v in config.model_dump(mode="json").items() if k not in _RUN_SETTINGS}


def planned_by_key(plan: TournamentPlan) -> dict[GameKey, PlannedGame]:
    return {g.key: g for g in plan.schedule.games}
