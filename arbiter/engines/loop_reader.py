"""An engine's stamped output read by the event loop itself, and the choice between that and a thread.

An answer is charged at its arrival. From a socket whose data the kernel stamps (``arrival``), the
stamp *is* the arrival, whoever reads it and however late: a thread of its own would add no accuracy,
only work for every answer (waking the thread, handing the interpreter lock over, waking the loop
through its self-pipe). So such a socket is read by the event loop when it becomes readable
(``add_reader``), each line charged at the kernel's stamp; at a deadline ``unread`` reads what is there
at once, without waiting, so an answer that arrived in time is judged by its stamp. Without stamps (a
pipe, a system without ``SO_TIMESTAMPNS``) the arrival is the moment of reading, and a thread reads
sooner than a busy loop: ``open_reader`` then starts a ``StampedReader``.

The caps on output hold the same way (``output_lines``): too long a line or a flood stops the reading,
and the engine blocks on its full socket until ``drain`` (the engine is being ended) reads on and drops.
The sink hears everything in order, each call a step of the loop of its own or the read's own step.
"""

from __future__ import annotations

import asyncio
import functools
import socket
import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

from arbiter.engines.arrival import (
    RECORD_READS_AT_ONCE,
    SO_TIMESTAMPNS,
    ArrivalClock,
    RecordReceiver,
    receive_plain,
)
from arbiter.engines.output_lines import LineCutter, ReadLimits, StreamSink
from arbiter.engines.stamped_reader import (
    EXIT_PEEK_POLL_SECONDS,
    EXIT_PEEK_SECONDS,
    READ_SIZE,
    READS_AFTER_EXIT,
    StampedReader,
    exit_status,
)


class OutputReader(Protocol):
    """What the owner of an engine's output stream asks of its reader, whichever it is."""

    def command_sent(self) -> None: ...

    def drain(self) -> None: ...

    def engine_exited(self) -> None: ...

    def unread(self) -> bool: ...

    def unfinished(self) -> bytes: ...

    def close(self) -> None: ...


def open_reader(
    source: int | socket.socket,
    sink: StreamSink,
    limits: ReadLimits,
    *,
    separator: bytes = b"\n",
    pid: int = 0,
    name: str = "engine",
) -> OutputReader:
    """A started reader of ``source`` (which it then owns): the loop's own for a socket the kernel
    stamps, a thread of its own otherwise."""
    if isinstance(source, socket.socket) and stamps_enabled(source):
        reader = LoopReader(source, sink, limits, separator=separator, pid=pid)
        reader.start()
        return reader
    thread = StampedReader(source, sink, limits, separator=separator, pid=pid, name=name)
    thread.start()
    return thread


def stamps_enabled(sock: socket.socket) -> bool:
    """Whether the kernel stamps what ``sock`` receives (``arrival.enable_stamps`` was set)."""
    try:
        return sock.getsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS) != 0
    except OSError:
        return False


class LoopReader:
    """Reads one stamped socket on the running event loop; see the module's doc."""

    def __init__(
        self,
        sock: socket.socket,
        sink: StreamSink,
        limits: ReadLimits,
        *,
        separator: bytes = b"\n",
        pid: int = 0,
        owns_fd: bool = True,
    ) -> None:
        sock.setblocking(False)
        self._socket = sock
        self._fd = sock.fileno()
        self._owns_fd = owns_fd
        self._sink = sink
        self._cutter = LineCutter(limits, separator)
        # A command was written: the engine may print another ``output_bytes`` before it floods. The
        # cutter's own method, called for every command without a step through this reader.
        self.command_sent: Callable[[], None] = self._cutter.command_sent
        clock = ArrivalClock()
        # An engine's own stream carries records (``arrival.stamped_stream``), read one write at a time;
        # a DXP connection is a byte stream.
        self._receive: Callable[[], tuple[bytes, float, bool]]
        if sock.type == socket.SOCK_SEQPACKET:
            self._receive = RecordReceiver(sock, clock)
            self._reads_at_once = RECORD_READS_AT_ONCE
        else:
            self._receive = functools.partial(receive_plain, sock, READ_SIZE, clock)
            self._reads_at_once = READS_AFTER_EXIT
        self._pid = pid  # whose exit status is looked for at end-of-file (0: none)
        self._loop = asyncio.get_running_loop()
        self._watched = False  # registered with the loop's selector
        self._stopped = False  # too much output: not read until drain()
        self._draining = False  # read and dropped: the engine is being ended
        self._at_end = False  # end of stream read (or the reader closed): nothing more is read
        self._closed = False
        self._exit_reported = False
        # What the sink has still to hear, in order: a read at a deadline is delivered a step later.
        self._pending: deque[Callable[[], None]] = deque()
        self._delivery_due = False

    def start(self) -> None:
        self._watch(True)

    def drain(self) -> None:
        """Read and drop whatever comes from now on, so a blocked writer can reach its exit."""
        self._draining = True
        if self._stopped and not self._at_end:
            self._stopped = False
            self._watch(True)

    def engine_exited(self) -> None:
        """The engine exited but its output is still open (a process it left behind holds it): take what
        it wrote before exiting, then report the stream closed, without waiting for end-of-file."""
        if self._exit_reported or self._at_end:
            return
        self._exit_reported = True
        if not self._stopped:
            for _ in range(self._reads_at_once):  # what is left keeps writing: what it wrote now is enough
                if not self._read() or self._at_end or self._stopped:
                    break
            if self._at_end:
                self._deliver_soon()
                return  # end-of-file came after all, and is reported
        self._pending.append(functools.partial(self._sink.stream_closed, True, None))
        self._deliver_soon()

    def unread(self) -> bool:
        """At a deadline: read what has arrived, without waiting, for the loop's next pass to deliver.
        Always False: nothing is ever on its way to the loop other than what that pass delivers."""
        if not (self._at_end or self._stopped or self._closed):
            for _ in range(self._reads_at_once):
                if not self._read() or self._at_end or self._stopped:
                    break
        if self._pending:
            self._deliver_soon()
        return False

    def unfinished(self) -> bytes:
        """What was read of a line that has not ended (for a fault's message)."""
        return self._cutter.unfinished

    def close(self) -> None:
        """Stop reading and close the socket (when this reader owns it)."""
        if self._closed:
            return
        self._closed = True
        self._at_end = True
        self._watch(False)
        if isinstance(self._receive, RecordReceiver):
            self._receive.close()  # its buffer; the socket is closed or detached below
        if self._owns_fd:
            self._socket.close()
        else:
            self._socket.detach()

    # -- reading ------------------------------------------------------------------------------------

    def _watch(self, on: bool) -> None:
        if on and not self._watched and not self._closed:
            self._loop.add_reader(self._fd, self._readable)
            self._watched = True
        elif not on and self._watched:
            self._loop.remove_reader(self._fd)
            self._watched = False

    def _readable(self) -> None:
        self._read(now=True)
        if self._pending:
            self._deliver()

    def _read(self, now: bool = False) -> bool:
        """One read of what is there, for the sink; False when nothing was there. The lines go to the
        sink at once when ``now`` (the loop's own step for this socket) and nothing is queued before them;
        otherwise they are queued for ``_deliver``."""
        try:
            data, at, _ = self._receive()
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            data, at = b"", time.monotonic()  # an error that ends the stream
        if not data:
            self._end_of_stream()
            return True
        if self._draining:
            return True
        lines, why = self._cutter.cut(data)
        if lines:
            if now and not self._pending:
                self._sink.lines_read(lines, at)
            else:
                self._pending.append(functools.partial(self._sink.lines_read, lines, at))
        if why is not None:
            self._pending.append(functools.partial(self._sink.stream_stopped, why))
            self._stopped = True
            self._watch(False)
        return True

    def _end_of_stream(self) -> None:
        self._at_end = True
        self._watch(False)
        self._report_closed(time.monotonic() + EXIT_PEEK_SECONDS)

    def _report_closed(self, give_up: float) -> None:
        """Report the end of the stream with the engine's exit status, looked for (without blocking the
        loop) for a moment after end-of-file, as an engine that closes its output is usually exiting."""
        status = exit_status(self._pid) if self._pid > 0 else (False, None)
        if status is None and time.monotonic() < give_up:
            self._loop.call_later(EXIT_PEEK_POLL_SECONDS, self._report_closed, give_up)
            return
        exited, returncode = status if status is not None else (False, None)
        self._pending.append(functools.partial(self._sink.stream_closed, exited, returncode))
        self._deliver_soon()

    # -- delivery -----------------------------------------------------------------------------------

    def _deliver_soon(self) -> None:
        if not self._delivery_due:
            self._delivery_due = True
            self._loop.call_soon(self._deliver)

    def _deliver(self) -> None:
        self._delivery_due = False
        pending = self._pending
        while pending:
            pending.popleft()()
