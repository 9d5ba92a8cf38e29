"""Shared helpers of the referee tests: real engine programs and one-call games.

The engines are real child processes: ``tests/engines/scripted_player.py`` (moves from a script, then a
fixed policy, with faults on cue), ``tests/engines/slow_on_capture.py`` and the bundled players.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from arbiter.engines import EngineConfig, Timeouts
from arbiter.notation.movetext import parse_hub
from arbiter.referee.record import GameRecord, OpeningRecord
from arbiter.referee.session import play_game_from_configs
from arbiter.referee.settings import RefereeRules
from arbiter.referee.setup import GameSetup
from arbiter.referee.timecontrol import parse_time_control
from arbiter.rules import Position, get_variant

ENGINES = Path(__file__).resolve().parents[1] / "engines"

# Short waits, so that a misbehaving engine costs a test a second at most.
QUICK = Timeouts(handshake=5.0, ready=5.0, search=60.0, stop=0.5, ping=0.5, quit=1.0, kill=1.0)


def scripted(name: str, *args: str, timeouts: Timeouts = QUICK) -> EngineConfig:
    """``tests/engines/scripted_player.py`` with ``args`` (see its docstring)."""
    command = [sys.executable, str(ENGINES / "scripted_player.py"), "--name", name, *args]
    return EngineConfig(name=name, command=command, timeouts=timeouts)


def slow_on_capture(name: str, seconds: float, *args: str) -> EngineConfig:
    command = [sys.executable, str(ENGINES / "slow_on_capture.py"), str(seconds), "--name", name, *args]
    return EngineConfig(name=name, command=command, timeouts=QUICK)


def bundled(name: str, *args: str) -> EngineConfig:
    return EngineConfig(
        name=name, command=[sys.executable, "-m", f"arbiter.players.{name}", *args], timeouts=QUICK
    )


def game_setup(
    tc: str = "depth=1",
    *,
    variant: str = "english",
    fen: str | None = None,
    opening: str = "",
    rules: RefereeRules | None = None,
) -> GameSetup:
    return GameSetup(
        variant=variant,
        time_control=parse_time_control(tc),
        start_fen=fen,
        opening=OpeningRecord(moves=opening.split()) if opening else None,
        rules=rules or RefereeRules(),
    )


def play(setup: GameSetup, white: EngineConfig, black: EngineConfig) -> GameRecord:
    """Play one whole game between two freshly started engines."""
    return asyncio.run(play_game_from_configs(setup, white, black))


def replay(record: GameRecord) -> list[Position]:
    """The positions of a recorded game, replayed through the rules core from its start FEN."""
    position = Position.from_fen(get_variant(record.variant), record.start_fen)
    positions = [position]
    for move in record.moves:
        position = position.play(parse_hub(position, move.hub))
        positions.append(position)
    return positions


def received(log: Path, command: str) -> list[str]:
    """The lines starting with ``command`` that an engine run with ``--log`` received."""
    return [line for line in log.read_text().splitlines() if line.split()[0] == command]
