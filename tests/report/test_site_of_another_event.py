"""A site folder used again for another event (another database, or another tournament of one): the
files the earlier build wrote that the new site does not have are removed, as a static-site generator
removes its own stale output, and nothing else is: the user's own files in the folder stay. Builds
of the same event remove nothing. Run as a user runs them: `arbiter report` and `arbiter match
--report` over real databases, into real folders."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from live_runs import descendants, live_games
from report_games import play_record, store_running_event
from site_checks import crawl

from arbiter.report.live import LIVE_DATA
from arbiter.report.site import MANIFEST
from arbiter.report.store_site import RECORD
from arbiter.store import TournamentStore
from arbiter.tournament.config import EngineEntry, Openings, TournamentConfig
from arbiter.tournament.plan import plan_tournament
from arbiter.tournament.schedule import PlannedGame

ARBITER = [sys.executable, "-m", "arbiter.cli"]
# Event A: three engines; event B: two, one of them an engine A did not have.
PLAYERS_A = {"random": "random", "greedy": "greedy", "alphabeta": "alphabeta"}
PLAYERS_B = {"random": "random", "rival": "greedy"}
# Files of the user's in the site folder, which no build wrote: kept whatever the builds do. The last
# has the shape of an engine's page, but no build recorded it as its own.
USERS_FILES = {
    "README.md": "The club's results.\n",
    "CNAME": "results.example.org\n",
    "events.html": "<p>Our events</p>\n",
    "engines/club.html": "<p>Engines of the club</p>\n",
}


def make_database(path: Path, name: str, players: dict[str, str], played: int) -> list[PlannedGame]:
    """A double round robin of `players` (name: bundled engine) on ACF ballots, its first `played`
    games stored; returns every planned game."""
    config = TournamentConfig(
        name=name,
        variant="english",
        format="round-robin",
        games_per_encounter=2,
        repeat=True,
        openings=Openings(deck="acf-156", order="random", seed=7),
        engines=[EngineEntry(name=player, bundled=bundled) for player, bundled in players.items()],
    )
    planned = list(plan_tournament(config).schedule.games)
    with TournamentStore.open(path) as store:
        store_running_event(store, config)
    record(path, planned, range(played))
    return planned


def record(path: Path, planned: list[PlannedGame], numbers: range) -> None:
    with TournamentStore.open(path) as store:
        tournament = store.find_tournament().id
        for number in numbers:
            store.record_game(tournament, planned[number], play_record(planned[number], seed=number))


def arbiter(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ARBITER, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def report(database: Path, site: Path, *more: str) -> subprocess.CompletedProcess[str]:
    done = arbiter("report", str(database), "--out", str(site), *more)
    assert done.returncode == 0, done.stderr
    return done


def put_users_files(site: Path) -> None:
    for name, text in USERS_FILES.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")


def files_of(site: Path) -> set[str]:
    """The files in the site folder (the manifest and the record of its files aside), relative to it."""
    return {path.relative_to(site).as_posix() for path in site.rglob("*") if path.is_file()} - {
        MANIFEST,
        RECORD,
    }


def assert_only_the_new_site_and_the_users_files(site: Path) -> None:
    """Every file in the folder is the new site's (reached from its index) or the user's, unchanged."""
    found = crawl(site)
    assert found.broken == [] and found.problems == []
    linked = {path.relative_to(site.resolve()).as_posix() for path in found.files}
    assert files_of(site) - set(USERS_FILES) == linked
    for name, text in USERS_FILES.items():
        assert (site / name).read_text(encoding="utf-8") == text


def site_of_event_a(tmp_path: Path, played: int = 6) -> tuple[Path, Path, Path, list[PlannedGame]]:
    """Event A (`played` games stored) and Event B (one), the site of Event A built with the user's own
    files put beside its pages: (A's database, B's database, the site, A's planned games)."""
    event_a, event_b, site = tmp_path / "a.sqlite", tmp_path / "b.sqlite", tmp_path / "site"
    planned = make_database(event_a, "Event A", PLAYERS_A, played=played)
    make_database(event_b, "Event B", PLAYERS_B, played=1)
    report(event_a, site)
    put_users_files(site)
    return event_a, event_b, site, planned


def test_a_report_of_another_event_removes_the_earlier_events_pages_and_keeps_the_users_files(
    tmp_path: Path,
) -> None:
    _, event_b, site, _ = site_of_event_a(tmp_path)
    before = files_of(site)

    done = report(event_b, site)
    assert_only_the_new_site_and_the_users_files(site)
    after = files_of(site)
    gone = before - after
    assert {"engines/alphabeta.html", "games/r3-b1-g2.html", "games/r3-b1-g2.pdn"} <= gone
    assert f"{len(gone)} files of the earlier site removed" in done.stdout
    assert "Event B" in (site / "index.html").read_text(encoding="utf-8")
    assert (site / "event.pdn").read_text(encoding="utf-8").count("[Event ") == 1


def test_builds_of_the_same_event_remove_nothing_and_record_every_page_for_the_next_event(
    tmp_path: Path,
) -> None:
    event_a, event_b, site, planned = site_of_event_a(tmp_path, played=2)
    first = files_of(site)
    # Four more games stored: a refresh of the same event writes their pages and removes nothing.
    record(event_a, planned, range(2, 6))
    refreshed = report(event_a, site)
    assert "4 game pages written" in refreshed.stdout and "removed" not in refreshed.stdout
    second = files_of(site)
    assert first < second and "games/r3-b1-g2.html" in second
    rebuilt = report(event_a, site, "--full")
    assert "removed" not in rebuilt.stdout
    assert files_of(site) == second
    # The pages the refresh added are on the record too: the next event's build removes them.
    report(event_b, site)
    assert_only_the_new_site_and_the_users_files(site)
    assert not (site / "games" / "r3-b1-g2.html").exists()


def test_a_run_with_report_into_another_events_site_removes_that_events_pages(tmp_path: Path) -> None:
    site = tmp_path / "site"
    match = ["match", "--tc", "depth=1", "--games"]
    first = arbiter(*match, "4", "alphabeta", "greedy", "--db", "a.sqlite", "--report", "site", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert (site / "engines" / "alphabeta.html").is_file() and (site / "games" / "r1-b1-g4.html").is_file()
    put_users_files(site)

    second = arbiter(*match, "2", "greedy", "random", "--db", "b.sqlite", "--report", "site", cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert_only_the_new_site_and_the_users_files(site)
    assert not (site / "engines" / "alphabeta.html").exists()
    assert not (site / "games" / "r1-b1-g4.html").exists()


def test_a_database_made_anew_at_the_same_path_is_another_event_whose_site_replaces_the_first(
    tmp_path: Path,
) -> None:
    database, site = tmp_path / "event.sqlite", tmp_path / "site"
    make_database(database, "Event A", PLAYERS_A, played=6)
    report(database, site)
    put_users_files(site)
    database.unlink()
    # Another event in a database of the same name, its tournament the first there too, and more
    # games stored in it than the site had published: not the next games of the first event.
    make_database(database, "Event C", PLAYERS_A | PLAYERS_B, played=8)

    report(database, site)
    assert_only_the_new_site_and_the_users_files(site)
    assert "Event A" not in (site / "games" / "r1-b1-g1.html").read_text(encoding="utf-8")
    event_pdn = (site / "event.pdn").read_text(encoding="utf-8")
    assert event_pdn.count('[Event "Event C"]') == 8 and "Event A" not in event_pdn


def test_a_site_written_before_its_files_were_recorded_is_left_as_it_is_and_said_so_once(
    tmp_path: Path,
) -> None:
    event_a, event_b, site, _ = site_of_event_a(tmp_path)
    # As an arbiter from before the record left it: the manifest of the build it made, and no list
    # of the files it wrote.
    (site / RECORD).unlink(missing_ok=True)
    before = files_of(site)

    done = report(event_b, site)
    assert before <= files_of(site), "nothing the folder does not say is the arbiter's is removed"
    left = {name for name in before - set(USERS_FILES) if name not in linked_files(site)}
    assert "engines/alphabeta.html" in left
    (warning,) = done.stderr.splitlines()
    assert warning.startswith(f"warning: {site}: {len(left)} files of an earlier site left in place"), warning
    # The build recorded its files: the next one, of another event again, removes those it lacks.
    again = report(event_a, site)
    assert again.stderr == ""
    assert not (site / "engines" / "rival.html").exists()
    assert (site / "engines" / "club.html").is_file()


def linked_files(site: Path) -> set[str]:
    return {path.relative_to(site.resolve()).as_posix() for path in crawl(site).files}


def test_the_live_page_of_another_event_does_not_show_the_earlier_runs_games(tmp_path: Path) -> None:
    site = tmp_path / "site"
    command = [*ARBITER, "match", "alphabeta", "greedy", "--tc", "st=0.1", "--games", "2", "--rounds", "100"]
    command += ["--db", "a.sqlite", "--report", "site"]
    # Killed outright with its publisher (a session of its own, killed as a group) while a game is being
    # played: the live page's data still shows that game.
    run = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 120
        while not ((site / "index.html").is_file() and (site / LIVE_DATA).is_file() and live_games(site)):
            assert run.poll() is None and time.monotonic() < deadline, "no game was shown live in time"
            time.sleep(0.1)
    finally:
        engines = descendants(run.pid)
        os.killpg(run.pid, signal.SIGKILL)
        run.wait()
        end_processes(engines)
    assert live_games(site)
    event_b = tmp_path / "b.sqlite"
    make_database(event_b, "Event B", PLAYERS_B, played=1)

    report(event_b, site)
    assert live_games(site) == []


def end_processes(pids: list[int]) -> None:
    """The engines end when their input closes; any still there after a while is ended."""
    deadline = time.monotonic() + 30
    while any(Path(f"/proc/{pid}").exists() for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
