"""Arrival times stamped by the kernel: when an engine's bytes reached the arbiter, not when it read them.

A reader thread's own clock reading tells when that thread got a core, which on a loaded machine may be
milliseconds after the engine wrote. A socket with ``SO_TIMESTAMPNS`` instead carries, with every read,
the moment the kernel queued the data for us. So an engine's protocol output is not a pipe (Linux pipes
and UNIX stream sockets carry no such stamp) but a UNIX sequenced-packet socket (``stamped_stream``):
the kernel stamps each write of the engine as it queues it, during the engine's own ``write``, and the
arbiter reads the writes one at a time, each with its stamp (``RecordReceiver``). It costs less than a
loopback TCP connection, which stamps the same moment but acknowledges every read. A record cannot be
longer than the socket's send buffer, so the buffer is made as large as the system allows (an engine
writing more than that in a single ``write`` sees the write fail; the arbiter's own cap on a line is far
shorter). DXP's connection, TCP already, is read as a byte stream with the same stamps.

The stamp is on the wall clock (``CLOCK_REALTIME``); ``ArrivalClock`` puts it on the monotonic clock the
referee charges by, and falls back to the moment of reading whenever no stamp came or the wall clock
was stepped meanwhile.
"""

from __future__ import annotations

import fcntl
import mmap
import select
import socket
import struct
import sys
import termios
import time
from collections.abc import Callable
from dataclasses import dataclass

# Linux's value: Python's socket module does not name it (SO_TIMESTAMPNS_OLD, a timespec of two longs).
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
_TIMESPEC = struct.Struct("@qq")
_TIMESPEC_SIZE = _TIMESPEC.size
_unpack_timespec = _TIMESPEC.unpack_from
_CONTROL_BYTES = socket.CMSG_SPACE(_TIMESPEC.size)
_SOL_SOCKET = socket.SOL_SOCKET
_MSG_TRUNC = int(socket.MSG_TRUNC)  # a plain int: the enum's ``&`` is a Python call
_monotonic = time.monotonic
# How far the wall clock may drift from the monotonic one between two reads without being called a
# step: NTP slews by at most 500 parts per million, plus a millisecond, plus how uncertain each reading
# of the two clocks' difference is.
_SLEW = 0.0005
_STEP = 0.001
# The two clocks' difference is read between two readings of the monotonic clock, a few hundred
# nanoseconds apart unless the thread is taken off the processor between them: then it is read again,
# up to ``_OFFSET_TRIES`` times in all, until the readings are this close.
_TIGHT = 0.00002
_OFFSET_TRIES = 3
# What each end of an engine's protocol stream asks for as its send buffer, so the longest write an
# engine may make (the kernel doubles it, and caps it at net.core.wmem_max: 416 KB by Linux's default).
WRITE_BUFFER_BYTES = 1 << 20
# Reads of a record stream that may be made at once (at a deadline, after the engine's exit): a write
# each, so more than a byte stream's few; a bound all the same against an engine that keeps writing.
RECORD_READS_AT_ONCE = 4096


@dataclass(frozen=True)
class Received:
    data: bytes
    at: float  # monotonic time of arrival
    stamped: bool  # ``at`` is the kernel's stamp (False: the moment of reading)


class ArrivalClock:
    """Turns one stream's kernel stamps into monotonic times that never run backwards nor pass now."""

    def __init__(self, wall: Callable[[], float] = time.time) -> None:
        self._wall = wall  # the clock the kernel stamps by
        self._offset: float | None = None  # wall clock minus monotonic clock at the previous read
        self._spread = 0.0  # how far off that difference may be (half the time it took to read)
        self._read_at = float("-inf")  # monotonic time of the previous read
        self._floor = float("-inf")  # data read next arrived after this (the previous read emptied the queue)

    def _difference(self, offset: float, width: float) -> tuple[float, float]:
        """(wall clock minus monotonic clock, how far off that may be), after a first reading ``offset``
        whose two monotonic readings were ``width`` apart, too far to trust: the thread was taken off the
        processor between them, which skews the difference by the length of the pause (the next read
        would take that for a step of the wall clock). The difference is read again, and the closest
        reading kept."""
        wall = self._wall
        for _ in range(_OFFSET_TRIES - 1):
            before = _monotonic()
            stamp = wall()
            after = _monotonic()
            if after - before < width:
                offset, width = stamp - (before + after) / 2, after - before
                if width <= _TIGHT:
                    break
        return offset, width / 2

    def arrival(self, stamp: float | None, emptied: bool) -> tuple[float, bool]:
        """(monotonic arrival, whether it is the kernel's stamp) of data read now with the wall-clock
        ``stamp``; ``emptied``: this read took all that was queued."""
        # The wall clock read between two readings of the monotonic one: their difference is known to
        # within half the time between those readings.
        now = _monotonic()
        wall = self._wall()
        width = _monotonic() - now
        offset = wall - now - width / 2
        spread = width / 2
        if width > _TIGHT:
            offset, spread = self._difference(offset, width)
        previous = self._offset
        stepped = previous is not None and abs(offset - previous) > (
            _STEP + _SLEW * (now - self._read_at) + spread + self._spread
        )
        self._offset, self._spread, self._read_at = offset, spread, now
        if stamp is None or stepped:
            self._floor = now
            return now, False
        # The stamp on the monotonic clock, never before the end of the previous read's queue nor after
        # now (written out: a read of every answer).
        at = stamp - offset
        if at < self._floor:
            at = self._floor
        if at > now:
            at = now
        self._floor = now if emptied else at
        return at, True


def enable_stamps(sock: socket.socket) -> bool:
    """Ask the kernel to stamp what this socket receives; False where it cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    except OSError:
        return False
    return True


def kernel_stamp(control: list[tuple[int, int, bytes]]) -> float | None:
    """The wall-clock stamp among a read's control messages, if the kernel put one there."""
    seconds: int
    nanoseconds: int
    for level, kind, payload in control:
        if level == _SOL_SOCKET and kind == SO_TIMESTAMPNS and len(payload) >= _TIMESPEC_SIZE:
            seconds, nanoseconds = _unpack_timespec(payload)
            return seconds + nanoseconds * 1e-9
    return None


def receive(sock: socket.socket, size: int, clock: ArrivalClock) -> Received:
    """One read of up to ``size`` bytes (b"" at end-of-stream) with its arrival time."""
    return Received(*receive_plain(sock, size, clock))


def receive_plain(sock: socket.socket, size: int, clock: ArrivalClock) -> tuple[bytes, float, bool]:
    """``receive`` as a plain tuple (data, at, stamped): the event loop's reader reads every answer so."""
    data, control, _, _ = sock.recvmsg(size, _CONTROL_BYTES)
    at, stamped = clock.arrival(kernel_stamp(control), len(data) < size)
    return data, at, stamped


class RecordReceiver:
    """Reads a stamped sequenced-packet socket (``stamped_stream``) a record, one write of the engine, at a
    time, each with its own stamp. Called as ``receive_plain`` is, and gives the same tuple."""

    def __init__(self, sock: socket.socket, clock: ArrivalClock) -> None:
        self._socket = sock
        self._clock = clock
        # No record is longer than the send buffer, the same at both ends: read into one that size, so
        # none is ever cut short. Mapped, not allocated: only the pages records reach are ever touched.
        self._buffer = mmap.mmap(-1, sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF), mmap.MAP_PRIVATE)
        self._view = memoryview(self._buffer)
        self._into = (self._view,)

    def __call__(self) -> tuple[bytes, float, bool]:
        """(data, at, stamped) of the next record; b"" at end-of-stream. Raises BlockingIOError when
        nothing is there (an empty write counts as nothing), OSError when a record did not fit."""
        size, control, flags, _ = self._socket.recvmsg_into(self._into, _CONTROL_BYTES)
        if flags & _MSG_TRUNC:
            raise OSError(f"a write longer than the stream's buffer of {len(self._buffer)} bytes")
        if not size and not self._at_end():
            raise BlockingIOError("an empty write")
        # Never "emptied": more records may wait behind this one, stamped no earlier than it.
        at, stamped = self._clock.arrival(kernel_stamp(control), False)
        return self._view[:size].tobytes(), at, stamped

    def _at_end(self) -> bool:
        """After a read of nothing: whether that was the end of the stream (the engine's end is closed and
        no byte is queued) rather than an empty write."""
        fd = self._socket.fileno()
        (queued,) = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))
        if queued:
            return False
        look = select.poll()
        look.register(fd, select.POLLRDHUP)
        return bool(look.poll(0))

    def close(self) -> None:
        self._view.release()
        self._buffer.close()


def stamped_stream() -> tuple[socket.socket, socket.socket]:
    """A connected pair of UNIX sequenced-packet sockets: (the arbiter's end, stamped and read-only; the
    engine's end, for its stdout). Raises OSError where the kernel cannot stamp what it carries.

    Each ``write`` of the engine is one record, stamped by the kernel as it is queued (``RecordReceiver``
    reads them). A record cannot be longer than the socket's send buffer, so both ends get the largest
    the system allows up to ``WRITE_BUFFER_BYTES``: a write longer than that fails in the engine."""
    ours, engine_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        for end in (ours, engine_end):  # the same size on both: the reader sizes its buffer by its own
            end.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, WRITE_BUFFER_BYTES)
        ours.shutdown(socket.SHUT_WR)  # nothing is ever sent to the engine this way
        # Set before the engine can write: the kernel stamps a record on sending only for a reader
        # that asked for stamps.
        if not enable_stamps(ours):
            raise OSError("the kernel does not stamp what this socket receives")
    except OSError:
        ours.close()
        engine_end.close()
        raise
    return ours, engine_end
