"""The live page of a run that was killed outright (its publisher with it: SIGKILL to the process
group, or SIGHUP when its terminal closes) says that its data stopped coming, instead of showing the
last games as being played for ever; the page of a run that ended says no game is being played.

Real `arbiter match` runs publishing a site, the live page open in Chromium; the page's clock is moved
on with Playwright's clock API rather than by waiting.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from live_runs import descendants, live_data, running
from test_report_browser import ARTIFACTS, Watch, browser, chromium  # noqa: F401

ARBITER = [sys.executable, "-m", "arbiter.cli"]
STATE = "#live-state"


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:  # noqa: F811
    opened = browser.new_page()
    watch = Watch(opened)
    opened.clock.install()  # the page's timers and Date: they run on, and the test moves them ahead
    try:
        yield opened
    finally:
        opened.close()
    assert not watch.errors and not watch.dialogs, watch.errors + watch.dialogs


def move_on(page: Any, seconds: float) -> str:
    """Move the page's clock ahead by `seconds` at once (its reloads of the data fire, finding the
    file as it is now), let the data it asked for arrive, and return what the page says of the games."""
    page.clock.run_for(int(seconds * 1000))
    time.sleep(0.3)  # the data file loads for real, outside the page's clock
    page.clock.run_for(1)
    return str(page.inner_text(STATE))


def test_the_live_page_of_a_run_killed_with_its_publisher_says_its_data_stopped(
    tmp_path: Path, page: Any
) -> None:
    site = tmp_path / "site"
    command = [*ARBITER, "match", "alphabeta", "greedy", "--tc", "st=0.1", "--games", "2", "--rounds", "100"]
    command += ["--db", str(tmp_path / "match.sqlite"), "--report", str(site)]
    with (tmp_path / "run.log").open("wb") as log:
        # A session of its own: the whole run (the runner, its publisher) is killed at once, as a
        # closed terminal's SIGHUP or a SIGKILL to the process group does.
        run = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path, start_new_session=True
        )
    helpers: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while not (data := live_data(site)) or not data["games"]:
            assert run.poll() is None, (tmp_path / "run.log").read_text()
            assert time.monotonic() < deadline, "no game was shown live in time"
            time.sleep(0.2)
        page.goto((site / "live.html").as_uri())
        assert page.inner_text(STATE).startswith("1 game being played")
        # While the run lives, the page's clock running ahead of the data's times (here by 20 s, as
        # a reader's clock may be off) is no reason to call the data stale: it keeps changing.
        for _ in range(4):
            time.sleep(2.5)  # a new heartbeat at least
            said = move_on(page, 5)
            assert "No update" not in said and "being played" in said, said
        while not (data := live_data(site)) or not data["games"]:  # killed in the middle of a game
            assert run.poll() is None, (tmp_path / "run.log").read_text()
            time.sleep(0.05)
        helpers = descendants(run.pid)
        os.killpg(run.pid, signal.SIGKILL)
        run.wait(timeout=10)
        last = live_data(site)
        assert last is not None and last["games"], "the killed run's last data shows its game"
        said = ""
        for _ in range(12):
            said = move_on(page, 5)
            if "No update since" in said:
                break
        since = datetime.fromtimestamp(last["updated"]).strftime("%H:%M")
        assert said == f"No update since {since} (the run may have stopped).", said
        # The last games are still shown, greyed, as they stood.
        assert page.locator("article.live-game").count() == len(last["games"])
        assert "stale" in (page.get_attribute("#live-games", "class") or "")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "report-live-stale.png"), full_page=True)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
        # The engines, in process groups of their own, end when their input closes; any left is ended.
        deadline = time.monotonic() + 30
        while any(running(pid) for pid in helpers) and time.monotonic() < deadline:
            time.sleep(0.1)
        for pid in helpers:
            if running(pid):
                os.kill(pid, signal.SIGKILL)


def test_the_live_page_of_a_run_that_ended_says_no_game_is_being_played(tmp_path: Path, page: Any) -> None:
    site = tmp_path / "site"
    command = [*ARBITER, "match", "greedy", "random", "--tc", "depth=1", "--games", "2"]
    done = subprocess.run(
        [*command, "--db", str(tmp_path / "m.sqlite"), "--report", str(site)],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    page.goto((site / "live.html").as_uri())
    # An hour later still: a run that ended writes no more data, and the page expects none.
    for _ in range(2):
        assert move_on(page, 1800) == "No game is being played now."
