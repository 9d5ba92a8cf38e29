"""Every process of one engine, found and ended through the operating system.

An engine runs in its own process group (its own session), so the group id is the engine's pid and
everything it starts stays in that group unless it deliberately leaves it. On Linux the arbiter also
makes itself a child subreaper: a process whose parent died is then handed to the arbiter instead of to
init, so the arbiter can reap it and leave no zombie behind even where init does not reap.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

_PR_SET_CHILD_SUBREAPER = 36
_subreaper_tried = False


@dataclass(frozen=True)
class ProcessEntry:
    pid: int
    ppid: int
    pgid: int
    state: str  # one letter, as in ps: R running, S sleeping, Z zombie, ...
    command: str

    @property
    def zombie(self) -> bool:
        return self.state in ("Z", "X")


def become_subreaper() -> None:
    """Adopt orphaned descendants (Linux only; harmless elsewhere). Done once per arbiter process."""
    global _subreaper_tried
    if _subreaper_tried:
        return
    _subreaper_tried = True
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _read_entry(stat_file: Path) -> ProcessEntry | None:
    try:
        text = stat_file.read_text()
    except OSError:  # the process ended while we looked
        return None
    # "pid (command) state ppid pgrp ..." where the command may itself hold spaces and parentheses.
    head, _, tail = text.rpartition(")")
    pid_text, _, command = head.partition(" (")
    fields = tail.split()
    try:
        return ProcessEntry(int(pid_text), int(fields[1]), int(fields[2]), fields[0], command)
    except (ValueError, IndexError):
        return None


def group_members(pgid: int) -> list[ProcessEntry]:
    """Processes (zombies included) whose process group is ``pgid``; empty where /proc is missing."""
    members = []
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    for entry_dir in proc.iterdir():
        if not entry_dir.name.isdigit():
            continue
        entry = _read_entry(entry_dir / "stat")
        if entry is not None and entry.pgid == pgid:
            members.append(entry)
    return members


def signal_group(pgid: int, sig: signal.Signals) -> bool:
    """Send ``sig`` to the whole group; False when the group no longer exists."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:  # only when the pgid was reused by someone else's group
        return False
    return True


def _reap_adopted(members: list[ProcessEntry], leader: int) -> None:
    """Reap zombies the arbiter adopted (not the leader: asyncio's child watcher reaps that one)."""
    me = os.getpid()
    for entry in members:
        if entry.zombie and entry.ppid == me and entry.pid != leader:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(entry.pid, os.WNOHANG)


def remaining_members(pgid: int, leader: int) -> list[ProcessEntry]:
    """Members still present after reaping what the arbiter can reap.

    A zombie whose parent is neither the arbiter nor another member is out of reach (its parent is some
    init that will reap it, or not); it holds no resources but a pid, so it is not waited for.
    """
    _reap_adopted(group_members(pgid), leader)
    members = group_members(pgid)
    pids = {entry.pid for entry in members}
    me = os.getpid()
    return [entry for entry in members if not entry.zombie or entry.ppid == me or entry.ppid in pids]


async def kill_and_wait(pgid: int, leader: int, timeout: float) -> list[ProcessEntry]:
    """SIGKILL the group until it is empty or ``timeout`` passes; returns what could not be ended.

    Zombies whose parent is not the arbiter are left out: their parent (a dying group member) will be
    gone in a moment and they are then adopted and reaped here.
    """
    deadline = time.monotonic() + timeout
    while True:
        members = remaining_members(pgid, leader)
        alive = [entry for entry in members if not entry.zombie]
        if alive:
            signal_group(pgid, signal.SIGKILL)
        if not members or time.monotonic() >= deadline:
            return members
        await asyncio.sleep(0.01)
