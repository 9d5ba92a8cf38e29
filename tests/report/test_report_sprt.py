"""The site of a match played with an SPRT shows where the test stands, read in real Chromium."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_report_browser import browser, chromium  # noqa: F401

from arbiter.store import TournamentStore
from arbiter.tournament.stats import SprtSettings, sprt_wdl

ARBITER = [sys.executable, "-m", "arbiter.cli"]


@pytest.fixture(scope="module")
def page(browser: Any) -> Any:  # noqa: F811
    return browser.new_page()


def test_the_site_of_a_match_shows_its_sprt(page: Any, tmp_path: Path) -> None:
    database, site = tmp_path / "m.sqlite", tmp_path / "site"
    command = [
        *ARBITER,
        "match",
        "greedy",
        "random",
        "--tc",
        "depth=1",
        "--games",
        "2",
        "--rounds",
        "3",
        "--db",
        str(database),
        "--report",
        str(site),
        "--max-plies",
        "80",
        "--sprt",
        "elo0=0 elo1=15 alpha=0.1 beta=0.2",
    ]
    played = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stdout + played.stderr
    with TournamentStore.open(database, create=False) as store:
        games = store.finished_results(store.find_tournament().id)
    wins = sum(1 for g in games if g.fraction_for("greedy") == 1.0)
    losses = sum(1 for g in games if g.fraction_for("greedy") == 0.0)
    expected = sprt_wdl(SprtSettings(0.0, 15.0, 0.1, 0.2), wins, len(games) - wins - losses, losses)

    page.goto((site / "index.html").as_uri())
    section = page.locator("section:has(h2#sprt)")
    assert section.is_visible()
    assert page.inner_text("dd.sprt-llr") == (
        f"{expected.llr:.2f} (bounds {expected.lower_bound:.2f}, {expected.upper_bound:.2f})"
    )
    assert page.inner_text("dd.sprt-count") == "6 games"
    decision = {"H0": "H0 accepted", "H1": "H1 accepted", "continue": "undecided"}[expected.decision.value]
    assert page.inner_text("dd.sprt-decision").startswith(decision)
    assert "H0: Elo = 0 · H1: Elo = 15 · α 0.1, β 0.2 (logistic Elo)" in section.inner_text()
    assert page.inner_text("dd.sprt-elo").startswith("greedy against random: ")
