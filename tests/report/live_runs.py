"""What the tests of a live site look at from outside: the live page's data, and the processes of a run."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from arbiter.engines.process_group import read_entry
from arbiter.report.live import LIVE_DATA


def live_data(site: Path) -> dict[str, Any] | None:
    """What the live page would load now, or None before the first write."""
    try:
        text = (site / LIVE_DATA).read_text(encoding="utf-8")
    except OSError:
        return None
    data: dict[str, Any] = json.loads(text.partition("=")[2].strip().rstrip(";"))
    return data


def live_games(site: Path) -> list[Any]:
    """The games the live page shows now (none before the first write)."""
    data = live_data(site)
    return [] if data is None else list(data["games"])


def descendants(pid: int) -> list[int]:
    """Every process below `pid`, from /proc (the engines too, in process groups of their own)."""
    parents = {entry.pid: entry.ppid for entry in map(read_entry, _pids()) if entry is not None}
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, of in parents.items() if of == parent]
        found += children
        frontier += children
    return found


def _pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def running(pid: int) -> bool:
    """Whether `pid` is a process that has not ended (a zombie has)."""
    entry = read_entry(pid)
    return entry is not None and not entry.zombie
