"""The engine layer: child processes speaking Hub or DXP. It moves strings and knows no draughts rules
(CheckerBoard engine libraries are run by an adapter program that does; see ``checkerboard``).

Typical use by the referee::

    engine = create_engine(config, stderr_log=path)
    await engine.open(variant="english")        # start, handshake, set-param, init/ready
    await engine.new_game()
    result = await engine.search(position, moves, Clock(60, inc=1), timeout=61)
    ...
    await engine.quit()                          # never leaves a process behind
    record(engine.faults)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from arbiter.engines.client import EngineClient, SearchHandle, SearchMode
from arbiter.engines.comm_log import CommLog
from arbiter.engines.config import DxpSettings, EngineConfig, ParamValue, Timeouts
from arbiter.engines.faults import (
    FAULT_KINDS,
    BadMoveFormat,
    Crashed,
    EngineConfigError,
    EngineFault,
    EngineReportedError,
    GameRefused,
    Garbage,
    HandshakeTimeout,
    LineTooLong,
    OutputFlood,
    PingTimeout,
    ProtocolError,
    QuitTimeout,
    ReadyTimeout,
    SearchTimeout,
    StartFailed,
    StartupExit,
    StderrFlood,
    StopIgnored,
    StrayProcesses,
    Unresponsive,
    VariantUnsupported,
)
from arbiter.engines.hub import HubEngine
from arbiter.engines.level import Clock, Depth, Infinite, Level, MoveTime, Nodes
from arbiter.engines.params import (
    EngineIdentity,
    ParamDecl,
    configured_settings,
    resolve_settings,
    variant_setting,
)
from arbiter.engines.results import Info, SearchResult
from arbiter.engines.stderr_budget import StderrBudget

if TYPE_CHECKING:
    from arbiter.engines.checkerboard.client import CheckerBoardEngine
    from arbiter.engines.dxp import DxpEngine


def create_engine(
    config: EngineConfig,
    *,
    stderr_log: Path | None = None,
    comm_log: CommLog | None = None,
    stderr_budget: StderrBudget | None = None,
) -> EngineClient:
    """The client for ``config.protocol``; nothing is started yet. ``stderr_budget``: the one the
    engine's other processes in the event share (see ``stderr_budget``)."""
    if config.protocol == "dxp":
        from arbiter.engines.dxp import DxpEngine

        return DxpEngine(config, stderr_log=stderr_log, comm_log=comm_log, stderr_budget=stderr_budget)
    if config.protocol == "checkerboard":
        from arbiter.engines.checkerboard.client import CheckerBoardEngine

        return CheckerBoardEngine(
            config, stderr_log=stderr_log, comm_log=comm_log, stderr_budget=stderr_budget
        )
    return HubEngine(config, stderr_log=stderr_log, comm_log=comm_log, stderr_budget=stderr_budget)


def __getattr__(name: str) -> object:
    # The DXP client (its wire format, its clock) and the CheckerBoard one (its Wine check) load when such
    # an engine is made or the class is named: a match of Hub engines does not import them.
    if name == "DxpEngine":
        from arbiter.engines.dxp import DxpEngine

        return DxpEngine
    if name == "CheckerBoardEngine":
        from arbiter.engines.checkerboard.client import CheckerBoardEngine

        return CheckerBoardEngine
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


async def probe_engine(
    config: EngineConfig, variants: list[str], *, stderr_log: Path | None = None
) -> EngineIdentity:
    """Start the engine once and check its configuration against each variant, before any game.

    Raises EngineConfigError / VariantUnsupported for configuration problems and EngineFault when the
    engine misbehaves. The engine is always ended before this returns.
    """
    engine = create_engine(config, stderr_log=stderr_log)
    try:
        await engine.start()
        identity = await engine.handshake()
        if isinstance(engine, HubEngine):
            checks: list[str | None] = list(variants) or [None]
            for variant in checks:
                configured_settings(config, identity.params, variant)
        else:
            for variant in variants:
                await engine.configure(variant)
        return identity
    finally:
        await engine.quit()


__all__ = [
    "FAULT_KINDS",
    "BadMoveFormat",
    "Crashed",
    "EngineReportedError",
    "GameRefused",
    "Garbage",
    "HandshakeTimeout",
    "LineTooLong",
    "OutputFlood",
    "PingTimeout",
    "ProtocolError",
    "QuitTimeout",
    "ReadyTimeout",
    "SearchTimeout",
    "StartFailed",
    "StartupExit",
    "StderrFlood",
    "StopIgnored",
    "StrayProcesses",
    "Unresponsive",
    "CheckerBoardEngine",
    "Clock",
    "CommLog",
    "Depth",
    "DxpEngine",
    "DxpSettings",
    "EngineClient",
    "EngineConfig",
    "EngineConfigError",
    "EngineFault",
    "EngineIdentity",
    "HubEngine",
    "Infinite",
    "Info",
    "Level",
    "MoveTime",
    "Nodes",
    "ParamDecl",
    "ParamValue",
    "SearchHandle",
    "SearchMode",
    "SearchResult",
    "StderrBudget",
    "Timeouts",
    "VariantUnsupported",
    "create_engine",
    "probe_engine",
    "resolve_settings",
    "variant_setting",
]
