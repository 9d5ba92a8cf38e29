"""`arbiter run` and `arbiter match` as a user runs them: real processes, killed and resumed."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tournament_files import bundled, write_tournament

from arbiter.notation.movetext import parse_pdn
from arbiter.rules import Position, get_variant
from arbiter.store import TournamentStore
from arbiter.tournament.config import load_tournament
from arbiter.tournament.plan import plan_tournament

ARBITER = [sys.executable, "-m", "arbiter.cli"]
SLOW = (
    'variant = "english"\ntime_control = "st=0.1"\nformat = "match"\ncycles = 5\n'
    "games_per_encounter = 2\nrepeat = true\nconcurrency = 1\n"
    '[openings]\ndeck = "acf-156"\n[adjudication]\nmax_plies = 200\n'
)


def finished_games(database: Path) -> int:
    if not database.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5) as db:
            return int(db.execute("select count(*) from game where finished = 1").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def start_run(path: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*ARBITER, "run", str(path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=path.parent
    )


def wait_for_games(database: Path, count: int, process: subprocess.Popen[bytes], limit: float = 120) -> None:
    deadline = time.monotonic() + limit
    while finished_games(database) < count:
        assert process.poll() is None, (
            f"the run ended early: {process.stdout.read() if process.stdout else ''!r}"
        )
        assert time.monotonic() < deadline, "no game finished in time"
        time.sleep(0.1)


def check_every_game_replays(database: Path, expected: int) -> None:
    with TournamentStore.open(database, create=False) as store:
        info = store.find_tournament()
        games = store.games(info.id)
        assert len(games) == expected
        assert len({str(g.key) for g in games}) == expected, "a game was stored twice"
        assert all(g.finished for g in games)
        variant = get_variant(info.variant)
        for game in games:
            record = game.record
            assert record.plies == len(record.moves)
            position = Position.from_fen(variant, record.start_fen)
            for move in record.moves:
                position = position.play(parse_pdn(position, move.text))


def test_run_killed_with_sigkill_resumes_without_losing_or_repeating_a_game(tmp_path: Path) -> None:
    path = write_tournament(tmp_path, SLOW, bundled("alphabeta") + bundled("greedy"))
    config, _ = load_tournament(path)
    planned = len(plan_tournament(config).schedule.games)
    process = start_run(path)
    try:
        wait_for_games(config.database, 2, process)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
    survivors = finished_games(config.database)
    assert 2 <= survivors < planned
    again = subprocess.run([*ARBITER, "run", str(path)], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"resuming: {survivors} of {planned} games already played" in again.stdout
    check_every_game_replays(config.database, planned)


def test_ctrl_c_abandons_running_games_and_a_second_run_plays_them(tmp_path: Path) -> None:
    path = write_tournament(tmp_path, SLOW, bundled("alphabeta") + bundled("greedy"))
    config, _ = load_tournament(path)
    planned = len(plan_tournament(config).schedule.games)
    process = start_run(path)
    wait_for_games(config.database, 1, process)
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 130, output
    assert b"abandoned" in output
    with TournamentStore.open(config.database, create=False) as store:
        info = store.find_tournament()
        assert store.unfinished_keys(info.id), "the running game is kept as unfinished"
    again = subprocess.run([*ARBITER, "run", str(path)], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    check_every_game_replays(config.database, planned)


def test_match_command_with_sprt_stops_when_decided(tmp_path: Path) -> None:
    database = tmp_path / "match.sqlite"
    result = subprocess.run(
        [
            *ARBITER,
            "match",
            "alphabeta",
            "random",
            "--tc",
            "depth=3",
            "--games",
            "2",
            "--rounds",
            "40",
            "--repeat",
            "--openings",
            "acf-156",
            "--db",
            str(database),
            "--sprt",
            "elo0=0 elo1=300 alpha=0.1 beta=0.1",
            "--max-plies",
            "200",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SPRT: H1" in result.stdout
    assert "Ratings (alphabeta against random)" in result.stdout
    assert 0 < finished_games(database) < 80


def test_bad_tournament_file_is_reported_with_its_line_and_nothing_runs(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('name = "x"\ntime_control = "fast"\n', encoding="utf-8")
    result = subprocess.run([*ARBITER, "run", str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "t.toml:2: time_control" in result.stderr
    assert not (tmp_path / "tournament.sqlite").exists()


def test_report_option_publishes_the_site_of_a_running_event(tmp_path: Path) -> None:
    site = tmp_path / "site"
    result = subprocess.run(
        [
            *ARBITER,
            "match",
            "random",
            "greedy",
            "--tc",
            "depth=1",
            "--games",
            "2",
            "--rounds",
            "2",
            "--db",
            str(tmp_path / "m.sqlite"),
            "--report",
            str(site),
            "--max-plies",
            "120",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "random" in index and "greedy" in index
    pages = sorted((site / "games").glob("*.html"))
    assert len(pages) == 4
    assert (site / "event.pdn").read_text(encoding="utf-8").count("[Result ") == 4
