"""Which ``CheckerBoardLibrary`` a library path gets: loaded in the adapter's process, or, for a Windows
DLL on another system, relayed to the Wine host."""

from __future__ import annotations

import os
from pathlib import Path

from arbiter.engines.checkerboard.api import CheckerBoardLibrary
from arbiter.engines.checkerboard.library import CtypesLibrary, LibraryError
from arbiter.engines.checkerboard.wine_setup import WineUnavailable, needs_wine, prepare


def open_library(path: Path) -> CheckerBoardLibrary:
    """Raises LibraryError saying what is wrong or missing."""
    if not needs_wine(path):
        return CtypesLibrary(path)
    from arbiter.engines.checkerboard.relay import RelayLibrary

    env = dict(os.environ)
    try:
        setup = prepare(path, env)
    except WineUnavailable as error:
        raise LibraryError(str(error)) from None
    try:
        return RelayLibrary(path, setup, env)
    except OSError as error:  # the engine's own prefix could not be made
        raise LibraryError(f"cannot prepare Wine for {path}: {error}") from None
