"""Playing a time control with a DXP engine: what its game request cannot announce (refused or warned
about before the game) and the time margin that covers its whole-second clock (see
``arbiter.engines.dxp_clock``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from arbiter.engines.config import EngineConfig
from arbiter.engines.dxp_clock import announced_minutes
from arbiter.referee.setup import GameSetup
from arbiter.referee.timecontrol import ClockStages, FixedMoveTime, TimeControl
from arbiter.rules import Color


def dxp_time_problem(control: TimeControl) -> tuple[str | None, str | None]:
    """(a problem that refuses the game, a warning) for playing ``control`` with a DXP engine."""
    base = control.base
    if isinstance(base, ClockStages):
        first = base.stages[0]
        seconds = control.scaled(first.seconds)
        if seconds < 60:
            return (
                f"DXP announces whole minutes: a clock of {seconds:g} s cannot be announced; "
                "give a DXP engine at least one minute",
                None,
            )
        notes = []
        minutes = announced_minutes(seconds)
        if abs(minutes * 60 - seconds) > 1e-6:
            notes.append(f"{seconds:g} s is announced as {minutes} minute(s), rounded down")
        if first.increment:
            notes.append("DXP cannot announce the increment: the engine is not told of it")
        if len(base.stages) > 1:
            notes.append("DXP announces only the first period of the clock")
        if first.moves is not None:
            notes.append(
                f"DXP's move count is the game's length, at which an engine may end the game: "
                f"the clock's {first.moves} moves a period are not announced"
            )
        if control.jump_limits is not None:
            notes.append("DXP cannot announce the jump limits: the engine is held to them without being told")
        return None, "; ".join(notes) or None
    if isinstance(base, FixedMoveTime):
        return None, "DXP cannot announce a time per move: the engine is told its configured dxp minutes"
    return None, "DXP cannot announce a depth or node limit: the engine is told its configured dxp minutes"


def dxp_clock_notes(played: Iterable[tuple[EngineConfig, TimeControl]]) -> tuple[list[str], list[str]]:
    """(problems that refuse the games, warnings) of the DXP engines among ``played``, each paired
    with the control it plays under; every note names its engine."""
    problems: list[str] = []
    warnings: list[str] = []
    for engine, control in played:
        if engine.protocol != "dxp":
            continue
        problem, warning = dxp_time_problem(control)
        if problem:
            problems.append(f"engine {engine.name!r}: {problem}")
        if warning:
            warnings.append(f"engine {engine.name!r}: {warning}")
    return problems, warnings


def dxp_margin(config: EngineConfig, control: TimeControl) -> float | None:
    """The time margin of a DXP engine playing under ``control``, its own time control (None: the
    control's, for other engines)."""
    if config.protocol != "dxp":
        return None
    return max(control.margin, config.dxp.margin)


def with_dxp_margins(setup: GameSetup, white: EngineConfig, black: EngineConfig) -> GameSetup:
    """The setup with the DXP margin of each side played by a DXP engine (others keep the control's).
    Each side's margin= is its own control's: an engine may play under another than the game's."""
    white_margin = dxp_margin(white, setup.control_for(Color.WHITE))
    black_margin = dxp_margin(black, setup.control_for(Color.BLACK))
    if white_margin is None and black_margin is None:
        return setup
    return replace(
        setup,
        white_margin=setup.white_margin if white_margin is None else white_margin,
        black_margin=setup.black_margin if black_margin is None else black_margin,
    )
