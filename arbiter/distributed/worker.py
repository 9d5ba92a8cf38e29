"""The worker's side: play the games a coordinator orders, and answer its preflight.

Dask runs each game task in one of the worker's threads. The games themselves all run on one asyncio
loop per worker process, in a thread of its own (the engine host), just as a local run plays its games
on one loop: the referee's clocks are read there, on the machine where the engines run, never across
the network. The host keeps engines running between games (``new-game``) when the tournament allows it,
and ends the ones left idle for a while, so a worker that outlives a tournament does not keep its engines.

An engine this worker cannot start is reported back as a problem, not played as a forfeit: the
coordinator then stops the run and names the worker and the engine.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import logging
import socket
import threading
import time
import weakref
from collections.abc import Coroutine
from typing import Any, TypeVar

from pydantic import ValidationError

from arbiter.distributed.host_engines import HostEngineError, host_config, host_overrides_file, read_overrides
from arbiter.distributed.orders import (
    ORDER_FORMAT,
    EngineFaultNote,
    EngineProblem,
    GameOrder,
    GameReturn,
    ProbeOrder,
    ProbeReport,
    WorkerName,
    arbiter_version,
    identity_json,
)
from arbiter.engines import (
    EngineClient,
    EngineConfig,
    EngineConfigError,
    EngineFault,
    StderrBudget,
    create_engine,
    probe_engine,
)
from arbiter.engines.pauses import settle_for_timing
from arbiter.referee.game import play_game
from arbiter.referee.record import PlayerRecord
from arbiter.referee.setup import GameSetupError
from arbiter.referee.timecontrol import TimeControlError
from arbiter.rules import Color
from arbiter.rules.variants import engine_variant
from arbiter.running import event_loop
from arbiter.store import Event, EventKind

IDLE_SECONDS = 120.0
"""An engine left unused this long is ended."""
SWEEP_SECONDS = 10.0
POLL_SECONDS = 0.5
"""How often a game task checks that the coordinator still wants its game."""
CLOSE_SECONDS = 10.0

_T = TypeVar("_T")

logger = logging.getLogger("arbiter.distributed")


class GameDropped(Exception):
    """The coordinator no longer wants this game (its run was stopped): the game was abandoned here."""


class EngineHost:
    """One asyncio loop in a thread of its own, where this process plays its games and keeps its engines."""

    def __init__(self) -> None:
        self._loop = event_loop.new_loop()  # the loop `arbiter run` plays its own games on
        self._idle: dict[tuple[str, str], list[tuple[EngineClient, float]]] = {}
        # Each engine's stderr kept in its logs here, by event and engine name: one budget for all the
        # processes this worker starts for it (its logs are temporary files no later run looks for).
        self._stderr_budgets: dict[tuple[str, str], StderrBudget] = {}
        # How many of each engine's faults have gone back with a game: the rest (met while it started,
        # or while it waited idle between games) go with the next game it plays.
        self._faults_reported: weakref.WeakKeyDictionary[EngineClient, int] = weakref.WeakKeyDictionary()
        self._playing = 0  # games between taking their engines and giving them back
        self._thread = threading.Thread(target=self._serve, name="arbiter-engine-host", daemon=True)
        self._thread.start()
        self._sweeper = self.submit(self._sweep_idle())

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_forever()

    def submit(self, work: Coroutine[Any, Any, _T]) -> concurrent.futures.Future[_T]:
        return asyncio.run_coroutine_threadsafe(work, self._loop)

    def close(self) -> None:
        """End every idle engine and the loop (at process exit)."""
        if not self._loop.is_running():
            return
        # The sweep is cancelled first, so the loop is not stopped with it still pending (its task
        # would be destroyed half-way, with a warning at exit); the engines' quit lets it see that.
        self._sweeper.cancel()
        with contextlib.suppress(Exception):
            self.submit(self._quit_idle(0.0)).result(timeout=CLOSE_SECONDS)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=CLOSE_SECONDS)

    # ------------------------------------------------------------------ engines

    async def _take(self, config: EngineConfig, variant: str, event: str) -> EngineClient:
        """A running engine of this configuration for the next game: an idle one, or a fresh start."""
        idle = self._idle.get(_pool_key(config, variant), [])
        while idle:
            engine, _ = idle.pop()
            if engine.alive:
                return engine
            await engine.quit()
        budget = self._stderr_budgets.get((event, config.name))
        if budget is None:
            budget = self._stderr_budgets[event, config.name] = StderrBudget.for_engine(config)
        engine = create_engine(config, stderr_budget=budget)
        try:
            await engine.open(engine_variant(variant))
        except BaseException:
            await engine.quit()
            raise
        return engine

    def _give_back(self, engine: EngineClient, variant: str) -> None:
        self._idle.setdefault(_pool_key(engine.config, variant), []).append((engine, time.monotonic()))

    async def _quit_idle(self, older_than: float) -> None:
        now = time.monotonic()
        ending: list[EngineClient] = []
        for key, idle in list(self._idle.items()):
            keep = [(engine, since) for engine, since in idle if now - since < older_than]
            ending.extend(engine for engine, since in idle if now - since >= older_than)
            self._idle[key] = keep
        await asyncio.gather(*(engine.quit() for engine in ending), return_exceptions=True)
        for engine in ending:
            # No game is left to carry these (a local run stores them with the engine's last game): the
            # worker's log keeps them.
            for fault in engine.faults[self._faults_reported.get(engine, 0) :]:
                logger.warning(
                    "engine %r, ended after its last game: %s: %s", engine.config.name, fault.kind, fault
                )

    async def _sweep_idle(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            await self._quit_idle(IDLE_SECONDS)

    # ------------------------------------------------------------------ one game

    async def play(self, order: GameOrder, worker: WorkerName) -> GameReturn:
        """Play one ordered game as a local run's seat would, and say how it went."""
        try:
            setup = order.setup()
            setup.prepare()
        except (GameSetupError, TimeControlError, ValueError) as exc:
            return GameReturn(worker=worker, error=f"game {order.game}: {exc}")
        sides = {Color.WHITE: order.white, Color.BLACK: order.black}
        opened: dict[Color, EngineClient] = {}
        self._playing += 1
        try:
            for color, engine_order in sides.items():
                try:
                    config = host_config(engine_order)
                    opened[color] = await self._take(config, setup.variant, order.tags.get("Event", ""))
                except (HostEngineError, EngineFault, EngineConfigError) as exc:
                    problem = EngineProblem(worker=worker, engine=engine_order.config.name, message=str(exc))
                    for engine in opened.values():
                        self._give_back(engine, setup.variant)
                    opened.clear()
                    return GameReturn(worker=worker, problem=problem)
            if self._playing == 1:
                # No other game's clock runs on this host: settle as a local run does after its
                # preflight (the first game here has just imported and started what it needs).
                settle_for_timing()
            record = await play_game(
                setup,
                opened[Color.WHITE],
                opened[Color.BLACK],
                white_player=PlayerRecord(name=order.white.config.name),
                black_player=PlayerRecord(name=order.black.config.name),
            )
        except BaseException:
            # Cancelled (the coordinator dropped the game) or broken: these engines are in no state to reuse.
            await _quit_all(list(opened.values()))
            raise
        finally:
            self._playing -= 1
        kept: list[EngineClient] = []
        ending: list[EngineClient] = []
        for engine in opened.values():
            faulted = len(engine.faults) > self._faults_reported.get(engine, 0)
            reuse = order.reuse_engines and not faulted and engine.reusable
            (kept if reuse else ending).append(engine)
        events: list[EngineFaultNote] = []
        try:
            # Ended before their faults are read, so the faults met while ending (one that ignored `quit`,
            # one that left processes behind) go back with this game, as a local run stores them with it.
            await _quit_all(ending)
            for color, engine in opened.items():
                new_faults = engine.faults[self._faults_reported.get(engine, 0) :]
                self._faults_reported[engine] = len(engine.faults)
                for fault in new_faults:
                    note = Event(EventKind.FAULT, f"{fault.kind}: {fault}", engine=sides[color].config.name)
                    events.append(EngineFaultNote.of(note))
        finally:
            for engine in kept:  # only now, so no other game takes one while this game's faults are read
                self._give_back(engine, setup.variant)
        return GameReturn(worker=worker, record=record, events=events)

    # ------------------------------------------------------------------ preflight

    async def probe(self, order: ProbeOrder, worker: WorkerName, games: float) -> ProbeReport:
        """Start each engine once with this host's configuration and check it plays the variant."""
        identities: dict[str, str] = {}
        problems: list[EngineProblem] = []
        config_errors: list[str] = []
        try:
            overrides = _overrides()
        except HostEngineError as exc:
            # The file as a whole (unreadable, not TOML): said once, not once for each engine.
            problems = [EngineProblem(worker=worker, engine=None, message=str(exc))]
            return _report(worker, games, identities, problems, config_errors)
        configs: dict[str, EngineConfig] = {}
        for engine_order in order.engines:
            try:
                configs[engine_order.config.name] = host_config(engine_order, overrides)
            except HostEngineError as exc:
                problems.append(
                    EngineProblem(worker=worker, engine=engine_order.config.name, message=str(exc))
                )
        outcomes = await asyncio.gather(
            *(probe_engine(config, [engine_variant(order.variant)]) for config in configs.values()),
            return_exceptions=True,
        )
        for name, outcome in zip(configs, outcomes, strict=True):
            if isinstance(outcome, EngineConfigError):
                config_errors.append(str(outcome))  # the coordinator names the worker
            elif isinstance(outcome, EngineFault):
                problems.append(EngineProblem(worker=worker, engine=name, message=str(outcome)))
            elif isinstance(outcome, BaseException):
                raise outcome
            else:
                identities[name] = identity_json(outcome)
        if self._playing == 0:
            settle_for_timing()  # the preflight is over, as in a local run
        return _report(worker, games, identities, problems, config_errors)


def _report(
    worker: WorkerName,
    games: float,
    identities: dict[str, str],
    problems: list[EngineProblem],
    config_errors: list[str],
) -> ProbeReport:
    return ProbeReport(
        worker=worker,
        arbiter_version=arbiter_version(),
        order_format=ORDER_FORMAT,
        games=games,
        identities=identities,
        problems=problems,
        config_errors=config_errors,
    )


def _overrides() -> dict[str, dict[str, Any]]:
    path = host_overrides_file()
    return read_overrides(path) if path is not None else {}


async def _quit_all(engines: list[EngineClient]) -> None:
    """End these engines, all of them even when the game is dropped (cancelled) meanwhile: an engine
    left out would run on, with no game, as long as the worker does."""
    await asyncio.shield(asyncio.gather(*(engine.quit() for engine in engines), return_exceptions=True))


def _pool_key(config: EngineConfig, variant: str) -> tuple[str, str]:
    return config.model_dump_json(), variant


_host: EngineHost | None = None
_host_lock = threading.Lock()


def engine_host() -> EngineHost:
    """This process's engine host, started on first use and closed at exit."""
    global _host
    with _host_lock:
        if _host is None:
            _host = EngineHost()
            atexit.register(_host.close)
        return _host


# ---------------------------------------------------------------------- what Dask runs


def play_game_task(order_json: str) -> str:
    """A game task: the order and the answer are JSON text (a ``GameOrder``, a ``GameReturn``)."""
    worker = this_worker()
    try:
        order = GameOrder.model_validate_json(order_json)
    except ValidationError as exc:
        problem = f"the game order cannot be used on this worker: {exc}"
        return GameReturn(worker=worker, error=problem).model_dump_json()
    running = engine_host().submit(engine_host().play(order, worker))
    while True:
        try:
            return running.result(timeout=POLL_SECONDS).model_dump_json()
        except concurrent.futures.TimeoutError:
            if not _task_still_wanted():
                running.cancel()
                logger.warning("game %s abandoned: the coordinator no longer wants it", order.game)
                raise GameDropped(f"game {order.game}: dropped by the coordinator") from None


async def probe_task(order_json: str, dask_worker: Any = None) -> str:
    """The preflight, run on every worker through ``Client.run`` (on the worker's own loop, so it only
    waits for the engine host and never blocks the worker)."""
    worker = this_worker(dask_worker)
    order = ProbeOrder.model_validate_json(order_json)
    games = _games_resource(dask_worker)
    report = await asyncio.wrap_future(engine_host().submit(engine_host().probe(order, worker, games)))
    return report.model_dump_json()


def this_worker(dask_worker: Any = None) -> WorkerName:
    """The Dask worker running this code, or this process when it runs outside Dask."""
    host = socket.gethostname()
    worker = dask_worker
    if worker is None:
        try:
            from distributed import get_worker

            worker = get_worker()
        except (ImportError, ValueError):
            return WorkerName(address="(this process)", name="", host=host)
    return WorkerName(address=str(worker.address), name=str(worker.name), host=host)


def _games_resource(dask_worker: Any) -> float:
    try:
        return float(dask_worker.state.total_resources.get("games", 0.0))
    except AttributeError:
        return 0.0


def _task_still_wanted() -> bool:
    """False once the scheduler has told this worker to drop the running task (its client cancelled it
    or went away); True whenever that cannot be known."""
    try:
        from distributed import get_worker

        worker = get_worker()
        task = worker.state.tasks.get(worker.get_current_task())
    except (ImportError, ValueError, AttributeError, KeyError):
        return True
    return task is not None and task.state not in ("cancelled", "released", "forgotten")
