"""Arrival times stamped by the kernel: when an engine's bytes reached the arbiter, not when it read them.

A reader thread's own clock reading tells when that thread got a core, which on a loaded machine may be
milliseconds after the engine wrote. A TCP socket with ``SO_TIMESTAMPNS`` instead carries, with every
read, the moment the kernel queued the data for us (on the loopback interface: during the engine's own
``write``). So an engine's protocol output is a loopback TCP connection rather than a pipe (Linux pipes
and UNIX stream sockets carry no such stamp; UNIX datagram sockets do, but refuse a write larger than
their buffer, which a flooding engine would see as a write error instead of a flood), and DXP's
connection, TCP already, is read the same way.

The stamp is on the wall clock (``CLOCK_REALTIME``); ``ArrivalClock`` puts it on the monotonic clock the
referee charges by, and falls back to the moment of reading whenever no stamp came or the wall clock
was stepped meanwhile.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import sys
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
_monotonic = time.monotonic
# How far the wall clock may drift from the monotonic one between two reads without being called a
# step: NTP slews by at most 500 parts per million, plus a millisecond.
_SLEW = 0.0005
_STEP = 0.001
_ACCEPT_TRIES = 8


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
        self._read_at = float("-inf")  # monotonic time of the previous read
        self._floor = float("-inf")  # data read next arrived after this (the previous read emptied the queue)

    def arrival(self, stamp: float | None, emptied: bool) -> tuple[float, bool]:
        """(monotonic arrival, whether it is the kernel's stamp) of data read now with the wall-clock
        ``stamp``; ``emptied``: this read took all that was queued."""
        now = _monotonic()
        offset = self._wall() - now
        previous = self._offset
        stepped = previous is not None and abs(offset - previous) > _STEP + _SLEW * (now - self._read_at)
        self._offset, self._read_at = offset, now
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


def receive(sock: socket.socket, size: int, clock: ArrivalClock) -> Received:
    """One read of up to ``size`` bytes (b"" at end-of-stream) with its arrival time."""
    return Received(*receive_plain(sock, size, clock))


def receive_plain(sock: socket.socket, size: int, clock: ArrivalClock) -> tuple[bytes, float, bool]:
    """``receive`` as a plain tuple (data, at, stamped): the event loop's reader reads every answer so."""
    data, control, _, _ = sock.recvmsg(size, _CONTROL_BYTES)
    stamp: float | None = None
    for level, kind, payload in control:
        if level == _SOL_SOCKET and kind == SO_TIMESTAMPNS and len(payload) >= _TIMESPEC_SIZE:
            seconds, nanoseconds = _unpack_timespec(payload)
            stamp = seconds + nanoseconds * 1e-9
    at, stamped = clock.arrival(stamp, len(data) < size)
    return data, at, stamped


def stamped_stream() -> tuple[socket.socket, socket.socket]:
    """A loopback TCP connection: (the arbiter's end, stamped and read-only; the engine's end, for its
    stdout). Raises OSError when the loopback interface cannot be used."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    engine_end: socket.socket | None = None
    try:
        listener.bind(("127.0.0.1", 0))
        listener.listen(_ACCEPT_TRIES)
        listener.settimeout(5.0)
        engine_end = socket.create_connection(listener.getsockname(), timeout=5.0)
        engine_end.settimeout(None)  # the engine writes blocking, as to a pipe
        # Each line goes out as the engine writes it, not held back for the previous one's ack.
        engine_end.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        ours = _accept_own(listener, engine_end.getsockname())
    except OSError:
        if engine_end is not None:
            engine_end.close()
        raise
    finally:
        listener.close()
    ours.settimeout(None)
    with contextlib.suppress(OSError):
        ours.shutdown(socket.SHUT_WR)  # nothing is ever sent to the engine this way
    enable_stamps(ours)
    return ours, engine_end


def _accept_own(listener: socket.socket, own: tuple[str, int]) -> socket.socket:
    """The connection coming from ``own``; any other local program that connected first is turned away."""
    for _ in range(_ACCEPT_TRIES):
        connection, peer = listener.accept()
        if peer == own:
            return connection
        connection.close()
    raise OSError("the protocol stream's connection was not accepted")
