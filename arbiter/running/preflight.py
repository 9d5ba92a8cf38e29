"""Before the first game of a command: every engine started and handshaken once, and the settings that
no game could play (a fixed DXP port shared by concurrent games, a clock DXP cannot announce) refused.
More games at a time than CPUs is warned about: it plays, but not fairly.

A command that fails here stops with the engine's error before anything is stored, so it can be run
again, corrected, on the same database.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from arbiter.engines import (
    CommLog,
    EngineConfig,
    EngineConfigError,
    EngineFault,
    EngineIdentity,
    HandshakeTimeout,
    ReadyTimeout,
    StderrBudget,
    create_engine,
)
from arbiter.referee.dxp_terms import dxp_clock_notes
from arbiter.referee.timecontrol import parse_time_control
from arbiter.rules import Position, get_variant
from arbiter.rules.variants import engine_variant
from arbiter.running.engine_logs import debug_log, preflight_log
from arbiter.tournament.config import TournamentConfig

# Lines of what was said to a failing engine shown with its error.
SHOWN_LINES = 12


class PreflightError(Exception):
    """An engine or a setting that stops the command before any game; the message says which and why.
    ``configuration``: every problem is one of configuration (a variant the engine cannot play, a
    parameter it does not declare, a clock DXP cannot carry), none an engine that failed."""

    def __init__(self, message: str, *, configuration: bool) -> None:
        super().__init__(message)
        self.configuration = configuration


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity, which the engines it starts inherit)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def crowding_warning(concurrency: int, cpus: int) -> str | None:
    """A warning when more games are played at a time than there are CPUs for the engines thinking in
    them (one in each game): they then take turns on the CPUs, each searches less than its clock allows
    for, and a move can arrive late through no fault of the engine."""
    if concurrency <= cpus:
        return None
    plural = "s" if cpus != 1 else ""
    return (
        f"{concurrency} games at a time on {cpus} CPU{plural}: the engines thinking at once take turns "
        "on the CPUs, so each searches less than its clock allows for and may lose on time; play at most "
        f"{cpus} at a time (--concurrency {cpus}), or give --force-concurrency to play so anyway"
    )


class _Problem(NamedTuple):
    text: str
    configuration: bool


def check_dxp_settings(config: TournamentConfig, engines: Sequence[EngineConfig]) -> list[str]:
    """Problems with DXP engines no game could get past, and warnings, before the event.

    Returns the warnings; raises PreflightError for the problems.
    """
    problems = [
        f"engine {engine.name!r} listens on the fixed DXP port {engine.dxp.port}, but "
        f"{config.concurrency} games are played at a time and each needs its own engine: use "
        "concurrency 1, or port 0 with {port} in the engine's command"
        for engine in engines
        if engine.protocol == "dxp" and engine.dxp.port != 0 and config.concurrency > 1
    ]
    clock_problems, warnings = dxp_clock_notes(
        (engine, parse_time_control(config.time_controls.get(engine.name, config.time_control)))
        for engine in engines
    )
    problems += clock_problems
    if problems:
        raise PreflightError("\n".join(problems), configuration=True)
    return warnings


async def preflight_engines(
    engines: Sequence[EngineConfig],
    variant: str,
    log_dir: Path | None = None,
    stderr_budgets: Mapping[str, StderrBudget] | None = None,
) -> dict[str, EngineIdentity]:
    """Start each engine once, run its handshake, check its settings against ``variant`` and begin a game
    (`new-game` and `ping`, as every game does; a DXP engine is proposed a game and it is ended).

    ``stderr_budgets``: each engine's budget of stderr kept over the event, which its games share.

    Returns each engine's identity; raises PreflightError naming every engine that failed, with its
    error and the last lines said to and by it.
    """
    budgets = stderr_budgets or {}
    results = await asyncio.gather(
        *(_probe(engine, variant, log_dir, budgets.get(engine.name)) for engine in engines)
    )
    problems = [problem for problem in results if isinstance(problem, _Problem)]
    if problems:
        configuration = all(problem.configuration for problem in problems)
        raise PreflightError("\n".join(problem.text for problem in problems), configuration=configuration)
    return {
        engine.name: identity
        for engine, identity in zip(engines, results, strict=True)
        if isinstance(identity, EngineIdentity)
    }


async def _probe(
    engine: EngineConfig, variant: str, log_dir: Path | None, budget: StderrBudget | None
) -> EngineIdentity | _Problem:
    """The engine's identity, or what went wrong, in words."""
    stderr_log = comm = None
    if log_dir is not None:
        stderr_log = preflight_log(log_dir, engine.name)
        if engine.debug:
            comm = CommLog(engine.name, debug_log(log_dir, engine.name))
    client = create_engine(engine, stderr_log=stderr_log, comm_log=comm, stderr_budget=budget)
    client.comm_log.context = "preflight"
    told = engine_variant(variant)  # as the games will tell it: draw-only options left out
    try:
        await client.start()
        identity = await client.handshake()
        await client.configure(told)  # a setting the engine refuses is an EngineConfigError before it is sent
        if engine.protocol == "dxp":
            from arbiter.engines.dxp import DxpEngine  # loaded by create_engine for this engine

            assert isinstance(client, DxpEngine)
            # A DXP engine says its name only when it accepts a game: one is proposed and ended at once.
            return await client.introduce(Position.start(get_variant(variant)).hub())
        # Every game begins with `new-game` and a `ping`: an engine that fails there (exits, or never
        # answers) would forfeit every game it is given, so it is found here, before any is.
        await client.new_game()
        return client.identity or identity
    except EngineConfigError as error:
        return _Problem(str(error), configuration=True)
    except EngineFault as fault:
        said = "\n".join(f"    {line}" for line in list(client.comm_log.recent)[-SHOWN_LINES:])
        where = f" (working directory {engine.working_dir})" if engine.working_dir else ""
        # A CheckerBoard engine has no command: it is its library.
        started = (
            f"library: {engine.library}"
            if engine.library is not None
            else f"command: {' '.join(engine.command)}"
        )
        text = f"{fault}\n  {started}{where}"
        if said:
            text += f"\n  last lines exchanged:\n{said}"
        if isinstance(fault, HandshakeTimeout | ReadyTimeout):
            # A slow start (Wine making its prefix, endgame databases loading) is met by a longer wait.
            wait = "handshake" if isinstance(fault, HandshakeTimeout) else "ready"
            text += (
                f"\n  to wait longer: timeouts.{wait}=SECONDS in the engine's settings (a tournament file: "
                f"{wait} under [engines.timeouts])"
            )
        return _Problem(text, configuration=False)
    finally:
        await client.quit()
