"""How many games a cluster run keeps in flight as workers come and go, and which workers may play them."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from arbiter.distributed.orders import ORDER_FORMAT, ProbeReport, WorkerName, arbiter_version
from arbiter.distributed.roster import Flight, WorkerRoster
from arbiter.running.runner import RunError


def checked(address: str, games: int = 2) -> ProbeReport:
    return ProbeReport(
        worker=WorkerName(address=address, name=address[-2:], host="localhost"),
        arbiter_version=arbiter_version(),
        order_format=ORDER_FORMAT,
        games=games,
    )


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


@contextlib.asynccontextmanager
async def games_wanting_seats(roster: WorkerRoster, count: int) -> AsyncIterator[list[asyncio.Task[Flight]]]:
    """`count` games asking for a seat; each holds its seat until the test ends."""
    release = asyncio.Event()

    async def one_game() -> Flight:
        async with roster.flight() as flight:
            await release.wait()
            return flight

    tasks = [asyncio.create_task(one_game()) for _ in range(count)]
    await settle()
    try:
        yield tasks
    finally:
        release.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def test_games_in_flight_rise_when_a_checked_worker_joins_and_fall_when_one_leaves() -> None:
    async def scenario() -> None:
        roster = WorkerRoster()
        await roster.admit([checked("tcp://w1")])
        assert roster.seats() == 3, "two games at once and one waiting"
        async with games_wanting_seats(roster, 8):
            assert roster.in_flight() == 3
            await roster.admit([checked("tcp://w2", games=3)])
            await settle()
            assert roster.in_flight() == 3 + 4, "the new worker's seats are used at once"
            await roster.remove(["tcp://w1"])
            assert roster.seats() == 4 and roster.in_flight() == 7, "games under way are not taken back"
        assert roster.in_flight() == 0

    asyncio.run(scenario())


def test_no_game_is_handed_out_while_no_checked_worker_is_present() -> None:
    async def scenario() -> None:
        roster = WorkerRoster()
        async with games_wanting_seats(roster, 2):
            assert roster.in_flight() == 0
            await roster.admit([checked("tcp://w1", games=1)])
            await settle()
            assert roster.in_flight() == 2

    asyncio.run(scenario())


def test_a_game_goes_only_to_the_workers_checked_when_it_was_handed_out() -> None:
    async def scenario() -> None:
        roster = WorkerRoster()
        await roster.admit([checked("tcp://w1", games=1)])
        async with roster.flight() as first:
            await roster.admit([checked("tcp://w2", games=1)])
            async with roster.flight() as second:
                assert first.allowed == {"tcp://w1"}
                assert second.allowed == {"tcp://w1", "tcp://w2"}

    asyncio.run(scenario())


def test_a_game_whose_workers_all_left_is_handed_out_again_once_a_checked_worker_is_present() -> None:
    async def scenario() -> None:
        roster = WorkerRoster()
        await roster.admit([checked("tcp://w1", games=1)])
        async with roster.flight() as flight:
            await roster.remove(["tcp://w1"])
            assert not flight.alarm.is_set(), "with no worker present it waits where it is"
            await roster.admit([checked("tcp://w3", games=1)])
            assert flight.alarm.is_set(), "stranded: only a worker that left could play it"
            await roster.rehome(flight)
            assert flight.allowed == {"tcp://w3"} and not flight.alarm.is_set()

    asyncio.run(scenario())


def test_a_game_that_one_present_worker_can_still_play_is_not_stranded() -> None:
    async def scenario() -> None:
        roster = WorkerRoster()
        await roster.admit([checked("tcp://w1"), checked("tcp://w2")])
        async with roster.flight() as flight:
            await roster.remove(["tcp://w2"])
            assert not flight.alarm.is_set()

    asyncio.run(scenario())


def test_a_failure_stops_the_run_through_one_game_and_hands_out_no_more() -> None:
    async def scenario() -> None:
        roster = WorkerRoster()
        await roster.admit([checked("tcp://w1", games=1)])
        async with games_wanting_seats(roster, 5) as games:
            assert roster.in_flight() == 2
            await roster.fail("worker 'w9' cannot start engine 'greedy'")
            await settle()
            failed = [task for task in games if task.done() and task.exception() is not None]
            assert len(failed) == 1, "one game says why the run stops; the runner abandons the rest"
            with pytest.raises(RunError, match="worker 'w9' cannot start engine 'greedy'"):
                failed[0].result()
            assert roster.take_failure() is None, "the reason is told once"
            assert roster.in_flight() == 2, "no game was handed out after the failure"

    asyncio.run(scenario())


def test_when_every_worker_has_left_the_run_says_it_waits_for_one_to_join() -> None:
    from arbiter.distributed.coordinator import _at_a_time

    async def scenario() -> tuple[str, str]:
        roster = WorkerRoster()
        await roster.admit([checked("tcp://h:1")])
        present = _at_a_time(roster)
        await roster.remove(["tcp://h:1"])
        return present, _at_a_time(roster)

    present, gone = asyncio.run(scenario())
    assert present == "2 game(s) at a time on 1 worker(s), one more waiting for each"
    assert gone == "no worker is left: the run waits for one to join (Ctrl-C stops it)"
