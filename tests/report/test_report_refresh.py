"""`arbiter run --report`: the site is refreshed after each finished game, so a running event can be
watched. The site is read while a real run is still playing its last game."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from report_games import ENGINES

# Black moves first in English checkers, and the first engine of a match has the first move of its
# first game. `quitter` resigns at its second move; `sleeper` thinks for five minutes from its second
# move on. So the first game (quitter first) is over in two plies; in the second, sleeper's second
# move comes before quitter's, and the game lasts until the run is stopped.
ENGINE_ARGS = {
    "quitter": ("--resign-at", "2"),
    "sleeper": ("--sleep", "300", "--sleep-from", "2", "--honour-stop"),
}
# Generous: the first game takes two plies; only a site that is never refreshed waits this long.
WAIT_LIMIT = 120.0


def write_match(folder: Path) -> Path:
    engines = ""
    for name, args in ENGINE_ARGS.items():
        parts = [sys.executable, str(ENGINES / "scripted_player.py"), "--name", name, *args]
        command = ", ".join(f'"{part}"' for part in parts)
        engines += f'[[engines]]\nname = "{name}"\ncommand = [{command}]\n'
    path = folder / "match.toml"
    path.write_text(
        'name = "Watched match"\ndatabase = "event.sqlite"\nvariant = "english"\ntime_control = "600+0"\n'
        'format = "match"\ngames_per_encounter = 2\nconcurrency = 1\n' + engines,
        encoding="utf-8",
    )
    return path


def live_games(path: Path) -> list[dict[str, Any]]:
    """The games in the live page's data file (``window.arbiterLive = {...};``)."""
    text = path.read_text(encoding="utf-8")
    games: list[dict[str, Any]] = json.loads(text.split("=", 1)[1].strip().rstrip(";"))["games"]
    return games


def games_by_state(database: Path) -> tuple[int, int]:
    """(finished, unfinished) games stored so far."""
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5) as db:
            rows = dict(db.execute("select finished, count(*) from game group by finished").fetchall())
    except sqlite3.OperationalError:
        return 0, 0
    return int(rows.get(1, 0)), int(rows.get(0, 0))


def test_run_with_report_shows_each_finished_game_while_the_run_goes_on(tmp_path: Path) -> None:
    path = write_match(tmp_path)
    site = tmp_path / "site"
    run = subprocess.Popen(
        [sys.executable, "-m", "arbiter.cli", "run", str(path), "--report", str(site)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=tmp_path,
    )
    try:
        deadline = time.monotonic() + WAIT_LIMIT
        games_page, index = site / "games.html", site / "index.html"

        def refreshed() -> bool:
            # index.html is the last page but one a refresh writes (the live page is the last one):
            # once it names the game, the games list and the game's page are written.
            if not (games_page.exists() and index.exists()):
                return False
            text = index.read_text(encoding="utf-8")
            return "1 of 2 games played" in text and 'href="games/r1-b1-g1.html"' in text

        while not refreshed():
            assert run.poll() is None, "the run ended before its site showed the first game"
            assert time.monotonic() < deadline, "the site did not show the first game while the run went on"
            time.sleep(0.1)
        # Seen while the run still plays the second game: the refresh after the first game made it.
        assert run.poll() is None
        assert games_by_state(tmp_path / "event.sqlite")[0] == 1
        first = site / "games" / "r1-b1-g1.html"
        assert 'href="games/r1-b1-g1.html"' in index.read_text(encoding="utf-8")
        assert "Black resigned" in first.read_text(encoding="utf-8")
        event_pdn = (site / "event.pdn").read_text(encoding="utf-8")
        assert event_pdn.count("[Event ") == 1 and '[GameId "r1-b1-g1"]' in event_pdn
        # The second game is being played (sleeper thinks for minutes): the live page's data has it,
        # with the moves made so far, and the first game's page links to nothing after it yet.
        live = site / "live-data.js"
        while '"key":"r1-b1-g2"' not in (live.read_text(encoding="utf-8") if live.exists() else ""):
            assert time.monotonic() < deadline, "the live page never showed the game being played"
            time.sleep(0.1)
        (playing,) = live_games(live)
        assert playing["ply"] >= 1 and [p["name"] for p in playing["players"]] == ["sleeper", "quitter"]
        run.send_signal(signal.SIGINT)
        output, _ = run.communicate(timeout=60)
        # The run stopped the publisher after a last refresh: no game is shown as being played.
        assert live_games(live) == []
    finally:
        if run.poll() is None:  # a failed check: stop the run as a user would, so it stops its engines
            run.send_signal(signal.SIGINT)
            try:
                run.wait(timeout=60)
            except subprocess.TimeoutExpired:
                run.kill()
                run.wait()
    assert run.returncode == 130, output
    assert games_by_state(tmp_path / "event.sqlite") == (1, 1)
