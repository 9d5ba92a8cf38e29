"""A stamped socket read by the event loop itself: lines are charged at the kernel's stamp however late
the loop reads them, a deadline reads what has arrived at once, the caps on output still stop an
engine, and the end of the stream is named at once. Without stamps a reader thread is used."""

from __future__ import annotations

import asyncio
import os
import socket
import time

import pytest
from engine_layer_support import ENGLISH_START, hub_config
from loop_reader_support import CLOCK_MAPPING_SLACK, LIMITS, STALL, Heard, with_loop_reader

import arbiter.engines.process as process
from arbiter.engines import HubEngine, MoveTime
from arbiter.engines.arrival import stamped_stream
from arbiter.engines.loop_reader import LoopReader, open_reader, stamps_enabled
from arbiter.engines.stamped_reader import StampedReader


def test_a_stamped_socket_is_read_by_the_loop_and_a_pipe_by_a_thread() -> None:
    async def main() -> None:
        ours, engine_end = stamped_stream()
        assert stamps_enabled(ours)
        read_end, write_end = os.pipe()
        by_loop = open_reader(ours, Heard(), LIMITS)
        by_thread = open_reader(read_end, Heard(), LIMITS)
        try:
            assert isinstance(by_loop, LoopReader)
            assert isinstance(by_thread, StampedReader)
        finally:
            by_loop.close()
            by_thread.close()
            engine_end.close()
            os.close(write_end)

    asyncio.run(main())


def test_lines_that_arrive_while_the_loop_is_busy_are_charged_at_their_arrival() -> None:
    async def test(reader: LoopReader, engine: socket.socket, heard: Heard) -> None:
        sent = time.monotonic()
        engine.sendall(b"info depth=1\ndone move=11-15\n")
        time.sleep(STALL)  # the loop is held up: nobody reads meanwhile
        released = time.monotonic()
        await heard.until(lambda: len(heard.lines) == 2)
        assert heard.lines == [b"info depth=1", b"done move=11-15"]
        for _, _, at in heard.events:
            assert sent - CLOCK_MAPPING_SLACK <= at < released - STALL / 2

    with_loop_reader(test)


def test_at_a_deadline_what_has_arrived_is_read_at_once_and_delivered_in_one_pass() -> None:
    async def test(reader: LoopReader, engine: socket.socket, heard: Heard) -> None:
        sent = time.monotonic()
        engine.sendall(b"done move=11-15\n")
        time.sleep(0.05)  # arrived, and the loop has not looked yet
        assert reader.unread() is False
        await asyncio.sleep(0)  # one pass of the loop
        [(kind, line, at)] = heard.events
        assert (kind, line) == ("line", b"done move=11-15")
        assert sent - CLOCK_MAPPING_SLACK <= at < sent + 0.04

    with_loop_reader(test)


def test_lines_keep_their_order_whether_read_at_a_deadline_or_when_the_socket_is_ready() -> None:
    async def test(reader: LoopReader, engine: socket.socket, heard: Heard) -> None:
        for number in range(20):
            engine.sendall(b"info n=%d\n" % number)
            if number % 3 == 0:
                time.sleep(0.002)
                reader.unread()
            if number % 4 == 0:
                await asyncio.sleep(0)
        await heard.until(lambda: len(heard.lines) == 20)
        assert heard.lines == [b"info n=%d" % number for number in range(20)]

    with_loop_reader(test)


def test_a_flood_is_stopped_and_nothing_more_is_read_until_the_reader_drains() -> None:
    async def test(reader: LoopReader, engine: socket.socket, heard: Heard) -> None:
        engine.setblocking(False)
        try:
            while True:
                engine.send((b"info " + b"x" * 40 + b"\n") * 100)
        except BlockingIOError:
            pass  # the socket is full: the engine would now block
        await heard.until(lambda: "stopped" in heard.kinds())
        await asyncio.sleep(0.05)
        assert heard.events[-1][:2] == ("stopped", "flood")
        assert heard.kinds().count("stopped") == 1
        assert sum(len(line) + 1 for line in heard.lines) <= LIMITS.output_bytes
        with_room = False
        reader.drain()  # the engine is being ended: what it writes is read and dropped
        for _ in range(200):
            await asyncio.sleep(0.005)
            try:
                engine.send(b"x")
                with_room = True
                break
            except BlockingIOError:
                continue
        assert with_room, "a draining reader let the blocked engine write on"
        engine.close()
        await heard.until(lambda: "closed" in heard.kinds())
        assert heard.kinds().count("stopped") == 1

    with_loop_reader(test)


def test_each_command_sent_lets_the_engine_print_another_output_allowance() -> None:
    async def test(reader: LoopReader, engine: socket.socket, heard: Heard) -> None:
        burst = (b"info " + b"x" * 40 + b"\n") * 15  # 690 bytes: two of them are over the 1,024 allowed
        engine.sendall(burst)
        await heard.until(lambda: len(heard.lines) == 15)
        reader.command_sent()
        engine.sendall(burst)
        await heard.until(lambda: len(heard.lines) == 30)
        assert "stopped" not in heard.kinds()
        engine.sendall(burst)  # no command since the last burst
        await heard.until(lambda: "stopped" in heard.kinds())
        assert heard.events[-1][:2] == ("stopped", "flood")
        assert len(heard.lines) == 30

    with_loop_reader(test)


def test_a_line_longer_than_the_limit_stops_the_reader_after_the_lines_before_it() -> None:
    async def test(reader: LoopReader, engine: socket.socket, heard: Heard) -> None:
        engine.sendall(b"info depth=1\n" + b"y" * (LIMITS.line_bytes + 1) + b"\ndone move=11-15\n")
        await heard.until(lambda: "stopped" in heard.kinds())
        await asyncio.sleep(0.05)
        assert heard.lines == [b"info depth=1"]
        assert heard.events[-1][:2] == ("stopped", "line")

    with_loop_reader(test)


def test_the_end_of_the_stream_is_named_at_once_after_the_last_lines() -> None:
    async def test(reader: LoopReader, engine: socket.socket, heard: Heard) -> None:
        engine.sendall(b"info depth=1\n")
        closed_at = time.monotonic()
        engine.close()
        await heard.until(lambda: "closed" in heard.kinds())
        kind, what, told_at = heard.events[-1]
        assert heard.kinds() == ["line", "closed"]
        assert what == (False, None)  # no process to look at
        assert told_at - closed_at < 0.5

    with_loop_reader(test)


def test_an_exited_engine_whose_output_stays_open_is_reported_closed_after_what_it_wrote() -> None:
    async def test(reader: LoopReader, engine: socket.socket, heard: Heard) -> None:
        engine.sendall(b"done move=11-15\n")
        time.sleep(0.05)  # arrived; the loop has not read it yet
        reader.engine_exited()  # a process the engine left behind still holds the socket
        await heard.until(lambda: "closed" in heard.kinds())
        assert heard.kinds() == ["line", "closed"]
        assert heard.events[-1][1] == (True, None)

    with_loop_reader(test)


@pytest.mark.parametrize("stream", ["stamped socket", "pipe"])
def test_an_engine_plays_through_either_reader(stream: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if stream == "pipe":  # as on a system without loopback: no stamp, so a reader thread
        monkeypatch.setattr(process, "_protocol_stream", os.pipe)

    async def main() -> None:
        engine = HubEngine(hub_config("stamps_answer.py"))
        await engine.open("english")
        try:
            assert engine._process is not None
            reader = engine._process._reader
            assert isinstance(reader, LoopReader if stream == "stamped socket" else StampedReader)
            for _ in range(3):
                handle = await engine.begin_search(ENGLISH_START, [], MoveTime(10.0))
                result = await handle.wait(10.0)
                assert result is not None and result.move is not None
                info = result.last_info
                assert info is not None
                # Charged from go to the answer: never before the engine sent it.
                assert handle.started + result.elapsed >= float(info.extra["sent"]) - CLOCK_MAPPING_SLACK
        finally:
            await engine.quit()
        assert not engine.faults

    asyncio.run(main())
