"""`arbiter report DB --out site/`, run as a user runs it, over a real tournament database."""

from __future__ import annotations

import html
import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from report_games import play_record, store_running_event
from site_checks import crawl

from arbiter.store import PlayerEntry, TournamentStore
from arbiter.store.run_lock import RunLock
from arbiter.tournament.config import EngineEntry, Openings, TournamentConfig
from arbiter.tournament.plan import plan_tournament

PLAYERS = ["random", "greedy", "alphabeta"]


def run_report(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "report", *args], capture_output=True, text=True, timeout=300
    )


def make_database(path: Path, played: int) -> TournamentConfig:
    """A round robin of the bundled engines on ACF ballots, `played` of its games recorded."""
    config = TournamentConfig(
        name="Bundled <engines> cup",
        variant="english",
        format="round-robin",
        games_per_encounter=2,
        repeat=True,
        openings=Openings(deck="acf-156", order="random", seed=7),
        engines=[EngineEntry(name=name, bundled=name) for name in PLAYERS],
    )
    planned = plan_tournament(config).schedule.games
    with TournamentStore.open(path) as store:
        tid = store_running_event(store, config)
        for number, game in enumerate(planned[:played]):
            store.record_game(tid, game, play_record(game, seed=number))
    return config


def test_report_publishes_the_tournament_of_a_database(tmp_path: Path) -> None:
    database = tmp_path / "event.sqlite"
    make_database(database, played=4)
    site = tmp_path / "site"
    with RunLock(database):  # as a run holds it while it plays the event
        result = run_report(str(database), "--out", str(site))
    assert result.returncode == 0, result.stderr
    assert "4 of 6 games" in result.stdout and "4 game pages written" in result.stdout
    index = html.unescape((site / "index.html").read_text(encoding="utf-8"))
    assert "4 of 6 games played · running" in index
    assert "ACF deck acf-156, random order (seed 7); each opening played twice, colours swapped" in index
    games = (site / "games.html").read_text(encoding="utf-8")
    assert games.count("to play</span>") == 2
    assert len(list((site / "games").glob("*.html"))) == 4
    found = crawl(site)
    assert found.broken == [] and found.problems == []

    again = run_report(str(database), "--out", str(site))
    assert again.returncode == 0, again.stderr
    assert "0 game pages written, 4 unchanged" in again.stdout


def test_report_of_a_missing_database_says_so_and_writes_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.sqlite"
    result = run_report(str(missing), "--out", str(tmp_path / "site"))
    assert result.returncode == 2
    assert str(missing) in result.stderr
    assert not (tmp_path / "site").exists()
    assert not missing.exists()


def test_report_names_an_unknown_tournament(tmp_path: Path) -> None:
    database = tmp_path / "event.sqlite"
    make_database(database, played=1)
    result = run_report(str(database), "--out", str(tmp_path / "site"), "--tournament", "Other cup")
    assert result.returncode == 2
    assert "Other cup" in result.stderr


def test_report_lists_stored_games_when_the_schedule_cannot_be_rebuilt(tmp_path: Path) -> None:
    database = tmp_path / "event.sqlite"
    config = make_database(database, played=2)
    planned = plan_tournament(config).schedule.games
    with TournamentStore.open(database) as store:
        # A configuration that is no tournament file: the site still shows what was played.
        first = store.find_tournament()
        loose = store.create_tournament(
            name="Loose games",
            variant="english",
            format="round-robin",
            time_control=first.time_control,
            players=[PlayerEntry(name, name) for name in PLAYERS],
            config=json.dumps({"note": "made by hand"}),
        )
        for game, stored in zip(planned, store.games(first.id), strict=False):
            store.record_game(loose, game, stored.record)
    result = run_report(str(database), "--out", str(tmp_path / "site"), "--tournament", "Loose games")
    assert result.returncode == 0, result.stderr
    assert "not a tournament configuration" in result.stderr
    assert "2 of 2 games" in result.stdout
    assert crawl(tmp_path / "site").broken == []


def test_report_into_a_file_says_the_site_is_a_folder_and_leaves_the_file(tmp_path: Path) -> None:
    database = tmp_path / "event.sqlite"
    make_database(database, played=1)
    taken = tmp_path / "notes.txt"
    taken.write_text("mine\n", encoding="utf-8")
    result = run_report(str(database), "--out", str(taken))
    assert result.returncode == 2
    assert f"error: --out {taken}: a file, not a folder" in result.stderr
    assert taken.read_text(encoding="utf-8") == "mine\n"


def test_report_into_an_empty_folder_name_is_refused_not_written_here(tmp_path: Path) -> None:
    database = tmp_path / "event.sqlite"
    make_database(database, played=1)
    result = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "report", str(database), "--out", ""],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert result.returncode == 2
    assert "error: --out is empty: give the site's folder" in result.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["event.sqlite"]


def imported_club(tmp_path: Path, pdn: str) -> Path:
    """The database `pdn import` makes of the PDN text `pdn`, written to club.pdn."""
    games = tmp_path / "club.pdn"
    games.write_text(pdn, encoding="utf-8")
    database = tmp_path / "club.sqlite"
    imported = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "pdn", "import", str(games), "--db", str(database)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert imported.returncode == 0, imported.stderr
    return database


def test_report_of_games_imported_from_pdn_lists_them_without_a_warning(tmp_path: Path) -> None:
    database = imported_club(
        tmp_path,
        '[White "Ann"]\n[Black "Bob"]\n[GameType "21"]\n1. 11-15 23-19 1-0\n\n'
        '[White "Cid"]\n[Black "Dee"]\n[GameType "21"]\n1. 9-13 22-18 0-1\n',
    )
    result = run_report(str(database), "--out", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", "an imported tournament has no schedule to warn about"
    assert "club.pdn, 2 of 2 games" in result.stdout


def test_an_imported_game_shows_the_date_its_file_gives_never_when_it_was_imported(tmp_path: Path) -> None:
    # The store keeps the import's time as the start of a game its file does not date: the site must
    # not show it as when the game was played, on the game's page nor as the event's dates.
    days = {f"{datetime.now(UTC):%Y-%m-%d}"}
    undated = '[White "Ann"]\n[Black "Bob"]\n[GameType "21"]\n1. 11-15 23-19 1-0\n\n'
    dated = '[White "Cid"]\n[Black "Dee"]\n[Date "1996.01.13"]\n[GameType "21"]\n1. 9-13 22-18 0-1\n'
    (tmp_path / "both").mkdir()
    (tmp_path / "alone").mkdir()
    both = imported_club(tmp_path / "both", undated + dated)
    alone = imported_club(tmp_path / "alone", undated)
    for database in (both, alone):
        assert run_report(str(database), "--out", str(database.parent / "site")).returncode == 0
    days.add(f"{datetime.now(UTC):%Y-%m-%d}")  # the day the games were imported, even past midnight
    pages = {
        name: (both.parent / "site" / "games" / f"{name}.html").read_text(encoding="utf-8")
        for name in ("r1-b1-g1", "r2-b1-g1")
    }
    assert "<dt>Date</dt><dd>unknown</dd>" in pages["r1-b1-g1"]
    assert "<dt>Date</dt><dd>1996-01-13</dd>" in pages["r2-b1-g1"], "the day, not a made-up hour"
    for page in pages.values():
        assert "<dt>Started</dt>" not in page and not any(day in page for day in days)
    dates = {
        database.parent.name: (database.parent / "site" / "index.html").read_text(encoding="utf-8")
        for database in (both, alone)
    }
    assert "<dt>Dates</dt><dd>1996-01-13</dd>" in dates["both"]
    assert "<dt>Dates</dt><dd>unknown</dd>" in dates["alone"]


def test_the_site_writes_imported_games_as_pdn_export_does_with_their_files_own_tags(tmp_path: Path) -> None:
    # An imported game's tags are its file's: the site adds no Date, Termination, closing comment or
    # event name of its own, as `pdn export` adds none (the file's Event stays "Club 2024").
    database = imported_club(
        tmp_path,
        '[Event "Club 2024"]\n[White "Ann"]\n[Black "Bob"]\n[GameType "21"]\n1. 11-15 23-19 1-0\n\n'
        '[Event "Club 2024"]\n[White "Cid"]\n[Black "Dee"]\n[GameType "21"]\n1. 9-13 22-18 *\n',
    )
    exported = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "pdn", "export", str(database)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert exported.returncode == 0, exported.stderr
    assert run_report(str(database), "--out", str(tmp_path / "site")).returncode == 0
    site_pdn = (tmp_path / "site" / "event.pdn").read_text(encoding="utf-8")
    assert site_pdn == exported.stdout
    assert site_pdn.count('[Event "Club 2024"]') == 2, site_pdn
    assert "Termination" not in site_pdn and '[Date "????.??.??"]' in site_pdn, site_pdn
