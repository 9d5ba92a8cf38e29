"""`arbiter stats sprt`, the SPRT calculator, run as a user runs it: from counts and from a database."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
from pathlib import Path

import pytest
import sprt_reference as ref
from tournament_files import greedy_random_match
from typer.testing import CliRunner

from arbiter.cli import app
from arbiter.store import TournamentStore
from arbiter.tournament.stats import SprtSettings, elo_from_wdl, sprt_wdl


def calculate(*args: str) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(app, ["stats", "sprt", *args])
    return outcome.exit_code, outcome.stdout, outcome.stderr


def counted(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def llr_of(output: str) -> float:
    found = re.search(r"^LLR (-?\d+\.\d+)$", output, re.MULTILINE)
    assert found is not None, output
    return float(found[1])


def test_ten_draws_do_not_decide_anything() -> None:
    code, out, _ = calculate("--wdl", "0,10,0", "--elo0", "0", "--elo1", "10")
    assert code == 0
    assert "LLR -0.2860" in out
    assert "bounds: -2.9444 (H0), 2.9444 (H1)" in out
    assert "decision: continue (undecided)" in out
    assert "counts: 0 wins, 10 draws, 0 losses (10 games, draw ratio 100.0%)" in out
    assert "Elo +0.0, no interval yet: every game drawn, LOS 50.0%" in out


@pytest.mark.parametrize(
    ("args", "counts"),
    [
        (["--wdl", "1,1,1"], "counts: 1 win, 1 draw, 1 loss (3 games, draw ratio 33.3%)"),
        (["--wdl", "1,0,0"], "counts: 1 win, 0 draws, 0 losses (1 game, draw ratio 0.0%)"),
        (["--pentanomial", "0,0,1,0,0"], "counts: pairs 0-0-1-0-0 (1 pair, 2 games)"),
    ],
)
def test_counts_of_one_are_told_in_the_singular(args: list[str], counts: str) -> None:
    # It printed "1 wins, 0 draws, 0 losses (1 games)" and "(1 pairs, 2 games)".
    code, out, _ = calculate(*args)
    assert code == 0
    assert out.splitlines()[0] == counts


def test_counts_of_games_give_the_reference_llr_and_decision() -> None:
    code, out, _ = calculate("--wdl", "1200,1800,1000", "--elo0", "0", "--elo1", "10", "--alpha", "0.1")
    assert code == 0
    expected = ref.dual_llr([1000, 1800, 1200], ref.logistic(0), ref.logistic(10))
    assert llr_of(out) == pytest.approx(expected, abs=1e-4)
    assert "bounds: -2.8904 (H0), 2.2513 (H1)" in out  # log(0.05 / 0.9), log(0.95 / 0.1)
    assert "decision: H1 accepted" in out
    assert f"Elo {elo_from_wdl(1200, 1800, 1000).elo:+.1f} ± " in out


def test_counts_of_pairs_and_the_normalized_model() -> None:
    code, out, _ = calculate(
        "--pentanomial",
        "39,2226,31451,2412,40",
        "--elo0",
        "0.764",
        "--elo1",
        "3.439",
        "--model",
        "normalized",
    )
    assert code == 0
    assert "counts: pairs 39-2226-31451-2412-40 (36168 pairs, 72336 games)" in out
    assert "test: elo0=0.764 elo1=3.439 alpha=0.05 beta=0.05 model=normalized" in out
    assert "nElo +3.5 ± 2.5 (95%)" in out
    logistic = llr_of(
        calculate("--pentanomial", "39,2226,31451,2412,40", "--elo0", "0.2", "--elo1", "0.9")[1]
    )
    assert logistic == pytest.approx(
        ref.dual_llr([39, 2226, 31451, 2412, 40], ref.logistic(0.2), ref.logistic(0.9)), abs=1e-4
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--wdl", "1,2"], "--wdl: expected 3 counts W,D,L, got '1,2'"),
        (["--pentanomial", "1,2,3"], "--pentanomial: expected 5 counts P0,P1,P2,P3,P4, got '1,2,3'"),
        (["--wdl", "1,x,3"], "--wdl: counts are whole numbers (W,D,L), got '1,x,3'"),
        (["--wdl", "1,-2,3"], "--wdl: counts cannot be negative"),
        (["--wdl", "1,2,3", "--model", "bayes"], "unknown Elo model 'bayes'; models: logistic, normalized"),
        (["--wdl", "1,2,3", "--elo0", "5", "--elo1", "1"], "SPRT elo0 must be below elo1"),
        (["--wdl", "1,2,3", "--alpha", "2"], "SPRT alpha must be between 0 and 1"),
        (["--wdl", "5,90,5", "--elo1", "7000"], "SPRT bounds in logistic Elo must lie within ±4000"),
        ([], "give the counts: --wdl W,D,L or --pentanomial P0,P1,P2,P3,P4"),
        (["--wdl", "1,2,3", "--pentanomial", "1,2,3,4,5"], "give the counts"),
    ],
)
def test_bad_input_is_told_by_option_without_a_traceback(args: list[str], message: str) -> None:
    code, out, err = calculate(*args)
    assert code == 2
    assert message in err
    assert "Traceback" not in out + err


def test_a_stored_match_is_read_with_its_own_sprt_settings(tmp_path: Path) -> None:
    database = tmp_path / "m.sqlite"
    command = greedy_random_match(database, "--rounds", "3", "--max-plies", "60")
    command += ["--sprt", "elo0=-5 elo1=25 alpha=0.1 beta=0.1"]
    played = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stdout + played.stderr
    with TournamentStore.open(database, create=False) as store:
        games = store.finished_results(store.find_tournament().id)
    wins = sum(1 for g in games if g.fraction_for("greedy") == 1.0)
    losses = sum(1 for g in games if g.fraction_for("greedy") == 0.0)
    draws = len(games) - wins - losses
    code, out, _ = calculate(str(database))
    assert code == 0, out
    results = ", ".join(
        (counted(wins, "win", "wins"), counted(draws, "draw", "draws"), counted(losses, "loss", "losses"))
    )
    assert f"counts: {results} (6 games, draw ratio {100 * draws / 6:.1f}%): greedy against random" in out
    assert "test: elo0=-5 elo1=25 alpha=0.1 beta=0.1 model=logistic" in out
    stored = sprt_wdl(SprtSettings(-5.0, 25.0, 0.1, 0.1), wins, draws, losses)
    assert f"LLR {stored.llr:.4f}" in out
    # Options override what is stored.
    code, out, _ = calculate(str(database), "--elo1", "40", "--model", "normalized")
    assert code == 0
    assert "test: elo0=-5 elo1=40 alpha=0.1 beta=0.1 model=normalized" in out
    assert "nElo " in out


def test_a_database_that_is_not_a_match_or_not_there_is_an_error(tmp_path: Path) -> None:
    code, _, err = calculate(str(tmp_path / "missing.sqlite"))
    assert code == 2
    assert "missing.sqlite" in err
    code, _, err = calculate(str(tmp_path / "missing.sqlite"), "--wdl", "1,2,3")
    assert code == 2
    assert "give counts (--wdl or --pentanomial) or a database, not both" in err


def test_a_stored_match_whose_settings_cannot_be_read_is_warned_of_not_taken_for_the_defaults(
    tmp_path: Path,
) -> None:
    database = tmp_path / "m.sqlite"
    command = greedy_random_match(database, "--rounds", "1", "--max-plies", "20", "--repeat")
    command += ["--sprt", "elo0=0 elo1=10"]
    played = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stdout + played.stderr
    # Settings an earlier version let through and this one refuses, as a file from it may hold.
    with sqlite3.connect(database) as connection:
        stored = json.loads(connection.execute("SELECT config FROM tournament").fetchone()[0])
        stored["sprt"]["elo1"] = 7000.0
        connection.execute("UPDATE tournament SET config = ?", (json.dumps(stored),))
    connection.close()
    code, out, err = calculate(str(database))
    assert code == 0, out + err
    assert "the stored settings of tournament" in err and "cannot be read" in err
    assert "sprt: SPRT bounds in logistic Elo must lie within ±4000, got elo0=0 elo1=7000" in err
    assert "counted by single games" in err and "Traceback" not in out + err
    assert "test: elo0=0 elo1=5 " in out
