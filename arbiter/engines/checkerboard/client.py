"""The arbiter's side of a CheckerBoard engine: a Hub client whose process is the adapter program.

The adapter (``adapter.py``) loads the library in its own process and speaks Hub, so everything the
Hub client does (handshake, `ping`, `stop`, faults, logs, leaving no process behind) holds unchanged.
This module knows no draughts rules; it only builds the adapter's command line.
"""

from __future__ import annotations

import sys
from pathlib import Path

from arbiter.engines.checkerboard.wine_check import wine_problem
from arbiter.engines.config import EngineConfig
from arbiter.engines.faults import EngineConfigError, StartFailed
from arbiter.engines.hub import HubEngine

ADAPTER_MODULE = "arbiter.engines.checkerboard.adapter"
# The share of the ready timeout the adapter may spend on its warm-up getmove before answering `ready`:
# the rest is left for the answer to arrive in time.
WARM_UP_SHARE = 0.8


def library_path(config: EngineConfig) -> Path:
    """The library as the adapter will load it: a relative path is taken from the working directory."""
    assert config.library is not None
    path = config.library.expanduser()
    if not path.is_absolute():
        path = (config.working_dir or Path.cwd()) / path
    return path.absolute()


def adapter_command(config: EngineConfig) -> list[str]:
    """The adapter's command line for ``config`` (this Python; ``-P`` so that the engine's working
    directory can never shadow a module). The engine sets itself up in a warm-up getmove before `ready`."""
    command = [sys.executable, "-P", "-m", ADAPTER_MODULE, "--library", str(library_path(config))]
    command += ["--warm-up-limit", f"{config.timeouts.ready * WARM_UP_SHARE:g}"]
    for name in config.params:
        command += ["--param", name]
    return command


class CheckerBoardEngine(HubEngine):
    """A CheckerBoard engine library, run by the adapter in a child process of its own."""

    protocol = "checkerboard"
    identity_at_init = True  # `about` told again after the library's set-up (the adapter's warm-up)

    async def start(self) -> None:
        path = library_path(self.config)
        if not path.is_file():
            where = "" if path.parent.is_dir() else f" (no directory {path.parent})"
            what = "a folder, not a library" if path.is_dir() else f"no such file{where}"
            raise self._record(StartFailed(self.name, f"cannot load the library {path}: {what}"))
        problem = await wine_problem(path, self.config)
        if problem is not None:  # no game could fix it: the event is refused before its first game
            raise EngineConfigError(self.name, problem)
        await self._spawn(argv=adapter_command(self.config))
