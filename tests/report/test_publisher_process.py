"""The publisher's child process, told on the runner's event loop that a game was stored, refreshes
the site while the event runs (the note travels with the next batch of moves)."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import signal
import time
from pathlib import Path

from live_runs import live_data
from test_store_site import new_event, record

from arbiter.report.publisher import Publisher
from arbiter.report.site import MANIFEST

WAIT_SECONDS = 120.0  # a loaded machine starts a child slowly; nothing here depends on how fast


def published_revision(site: Path) -> int | None:
    try:
        return int(json.loads((site / MANIFEST).read_text(encoding="utf-8"))["store"]["revision"])
    except (OSError, ValueError, KeyError):
        return None


async def until(site: Path, revision: int) -> int | None:
    waited = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < waited:
        shown = published_revision(site)
        if shown is not None and shown >= revision:
            return shown
        await asyncio.sleep(0.05)
    return published_revision(site)


def test_a_game_noted_on_the_event_loop_is_published_before_the_event_ends(tmp_path: Path) -> None:
    database, site = tmp_path / "event.sqlite", tmp_path / "site"
    tid, games = new_event(database)
    publisher = Publisher(database, site, tid, refresh_every=0.1)

    async def event() -> tuple[int | None, int | None]:
        publisher.start()
        first = await until(site, 0)  # the site as it stands when the child starts: no game yet
        record(database, tid, games, range(1))
        publisher.game_finished(tid)  # as the runner calls it, on its loop, after storing the game
        return first, await until(site, 1)

    try:
        first, after = asyncio.run(event())
    finally:
        assert publisher.close() == 0
    assert first == 0
    assert after == 1, "the stored game was published while the event ran"
    assert (site / "games" / f"{games[0].key}.html").is_file()


def test_ctrl_c_while_the_publisher_starts_leaves_it_to_publish_the_event(tmp_path: Path) -> None:
    """Ctrl-C at the terminal reaches the publisher too, and may come while it is still starting (a
    second or more of imports on a loaded machine, before it can say it ignores Ctrl-C): it goes on,
    and the run's last refresh still writes the site."""
    database, site = tmp_path / "event.sqlite", tmp_path / "site"
    tid, games = new_event(database)
    record(database, tid, games, range(1))
    publisher = Publisher(database, site, tid)
    publisher.start()
    (child,) = multiprocessing.active_children()
    assert child.pid is not None
    os.kill(child.pid, signal.SIGINT)  # as the terminal sends it to the whole process group
    assert publisher.close() == 0, "the publisher went on"
    assert published_revision(site) == 1
    assert (site / "index.html").is_file()


def test_the_live_data_carries_a_heartbeat_while_the_run_lasts_and_none_once_it_ended(tmp_path: Path) -> None:
    """Nothing moves (no game is being played), yet the live data is written again every refresh
    interval, so that a page can tell a publisher that is gone from one with nothing to say; the last
    data, at the end, tells the page to expect no more."""
    database, site = tmp_path / "event.sqlite", tmp_path / "site"
    tid, _ = new_event(database)
    publisher = Publisher(database, site, tid, refresh_every=0.2)
    publisher.start()
    try:
        times: set[object] = set()
        waited = time.monotonic() + WAIT_SECONDS
        while len(times) < 3 and time.monotonic() < waited:
            data = live_data(site)
            if data is not None and data.get("stale_after") is not None:
                times.add(data["updated"])
            time.sleep(0.05)
        assert len(times) >= 3, "the live data was not written again while nothing moved"
        assert data is not None and data["games"] == []
        assert isinstance(data["stale_after"], float) and data["stale_after"] >= 5 * 0.2
    finally:
        assert publisher.close() == 0
    last = live_data(site)
    assert last is not None and last["games"] == [] and "stale_after" not in last
