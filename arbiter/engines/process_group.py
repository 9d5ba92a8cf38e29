"""Processes as the operating system shows them: read from /proc, signalled, and reaped.

An engine runs in its own process group (its own session), so the group id is the engine's pid and
everything it starts stays in that group unless it deliberately leaves it (those are found by the
marker in their environment, see ``process_marker``). On Linux the arbiter also makes itself a child
subreaper: a process whose parent died is then handed to the arbiter instead of to init, so the arbiter
can reap it and leave no zombie behind even where init does not reap.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass

_PR_SET_CHILD_SUBREAPER = 36
_subreaper_tried = False


@dataclass(frozen=True)
class ProcessEntry:
    pid: int
    ppid: int
    pgid: int
    state: str  # one letter, as in ps: R running, S sleeping, Z zombie, ...
    command: str
    start_time: int = 0  # clock ticks after boot: with the pid, it names one process though pids are reused

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


def _read_entry(pid: int | str, in_group: int | None = None) -> ProcessEntry | None:
    """The process ``pid`` as its /proc stat line shows it; None when it is gone, or (given ``in_group``)
    when it is in another process group. A look through /proc reads every process's line: plain file
    reads, and an entry made only for the processes looked for, keep that cheap."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat_file:
            text = stat_file.read().decode(errors="replace")
    except OSError:  # the process ended while we looked
        return None
    # "pid (command) state ppid pgrp ..." where the command may itself hold spaces and parentheses;
    # the start time is the 22nd field of the line, the 20th after the command.
    head, _, tail = text.rpartition(")")
    fields = tail.split()
    try:
        pgid = int(fields[2])
        if in_group is not None and pgid != in_group:
            return None
        pid_text, _, command = head.partition(" (")
        return ProcessEntry(int(pid_text), int(fields[1]), pgid, fields[0], command, int(fields[19]))
    except (ValueError, IndexError):
        return None


def read_entry(pid: int) -> ProcessEntry | None:
    """The process with this pid now, or None when there is none."""
    return _read_entry(pid)


def is_same_process(entry: ProcessEntry, current: ProcessEntry | None) -> bool:
    """Whether ``current`` (read now) is still the process ``entry`` was read from, not a reuse of its pid."""
    return current is not None and current.pid == entry.pid and current.start_time == entry.start_time


def group_members(pgid: int) -> list[ProcessEntry]:
    """Processes (zombies included) whose process group is ``pgid``; empty where /proc is missing."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    members = []
    for name in names:
        if name.isdigit():
            entry = _read_entry(name, in_group=pgid)
            if entry is not None:
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


def signal_process(entry: ProcessEntry, sig: signal.Signals) -> bool:
    """Send ``sig`` to the process ``entry`` was read from; False when it is gone or its pid was reused.

    A pidfd is opened first and the process checked after: if the pid was already reused, the check
    fails; if it is reused after the check, the pidfd still names the old process, so the signal can
    never reach a stranger.
    """
    try:
        handle = os.pidfd_open(entry.pid)
    except ProcessLookupError:
        return False
    except OSError:  # a kernel without pidfds: the check below leaves only a tiny window
        handle = -1
    try:
        if not is_same_process(entry, read_entry(entry.pid)):
            return False
        if handle >= 0:
            signal.pidfd_send_signal(handle, sig)
        else:
            os.kill(entry.pid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    finally:
        if handle >= 0:
            os.close(handle)
    return True


def reap_ended_children() -> None:
    """Reap every child of this process that has ended. Only for a process that is about to end and
    waits for no child itself (the CheckerBoard adapter): any child's status is taken."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def run_reaping(argv: Sequence[str]) -> int:
    """Run ``argv`` as a child of this process made a subreaper, then wait for and reap what it left
    running (adopted here as each loses its parent) until nothing is left. Its exit status; 127 when it
    cannot be started. For a helper process of its own (Wine's boot), which waits for no other child."""
    become_subreaper()
    try:
        code = subprocess.call(list(argv))
    except OSError as error:
        print(f"cannot run {argv[0]}: {error}", file=sys.stderr)
        return 127
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return code


def reap_adopted(entries: list[ProcessEntry], leader: int) -> None:
    """Reap the zombies among ``entries`` that the arbiter adopted (not the leader: asyncio's child watcher
    reaps that one). Only these pids are waited for, so no other child of the arbiter is taken."""
    me = os.getpid()
    for entry in entries:
        if entry.zombie and entry.ppid == me and entry.pid != leader:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(entry.pid, os.WNOHANG)
