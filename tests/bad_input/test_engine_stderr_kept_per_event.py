"""An engine's stderr kept on disk is bounded over a whole event, not only per process: a flooding engine
is started afresh for every game (it was ended for its fault), an engine that is not reused gets a
process per game, and a resumed run starts it again; all of its logs together keep at most its budget
(`stderr_event_limit_bytes`), counted across games played at once and across runs of the event. The
fault `stderr_flood` is still each process's own, stored with its game, and the engine plays on."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from bad_input_support import ARBITER, ENGINES, arbiter

BUDGET = 300_000
PROCESS_LIMIT = 64 * 1024
NOTE = "[arbiter] stderr budget of"
FLOODING = f'command = ["{sys.executable}", "{ENGINES / "stderr_flood.py"}"]'  # 2 MiB at every start
DEBUG_LINE = b"debug: evaluating a very interesting position in great detail\n"  # all stderr_flood.py writes


def event(
    games: int, chatty: str, opponent: str = "instant_hub.py", *, reuse: bool = True, c: int = 1
) -> str:
    return f"""name = "chatty event"
database = "event.sqlite"
time_control = "depth=1"
games_per_encounter = {games}
reuse_engines = {str(reuse).lower()}
concurrency = {c}
[adjudication]
max_plies = 12
[[engines]]
name = "quiet"
command = ["{sys.executable}", "{ENGINES / opponent}"]
[[engines]]
name = "chatty"
{chatty}
stderr_event_limit_bytes = {BUDGET}
"""


def engine_text(log: Path) -> int:
    """The bytes of the engine's own stderr in a log: its debug lines, without the arbiter's notes and the
    line break a note puts before itself where the engine's text stopped mid-line."""
    kept = 0
    for line in log.read_bytes().splitlines(keepends=True):
        if not line.startswith(b"[arbiter]"):
            kept += len(line) if line == DEBUG_LINE else len(line) - 1
    return kept


def chatty_logs(folder: Path) -> list[Path]:
    logs = sorted((folder / "event-logs").glob("chatty-*.stderr.log"))
    assert logs
    return logs


def faults(database: Path) -> list[tuple[str, str, str]]:
    """(engine, game key, fault kind) of every fault event."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT e.engine, g.game_key, e.message FROM event e JOIN game g ON g.id = e.game_id "
            "WHERE e.kind = 'fault'"
        ).fetchall()
    return [(engine, key, message.partition(":")[0]) for engine, key, message in rows]


def test_an_engine_flooding_in_every_game_keeps_one_budget_over_the_event(tmp_path: Path) -> None:
    # 2 MiB of stderr at every start, over a process limit of 64 KiB: every process floods and is ended,
    # and every game starts one afresh, two at a time: 9 processes (with the preflight) of 64 KiB each.
    chatty = f"{FLOODING}\nstderr_limit_bytes = {PROCESS_LIMIT}"
    (tmp_path / "event.toml").write_text(event(8, chatty, c=2), encoding="utf-8")
    ran = arbiter("run", "event.toml", cwd=tmp_path)
    assert ran.code == 0, f"{ran.out}\n{ran.err}"
    assert "finished: 8/8 games" in ran.said
    logs = chatty_logs(tmp_path)
    assert len(logs) == 9
    assert sum(engine_text(log) for log in logs) == BUDGET
    texts = [log.read_text(encoding="utf-8", errors="replace") for log in logs]
    assert all(text.count(NOTE) <= 1 for text in texts)
    assert sum(text.count(NOTE) for text in texts) >= 4  # the processes started once the budget was spent
    # The fault is still each process's own, stored with its game.
    floods = {key for engine, key, kind in faults(tmp_path / "event.sqlite") if kind == "stderr_flood"}
    assert floods == {f"r1-b1-g{n}" for n in range(1, 9)}


def test_an_engine_under_its_process_limit_in_every_game_is_bounded_too(tmp_path: Path) -> None:
    # 64 KiB at its start and at each search, far under its process limit (16 MiB): never a fault, but a
    # fresh process every game, whose logs would add up without end.
    chatty = f'command = ["{sys.executable}", "{ENGINES / "stderr_flood.py"}", "64"]'
    (tmp_path / "event.toml").write_text(event(8, chatty, reuse=False), encoding="utf-8")
    ran = arbiter("run", "event.toml", cwd=tmp_path)
    assert ran.code == 0, f"{ran.out}\n{ran.err}"
    assert "finished: 8/8 games" in ran.said
    logs = chatty_logs(tmp_path)
    assert sum(engine_text(log) for log in logs) == BUDGET
    assert sum(log.read_text(encoding="utf-8").count(NOTE) for log in logs) >= 1
    assert faults(tmp_path / "event.sqlite") == []


def test_a_resumed_event_counts_what_the_engine_s_logs_hold_already(tmp_path: Path) -> None:
    # The opponent takes a second over each new game: time to stop the first run after its first game.
    chatty = f"{FLOODING}\nstderr_limit_bytes = {PROCESS_LIMIT}"
    (tmp_path / "event.toml").write_text(event(8, chatty, "slow_new_game.py"), encoding="utf-8")
    first = subprocess.Popen(
        [*ARBITER, "run", "event.toml"], cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "event-logs" / "chatty-game-r1-b1-g2.stderr.log").exists():
            assert first.poll() is None and time.monotonic() < deadline, "the first run ended early"
            time.sleep(0.05)
        first.send_signal(signal.SIGINT)
        assert first.wait(timeout=60) == 130
    finally:
        first.kill()
        first.wait()
    kept_first = sum(engine_text(log) for log in chatty_logs(tmp_path))
    assert kept_first < BUDGET - PROCESS_LIMIT  # the first run left budget over: the second spends it
    # The second run counts what the logs hold, the arbiter's own lines in them too.
    held = sum(log.stat().st_size for log in chatty_logs(tmp_path))
    second = arbiter("run", "event.toml", cwd=tmp_path)
    assert second.code == 0, f"{second.out}\n{second.err}"
    assert "finished: 8/8 games" in second.said
    # Both runs together, not each of them, kept the budget.
    assert sum(engine_text(log) for log in chatty_logs(tmp_path)) == kept_first + BUDGET - held
