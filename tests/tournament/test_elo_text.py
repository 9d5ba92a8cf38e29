"""An Elo estimate as the terminal prints it (`arbiter stats sprt`, the SPRT line, the ratings of
`arbiter standings`, a match's progress line): the interval as testers print it, both of its ends
when one is infinite, and no interval at all, with the reason, when every game had the same result."""

from __future__ import annotations

import pytest
from ratings_tables import ratings_text
from typer.testing import CliRunner

from arbiter.cli import app
from arbiter.commands.run_extras import MatchProgress
from arbiter.commands.sprt_view import signed, sprt_line
from arbiter.tournament.scoring import FinishedGame, Outcome
from arbiter.tournament.sprt_status import sprt_status
from arbiter.tournament.stats import SprtSettings, elo_from_wdl


def estimate_line(*counts: str) -> str:
    """The last line of `arbiter stats sprt`: the Elo estimate and the LOS."""
    outcome = CliRunner().invoke(app, ["stats", "sprt", *counts, "--elo0", "0", "--elo1", "5"])
    assert outcome.exit_code == 0, outcome.output
    return outcome.stdout.splitlines()[-1]


def test_an_interval_with_an_infinite_end_is_shown_by_its_ends() -> None:
    # 9 wins and a loss: the interval reaches a score of 1, so a half width would be infinite.
    lower = signed(elo_from_wdl(9, 0, 1).lower)
    assert lower == "+159.0"
    assert estimate_line("--wdl", "9,0,1") == f"Elo +381.7 [{lower}, +∞] (95%), LOS 99.4%"


@pytest.mark.parametrize(
    ("counts", "line"),
    [
        (["--wdl", "0,10,0"], "Elo +0.0, no interval yet: every game drawn, LOS 50.0%"),
        (["--wdl", "10,0,0"], "Elo +∞, no interval yet: every game won, LOS 99.9%"),
        (["--wdl", "10,0,0", "--model", "normalized"], "nElo +∞, no interval yet: every game won, LOS 99.9%"),
        (["--pentanomial", "0,0,10,0,0"], "Elo +0.0, no interval yet: every pair scored 1 point, LOS 50.0%"),
    ],
)
def test_a_sample_without_spread_has_no_interval_and_says_why(counts: list[str], line: str) -> None:
    assert estimate_line(*counts) == line


def test_the_sprt_line_gives_ten_draws_no_interval() -> None:
    draws = [FinishedGame("a", "b", Outcome.DRAW), FinishedGame("b", "a", Outcome.DRAW)] * 5
    line = sprt_line(sprt_status(SprtSettings(0.0, 10.0), draws, "a", "b", paired=False))
    assert "· a against b: Elo +0.0, no interval yet: every game drawn ·" in line
    assert "±" not in line and "95%" not in line


def test_standings_ratings_give_no_interval_for_a_sample_without_spread() -> None:
    straight_wins = ratings_text([FinishedGame("A", "B", Outcome.WHITE_WINS)] * 24)
    assert "none yet: every game won" in straight_wins and "[+∞, +∞]" not in straight_wins
    draws = ratings_text([FinishedGame("A", "B", Outcome.DRAW)] * 10)
    assert "none yet: every game drawn" in draws and "[+0.0, +0.0]" not in draws
    assert "± 0.0" not in draws


def test_the_progress_line_gives_draws_only_no_interval() -> None:
    progress = MatchProgress("a", total=20, done=0, concurrency=1)
    progress.draws = 10
    assert "Elo +0 (no interval yet: every game drawn)" in progress.text()


def test_the_progress_line_gives_an_interval_with_an_infinite_end_by_its_ends() -> None:
    progress = MatchProgress("a", total=20, done=0, concurrency=1)
    progress.wins, progress.losses = 9, 1
    assert "Elo +382 [+159, +∞]" in progress.text()
    progress.losses = 0
    assert "Elo +∞ (no interval yet: every game won)" in progress.text()


def test_the_sprt_line_of_a_paired_test_says_which_games_wait_for_their_pair() -> None:
    # Two complete pairs of draws, and the first game of a third.
    sides = [("a", "b"), ("b", "a")] * 2 + [("a", "b")]
    games = [
        FinishedGame(white, black, Outcome.DRAW, pair_index=number // 2)
        for number, (white, black) in enumerate(sides)
    ]
    line = sprt_line(sprt_status(SprtSettings(0.0, 10.0), games, "a", "b", paired=True))
    assert "· 5 games, 2 pairs (1 game of a pair not complete yet, not counted) ·" in line
