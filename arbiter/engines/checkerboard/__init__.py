"""CheckerBoard engines: libraries with the CheckerBoard API (getmove, enginecommand), each run by the
adapter program in a process of its own and spoken to as a Hub engine. See docs/checkerboard.md."""

from arbiter.engines.checkerboard.client import CheckerBoardEngine, adapter_command, library_path
from arbiter.engines.checkerboard.naming import PREFIX, checkerboard_entry, is_checkerboard_name

__all__ = [
    "PREFIX",
    "CheckerBoardEngine",
    "adapter_command",
    "checkerboard_entry",
    "is_checkerboard_name",
    "library_path",
]
