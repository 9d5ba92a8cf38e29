"""A worker's engine host: games on the loop `arbiter run` plays on, and a clean end (closing it stops
its loop with nothing of its own left running)."""

from __future__ import annotations

import asyncio

import arbiter.distributed.worker as worker


def test_closing_the_engine_host_leaves_no_task_of_its_loop_pending() -> None:
    host = worker.EngineHost()
    host.close()
    assert not host._thread.is_alive(), "the host's loop thread ended"
    pending = [task for task in asyncio.all_tasks(host._loop) if not task.done()]
    assert pending == [], "the idle engines' sweep was cancelled, not left pending as the loop stopped"


def test_a_worker_plays_its_games_on_the_loop_arbiter_run_plays_on() -> None:
    async def loop_kind() -> str:
        return type(asyncio.get_running_loop()).__name__

    host = worker.EngineHost()
    try:
        assert host.submit(loop_kind()).result(timeout=10) == "ChainingEventLoop"
    finally:
        host.close()
