"""The coordinator's side: hand a tournament's games to Dask workers and take their records back.

``arbiter run --scheduler tcp://HOST:8786`` keeps everything a local run keeps in this process (the
schedule, the SQLite database, the live view, the SPRT) and gives the runner a ``DaskGames``, which
plays each game as one Dask task on a worker that offers the ``games`` resource. A task's key is made
of the tournament and the game's key, so however often Dask runs a task again (its worker died), the
coordinator gets one answer per game and stores it once, in one transaction, as a local run does.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from types import TracebackType
from typing import Any

from arbiter.distributed import require_distributed
from arbiter.distributed.orders import (
    ORDER_FORMAT,
    EngineOrder,
    GameOrder,
    GameReturn,
    ProbeOrder,
    ProbeReport,
    arbiter_version,
    identity_from_json,
)
from arbiter.distributed.worker import play_game_task, probe_task
from arbiter.engines import EngineConfig
from arbiter.referee.record import GameRecord
from arbiter.referee.setup import GameSetup
from arbiter.store import Event, EventKind, TournamentStore
from arbiter.tournament.config import TournamentConfig, bundled_command
from arbiter.tournament.runner import RunError, RunSummary, TournamentRunner
from arbiter.tournament.schedule import PlannedGame

GAMES_RESOURCE = "games"
CONNECT_SECONDS = 20.0
"""How long to try reaching the scheduler."""
WORKER_WAIT_SECONDS = 60.0
"""How long to wait for a first worker that offers the games resource."""
CANCEL_SECONDS = 5.0
RETRIES = 2
"""Extra tries of a game task that raised on its worker (a worker that died is handled by the scheduler,
which plays the task elsewhere up to its ``allowed-failures`` times)."""


class DaskGames:
    """Plays a runner's games on the workers of a Dask scheduler (see ``RemoteGames``).

    Use it as an async context manager: it connects on entry and disconnects on exit.
    """

    def __init__(
        self,
        address: str,
        *,
        connect_seconds: float = CONNECT_SECONDS,
        worker_wait_seconds: float = WORKER_WAIT_SECONDS,
        retries: int = RETRIES,
    ) -> None:
        require_distributed()
        self.address = address
        self.connect_seconds = connect_seconds
        self.worker_wait_seconds = worker_wait_seconds
        self.retries = retries
        self._client: Any = None
        self._engines: dict[str, EngineOrder] = {}
        self._reuse_engines = True
        self._task_prefix = "arbiter"
        self._capacity = 1
        self.workers: list[ProbeReport] = []

    # ------------------------------------------------------------------ connection

    async def __aenter__(self) -> DaskGames:
        from distributed import Client

        try:
            self._client = await Client(  # type: ignore[no-untyped-call]
                self.address, asynchronous=True, timeout=self.connect_seconds
            )
        except (OSError, TimeoutError, ValueError) as exc:
            raise RunError(f"cannot reach the Dask scheduler at {self.address}: {exc}") from None
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
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

    async def preflight(self, runner: TournamentRunner, store: TournamentStore, tournament_id: int) -> None:
        """Probe every engine on every worker that plays games; refuse the run if one cannot start one."""
        config = runner.config
        self._engines = engine_orders(config, list(runner.engines.values()))
        self._reuse_engines = config.reuse_engines
        self._task_prefix = task_prefix(store, tournament_id)
        addresses = await self._game_workers()
        order = ProbeOrder(variant=config.variant, engines=list(self._engines.values()))
        answers = await self.client.run(
            probe_task, order.model_dump_json(), workers=addresses, on_error="return"
        )
        reports: list[ProbeReport] = []
        problems: list[str] = []
        for address in addresses:
            answer = answers.get(address)
            if answer is None:
                problems.append(f"worker at {address} left before answering the preflight")
            elif isinstance(answer, BaseException):
                problems.append(f"worker at {address}: the preflight failed: {answer!r}")
            else:
                reports.append(ProbeReport.model_validate_json(answer))
        problems.extend(_report_problems(reports))
        if problems:
            raise RunError(
                "the tournament cannot start on the Dask workers (no game was played or forfeited):\n"
                + "\n".join(f"  {p}" for p in problems)
            )
        for name in self._engines:
            for report in reports:
                if name in report.identities:
                    store.set_engine_identity(
                        tournament_id, name, identity_from_json(report.identities[name])
                    )
                    break
        self.workers = reports
        self._capacity = max(1, int(sum(report.games for report in reports)))
        runner.observer.message(
            f"playing on {len(reports)} Dask worker(s) of {self.address}, "
            f"{self._capacity} game(s) at a time, {len(reports)} more waiting: "
            + ", ".join(str(report.worker) for report in reports)
        )

    def capacity(self) -> int:
        # One game more than they play per worker, waiting at the scheduler: a worker that finishes a
        # game starts the next at once instead of after a round trip through this process.
        return self._capacity + len(self.workers)

    async def play(self, game: PlannedGame, setup: GameSetup) -> tuple[GameRecord, list[Event]]:
        order = GameOrder.of(
            str(game.key),
            setup,
            self._engines[game.white],
            self._engines[game.black],
            reuse_engines=self._reuse_engines,
        )
        future = self.client.submit(
            play_game_task,
            order.model_dump_json(),
            key=f"{self._task_prefix}-{game.key}",
            resources={GAMES_RESOURCE: 1},
            retries=self.retries,
            pure=False,
        )
        try:
            answer = await future
        except asyncio.CancelledError:
            # The run is stopping: the worker drops the game, which is played again on resume.
            with contextlib.suppress(TimeoutError, OSError):
                await asyncio.wait_for(self.client.cancel([future]), CANCEL_SECONDS)
            raise
        except Exception as exc:
            raise RunError(_task_failure(str(game.key), exc)) from None
        result = GameReturn.model_validate_json(answer)
        if result.problem is not None:
            raise RunError(
                f"{result.problem.describe()} (game {game.key}); the game was not played and nothing was "
                "forfeited: make the engine available on that worker (see docs/distributed.md) and run "
                "again to resume"
            )
        if result.error is not None or result.record is None:
            raise RunError(f"{result.worker}: {result.error or 'no record came back'}")
        played_on = Event(EventKind.NOTE, f"played on {result.worker}")
        return result.record, [played_on, *(note.event() for note in result.events)]

    # ------------------------------------------------------------------ workers

    async def _game_workers(self) -> list[str]:
        """The addresses of the workers that offer the games resource, waiting a while for a first one."""
        deadline = time.monotonic() + self.worker_wait_seconds
        while True:
            info = await self.client.scheduler.identity()
            workers: dict[str, Any] = info.get("workers", {})
            playing = sorted(
                address
                for address, worker in workers.items()
                if float((worker.get("resources") or {}).get(GAMES_RESOURCE, 0)) >= 1
            )
            if playing:
                return playing
            if time.monotonic() >= deadline:
                if workers:
                    raise RunError(
                        f"none of the {len(workers)} worker(s) of {self.address} offers the "
                        f"'{GAMES_RESOURCE}' resource: start them with "
                        f'dask worker {self.address} --resources "{GAMES_RESOURCE}=N" (N: games at once)'
                    )
                raise RunError(
                    f"no worker joined the Dask scheduler at {self.address} within "
                    f"{self.worker_wait_seconds:.0f} s: start one with "
                    f'dask worker {self.address} --resources "{GAMES_RESOURCE}=N"'
                )
            await asyncio.sleep(0.5)


def engine_orders(config: TournamentConfig, engines: list[EngineConfig]) -> dict[str, EngineOrder]:
    """Each engine as the workers get it; a bundled engine is marked so each worker uses its own Python."""
    bundled = {entry.name: entry.bundled for entry in config.engines if entry.bundled}
    orders: dict[str, EngineOrder] = {}
    for engine in engines:
        name = bundled.get(engine.name)
        is_bundled = name is not None and engine.command == bundled_command(name)
        orders[engine.name] = EngineOrder(config=engine, bundled=name if is_bundled else None)
    return orders


def task_prefix(store: TournamentStore, tournament_id: int) -> str:
    """Names this tournament's tasks on the scheduler: the same on every resume of this tournament of
    this database, different for any other, so two runs sharing a scheduler never share a task."""
    info = store.tournament(tournament_id)
    origin = f"{store.path.resolve()}|{tournament_id}|{info.created_at.isoformat()}"
    return f"arbiter-t{tournament_id}-{hashlib.sha256(origin.encode()).hexdigest()[:12]}"


def _report_problems(reports: list[ProbeReport]) -> list[str]:
    problems: list[str] = []
    ours = arbiter_version()
    for report in reports:
        if report.order_format != ORDER_FORMAT or report.arbiter_version != ours:
            problems.append(
                f"{report.worker} runs arbiter {report.arbiter_version} "
                f"(message format {report.order_format}); this coordinator runs {ours} "
                f"(format {ORDER_FORMAT}): install the same arbiter on both"
            )
        problems.extend(problem.describe() for problem in report.problems)
        problems.extend(report.config_errors)
    return problems


def _task_failure(game: str, exc: Exception) -> str:
    from distributed import KilledWorker
    from distributed.client import FutureCancelledError

    if isinstance(exc, KilledWorker):
        return (
            f"game {game}: the workers playing it died too often ({exc}); "
            "run again to resume once the workers are healthy"
        )
    if isinstance(exc, FutureCancelledError):
        return f"game {game}: the Dask scheduler dropped the task ({exc}); is the scheduler still running?"
    return f"game {game} failed on a worker: {type(exc).__name__}: {exc}"


async def run_on_cluster(runner: TournamentRunner, store: TournamentStore, address: str) -> RunSummary:
    """Run a tournament with its games played on the workers of the Dask scheduler at ``address``."""
    async with DaskGames(address) as games:
        runner.remote = games
        return await runner.run(store)
