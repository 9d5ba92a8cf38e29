"""Normalized Elo (fastchess, fishtest): the estimate and its interval, against values worked out by hand."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from rating_databases import Entrant, write_event
from typer.testing import CliRunner

from arbiter.cli import app
from arbiter.tournament.stats import (
    NELO_PER_T,
    EloModel,
    Pentanomial,
    elo_from_pentanomial,
    elo_from_wdl,
)

Z95 = 1.959963984540054


def test_normalized_elo_unit_is_800_over_ln_10() -> None:
    assert pytest.approx(347.43558552260146) == NELO_PER_T


def test_normalized_elo_of_60_wins_20_draws_20_losses() -> None:
    # Mean 0.7, per-game variance 0.16, sigma 0.4: nElo = 0.2 / 0.4 * 347.4356 = 173.72.
    # Interval: the score's 0.7 -/+ 1.96 * 0.04 in units of the same sigma: 173.72 -/+ 1.96 * 347.4356 / 10.
    estimate = elo_from_wdl(60, 20, 20, model=EloModel.NORMALIZED)
    assert estimate.model is EloModel.NORMALIZED
    assert estimate.elo == pytest.approx(173.72, abs=0.01)
    assert estimate.margin == pytest.approx(Z95 * 34.74356, abs=1e-3)
    assert estimate.margin == pytest.approx(68.10, abs=0.01)
    assert estimate.lower == pytest.approx(estimate.elo - estimate.margin)
    # The likelihood of superiority does not depend on the model.
    assert estimate.los == elo_from_wdl(60, 20, 20).los


def test_normalized_elo_from_game_pairs_uses_one_games_sigma() -> None:
    # 20 pairs LL 1, LD 3, WL+DD 10, WD 5, WW 1: mean 0.525, pair variance 0.049375; one game's sigma is
    # sqrt(2 * 0.049375) = 0.314245, so nElo = 0.025 / 0.314245 * 347.4356 = 27.64; 40 games give the
    # interval 27.64 -/+ 1.96 * 347.4356 / sqrt(40) = -/+ 107.67.
    counts = Pentanomial(ll=1, ld=3, wl=2, dd=8, wd=5, ww=1)
    estimate = elo_from_pentanomial(counts, model=EloModel.NORMALIZED)
    assert estimate.elo == pytest.approx(0.025 / math.sqrt(2 * 0.049375) * NELO_PER_T)
    assert estimate.elo == pytest.approx(27.64, abs=0.01)
    assert estimate.margin == pytest.approx(107.67, abs=0.01)
    assert estimate.count == 20


def test_with_many_draws_normalized_elo_is_far_larger_than_logistic() -> None:
    # Both score 108 / 200 = 0.54 (27.85 logistic Elo). 20 wins, 176 draws, 4 losses: variance
    # (20 * 0.46^2 + 176 * 0.04^2 + 4 * 0.54^2) / 200 = 0.0284, nElo 0.04 / 0.16852 * 347.44 = 82.47.
    # 80 wins, 56 draws, 64 losses: variance 0.1784, nElo 0.04 / 0.42237 * 347.44 = 32.90. The drawish
    # result is the stronger evidence, and normalized Elo says so.
    drawish = elo_from_wdl(20, 176, 4, model=EloModel.NORMALIZED)
    decisive = elo_from_wdl(80, 56, 64, model=EloModel.NORMALIZED)
    assert elo_from_wdl(20, 176, 4).elo == pytest.approx(elo_from_wdl(80, 56, 64).elo)
    assert drawish.elo == pytest.approx(82.47, abs=0.01)
    assert decisive.elo == pytest.approx(32.90, abs=0.01)


def test_an_all_draw_sample_has_normalized_elo_zero_with_a_finite_interval() -> None:
    estimate = elo_from_wdl(0, 25, 0, model=EloModel.NORMALIZED)
    assert estimate.elo == 0.0
    assert estimate.margin == pytest.approx(Z95 * NELO_PER_T / 5)
    wins_only = elo_from_wdl(5, 0, 0, model=EloModel.NORMALIZED)
    assert wins_only.elo == math.inf


def test_standings_show_normalized_elo_beside_logistic(tmp_path: Path) -> None:
    # The 60 / 20 / 20 match of above, stored and read back by `arbiter standings`.
    database = tmp_path / "m.sqlite"
    games = [("a", "b", "1-0")] * 60 + [("a", "b", "1/2")] * 20 + [("b", "a", "1-0")] * 20
    write_event(database, "duel", [Entrant("a", "A"), Entrant("b", "B")], games)
    outcome = CliRunner().invoke(app, ["standings", str(database)])
    assert outcome.exit_code == 0, outcome.output
    row = next(line for line in outcome.stdout.splitlines() if line.startswith("│ a "))
    assert "+147.2" in row and "+173.7 ± 68.1" in row
