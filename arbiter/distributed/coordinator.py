"""The coordinator's side: hand a tournament's games to Dask workers and take their records back.

``arbiter run --scheduler tcp://HOST:8786`` keeps everything a local run keeps in this process (the
schedule, the SQLite database, the live view, the SPRT) and gives the runner a ``DaskGames``, which
plays each game as one Dask task on a worker that offers the ``games`` resource. A task's key is made
of the tournament and the game's key, so however often Dask runs a task again (its worker died), the
coordinator gets one answer per game and stores it once, in one transaction, as a local run does.

While the run lasts the coordinator follows the scheduler's workers (``roster``): a worker that joins is
checked like the first ones before any game may go to it, and the number of games in flight rises and
falls with the workers present. A worker that fails its check, or cannot start an engine for a game, is
turned away for the rest of the run: its games go to the others, and the event goes on without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from pydantic import ValidationError

from arbiter.distributed import require_distributed
from arbiter.distributed.orders import (
    ORDER_FORMAT,
    EngineOrder,
    EngineProblem,
    GameOrder,
    GameReturn,
    ProbeOrder,
    ProbeReport,
    arbiter_version,
    identity_from_json,
)
from arbiter.distributed.roster import Flight, WorkerRoster
from arbiter.distributed.worker import play_game_task, probe_task
from arbiter.engines import EngineConfig
from arbiter.referee.record import GameRecord
from arbiter.referee.setup import GameSetup
from arbiter.running.runner import RunError, RunFailed, RunSummary, TournamentRunner
from arbiter.store import Event, EventKind, RunStore
from arbiter.tournament.config import TournamentConfig, bundled_command
from arbiter.tournament.schedule import PlannedGame

GAMES_RESOURCE = "games"
CONNECT_SECONDS = 20.0
"""How long to try reaching the scheduler."""
WORKER_WAIT_SECONDS = 60.0
"""How long to wait for a first worker that offers the games resource."""
WATCH_SECONDS = 1.0
"""How often the coordinator asks the scheduler which workers are present."""
CANCEL_SECONDS = 5.0
RETRIES = 2
"""Extra tries of a game task that raised on its worker (a worker that died is handled by the scheduler,
which plays the task elsewhere up to its ``allowed-failures`` times)."""


class DaskGames:
    """Plays a runner's games on the workers of a Dask scheduler (see ``RemoteGames``).

    Use it as an async context manager: it connects before the first game and disconnects on exit.
    """

    def __init__(
        self,
        address: str,
        *,
        connect_seconds: float = CONNECT_SECONDS,
        worker_wait_seconds: float = WORKER_WAIT_SECONDS,
        retries: int = RETRIES,
        watch_seconds: float = WATCH_SECONDS,
    ) -> None:
        require_distributed()
        self.address = address
        self.connect_seconds = connect_seconds
        self.worker_wait_seconds = worker_wait_seconds
        self.retries = retries
        self.watch_seconds = watch_seconds
        self._client: Any = None
        self._engines: dict[str, EngineOrder] = {}
        self._reuse_engines = True
        self._task_prefix = "arbiter"
        self._variant = ""
        self.roster = WorkerRoster()
        self._turned_away: set[str] = set()
        """Addresses of the workers present that failed their check or could not start an engine: they
        get no game in this run. A worker restarted (a new process, as a rule a new address) is checked
        again."""
        self._watcher: asyncio.Task[None] | None = None
        self._runner: TournamentRunner | None = None

    # ------------------------------------------------------------------ connection

    async def __aenter__(self) -> DaskGames:
        # The scheduler is reached only when a game is to be played (``preflight``): an event with no
        # game left shows its result without one, as a local run does.
        return self

    async def _connect(self) -> None:
        from distributed import Client
        from distributed.comm.addressing import parse_address
        from distributed.comm.registry import get_backend

        _quiet_cancelled_reconnect()
        try:
            # An unknown scheme is told here: Dask's client would say it too, but leave warnings behind.
            get_backend(parse_address(self.address)[0])
        except ValueError as exc:
            raise RunError(f"cannot reach the Dask scheduler at {self.address}: {exc}") from None
        try:
            self._client = await Client(  # type: ignore[no-untyped-call]
                self.address, asynchronous=True, timeout=self.connect_seconds
            )
        except (OSError, TimeoutError, ValueError) as exc:
            raise RunFailed(f"cannot reach the Dask scheduler at {self.address}: {exc}") from None

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
            self._watcher = None
        self._runner = None
        if self._client is not None:
            client, self._client = self._client, None
            with contextlib.suppress(TimeoutError, OSError):
                await asyncio.wait_for(client.close(), CANCEL_SECONDS)

    @property
    def client(self) -> Any:
        if self._client is None:
            raise RuntimeError("DaskGames is used outside 'async with'")
        return self._client

    # ------------------------------------------------------------------ RemoteGames

    async def preflight(self, runner: TournamentRunner, store: RunStore, tournament_id: int) -> None:
        """Probe every engine on every worker that plays games. The workers that fail are turned away and
        the others play the event; the run is refused only when none passes."""
        await self._connect()
        config = runner.config
        self._engines = engine_orders(config, list(runner.engines.values()))
        self._reuse_engines = config.reuse_engines
        self._task_prefix = task_prefix(store, tournament_id)
        self._variant = config.variant
        addresses = await self._game_workers()
        reports, refused, absent = await self._probe(addresses)
        if not reports:
            problems = [f"{refusal.worker}: {problem}" for refusal in refused for problem in refusal.problems]
            problems.extend(f"worker at {address} left before answering" for address in sorted(absent))
            headline = (
                "the tournament cannot start on the Dask workers: none of them can play its games "
                "(no game was played or forfeited)"
            )
            # An engine that refuses the variant or a setting everywhere is the tournament's configuration
            # (exit status 2, as in a local run); anything else is trouble with the workers (1).
            configuration = bool(refused) and all(refusal.configuration for refusal in refused)
            raise (RunError if configuration else RunFailed)(_refusal(headline, problems))
        for name in self._engines:
            for report in reports:
                if name in report.identities:
                    store.set_engine_identity(
                        tournament_id, name, identity_from_json(report.identities[name])
                    )
                    break
        await self.roster.admit(reports)
        self._runner = runner
        for address in sorted(absent):
            # A worker lost while it was being checked is dropped; the others play the event.
            runner.observer.message(f"worker at {address} left during the preflight; going on without it")
        for refusal in refused:
            self._turned_away.add(refusal.address)
            runner.observer.message(_turned_away_text(refusal.worker, refusal.problems))
        runner.observer.message(
            f"playing on {len(reports)} Dask worker(s) of {self.address}, "
            f"{_at_a_time(self.roster)}: " + ", ".join(str(report.worker) for report in reports)
        )
        self._watcher = asyncio.create_task(self._watch(runner))

    def capacity(self) -> int:
        # The roster's seats: the games the checked workers play at once, plus one waiting at the
        # scheduler for each, so a worker starts its next game without a round trip through this process.
        return self.roster.seats()

    async def play(self, game: PlannedGame, setup: GameSetup) -> tuple[GameRecord, list[Event]]:
        order = GameOrder.of(
            str(game.key),
            setup,
            self._engines[game.white],
            self._engines[game.black],
            reuse_engines=self._reuse_engines,
        ).model_dump_json()
        async with self.roster.flight() as flight:
            attempt = 1
            while True:
                answer = await self._answer(game, order, attempt, flight)
                if answer is not None:
                    result = GameReturn.model_validate_json(answer)
                    if result.problem is None:
                        break
                    # That worker cannot start an engine: a fault of its machine, never a forfeit. It is
                    # turned away and the game, not begun, goes to the others.
                    await self._turn_away(result.problem, game)
                elif self._runner is not None and not flight.allowed & self._turned_away:
                    # Every worker that could take it left: hand it out again to the workers present. (Of
                    # a worker turned away, the message that turned it away said its games go to others.)
                    self._runner.observer.message(
                        f"game {game.key}: the workers it was given to left; given to others"
                    )
                await self.roster.rehome(flight)
                attempt += 1
        if result.error is not None or result.record is None:
            raise RunError(f"{result.worker}: {result.error or 'no record came back'}")
        played_on = Event(EventKind.NOTE, f"played on {result.worker}")
        return result.record, [played_on, *(note.event() for note in result.events)]

    async def _answer(self, game: PlannedGame, order: str, attempt: int, flight: Flight) -> str | None:
        """Hand the game to the scheduler for the flight's workers and wait for a worker's answer; None
        when it must be handed out again (those workers all left)."""
        key = f"{self._task_prefix}-{game.key}" + (f"-try{attempt}" if attempt > 1 else "")
        future = self.client.submit(
            play_game_task,
            order,
            key=key,
            resources={GAMES_RESOURCE: 1},
            workers=sorted(flight.allowed),
            allow_other_workers=False,
            retries=self.retries,
            pure=False,
        )
        answer = asyncio.create_task(_result(future))
        alarm = asyncio.create_task(flight.alarm.wait())
        failure: str | None = None
        try:
            await asyncio.wait({answer, alarm}, return_when=asyncio.FIRST_COMPLETED)
            if not answer.done() and self.roster.failure is not None:
                failure = self.roster.take_failure()
                if failure is None:
                    # Another game stops the run and says why; this one is abandoned with the rest.
                    await asyncio.wait({answer})
        except asyncio.CancelledError:
            # The run is stopping: the worker drops the game, which is played again on resume.
            answer.cancel()
            await self._cancel(future)
            raise
        finally:
            alarm.cancel()
        if answer.done():
            try:
                return answer.result()
            except Exception as exc:
                raise RunFailed(_task_failure(str(game.key), exc)) from None
        answer.cancel()
        await self._cancel(future)
        if failure is not None:
            raise RunFailed(failure)
        return None

    async def _cancel(self, future: Any) -> None:
        with contextlib.suppress(TimeoutError, OSError):
            await asyncio.wait_for(self.client.cancel([future]), CANCEL_SECONDS)

    async def _turn_away(self, problem: EngineProblem, game: PlannedGame) -> None:
        """A worker could not start an engine for a game: it gets no more games in this run, said once
        however many of its games come back so."""
        address = problem.worker.address
        if address in self._turned_away:
            return
        self._turned_away.add(address)
        await self.roster.remove([address])
        if self._runner is not None:
            self._runner.seats_changed()
            text = _turned_away_text(str(problem.worker), [f"{problem.what()}, for game {game.key}"])
            self._runner.observer.message(f"{text}; now {_at_a_time(self.roster)}")

    # ------------------------------------------------------------------ workers

    async def _probe(self, addresses: Sequence[str]) -> tuple[list[ProbeReport], list[_Refusal], list[str]]:
        """Run the preflight on these workers: the reports of those that passed, the workers that failed
        and why, and the workers that left before answering."""
        order = ProbeOrder(variant=self._variant, engines=list(self._engines.values()))
        answers = await self.client.run(
            probe_task, order.model_dump_json(), workers=list(addresses), on_error="return"
        )
        passed: list[ProbeReport] = []
        refused: list[_Refusal] = []
        absent: list[str] = []
        for address in addresses:
            answer = answers.get(address)
            if answer is None or (isinstance(answer, BaseException) and _worker_lost(answer)):
                absent.append(address)  # it went away: dropped, not a reason to refuse the run
                continue
            if isinstance(answer, BaseException):
                refused.append(_Refusal.unanswered(address, f"the preflight failed: {answer!r}"))
                continue
            try:
                report = ProbeReport.model_validate_json(answer)
            except ValidationError:
                what = "its answer to the preflight cannot be read: install the same arbiter on both"
                refused.append(_Refusal.unanswered(address, what))
                continue
            refusal = _Refusal.of(report)
            if refusal is None:
                passed.append(report)
            else:
                refused.append(refusal)
        return passed, refused, absent

    async def _watch(self, runner: TournamentRunner) -> None:
        """While the run lasts: check each worker that joins before it may get a game, let go of the
        ones that leave, and stop the run if the scheduler stays out of reach. The runner's seats follow
        the workers."""
        observer = runner.observer
        reached = time.monotonic()
        while self.roster.failure is None:
            await asyncio.sleep(self.watch_seconds)
            try:
                present = set(await self._present_workers())
            except Exception as exc:  # whatever the lost connection raises: the run cannot go on without it
                if time.monotonic() - reached >= self.connect_seconds:
                    await self.roster.fail(
                        f"lost the Dask scheduler at {self.address}: no answer for "
                        f"{self.connect_seconds:.0f} s ({type(exc).__name__}: {exc}); start it and the "
                        "workers again and run again to resume"
                    )
                continue
            reached = time.monotonic()
            for report in await self.roster.remove(set(self.roster.workers) - present):
                observer.message(f"{report.worker} left; now {_at_a_time(self.roster)}")
            runner.seats_changed()
            self._turned_away &= present  # one that left and comes back is a new start, checked again
            joined = sorted(present - set(self.roster.workers) - self._turned_away)
            if not joined:
                continue
            try:
                reports, refused, _ = await self._probe(joined)
            except Exception as exc:  # the scheduler went away while checking: the next round sees to it
                observer.message(f"could not check the workers that joined: {type(exc).__name__}: {exc}")
                continue
            for refusal in refused:
                # Turned away, not a reason to stop: the workers that can play go on with the event.
                self._turned_away.add(refusal.address)
                text = _turned_away_text(refusal.worker, refusal.problems)
                observer.message(f"{text}; now {_at_a_time(self.roster)}")
            await self.roster.admit(reports)
            runner.seats_changed()
            for report in reports:
                observer.message(f"{report.worker} joined and was checked; now {_at_a_time(self.roster)}")

    async def _present_workers(self) -> list[str]:
        """The addresses of the workers present that offer the games resource."""
        info = await self.client.scheduler.identity()
        return _playing(info.get("workers", {}))

    async def _game_workers(self) -> list[str]:
        """The addresses of the workers that offer the games resource, waiting a while for a first one."""
        deadline = time.monotonic() + self.worker_wait_seconds
        while True:
            info = await self.client.scheduler.identity()
            workers: dict[str, Any] = info.get("workers", {})
            playing = _playing(workers)
            if playing:
                return playing
            if time.monotonic() >= deadline:
                if workers:
                    raise RunFailed(
                        f"none of the {len(workers)} worker(s) of {self.address} offers the "
                        f"'{GAMES_RESOURCE}' resource: start them with "
                        f'dask worker {self.address} --resources "{GAMES_RESOURCE}=N" (N: games at once)'
                    )
                raise RunFailed(
                    f"no worker joined the Dask scheduler at {self.address} within "
                    f"{self.worker_wait_seconds:.0f} s: start one with "
                    f'dask worker {self.address} --resources "{GAMES_RESOURCE}=N"'
                )
            await asyncio.sleep(0.5)


class _CancelledNotAnError(logging.Filter):
    """Drops Dask's log of a task it cancelled itself: when the scheduler is lost, the client tries to
    reconnect, and closing it cancels that attempt, which Dask logs as an error with a traceback. The
    run's own message says what happened."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], asyncio.CancelledError))


_CANCELLED_FILTER = _CancelledNotAnError()


def _quiet_cancelled_reconnect() -> None:
    logger = logging.getLogger("distributed.client")
    if _CANCELLED_FILTER not in logger.filters:
        logger.addFilter(_CANCELLED_FILTER)


_LEAVING = frozenset({"closing", "closing_gracefully", "closed", "failed"})


def _playing(workers: dict[str, Any]) -> list[str]:
    """Of the scheduler's workers (its ``identity``), the addresses of those that offer the games
    resource and are not leaving."""
    return sorted(
        address
        for address, worker in workers.items()
        if float((worker.get("resources") or {}).get(GAMES_RESOURCE, 0)) >= 1
        and worker.get("status") not in _LEAVING
    )


def engine_orders(config: TournamentConfig, engines: list[EngineConfig]) -> dict[str, EngineOrder]:
    """Each engine as the workers get it; a bundled engine is marked so each worker uses its own Python."""
    bundled = {entry.name: entry.bundled for entry in config.engines if entry.bundled}
    orders: dict[str, EngineOrder] = {}
    for engine in engines:
        name = bundled.get(engine.name)
        is_bundled = name is not None and engine.command == bundled_command(name)
        orders[engine.name] = EngineOrder(config=engine, bundled=name if is_bundled else None)
    return orders


def task_prefix(store: RunStore, tournament_id: int) -> str:
    """Names this tournament's tasks on the scheduler: the same on every resume of this tournament of
    this database, different for any other, so two runs sharing a scheduler never share a task."""
    info = store.tournament(tournament_id)
    origin = f"{store.path.resolve()}|{tournament_id}|{info.created_at.isoformat()}"
    return f"arbiter-t{tournament_id}-{hashlib.sha256(origin.encode()).hexdigest()[:12]}"


def _at_a_time(roster: WorkerRoster) -> str:
    if not roster.workers:
        return "no worker is left: the run waits for one to join (Ctrl-C stops it)"
    games = roster.seats() - len(roster.workers)
    return f"{games} game(s) at a time on {len(roster.workers)} worker(s), one more waiting for each"


def _refusal(headline: str, problems: list[str]) -> str:
    return f"{headline}:\n" + "\n".join(f"  {p}" for p in problems)


async def _result(future: Any) -> str:
    answer: str = await future
    return answer


@dataclass(frozen=True)
class _Refusal:
    """A worker that failed its check: where it is, its name as a user finds it, and what is wrong."""

    address: str
    worker: str
    problems: list[str]
    configuration: bool
    """Every problem is an engine refusing the tournament's variant or a setting."""

    @classmethod
    def of(cls, report: ProbeReport) -> _Refusal | None:
        """What is wrong on the worker that sent this report; None when nothing is."""
        problems: list[str] = []
        ours = arbiter_version()
        other_version = report.order_format != ORDER_FORMAT or report.arbiter_version != ours
        if other_version:
            problems.append(
                f"it runs arbiter {report.arbiter_version} (message format {report.order_format}); this "
                f"coordinator runs {ours} (format {ORDER_FORMAT}): install the same arbiter on both"
            )
        problems.extend(problem.what() for problem in report.problems)
        problems.extend(report.config_errors)
        if not problems:
            return None
        configuration = not other_version and not report.problems
        return cls(report.worker.address, str(report.worker), problems, configuration)

    @classmethod
    def unanswered(cls, address: str, problem: str) -> _Refusal:
        return cls(address, f"worker at {address}", [problem], configuration=False)


def _turned_away_text(worker: str, problems: Sequence[str]) -> str:
    return (
        f"{worker} is turned away for this run: "
        + "; ".join(problems)
        + "; the other workers play its games (mend it, then restart it to have it checked again)"
    )


def _task_failure(game: str, exc: Exception) -> str:
    from distributed import KilledWorker
    from distributed.client import FutureCancelledError

    if isinstance(exc, KilledWorker):
        return (
            f"game {game}: the workers playing it died too often ({exc}); "
            "run again to resume once the workers are healthy"
        )
    if isinstance(exc, FutureCancelledError):
        return (
            f"game {game}: the Dask scheduler dropped the task ({exc}); is the scheduler still running? The "
            "games played are kept: start the scheduler and the workers again and run again to resume"
        )
    return f"game {game} failed on a worker: {type(exc).__name__}: {exc}"


async def run_on_cluster(runner: TournamentRunner, store: RunStore, address: str) -> RunSummary:
    """Run a tournament with its games played on the workers of the Dask scheduler at ``address``."""
    async with DaskGames(address) as games:
        runner.remote = games
        return await runner.run(store)


def _worker_lost(error: BaseException) -> bool:
    """Whether a worker's failed answer means the worker itself went away (its connection closed, it
    died or stopped answering), rather than that it ran the preflight and failed it."""
    from distributed.comm.core import CommClosedError

    return isinstance(error, CommClosedError | OSError | TimeoutError) or type(error).__name__ in (
        "KilledWorker",
        "WorkerLost",
    )
