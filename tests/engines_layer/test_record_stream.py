"""An engine's protocol output is a stream of records, one per write of the engine, each stamped by the
kernel as the engine wrote it: writes read together keep their own arrival, a line written in pieces
arrives whole, an empty write is not the end of the stream, a write as long as the stream allows is
never cut short, and at a deadline every write that has arrived is read."""

from __future__ import annotations

import asyncio
import errno
import socket
import time

import pytest
from loop_reader_support import CLOCK_MAPPING_SLACK, Heard, with_loop_reader

from arbiter.engines.arrival import ArrivalClock, RecordReceiver, stamped_stream
from arbiter.engines.loop_reader import LoopReader
from arbiter.engines.output_lines import ReadLimits

LARGE_LIMITS = ReadLimits(line_bytes=1 << 20, output_bytes=8 << 20)


def record_receiver() -> tuple[RecordReceiver, socket.socket, socket.socket]:
    ours, engine_end = stamped_stream()
    ours.setblocking(False)
    return RecordReceiver(ours, ArrivalClock()), ours, engine_end


def test_an_engines_stream_is_a_record_socket_the_kernel_stamps() -> None:
    ours, engine_end = stamped_stream()
    with ours, engine_end:
        assert ours.family == socket.AF_UNIX
        assert ours.type == socket.SOCK_SEQPACKET


def test_writes_read_together_each_keep_the_moment_they_arrived() -> None:
    receive, ours, engine_end = record_receiver()
    with ours, engine_end:
        first_sent = time.monotonic()
        engine_end.send(b"info depth=1\n")
        time.sleep(0.1)
        second_sent = time.monotonic()
        engine_end.send(b"done move=11-15\n")
        time.sleep(0.1)  # both read well after they arrived
        first, first_at, first_stamped = receive()
        second, second_at, second_stamped = receive()
        read = time.monotonic()
        receive.close()
    assert (first, second) == (b"info depth=1\n", b"done move=11-15\n")
    assert first_stamped and second_stamped
    assert first_sent - CLOCK_MAPPING_SLACK <= first_at < second_sent
    assert second_sent - CLOCK_MAPPING_SLACK <= second_at < read - 0.05


def test_an_empty_write_is_nothing_to_read_and_not_the_end_of_the_stream() -> None:
    receive, ours, engine_end = record_receiver()
    with ours:
        engine_end.send(b"")
        with pytest.raises(BlockingIOError):
            receive()
        engine_end.send(b"pong\n")
        assert receive()[0] == b"pong\n"
        engine_end.close()
        assert receive()[0] == b""
        receive.close()


def test_the_end_of_the_stream_comes_after_every_write_queued_before_it() -> None:
    receive, ours, engine_end = record_receiver()
    with ours:
        engine_end.send(b"info depth=1\n")
        engine_end.send(b"")
        engine_end.send(b"done move=11-15\n")
        engine_end.close()
        assert receive()[0] == b"info depth=1\n"
        with pytest.raises(BlockingIOError):  # the empty write, with a write still queued behind it
            receive()
        assert receive()[0] == b"done move=11-15\n"
        assert receive()[0] == b""
        receive.close()


def test_the_longest_write_the_stream_allows_arrives_whole_and_a_longer_one_fails_in_the_engine() -> None:
    receive, ours, engine_end = record_receiver()
    with ours, engine_end:
        longest = engine_end.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) - 32
        assert longest >= 200_000  # a line far past the arbiter's own cap fits in one write
        with pytest.raises(OSError) as refused:
            engine_end.send(b"x" * (longest + 1))
        assert refused.value.errno == errno.EMSGSIZE
        engine_end.settimeout(5.0)
        engine_end.send(b"i" * (longest - 1) + b"\n")
        data, _, _ = receive()
        receive.close()
    assert len(data) == longest and data.endswith(b"i\n")


def test_a_line_written_in_pieces_is_read_as_one_line() -> None:
    async def test(reader: LoopReader, engine: socket.socket, heard: Heard) -> None:
        for piece in (b"done mo", b"ve=11-", b"15\ninfo ", b"depth=2\n"):
            engine.send(piece)
            await asyncio.sleep(0.001)
        await heard.until(lambda: len(heard.lines) == 2)
        assert heard.lines == [b"done move=11-15", b"info depth=2"]

    with_loop_reader(test, LARGE_LIMITS)


def test_at_a_deadline_every_write_that_has_arrived_is_read_however_many() -> None:
    async def test(reader: LoopReader, engine: socket.socket, heard: Heard) -> None:
        for depth in range(1, 201):  # an engine that flushes every line: a write each
            engine.send(b"info depth=%d\n" % depth)
        engine.send(b"done move=11-15\n")
        assert reader.unread() is False
        await asyncio.sleep(0)  # one pass of the loop delivers what the deadline's read took
        assert len(heard.lines) == 201
        assert heard.lines[-1] == b"done move=11-15"

    with_loop_reader(test, LARGE_LIMITS)
