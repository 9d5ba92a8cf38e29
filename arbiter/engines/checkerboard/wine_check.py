"""The arbiter's side of a DLL under Wine: before the adapter starts (so in the check that starts every
engine of an event before its first game, and off every clock), make sure Wine, the host program and
the template prefix are there, building what the cache lacks, and say what to install when something
is missing (a configuration error: no game could fix it)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from arbiter.engines.config import EngineConfig


async def wine_problem(library: Path, config: EngineConfig) -> str | None:
    """None when ``library`` needs no Wine or Wine is ready for it; otherwise what is wrong."""
    # Imported here: `python -m arbiter.engines.checkerboard.wine_setup` must not find it loaded.
    from arbiter.engines.checkerboard.wine_setup import WineUnavailable, needs_wine, prepare

    if not needs_wine(library):
        return None
    env = {**os.environ, **config.env}
    try:
        await asyncio.to_thread(prepare, library, env)
    except WineUnavailable as error:
        return f"cannot run the Windows library {library} through Wine: {error}"
    return None
