"""Every process of one engine, in its process group or out of it, found and ended without leftovers.

A process is the engine's when it is in the engine's process group (the group id is the engine's pid)
or when it carries the engine's token in its environment (see ``process_marker``): the second finds the
ones that left the group with ``setsid``. Ending them is SIGTERM, then SIGKILL to what is still there,
until every one of them is gone and the zombies the arbiter adopted are reaped. A process is followed by
its pid and start time, so a pid reused by someone else's process is never signalled.

Looking through /proc takes tens of milliseconds on a busy machine, so ``end`` does every look in a
worker thread: the event loop goes on reading and timing the other engines meanwhile.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass

from arbiter.engines.process_group import (
    ProcessEntry,
    group_members,
    is_same_process,
    read_entry,
    reap_adopted,
    signal_group,
    signal_process,
)
from arbiter.engines.process_marker import marked_processes

_POLL_SECONDS = 0.01
# The processes Wine runs for a whole prefix (as /proc names them): its server and its services. The
# first Wine program of a prefix starts them, so they carry that engine's token, but every Wine program
# of the prefix uses them, the other engines of the event included: ended with the engine that happened
# to start them, they would take the others down with them. They are left to the prefix (the server
# ends a few seconds after its last program, and its services with it) and ended, if still there, when
# the arbiter exits (`end_wine_services`), as `wineserver -k` ends a prefix.
_WINE_SERVICES = frozenset(
    {
        "wineserver", "wineserver32", "wineserver64", "services.exe", "winedevice.exe", "plugplay.exe",
        "svchost.exe", "rpcss.exe", "explorer.exe", "winemenubuilder",
    }
)  # fmt: skip
_wine_services: dict[int, ProcessEntry] = {}
_wine_services_lock = threading.Lock()  # `find` runs in worker threads


@dataclass(frozen=True)
class EngineProcesses:
    """How the processes of one engine are recognised: its process group (the engine's pid) and its
    token."""

    leader: int
    token: str

    def find(self, seen: Iterable[ProcessEntry] = ()) -> list[ProcessEntry]:
        """The engine's processes now, zombies of its group included, wherever they moved, and those of
        ``seen`` (found before) still there: one out of the group that has ended is a zombie whose token
        can no longer be read."""
        found = {entry.pid: entry for entry in group_members(self.leader)}
        for entry in marked_processes(self.token):
            found.setdefault(entry.pid, entry)
        for entry in seen:
            if entry.pid not in found and is_same_process(entry, now := read_entry(entry.pid)):
                assert now is not None
                found[entry.pid] = now
        found.pop(os.getpid(), None)
        services = [entry for entry in found.values() if entry.command in _WINE_SERVICES]
        if services:
            with _wine_services_lock:
                _wine_services.update((entry.pid, entry) for entry in services)
        return [entry for entry in found.values() if entry.command not in _WINE_SERVICES]

    def signal(self, sig: signal.Signals, entries: Iterable[ProcessEntry] | None = None) -> None:
        """``sig`` to the whole group, and to each of ``entries`` (default: every process that carries
        the token) that is outside it."""
        signal_group(self.leader, sig)
        for entry in marked_processes(self.token) if entries is None else entries:
            if entry.pgid != self.leader and not entry.zombie:
                signal_process(entry, sig)

    async def end(
        self, found: Iterable[ProcessEntry], term_grace: float, kill_timeout: float
    ) -> list[ProcessEntry]:
        """SIGTERM ``found`` and whatever else of the engine turns up meanwhile; SIGKILL what is still
        running after ``term_grace`` seconds; reap what the arbiter adopted. Returns what is still there
        ``kill_timeout`` seconds after that."""
        known = {entry.pid: entry for entry in found}
        await asyncio.to_thread(self.signal, signal.SIGTERM, list(known.values()))
        started = time.monotonic()
        while True:
            left = await asyncio.to_thread(self._look, known)
            if not left:
                return []
            waited = time.monotonic() - started
            if waited >= term_grace + kill_timeout:
                return left
            if waited >= term_grace:
                await asyncio.to_thread(
                    self.signal, signal.SIGKILL, [entry for entry in left if not entry.zombie]
                )
            await asyncio.sleep(_POLL_SECONDS)

    def _look(self, known: dict[int, ProcessEntry]) -> list[ProcessEntry]:
        """One look (in a worker thread): SIGTERM to what was started since, then what is left."""
        for entry in self.find():
            if entry.pid not in known:  # started while the others were being ended
                known[entry.pid] = entry
                self.signal(signal.SIGTERM, [entry])
        return self._remaining(known)

    def _current(self, known: dict[int, ProcessEntry]) -> list[ProcessEntry]:
        """``known`` brought up to date: what has gone (or whose pid was reused) is dropped."""
        for pid, entry in list(known.items()):
            now = read_entry(pid)
            if now is None or not is_same_process(entry, now):
                del known[pid]
            else:
                known[pid] = now
        return list(known.values())

    def _remaining(self, known: dict[int, ProcessEntry]) -> list[ProcessEntry]:
        """What is still to wait for (see ``_awaited``), after reaping what the arbiter can reap."""
        reap_adopted(self._current(known), self.leader)
        return _awaited(self._current(known))


def end_wine_services(wait: float = 1.0) -> None:
    """End the Wine servers and services the engines started that are still there (see
    ``_WINE_SERVICES``), at the arbiter's exit, when no engine is left to use them; zombies the arbiter
    adopted are reaped, for up to ``wait`` seconds."""
    with _wine_services_lock:
        entries = list(_wine_services.values())
        _wine_services.clear()
    for entry in entries:
        signal_process(entry, signal.SIGKILL)
    deadline = time.monotonic() + wait
    while entries:
        current = [(entry, read_entry(entry.pid)) for entry in entries]
        entries = [now for entry, now in current if now is not None and is_same_process(entry, now)]
        reap_adopted(entries, leader=0)
        if not _awaited(entries) or time.monotonic() > deadline:
            return
        time.sleep(_POLL_SECONDS)


def _awaited(current: list[ProcessEntry]) -> list[ProcessEntry]:
    """What of ``current`` is still to wait for. A zombie whose parent is neither the arbiter nor one of
    these is out of reach (its parent is some init that will reap it, or not); it holds no resources but
    a pid, so it is not waited for. One whose parent is still dying is adopted by the arbiter in a moment."""
    pids = {entry.pid for entry in current}
    me = os.getpid()
    return [entry for entry in current if not entry.zombie or entry.ppid == me or entry.ppid in pids]
