"""Helpers for the engine-layer tests: configurations for the test engines under tests/engines/,
`arbiter engine check` run in process, and a look through /proc (independent of the arbiter's own
process code) at what an engine left behind."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer
from typer.testing import CliRunner

from arbiter.commands import engine as engine_commands
from arbiter.engines import EngineConfig, Timeouts

ENGINES = Path(__file__).resolve().parents[1] / "engines"

ENGLISH_START = "B" + "b" * 12 + "e" * 8 + "w" * 12
INTERNATIONAL_START = "W" + "b" * 20 + "e" * 10 + "w" * 20

# Generous where a healthy engine must answer (a loaded CI machine starts Python slowly), short where the
# point of the test is that the engine does not answer.
RELAXED = {
    "handshake": 10.0,
    "ready": 10.0,
    "search": 10.0,
    "stop": 3.0,
    "ping": 3.0,
    "quit": 3.0,
    "kill": 2.0,
}


def engine_command(script: str, *args: str) -> list[str]:
    return [sys.executable, str(ENGINES / script), *args]


def hub_config(
    script: str, *args: str, timeouts: dict[str, float] | None = None, **fields: Any
) -> EngineConfig:
    return EngineConfig(
        name=fields.pop("name", Path(script).stem),
        command=engine_command(script, *args),
        timeouts=Timeouts(**{**RELAXED, **(timeouts or {})}),
        **fields,
    )


def run_check(*args: str) -> tuple[int, str]:
    """`arbiter engine check ARGS` on an app holding the engine commands alone: (exit code, output)."""
    app = typer.Typer()

    @app.callback()
    def root() -> None:
        """The engine commands alone."""

    engine_commands.register(app)
    outcome = CliRunner().invoke(app, ["engine", "check", *args])
    return outcome.exit_code, outcome.output


def group_processes(pgid: int) -> list[str]:
    """Every process (zombies too) whose process group is ``pgid``, as 'pid state command'."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        command_end = text.rfind(")")
        fields = text[command_end + 2 :].split()
        if int(fields[2]) == pgid:
            found.append(f"{text.split()[0]} {fields[0]} {text[text.find('(') + 1 : command_end]}")
    return found


def process_exists(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


def group_and_session(pid: int) -> tuple[int, int]:
    """The process group and the session of a running process, read from /proc."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rfind(")") + 2 :].split()
    return int(fields[2]), int(fields[3])


def assert_nothing_left(pid: int, *others: int) -> None:
    """Right after quit(): no process of the engine's group, and none of ``others``, is left, neither
    running nor as a zombie."""
    assert pid > 0
    left = group_processes(pid)
    stray = [other for other in (pid, *others) if process_exists(other)]
    assert not left and not stray, f"processes left behind by engine {pid}: group {left}, pids {stray}"
