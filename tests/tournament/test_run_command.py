"""`arbiter run` and `arbiter match` as a user runs them: real processes, killed and resumed."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tournament_files import bundled, write_tournament

from arbiter.notation.movetext import parse_pdn
from arbiter.referee.record import Winner
from arbiter.rules import Position, get_variant
from arbiter.store import StoredGame, TournamentStore
from arbiter.tournament.config import load_tournament
from arbiter.tournament.plan import plan_tournament
from arbiter.tournament.schedule import GameKey

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


def check_every_game_replays(database: Path, planned: set[GameKey]) -> None:
    with TournamentStore.open(database, create=False) as store:
        info = store.find_tournament()
        games = store.games(info.id)
        assert len(games) == len(planned), "a game was stored twice, or one is missing"
        assert {g.key for g in games} == planned, "exactly the planned games are stored"
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
    planned_keys = set(plan_tournament(config).schedule.by_key())
    planned = len(planned_keys)
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
    check_every_game_replays(config.database, planned_keys)


def test_ctrl_c_abandons_running_games_and_a_second_run_plays_them(tmp_path: Path) -> None:
    path = write_tournament(tmp_path, SLOW, bundled("alphabeta") + bundled("greedy"))
    config, _ = load_tournament(path)
    planned = set(plan_tournament(config).schedule.by_key())
    process = start_run(path)
    wait_for_games(config.database, 1, process)
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 130, output
    assert b"abandoned" in output
    # The line says it is played again, with where it stopped when it had begun, never "(0 plies)".
    later = rb"to be played again when the same command is run again"
    again_line = rb"the run was stopped \((stopped at ply \d+, )?" + later + rb"\)"
    assert re.search(again_line, output), output
    with TournamentStore.open(config.database, create=False) as store:
        info = store.find_tournament()
        assert store.unfinished_keys(info.id), "the running game is kept as unfinished"
    again = subprocess.run([*ARBITER, "run", str(path)], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    check_every_game_replays(config.database, planned)


@pytest.mark.parametrize(
    "sprt",
    [
        ["--sprt", "elo0=0 elo1=300 alpha=0.1 beta=0.1"],
        ["--sprt", "elo0=0", "elo1=300", "alpha=0.1", "beta=0.1"],  # as cutechess-cli takes it
        ["--sprt", "elo0=0", "--sprt", "elo1=300", "--sprt", "alpha=0.1", "--sprt", "beta=0.1"],
    ],
    ids=["quoted", "words", "repeated"],
)
def test_match_command_with_sprt_stops_when_decided(tmp_path: Path, sprt: list[str]) -> None:
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
            *sprt,
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


def test_match_command_refuses_words_that_are_not_sprt_settings(tmp_path: Path) -> None:
    database = tmp_path / "match.sqlite"
    command = [*ARBITER, "match", "random", "greedy", "--db", str(database), "--sprt", "elo0=0", "elo1"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "unexpected argument 'elo1'" in result.stderr
    assert not database.exists()


def test_bad_tournament_file_is_reported_with_its_line_and_nothing_runs(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('name = "x"\ntime_control = "fast"\n', encoding="utf-8")
    result = subprocess.run([*ARBITER, "run", str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "t.toml:2: time_control" in result.stderr
    assert not (tmp_path / "tournament.sqlite").exists()


@pytest.mark.parametrize(
    ("settings", "where"),
    [
        (
            '[openings]\ndeck = "acf-999"\n',
            "event.toml:5: openings.deck: unknown deck 'acf-999'",
        ),
        (
            "repeat = true\ngames_per_encounter = 3\n",
            "event.toml:5: games_per_encounter: repeat",
        ),
    ],
    ids=["unknown-deck", "odd-repeat"],
)
def test_settings_that_cannot_be_played_are_reported_with_file_line_and_key_and_nothing_is_created(
    tmp_path: Path, settings: str, where: str
) -> None:
    path = tmp_path / "event.toml"
    path.write_text(
        f'name = "x"\ndatabase = "event.sqlite"\ntime_control = "depth=1"\n{settings}'
        + bundled("random")
        + bundled("greedy"),
        encoding="utf-8",
    )
    result = subprocess.run([*ARBITER, "run", str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stdout + result.stderr
    assert where in result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["event.toml"]


def test_an_illegal_opening_stops_the_run_before_any_game_naming_its_file_and_line(tmp_path: Path) -> None:
    openings = tmp_path / "openings.txt"
    # The third opening's third move is not legal: 8-12 cannot be played after 11-15 23-19.
    openings.write_text("11-15 23-19 8-11\n9-13 22-18 10-14\n11-15 23-19 8-12\n", encoding="utf-8")
    body = (
        'variant = "english"\ntime_control = "depth=1"\nformat = "match"\ncycles = 3\n'
        '[openings]\nfile = "openings.txt"\n'
    )
    path = write_tournament(tmp_path, body, bundled("random") + bundled("greedy"))
    result = subprocess.run([*ARBITER, "run", str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"error: {openings}:3: " in result.stderr
    assert "'8-12' is not a legal move" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "event.sqlite").exists(), "no game is played and nothing is stored"


def test_match_summary_and_standings_show_each_opening_and_are_not_cut_when_piped(tmp_path: Path) -> None:
    database = tmp_path / "m.sqlite"
    match = [*ARBITER, "match", "random", "greedy", "--tc", "depth=1", "--openings", "acf-ctd"]
    match += ["--games", "2", "--repeat", "--rounds", "2", "--max-plies", "60", "--db", str(database)]
    environment = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    played = subprocess.run(match, capture_output=True, text=True, timeout=300, env=environment)
    assert played.returncode == 0, played.stdout + played.stderr
    standings = subprocess.run(
        [*ARBITER, "standings", str(database)], capture_output=True, text=True, timeout=60, env=environment
    )
    assert standings.returncode == 0, standings.stderr
    with TournamentStore.open(database, create=False) as store:
        games = store.games(store.find_tournament().id)
    for output in (played.stdout, standings.stdout):
        # Piped: the tables keep their full width (the ratings table is wider than 80 columns).
        assert "Pairs LL-LD-WL/DD-WD-WW" in output
        assert max(len(line) for line in output.splitlines()) > 80
        assert "Openings (each side's wins-draws-losses with each colour)" in output
        rows = [line for line in output.splitlines() if "│" in line]
        for opening, name in (("acf-5", "Dreaded Edinburgh"), ("acf-7", "")):
            first = next(i for i, row in enumerate(rows) if cells(row)[0] == opening)
            assert cells(rows[first])[1] == name
            for row in rows[first : first + 2]:
                player, count, white, black = cells(row)[2:6]
                assert int(count) == 2
                assert (white, black) == (
                    colour_record(games, opening, player, "white"),
                    colour_record(games, opening, player, "black"),
                )


def cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("│").split("│")]


def colour_record(games: list[StoredGame], opening: str, player: str, colour: str) -> str:
    """The player's wins-draws-losses with one colour on one opening, counted from the stored games."""
    wins = draws = losses = 0
    for game in games:
        record = game.record
        seat = record.white if colour == "white" else record.black
        if game.opening_id != opening or seat.name != player:
            continue
        if record.winner is Winner.DRAW:
            draws += 1
        elif record.winner.value == colour:
            wins += 1
        else:
            losses += 1
    return f"{wins}-{draws}-{losses}"


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
