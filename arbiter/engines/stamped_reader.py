"""An engine's output read in a thread of its own, each line stamped with the moment it was read.

The referee charges an engine from writing ``go`` to the arrival of its answer. Were the answer read by
the event loop, its arrival would be the moment a busy loop got round to it (a store write, another
game's bookkeeping, a collection); here a thread blocked in ``poll`` wakes as soon as the bytes are
there and hands the lines to the loop with their arrival time. The loop may then take its time: that
time is what is charged. From a pipe the arrival time is the thread's ``time.monotonic()`` as it reads;
from a socket the kernel's stamp (``arrival``), if it has one. A socket the kernel stamps needs no thread
at all: ``loop_reader`` reads it on the loop, and ``loop_reader.open_reader`` uses this thread only where
there is no stamp.

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

from arbiter.engines.arrival import ArrivalClock, receive
from arbiter.engines.output_lines import LineCutter, ReadLimits, StreamSink

__all__ = ["ReadLimits", "StampedReader", "StreamSink"]

# After end-of-file, how long the thread looks for the engine's exit status to name it in the fault.
EXIT_PEEK_SECONDS = 0.02
EXIT_PEEK_POLL_SECONDS = 0.001
READ_SIZE = 65536
READS_AFTER_EXIT = 16


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
        self._cutter = LineCutter(limits, separator)
        self._pid = pid  # whose exit status is looked for at end-of-file (0: none)
        self._loop = asyncio.get_running_loop()
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
        self._cutter.command_sent()

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

    def unfinished(self) -> bytes:
        """What was read of a line that has not ended (for a fault's message; read from the loop's
        thread, it may miss the last read)."""
        return self._cutter.unfinished

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
                received = receive(self._socket, READ_SIZE, self._clock)
                return received.data, received.at
            data = os.read(self._fd, READ_SIZE)
        except BlockingIOError:
            raise
        except OSError:
            return b"", time.monotonic()
        return data, time.monotonic()

    def _read_what_is_there(self) -> bool:
        """Take what can be read without waiting; True when that reached end-of-file (reported)."""
        look = select.poll()
        look.register(self._fd, select.POLLIN)
        for _ in range(READS_AFTER_EXIT):  # what is left keeps writing: what it wrote now is enough
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
                self._post(self._sink.stream_stopped, why)
                break
        return False

    def _take(self, data: bytes, at: float) -> str | None:
        """Cut ``data`` into lines and post them; the reason to stop reading, if any."""
        lines, why = self._cutter.cut(data)
        if lines:
            self._post(self._sink.lines_read, lines, at)
        return why

    def _peek_exit(self) -> tuple[bool, int | None]:
        """Whether the engine exits within a moment of closing its output, and its exit status, read
        without reaping it (asyncio's child watcher does that)."""
        if self._pid <= 0:
            return False, None
        deadline = time.monotonic() + EXIT_PEEK_SECONDS
        while True:
            status = exit_status(self._pid)
            if status is not None or time.monotonic() >= deadline:
                return status if status is not None else (False, None)
            time.sleep(EXIT_PEEK_POLL_SECONDS)


def exit_status(pid: int) -> tuple[bool, int | None] | None:
    """(exited, its status when it can be read) of the child ``pid``, looked at once without reaping it;
    None while it runs."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True, None  # already reaped: the loop hears the status from the child watcher
    except OSError:
        return False, None
    if info is None:
        return None
    return True, info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
