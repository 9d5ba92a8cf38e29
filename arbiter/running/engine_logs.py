"""The engines' logs of an event, in the folder beside its database: their names, and how much of each
engine's stderr they hold already.

One name scheme for the run and its preflight, so that a resumed run finds what the earlier ones wrote:
each engine's stderr budget for the event (``arbiter.engines.stderr_budget``) starts from the bytes its
logs there hold, rather than afresh with every run.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable
from pathlib import Path

from arbiter.engines import EngineConfig, StderrBudget
from arbiter.engines.log_names import file_safe


def game_log(log_dir: Path, engine: str, game: str) -> Path:
    """The stderr log of a process started for ``game`` (`game r1-b1-g2`); it may play more games."""
    return log_dir / f"{file_safe(engine)}-{game.replace(' ', '-')}.stderr.log"


def preflight_log(log_dir: Path, engine: str) -> Path:
    """The stderr log of the check before the first game (each run of the event adds to it)."""
    return log_dir / f"{file_safe(engine)}-preflight.stderr.log"


def debug_log(log_dir: Path, engine: str) -> Path:
    """Every line said to and by the engine (`--debug`), one file for the event."""
    return log_dir / f"{file_safe(engine)}.debug.log"


def _stderr_log_pattern(engine: str) -> re.Pattern[str]:
    # Exactly the names above: the logs of an engine whose name begins with this one's are not counted.
    return re.compile(rf"{re.escape(file_safe(engine))}-(preflight|game-r\d+-b\d+-g\d+)\.stderr\.log")


def stderr_budgets(log_dir: Path | None, engines: Iterable[EngineConfig]) -> dict[str, StderrBudget]:
    """Each engine's stderr budget for the event, less what its logs in ``log_dir`` hold already (one look
    through the folder)."""
    sizes: dict[str, int] = {}
    if log_dir is not None:
        # Not there yet (a new event), or unreadable: nothing counted; writing a log there says what is wrong.
        with contextlib.suppress(OSError), os.scandir(log_dir) as entries:
            for entry in entries:
                if entry.name.endswith(".stderr.log") and entry.is_file(follow_symlinks=False):
                    with contextlib.suppress(OSError):  # removed meanwhile
                        sizes[entry.name] = entry.stat(follow_symlinks=False).st_size
    budgets = {}
    for config in engines:
        pattern = _stderr_log_pattern(config.name)
        held = sum(size for name, size in sizes.items() if pattern.fullmatch(name))
        budgets[config.name] = StderrBudget.for_engine(config, spent=held)
    return budgets
