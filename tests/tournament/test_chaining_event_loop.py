"""The loop games run on: an answer's wake-up runs in the pass that read the answer, with asyncio's order
of callbacks and its stop, cancel and debug behaviour kept (arbiter/running/event_loop.py)."""

from __future__ import annotations

import asyncio
import selectors
import socket
from collections.abc import Callable
from typing import Any

import pytest

from arbiter.running import event_loop
from arbiter.running.event_loop import ChainingEventLoop

ROUNDS = 50


class CountingSelector(selectors.DefaultSelector):  # type: ignore[misc,valid-type]
    """The platform's selector, counting its polls."""

    polls = 0

    def select(self, timeout: float | None = None) -> Any:
        self.polls += 1
        return super().select(timeout)


def polls_per_answer(make_loop: Callable[[selectors.BaseSelector], asyncio.AbstractEventLoop]) -> float:
    """Polls of the selector per round trip of a task that waits for an answer its reader callback
    reads, as the engine layer waits for a move."""
    selector = CountingSelector()
    loop = make_loop(selector)
    ours, engine = socket.socketpair()
    ours.setblocking(False)
    waiting: list[asyncio.Future[bytes]] = []

    def readable() -> None:
        data = ours.recv(64)
        if waiting and not waiting[-1].done():
            waiting[-1].set_result(data)

    async def game() -> list[int]:
        polls = []
        for _ in range(ROUNDS):
            answer = loop.create_future()
            waiting.append(answer)
            engine.send(b"done\n")  # the engine answers at once
            await answer
            polls.append(selector.polls)
        return polls

    try:
        loop.add_reader(ours.fileno(), readable)
        polls = loop.run_until_complete(game())
        loop.remove_reader(ours.fileno())
    finally:
        loop.close()
        ours.close()
        engine.close()
    return (polls[-1] - polls[0]) / (ROUNDS - 1)


def test_an_answer_wakes_its_task_in_the_pass_that_read_it() -> None:
    assert polls_per_answer(ChainingEventLoop) == 1


def test_asyncio_loop_polls_again_before_waking_the_task() -> None:
    # What the chaining loop saves: the measure above tells the two loops apart.
    assert polls_per_answer(asyncio.SelectorEventLoop) == 2


def test_debug_mode_runs_passes_as_asyncio_does() -> None:
    def debug_loop(selector: selectors.BaseSelector) -> asyncio.AbstractEventLoop:
        loop = ChainingEventLoop(selector)
        loop.set_debug(True)
        return loop

    assert polls_per_answer(debug_loop) == 2


def test_callbacks_run_in_the_order_they_became_ready_and_a_third_generation_waits_for_a_poll() -> None:
    selector = CountingSelector()
    loop = ChainingEventLoop(selector)
    ran: list[tuple[str, int]] = []

    def step(name: str, then: str | None = None) -> Callable[[], None]:
        def callback() -> None:
            ran.append((name, selector.polls))
            if then is not None:
                loop.call_soon(steps[then])

        return callback

    steps = {
        "a": step("a", "c"),
        "b": step("b", "d"),
        "c": step("c", "e"),
        "d": step("d"),
        "e": step("e", "stop"),
        "stop": loop.stop,
    }
    try:
        loop.call_soon(steps["a"])
        loop.call_soon(steps["b"])
        loop.run_forever()
    finally:
        loop.close()
    names = [name for name, _ in ran]
    assert names == ["a", "b", "c", "d", "e"]
    polls = dict(ran)
    assert polls["a"] == polls["b"] == polls["c"] == polls["d"]
    assert polls["e"] == polls["d"] + 1


def test_a_stop_ends_the_pass_before_the_callbacks_it_made_ready() -> None:
    loop = ChainingEventLoop()
    ran: list[str] = []

    def first() -> None:
        ran.append("first")
        loop.stop()
        loop.call_soon(lambda: ran.append("second"))

    try:
        loop.call_soon(first)
        loop.run_forever()
        assert ran == ["first"]
        loop.call_soon(loop.stop)
        loop.run_forever()
    finally:
        loop.close()
    assert ran == ["first", "second"]


def run_briefly(loop: asyncio.AbstractEventLoop, first: Callable[[], None]) -> None:
    """Run ``first`` on ``loop``, and whatever follows from it for 10 ms, then close the loop."""
    try:
        loop.call_soon(first)
        loop.call_later(0.01, loop.stop)
        loop.run_forever()
    finally:
        loop.close()


def test_a_cancelled_follow_on_callback_does_not_run() -> None:
    loop = ChainingEventLoop()
    ran: list[str] = []

    def first() -> None:
        ran.append("first")
        loop.call_soon(lambda: ran.append("cancelled")).cancel()
        loop.call_soon(lambda: ran.append("kept"))

    run_briefly(loop, first)
    assert ran == ["first", "kept"]


def test_an_error_in_a_follow_on_callback_goes_to_the_exception_handler() -> None:
    loop = ChainingEventLoop()
    reported: list[str] = []
    loop.set_exception_handler(lambda _loop, context: reported.append(str(context.get("exception"))))

    def fail() -> None:
        raise RuntimeError("follow-on failed")

    run_briefly(loop, lambda: loop.call_soon(fail))
    assert reported == ["follow-on failed"]


def test_timers_fire_in_order_of_their_time() -> None:
    async def main() -> list[str]:
        loop = asyncio.get_running_loop()
        fired: list[str] = []
        done = loop.create_future()
        loop.call_later(0.02, fired.append, "later")
        loop.call_later(0.01, fired.append, "sooner")
        loop.call_later(0.03, done.set_result, None)
        await done
        return fired

    assert event_loop.run(main()) == ["sooner", "later"]


async def loop_kind() -> str:
    return type(asyncio.get_running_loop()).__name__


def test_run_gives_the_coroutine_result_on_a_chaining_loop_and_raises_its_error() -> None:
    async def broken() -> None:
        raise ValueError("inside the game")

    assert event_loop.run(loop_kind()) == "ChainingEventLoop"
    with pytest.raises(ValueError, match="inside the game"):
        event_loop.run(broken())


def test_run_falls_back_to_asyncio_loop_where_passes_cannot_chain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(event_loop, "CHAINING", False)
    assert event_loop.run(loop_kind()) == "_UnixSelectorEventLoop"
