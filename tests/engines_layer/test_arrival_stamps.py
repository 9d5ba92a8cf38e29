"""An answer is charged at the moment the kernel received it, not when the arbiter's reader thread got
a core to read it: a process whose threads are all held up adds nothing to the engine's time, and an
answer that arrived before the deadline counts even when the deadline's timer fires before the reader
has handed it over."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
import time

from engine_layer_support import ENGLISH_START, hub_config

from arbiter.engines import HubEngine, MoveTime, SearchResult
from arbiter.engines.arrival import ArrivalClock, enable_stamps, receive, stamped_stream
from arbiter.engines.hub import HubSearch
from arbiter.engines.hub_wire import parse_line
from arbiter.engines.stamped_reader import ReadLimits, StampedReader

HOLD = 0.5  # seconds no other thread of the arbiter may run


def hold_other_threads() -> None:
    """Keep the interpreter lock on this thread for ``HOLD`` seconds (a busy loop, with a switch interval
    longer than that), so the reader thread, woken by the engine's answer, cannot run to read it."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(30.0)
    try:
        end = time.monotonic() + HOLD
        while time.monotonic() < end:
            pass
    finally:
        sys.setswitchinterval(interval)


async def search_while_held(deadline: float | None) -> tuple[SearchResult | None, float, float]:
    """(the result, when the search began, when the other threads could run again), waiting until
    ``deadline`` seconds after the search began (None: for as long as it takes)."""
    engine = HubEngine(hub_config("stamps_answer.py"))
    await engine.open("english")
    try:
        handle = await engine.begin_search(ENGLISH_START, [], MoveTime(10.0))
        hold_other_threads()
        released = time.monotonic()
        wait = 10.0 if deadline is None else handle.started + deadline - time.monotonic()
        return await handle.wait(wait), handle.started, released
    finally:
        await engine.quit()


def test_an_answer_is_charged_at_its_arrival_even_when_the_reader_thread_could_not_run() -> None:
    result, started, released = asyncio.run(search_while_held(None))
    assert result is not None
    info = result.last_info
    assert info is not None
    sent = float(info.extra["sent"])
    assert started <= sent < released, "the engine answered while the arbiter's threads were held up"
    charged_until = started + result.elapsed
    assert sent <= charged_until < released


def test_an_answer_that_arrived_before_the_deadline_counts_though_its_reader_was_late() -> None:
    deadline = HOLD / 2  # passes while the reader is held up, after the answer arrived
    result, started, released = asyncio.run(search_while_held(deadline))
    assert released > started + deadline
    assert result is not None, "the answer that arrived in time was taken as no move"
    info = result.last_info
    assert info is not None
    sent = float(info.extra["sent"])
    assert sent < started + deadline, "the engine answered before the deadline"
    assert result.elapsed < deadline


CLOCK_MAPPING_SLACK = 0.001  # seconds


def test_a_stamped_stream_carries_the_moment_the_bytes_arrived() -> None:
    ours, engine_end = stamped_stream()
    with ours, engine_end:
        before = time.monotonic()
        engine_end.sendall(b"done move=11-15\n")
        time.sleep(0.2)  # read well after the arrival
        received = receive(ours, 4096, ArrivalClock())
        read = time.monotonic()
    assert received.data == b"done move=11-15\n"
    assert received.stamped
    # The kernel stamps by the wall clock; carried onto the monotonic clock it can land a fraction of a
    # microsecond early, the time between reading the two clocks.
    assert before - CLOCK_MAPPING_SLACK <= received.at < read - 0.1


def test_the_end_of_a_stamped_stream_is_read_as_end_of_file() -> None:
    ours, engine_end = stamped_stream()
    with ours:
        engine_end.sendall(b"bye\n")
        engine_end.close()
        clock = ArrivalClock()
        assert receive(ours, 4096, clock).data == b"bye\n"
        assert receive(ours, 4096, clock).data == b""


def test_an_arrival_is_never_later_than_its_reading_nor_earlier_than_the_previous_one() -> None:
    clock = ArrivalClock()
    offset = time.time() - time.monotonic()
    late_stamp = time.time() + 5.0  # a wall-clock stamp from the future (the clock was set back)
    at, stamped = clock.arrival(late_stamp, emptied=False)
    assert at <= time.monotonic()
    assert stamped
    early_stamp = offset + at - 3.0  # queued after the previous read, whatever the stamp says
    again, _ = clock.arrival(early_stamp, emptied=True)
    assert again >= at


def test_without_a_stamp_the_arrival_is_the_moment_of_reading() -> None:
    clock = ArrivalClock()
    before = time.monotonic()
    at, stamped = clock.arrival(None, emptied=True)
    assert not stamped
    assert before <= at <= time.monotonic()


def test_a_stamp_is_not_trusted_across_a_step_of_the_wall_clock() -> None:
    step = 0.0
    clock = ArrivalClock(wall=lambda: time.time() + step)
    clock.arrival(time.time(), emptied=True)
    step = 10.0  # the wall clock is set forward between two reads
    before = time.monotonic()
    at, stamped = clock.arrival(time.time() + step - 1.0, emptied=True)
    assert not stamped
    assert at >= before


def test_a_pause_of_the_arbiter_between_reading_its_two_clocks_is_not_taken_for_a_step() -> None:
    # The arbiter's thread taken off the processor between its readings of the monotonic and the wall
    # clock (a loaded machine) skewed their difference by the pause; the next read took that for a step
    # of the wall clock, threw its stamp away and charged the engine up to the moment of reading.
    pauses = [0.01]

    def paused_wall() -> float:
        if pauses:
            time.sleep(pauses.pop())
        return time.time()

    ours, engine_end = stamped_stream()
    with ours, engine_end:
        clock = ArrivalClock(wall=paused_wall)
        sent = time.monotonic()
        engine_end.sendall(b"done move=11-15\n")
        first = receive(ours, 4096, clock)
        assert first.stamped
        assert first.at >= sent - CLOCK_MAPPING_SLACK, "the pause was charged as if the answer came early"
        sent = time.monotonic()
        engine_end.sendall(b"done move=23-19\n")
        time.sleep(0.1)  # the loop reads late: that is not the engine's time
        read_from = time.monotonic()
        second = receive(ours, 4096, clock)
    assert second.stamped, "the kernel's stamp was thrown away as if the wall clock had been stepped"
    assert sent - CLOCK_MAPPING_SLACK <= second.at < read_from


class _Lines:
    """A reader's sink that keeps what it is handed."""

    def __init__(self) -> None:
        self.lines: list[tuple[bytes, float]] = []
        self.got = asyncio.Event()

    def lines_read(self, lines: list[bytes], at: float) -> None:
        self.lines.extend((line, at) for line in lines)
        self.got.set()

    def stream_stopped(self, why: str) -> None:
        raise AssertionError(why)

    def stream_closed(self, exited: bool, returncode: int | None) -> None:
        self.got.set()


async def dxp_message_while_held() -> tuple[float, float, float]:
    """(sent, the arrival the reader gave the message, when the other threads could run again) for a
    DXP-style message over TCP, read by a reader thread that is held up when it arrives."""
    listener = socket.create_server(("127.0.0.1", 0))
    engine = socket.create_connection(listener.getsockname())
    connection, _ = listener.accept()
    listener.close()
    enable_stamps(connection)
    sink = _Lines()
    reader = StampedReader(
        socket.socket(fileno=os.dup(connection.fileno())), sink, ReadLimits(256, 4096), separator=b"\0"
    )
    reader.start()
    try:
        sent = time.monotonic()
        engine.sendall(b"M0010132800\0")
        hold_other_threads()
        released = time.monotonic()
        await asyncio.wait_for(sink.got.wait(), 10.0)
        [(message, at)] = sink.lines
        assert message == b"M0010132800"
        return sent, at, released
    finally:
        reader.close()
        engine.close()
        connection.close()


def test_a_dxp_message_is_timed_at_its_arrival_even_when_the_reader_thread_could_not_run() -> None:
    sent, at, released = asyncio.run(dxp_message_while_held())
    assert sent <= at < released


def test_an_answer_stamped_a_hair_before_its_command_is_charged_zero_not_negative_time() -> None:
    # Putting the kernel's wall-clock stamp on the monotonic clock can land an instant answer a fraction
    # of a microsecond before the moment `go` was written; the clock refuses negative time, so the
    # search must not hand it one.
    search = HubSearch(HubEngine(hub_config("instant_hub.py")), started=100.0)
    search._complete(parse_line("done move=11-15"), at=100.0 - 7e-7)
    result = asyncio.run(search.wait(0.0))
    assert result is not None
    assert result.move == "11-15"
    assert result.elapsed == 0.0
