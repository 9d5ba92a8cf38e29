"""One game from engine configurations: start both engines, play, and quit them whatever happened.

An engine that cannot be started (missing program, crash during the handshake, no ``ready``) forfeits
the game with the termination ``start_failure``; it does not stop the caller. Configuration mistakes
that no game could fix (a variant the engine does not play, a parameter it rejects) are raised as
``EngineConfigError``, after both engines have been ended.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

from arbiter.engines import CommLog, EngineClient, EngineConfig, EngineFault, create_engine
from arbiter.engines.log_names import file_safe
from arbiter.engines.pauses import settle_for_timing
from arbiter.referee.dxp_terms import with_dxp_margins
from arbiter.referee.game import color_name, play_game, player_record, result_words
from arbiter.referee.observer import GameObserver
from arbiter.referee.record import GameOutcome, GameRecord, Termination, Winner
from arbiter.referee.setup import GameSetup
from arbiter.rules import Color
from arbiter.rules.variants import engine_variant


async def play_game_from_configs(
    setup: GameSetup,
    white: EngineConfig,
    black: EngineConfig,
    *,
    observer: GameObserver | None = None,
    log_dir: Path | None = None,
    comm_logs: Mapping[str, CommLog] | None = None,
) -> GameRecord:
    """Start both engines, play one game, quit them, and return the record.

    ``log_dir`` is where each engine's stderr is kept (default: a temporary directory removed after
    the game); ``comm_logs`` (by engine name) where what is said to each engine is logged. The setup is
    checked first, so a bad opening raises ``GameSetupError`` before any engine runs.
    """
    prepared = setup.prepare()
    setup = with_dxp_margins(setup, white, black)
    configs = {Color.WHITE: white, Color.BLACK: black}
    engines: dict[Color, EngineClient] = {}
    scratch = None
    if log_dir is None:
        # Nobody asked to keep the logs: they live as long as the game, and do not pile up.
        scratch = tempfile.TemporaryDirectory(prefix="arbiter-game-")
        log_dir = Path(scratch.name)
    for color, config in configs.items():
        log = None if log_dir is None else log_dir / f"{color.name.lower()}-{file_safe(config.name)}.log"
        engines[color] = create_engine(config, stderr_log=log, comm_log=(comm_logs or {}).get(config.name))
    record: GameRecord | None = None
    started: dict[Color, int] = {}  # faults met while starting, before the game counts its own
    try:
        opened = await asyncio.gather(
            *(engine.open(engine_variant(prepared.variant.id)) for engine in engines.values()),
            return_exceptions=True,
        )
        failures: dict[Color, EngineFault] = {}
        for color, outcome in zip(engines, opened, strict=True):
            if isinstance(outcome, EngineFault):
                failures[color] = outcome
            elif isinstance(outcome, BaseException):
                raise outcome
        if failures:
            record = start_failure_record(setup, engines, failures)
            if observer is not None:
                observer.game_ended(record, prepared.start)
            return record
        started = {color: len(engine.faults) for color, engine in engines.items()}
        settle_for_timing()  # start-up is over: keep the collector's pauses away from the clocks
        record = await play_game(setup, engines[Color.WHITE], engines[Color.BLACK], observer=observer)
        return record
    finally:
        played = {color: len(engine.faults) for color, engine in engines.items()}
        await asyncio.gather(*(engine.quit() for engine in engines.values()))
        if scratch is not None:
            scratch.cleanup()
        if record is not None:
            _note_outside_faults(record, engines, started, played)


def _note_outside_faults(
    record: GameRecord,
    engines: dict[Color, EngineClient],
    started: dict[Color, int],
    played: dict[Color, int],
) -> None:
    """The record's warnings gain what the engines did wrong outside the game itself: while starting
    (non-fatal faults such as a stderr flood) and while quitting (no exit, processes left behind)."""
    for color, engine in engines.items():
        side = color_name(color)
        outside = engine.faults[: started.get(color, 0)] + engine.faults[played[color] :]
        record.warnings.extend(f"{side}: {fault}" for fault in outside if not fault.fatal)


def start_failure_record(
    setup: GameSetup, engines: dict[Color, EngineClient], failures: dict[Color, EngineFault]
) -> GameRecord:
    """The record of a game that never began because one engine (or both) could not be started: the
    other engine wins by forfeit; when both failed, the game stays unfinished."""
    prepared = setup.prepare()
    now = datetime.now(UTC)
    if len(failures) == 2:
        winner = Winner.UNFINISHED
        reason = "Unfinished: neither engine could be started: " + "; ".join(
            f"{color_name(color)}: {fault}" for color, fault in failures.items()
        )
    else:
        [(loser, fault)] = failures.items()
        winner = Winner.side(loser.opponent)
        reason = f"{result_words(loser.opponent)}: {color_name(loser)}'s engine failed to start: {fault}"
    return GameRecord(
        variant=prepared.variant.id,
        white=player_record(engines[Color.WHITE]),
        black=player_record(engines[Color.BLACK]),
        start_fen=prepared.start.fen(),
        opening=setup.opening,
        time_control=str(setup.time_control),
        outcome=GameOutcome.of(winner, Termination.START_FAILURE, reason=reason),
        started_at=now,
        ended_at=now,
        tags=dict(setup.tags),
    )
