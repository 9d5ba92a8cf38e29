"""The C test engine (tests/engines/cb_engine.c) built as shared libraries with the system compiler,
once per test session, engine configurations for them, one search of a build, and one game of two."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from arbiter.engines import EngineClient, EngineConfig, EngineFault, MoveTime, Timeouts, create_engine
from arbiter.referee.record import GameRecord
from arbiter.referee.session import play_game_from_configs
from arbiter.referee.settings import RefereeRules
from arbiter.referee.setup import GameSetup
from arbiter.referee.timecontrol import parse_time_control

ENGLISH_START = "B" + "b" * 12 + "e" * 8 + "w" * 12

SOURCE = Path(__file__).resolve().parents[1] / "engines" / "cb_engine.c"

# build name -> the -D macros it is compiled with (see the top of cb_engine.c)
BUILDS = {
    "english": [],
    "russian": ["-DRUSSIAN"],
    "crash": ["-DCB_CRASH=2"],  # in the first search, after the adapter's warm-up
    "crash_at_set_up": ["-DCB_CRASH=1"],
    "hang": ["-DCB_HANG=2"],
    "slow_first": ["-DCB_SLOW_FIRST=1.5"],
    "illegal": ["-DCB_ILLEGAL"],
    "printf": ["-DCB_PRINTF"],
    "ignore_playnow": ["-DCB_IGNORE_PLAYNOW"],
    "no_gamehist": ["-DCB_NO_GAMEHIST"],
    "registry": ["-DCB_REGISTRY"],
    "deep_stack": ["-DCB_DEEP_STACK"],
    "set_says_0": ["-DCB_SET_SAYS_0"],
}

RELAXED = {
    "handshake": 20.0,
    "ready": 10.0,
    "search": 10.0,
    "stop": 3.0,
    "ping": 3.0,
    "quit": 3.0,
    "kill": 2.0,
}


def compiler() -> str | None:
    return shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")


def build(directory: Path, name: str) -> Path:
    """The library of one build, compiled into ``directory`` unless it is there already."""
    target = directory / f"cb_{name}.so"
    if target.exists():
        return target
    program = compiler()
    if program is None:
        pytest.skip(
            "no C compiler (cc, gcc or clang) on this machine: the CheckerBoard engine tests need one"
        )
    command = [program, "-shared", "-fPIC", "-O1", "-o", str(target), str(SOURCE), *BUILDS[name]]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stderr}"
    return target


def cb_config(library: Path, timeouts: dict[str, float] | None = None, **fields: Any) -> EngineConfig:
    return EngineConfig.model_validate(
        {
            "name": fields.pop("name", library.stem),
            "protocol": "checkerboard",
            "library": library,
            "timeouts": Timeouts(**{**RELAXED, **(timeouts or {})}),
            **fields,
        }
    )


async def search_once(
    library: Path, log: Path, timeout: float = 2.0, timeouts: dict[str, float] | None = None
) -> EngineClient:
    """One search of the English start position, then quit; a fault is left in ``engine.faults``."""
    engine = create_engine(cb_config(library, timeouts), stderr_log=log)
    try:
        await engine.open("english")
        await engine.search(ENGLISH_START, [], MoveTime(0.1), timeout=timeout)
    except EngineFault as fault:
        assert engine.faults[0] is fault
    finally:
        await engine.quit()
    return engine


def left_behind(pgid: int) -> list[str]:
    """Every process (zombies too) still in the process group ``pgid``, read from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rfind(")") + 2 :].split()
        if int(fields[2]) == pgid:
            found.append(text[: text.rfind(")") + 1])
    return found


def english_game(white: Path, black: Path, log_dir: Path, control: str = "st=0.2") -> GameRecord:
    """One English game between two libraries, with nothing of either left behind after it."""
    setup = GameSetup("english", parse_time_control(control), rules=RefereeRules(max_plies=120))
    record = asyncio.run(
        play_game_from_configs(
            setup, cb_config(white, name="white"), cb_config(black, name="black"), log_dir=log_dir
        )
    )
    # Each engine's log starts with the pid it was started as: nothing of either may be left.
    pids = [
        int(pid) for log in log_dir.glob("*.log") for pid in re.findall(r"started pid (\d+)", log.read_text())
    ]
    assert len(pids) == 2 and not any(left_behind(pid) for pid in pids)
    return record
