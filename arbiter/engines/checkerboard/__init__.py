"""CheckerBoard engines: libraries with the CheckerBoard API (getmove, enginecommand), each run by the
adapter program in a process of its own and spoken to as a Hub engine. See docs/checkerboard.md."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.engines.checkerboard.naming import PREFIX, checkerboard_entry, is_checkerboard_name

if TYPE_CHECKING:
    from arbiter.engines.checkerboard.client import CheckerBoardEngine, adapter_command, library_path


def __getattr__(name: str) -> object:
    # The client (and its Wine check) loads when it is used: reading `cb:` names on a command line, as
    # every match does, needs only the naming rules.
    if name in ("CheckerBoardEngine", "adapter_command", "library_path"):
        from arbiter.engines.checkerboard import client

        return getattr(client, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "PREFIX",
    "CheckerBoardEngine",
    "adapter_command",
    "checkerboard_entry",
    "is_checkerboard_name",
    "library_path",
]
