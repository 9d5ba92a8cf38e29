"""Who rests in which round: in a round robin of an odd number of engines one of them sits out each
round (a bye, not scored), and the site's round list and engine pages say so.

A real `arbiter run` of five instant test engines into a real SQLite file publishes the site; the
engine that rests in a round is read back from the games stored (the one that played none of that
round's games), not from the plan, and the pages are read in Chromium.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from site_checks import crawl
from test_live_browser import NARROWEST_PHONE, assert_fits_the_narrowest_phone
from test_report_browser import Watch, browser, chromium  # noqa: F401

from arbiter.report.store_site import StoreSite
from arbiter.store import RunStore

ENGINES = Path(__file__).resolve().parents[1] / "engines"
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def instant_engine(name: str) -> str:
    command = f'["{sys.executable}", "{ENGINES / "instant_hub.py"}"]'
    return f'[[engines]]\nname = "{name}"\ncommand = {command}\n'


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, str]]:
    """The site of a played five-engine round robin, and who rested in each round by its games."""
    folder = tmp_path_factory.mktemp("rests")
    settings = (
        'name = "Odd cup"\nvariant = "english"\ntime_control = "st=0.05"\nformat = "round-robin"\n'
        'database = "odd.sqlite"\nreport = "site"\nconcurrency = 1\n'
    )
    tournament = folder / "odd.toml"
    tournament.write_text(settings + "".join(instant_engine(name) for name in PLAYERS), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "run", str(tournament)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=folder,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    with RunStore.open(folder / "odd.sqlite", create=False, read_only=True) as store:
        games = store.games(store.find_tournament(None).id)
    playing: dict[int, set[str]] = {}
    for game in games:
        playing.setdefault(game.key.round, set()).update({game.record.white.name, game.record.black.name})
    resting = {}
    for number, players in playing.items():
        (rester,) = set(PLAYERS) - players
        resting[number] = rester
    assert len(resting) == len(PLAYERS), "five rounds of two games each"
    return folder / "site", resting


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:  # noqa: F811
    opened = browser.new_page()
    watch = Watch(opened)
    try:
        yield opened
    finally:
        opened.close()
    assert not watch.errors, watch.errors


def games_rows(page: Any, path: Path) -> list[tuple[str, str, str]]:
    """(class, round, text) of each row of the games list at `path`."""
    page.goto(path.as_uri())
    rows = page.eval_on_selector_all(
        "table.games tbody tr",
        "rows => rows.map(r => [r.className, r.cells[1].textContent.trim(), r.textContent.trim()])",
    )
    return [(kind, number, text) for kind, number, text in rows]


def test_the_games_list_says_who_rests_before_each_rounds_games(
    event: tuple[Path, dict[int, str]], page: Any
) -> None:
    site, resting = event
    rows = games_rows(page, site / "games.html")
    rests = [(int(number), text) for kind, number, text in rows if kind == "rest"]
    assert [number for number, _ in rests] == sorted(resting), "one rest line a round"
    for number, text in rests:
        assert f"{resting[number]} rests" in text, text
        assert "not scored" in text
    # Each round's rest line comes first among that round's rows: the round list reads in rounds.
    rounds = [number for _, number, _ in rows]
    for number, _ in rests:
        first = rounds.index(str(number))
        assert rows[first][0] == "rest", rows


def test_an_engine_page_says_in_which_round_it_rests(event: tuple[Path, dict[int, str]], page: Any) -> None:
    site, resting = event
    for number, name in resting.items():
        page.goto((site / "engines" / f"{name.lower()}.html").as_uri())
        facts = dict(
            page.eval_on_selector_all(
                "dl.facts > div",
                "items => items.map(i => [i.firstElementChild.textContent, i.lastElementChild.textContent])",
            )
        )
        assert facts.get("Rests", "").startswith(f"round {number} "), facts


def test_the_site_with_rest_lines_is_well_formed(event: tuple[Path, dict[int, str]]) -> None:
    site, _ = event
    result = crawl(site)
    assert not result.broken, result.broken
    assert not result.problems, result.problems


def test_a_round_cut_by_the_end_of_a_games_page_names_its_rest_once_where_it_starts(
    event: tuple[Path, dict[int, str]], tmp_path: Path, page: Any
) -> None:
    """Three games a page, two games a round: rounds 2 and 4 begin on one page and end on the next."""
    site, resting = event
    paged = StoreSite(site.parent / "odd.sqlite", tmp_path / "paged", games_per_page=3, read_only=True)
    paged.refresh()
    named: dict[str, str] = {}
    for name in ("games.html", "games-2.html", "games-3.html", "games-4.html"):
        for kind, number, text in games_rows(page, tmp_path / "paged" / name):
            if kind == "rest":
                assert number not in named, f"round {number}'s rest is named twice"
                assert f"{resting[int(number)]} rests" in text
                named[number] = name
    assert named == {
        "1": "games.html",
        "2": "games.html",
        "3": "games-2.html",
        "4": "games-3.html",
        "5": "games-3.html",
    }


def test_on_the_narrowest_phone_the_rest_lines_do_not_widen_the_pages(
    event: tuple[Path, dict[int, str]], page: Any
) -> None:
    site, resting = event
    page.set_viewport_size(NARROWEST_PHONE)
    for path in (site / "games.html", site / "engines" / f"{resting[1].lower()}.html"):
        page.goto(path.as_uri())
        assert_fits_the_narrowest_phone(page, path.name)
