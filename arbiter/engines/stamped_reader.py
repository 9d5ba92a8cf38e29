"""An engine's output read in a thread of its own, each line stamped with the moment it was read.

The referee charges an engine from writing ``go`` to the arrival of its answer. Were the answer read by
the event loop, its arrival would be the moment a busy loop got round to it (a store write, another
game's bookkeeping, a collection); here a thread blocked in ``poll`` wakes as soon as the bytes are
there and hands the lines to the loop with their arrival time. The loop may then take its time: that
time is what is charged. From a socket (an engine's protocol stream, a DXP connection) the arrival time
is the kernel's stamp (``arrival``), so not even the thread's own wait for a core counts; from a pipe it
is the thread's ``time.monotonic()`` as it reads.

At a deadline the loop asks ``unread()`` whether output is still on its way through the thread, and
lets it through before judging the move by its stamp.

The thread also enforces the caps on output (the longest line, the bytes after one command), so an
engine that floods is stopped here, before its output is queued for the loop. A stopped reader leaves
the engine blocked on its full pipe until ``drain()`` (the engine is being ended) lets it write on into
nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from arbiter.engines.arrival import ArrivalClock, receive

# After end-of-file, how long the thread looks for the engine's exit status to name it in the fault.
_EXIT_PEEK_SECONDS = 0.02
_READ_SIZE = 65536
_READS_AFTER_EXIT = 16


class StreamSink(Protocol):
    """What the loop hears from a reader; every call is made on the loop's thread."""

    def lines_read(self, lines: list[bytes], at: float) -> None:
        """Complete lines (without their separator), all read at the monotonic time ``at``."""

    def stream_stopped(self, why: str) -> None:
        """The reader stopped taking output: ``why`` is "line" (too long a line) or "flood"."""

    def stream_closed(self, exited: bool, returncode: int | None) -> None:
        """End of the stream. ``exited``: the engine had exited by then, with ``returncode`` when the
        reader could read it (None when asyncio's child watcher had already reaped it)."""


@dataclass(frozen=True)
class ReadLimits:
    line_bytes: int
    output_bytes: int  # after one command (``command_sent`` resets the count)


class StampedReader:
    """Reads one pipe (a file descriptor) or socket in a daemon thread; see the module's doc."""

    def __init__(
        self,
        source: int | socket.socket,
        sink: StreamSink,
        limits: ReadLimits,
        *,
        separator: bytes = b"\n",
        pid: int = 0,
        name: str = "engine",
        owns_fd: bool = True,
    ) -> None:
        self._socket = source if isinstance(source, socket.socket) else None
        self._fd = source.fileno() if isinstance(source, socket.socket) else source
        self._owns_fd = owns_fd
        self._clock = ArrivalClock()
        self._in_hand = False  # the thread has taken bytes the loop has not been handed yet
        self._not_reading = False  # stopped (too much output) or ended: nothing more comes through
        self._sink = sink
        self._limits = limits
        self._separator = separator
        self._pid = pid  # whose exit status is looked for at end-of-file (0: none)
        self._loop = asyncio.get_running_loop()
        self._since_command = 0
        self._partial = b""
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_write, False)
        self._draining = threading.Event()  # a stopped reader reads (and drops) again
        self._closing = threading.Event()
        self._exited = threading.Event()
        self._wake_lock = threading.Lock()  # the wake pipe is not written once the thread closed it
        self._ended = False
        self._thread = threading.Thread(target=self._run, name=f"reader-{name}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def command_sent(self) -> None:
        """A command was written: the engine may print another ``output_bytes`` before it floods."""
        self._since_command = 0

    def drain(self) -> None:
        """Read and drop whatever comes from now on, so a blocked writer can reach its exit."""
        self._draining.set()
        self._wake()

    def engine_exited(self) -> None:
        """The engine exited but its output is still open (a process it left behind holds it): take what
        it wrote before exiting, then report the stream closed, without waiting for end-of-file."""
        self._exited.set()
        self._wake()

    def unread(self) -> bool:
        """Whether output that has arrived is not yet with the loop (called on the loop's thread). When
        False, every line read so far has been posted to the loop: one pass of the loop delivers it."""
        with self._wake_lock:  # the descriptor stays open meanwhile
            if self._ended or self._not_reading:
                return False
            look = select.poll()
            look.register(self._fd, select.POLLIN)
            try:
                waiting = any(events & (select.POLLIN | select.POLLHUP) for _, events in look.poll(0))
            except OSError:
                waiting = False
        # Looked at after the descriptor: bytes taken from it since are in hand or already posted.
        return waiting or self._in_hand

    def close(self) -> None:
        """End the thread (without waiting for it) and close the descriptors this reader owns."""
        self._closing.set()
        self._wake()

    def _wake(self) -> None:
        with self._wake_lock, contextlib.suppress(OSError):
            if not self._ended:
                os.write(self._wake_write, b"x")

    # -- the thread ---------------------------------------------------------------------------------

    def _post(self, callback: Callable[..., None], *args: object) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is listening any more
            self._loop.call_soon_threadsafe(callback, *args)

    def _run(self) -> None:
        poller = select.poll()
        poller.register(self._wake_read, select.POLLIN)
        poller.register(self._fd, select.POLLIN)
        stopped = False
        exit_reported = False
        try:
            while not self._closing.is_set():
                ready = {fd for fd, _ in poller.poll()}
                if self._wake_read in ready:
                    with contextlib.suppress(OSError):
                        os.read(self._wake_read, 64)
                    if stopped and self._draining.is_set():
                        stopped = False
                        self._not_reading = False
                        poller.register(self._fd, select.POLLIN)
                    if self._exited.is_set() and not exit_reported:
                        exit_reported = True
                        if not stopped and self._read_what_is_there():
                            return  # end-of-file came after all, and was reported
                        self._post(self._sink.stream_closed, True, None)
                    continue
                if self._fd not in ready:
                    continue
                self._in_hand = True
                try:
                    data, at = self._read()
                except BlockingIOError:
                    self._in_hand = False
                    continue
                if not data:
                    self._post(self._sink.stream_closed, *self._peek_exit())
                    return
                if self._draining.is_set():
                    self._in_hand = False
                    continue
                why = self._take(data, at)
                self._in_hand = False
                if why is not None:
                    self._partial = b""
                    self._post(self._sink.stream_stopped, why)
                    stopped = not self._draining.is_set()
                    if stopped:
                        self._not_reading = True
                        poller.unregister(self._fd)
        finally:
            with self._wake_lock:
                self._ended = True
                os.close(self._wake_read)
                os.close(self._wake_write)
                self._in_hand = False
                if self._owns_fd:
                    if self._socket is not None:
                        self._socket.close()
                    else:
                        os.close(self._fd)
                elif self._socket is not None:
                    self._socket.detach()

    def _read(self) -> tuple[bytes, float]:
        """One read and its arrival time (b"" at end-of-file or on an error that ends the stream)."""
        try:
            if self._socket is not None:
                received = receive(self._socket, _READ_SIZE, self._clock)
                return received.data, received.at
            data = os.read(self._fd, _READ_SIZE)
        except BlockingIOError:
            raise
        except OSError:
            return b"", time.monotonic()
        return data, time.monotonic()

    def _read_what_is_there(self) -> bool:
        """Take what can be read without waiting; True when that reached end-of-file (reported)."""
        look = select.poll()
        look.register(self._fd, select.POLLIN)
        for _ in range(_READS_AFTER_EXIT):  # what is left keeps writing: what it wrote now is enough
            if not look.poll(0):
                break
            try:
                data, at = self._read()
            except BlockingIOError:
                break
            if not data:
                self._post(self._sink.stream_closed, *self._peek_exit())
                return True
            why = None if self._draining.is_set() else self._take(data, at)
            if why is not None:
                self._partial = b""
                self._post(self._sink.stream_stopped, why)
                break
        return False

    def _take(self, data: bytes, at: float) -> str | None:
        """Cut ``data`` into lines and post them; the reason to stop reading, if any."""
        self._since_command += len(data)
        if self._since_command > self._limits.output_bytes:
            return "flood"
        if self._separator not in data:
            self._partial += data
            return "line" if len(self._partial) > self._limits.line_bytes else None
        lines = (self._partial + data).split(self._separator)
        self._partial = lines.pop()
        limit = self._limits.line_bytes
        good: list[bytes] = []
        for line in lines:
            if len(line) > limit:
                if good:
                    self._post(self._sink.lines_read, good, at)
                return "line"
            good.append(line)
        self._post(self._sink.lines_read, good, at)
        return "line" if len(self._partial) > limit else None

    def _peek_exit(self) -> tuple[bool, int | None]:
        """Whether the engine exits within a moment of closing its output, and its exit status, read
        without reaping it (asyncio's child watcher does that)."""
        if self._pid <= 0:
            return False, None
        deadline = time.monotonic() + _EXIT_PEEK_SECONDS
        while True:
            try:
                info = os.waitid(os.P_PID, self._pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return True, None  # already reaped: the loop hears the status from the child watcher
            except OSError:
                return False, None
            if info is not None:
                code = info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
                return True, code
            if time.monotonic() >= deadline:
                return False, None
            time.sleep(0.001)
