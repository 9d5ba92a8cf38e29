"""One `arbiter run` at a time on a database: a lock file beside it, held for the whole run.

Two runs on one database would both play every game left (and one copy would be thrown away). The
second run finds the lock taken and refuses, naming the process that holds it. The lock is the
operating system's (`flock`), so it goes with the process however it ends, SIGKILL included: a lock
file left behind by a dead run is taken over, never in the way.

Readers ask `run_holds` whether a run holds it now: an event stored as running whose run was killed
(nothing could mark it stopped) is told from one being played, without writing anything.
"""

from __future__ import annotations

import fcntl
import os
import socket
import time
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

from arbiter.store.errors import StoreError

# How long a run tries again for the lock before it refuses: a reader's `run_holds` takes it for a
# moment, and must not be taken for another run.
ACQUIRE_WITHIN_SECONDS = 1.0


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
        if not _locked(fd, fcntl.LOCK_EX, ACQUIRE_WITHIN_SECONDS):
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


def run_holds(database: Path) -> bool:
    """Whether a run holds `database`'s lock now. Nothing is written: the lock is taken shared for a
    moment when it is free. True when it cannot be told (a lock file that cannot be read): the stored
    status is then trusted as it stands."""
    try:
        fd = os.open(lock_path(database), os.O_RDONLY)
    except FileNotFoundError:
        return False  # no run ever played it
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return True  # a file system without locks: nothing to tell by
    finally:
        os.close(fd)  # the shared lock, if taken, goes with it
    return False


def _locked(fd: int, kind: int, within: float) -> bool:
    """Take the lock `kind` on `fd`, trying again for `within` seconds while it is held elsewhere."""
    deadline = time.monotonic() + within
    while True:
        try:
            fcntl.flock(fd, kind | fcntl.LOCK_NB)
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
        except OSError:
            return False
        else:
            return True
