"""Faults the engine layer meets outside a game's moves (a stderr flood while starting, no exit after
`quit`) are stored as events of the game they belong to, and `arbiter play` shows them."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

from bad_input_support import ENGINES, arbiter

EVENT = f"""name = "faulty engines"
database = "event.sqlite"
time_control = "depth=1"
games_per_encounter = 2
reuse_engines = true
[adjudication]
max_plies = 12
[[engines]]
name = "stubborn"
command = ["{sys.executable}", "{ENGINES / "ignore_quit.py"}"]
timeouts = {{ quit = 0.3, kill = 0.3 }}
[[engines]]
name = "chatty"
command = ["{sys.executable}", "{ENGINES / "stderr_flood.py"}"]
stderr_limit_bytes = 65536
"""


def fault_events(database: Path) -> set[tuple[str, str | None, str]]:
    """(engine, game key, fault kind) of every fault event."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT e.engine, g.game_key, e.message FROM event e LEFT JOIN game g ON g.id = e.game_id "
            "WHERE e.kind = 'fault'"
        ).fetchall()
    return {(engine, key, message.partition(":")[0]) for engine, key, message in rows}


def test_start_up_floods_and_quit_timeouts_are_stored_with_their_game(tmp_path: Path) -> None:
    (tmp_path / "event.toml").write_text(EVENT, encoding="utf-8")
    ran = arbiter("run", "event.toml", cwd=tmp_path)
    assert ran.code == 0, f"{ran.out}\n{ran.err}"
    faults = fault_events(tmp_path / "event.sqlite")
    # Each game starts the flooding engine afresh (it was ended for its fault): a flood per game.
    assert ("chatty", "r1-b1-g1", "stderr_flood") in faults
    assert ("chatty", "r1-b1-g2", "stderr_flood") in faults
    # The stubborn engine is kept between games and ended after its last one, where the fault goes.
    assert ("stubborn", "r1-b1-g2", "quit_timeout") in faults
    assert all(key is not None for _, key, _ in faults), faults


def test_play_shows_an_engine_that_would_not_quit(tmp_path: Path) -> None:
    stubborn = f"{sys.executable} {ENGINES / 'ignore_quit.py'}"
    ran = arbiter("play", "-q", "--tc", "depth=1", "--max-plies", "4", stubborn, "random", cwd=tmp_path)
    assert ran.code == 0, f"{ran.out}\n{ran.err}"
    # An engine given as a command is named after its program's script.
    assert any(f"warning: {side}: engine 'ignore_quit'" in ran.err for side in ("Black", "White")), ran.err
    assert "still running 2 s after quit; terminated" in ran.err
