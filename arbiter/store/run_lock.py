"""One `arbiter run` at a time on a database: a lock file beside it, held for the whole run.

Two runs on one database would both play every game left (and one copy would be thrown away). The
second run finds the lock taken and refuses, naming the process that holds it. The lock is the
operating system's (`flock`), so it goes with the process however it ends, SIGKILL included: a lock
file left behind by a dead run is taken over, never in the way.
"""

from __future__ import annotations

import fcntl
import os
import socket
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

from arbiter.store.errors import StoreError


class RunLockedError(StoreError):
    """Another run holds the database."""


def lock_path(database: Path) -> Path:
    return database.with_name(f".{database.name}.run-lock")


class RunLock:
    """Held while a run plays the games of `database`; `with RunLock(path):` or `acquire`/`release`."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.path = lock_path(database)
        self._fd: int | None = None

    def acquire(self) -> None:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot make the run's lock file: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 512, 0).decode("utf-8", "replace").strip() or "another process"
            os.close(fd)
            raise RunLockedError(
                f"{self.database}: another `arbiter run` is playing this database ({holder}); wait for it "
                "to end, or stop it (Ctrl-C) and run again to resume"
            ) from None
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()} on {socket.gethostname()}, since {stamp}\n".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # the lock goes with the descriptor; the file stays (removing it would race)

    def __enter__(self) -> RunLock:
        if self._fd is None:
            self.acquire()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.release()
