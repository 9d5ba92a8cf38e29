"""`arbiter ratings DB [DB...]`: one rating list over several databases, engines recognised by name and
identity, as a table and as JSON; run as the real command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from rating_databases import Entrant, write_event
from typer.testing import CliRunner

from arbiter.cli import app
from arbiter.tournament.ratings import RatedGame, fit_ratings

ARBITER = [sys.executable, "-m", "arbiter.cli"]


def rate(*args: str) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(app, ["ratings", *args])
    return outcome.exit_code, outcome.stdout, outcome.stderr


@pytest.fixture
def two_databases(tmp_path: Path) -> tuple[Path, Path]:
    """Alpha 1.0 plays Beta in one database, and Beta and Gamma in the other; in the second the name
    `alpha` also stands for a newer Alpha (2.0), a different engine."""
    first, second = tmp_path / "spring.sqlite", tmp_path / "autumn.sqlite"
    write_event(
        first,
        "spring",
        [Entrant("alpha", "Alpha", "1.0"), Entrant("beta", "Beta")],
        [
            ("alpha", "beta", "1-0"),
            ("beta", "alpha", "1/2"),
            ("alpha", "beta", "1/2"),
            ("beta", "alpha", "1-0"),
        ],
    )
    write_event(
        second,
        "autumn",
        [Entrant("beta", "Beta"), Entrant("gamma", "Gamma")],
        [
            ("beta", "gamma", "1-0"),
            ("gamma", "beta", "1-0"),
            ("beta", "gamma", "1/2"),
            ("gamma", "beta", "0-1"),
        ],
        paired=True,
    )
    write_event(
        second,
        "winter",
        [Entrant("alpha", "Alpha", "2.0"), Entrant("gamma", "Gamma")],
        [("alpha", "gamma", "1-0"), ("gamma", "alpha", "1/2"), ("alpha", "gamma", "0-1")],
    )
    return first, second


def test_engines_are_one_across_databases_by_name_and_identity(two_databases: tuple[Path, Path]) -> None:
    code, out, err = rate(*map(str, two_databases), "--json")
    assert code == 0, err
    listed = json.loads(out)
    by_name = {e["name"]: e for e in listed["engines"]}
    # beta (Beta 1.0) is one engine over both databases; alpha is two engines, told apart by identity.
    assert set(by_name) == {"alpha [Alpha 1.0]", "alpha [Alpha 2.0]", "beta", "gamma"}
    assert by_name["beta"]["games"] == 8 and by_name["beta"]["identity"] == "Beta 1.0"
    assert (by_name["beta"]["wins"], by_name["beta"]["draws"], by_name["beta"]["losses"]) == (3, 3, 2)
    assert by_name["alpha [Alpha 1.0]"]["games"] == 4
    assert by_name["alpha [Alpha 2.0]"]["games"] == 3
    assert (listed["games"], listed["tournaments"], listed["databases"]) == (11, 3, 2)
    assert listed["anchor"] is None and listed["anchor_rating"] == 0.0 and listed["prior"] == 0.0
    assert sum(e["rating"] for e in listed["engines"]) == pytest.approx(0.0, abs=1e-9)
    assert [e["rank"] for e in listed["engines"]] == [1, 2, 3, 4]
    ratings = [e["rating"] for e in listed["engines"]]
    assert ratings == sorted(ratings, reverse=True)
    # The same fit as the library's over the same games (autumn's in two pairs).
    games = [
        RatedGame("alpha1", "beta", 1.0),
        RatedGame("beta", "alpha1", 0.5),
        RatedGame("alpha1", "beta", 0.5),
        RatedGame("beta", "alpha1", 1.0),
        RatedGame("beta", "gamma", 1.0, unit=0),
        RatedGame("gamma", "beta", 1.0, unit=0),
        RatedGame("beta", "gamma", 0.5, unit=1),
        RatedGame("gamma", "beta", 0.0, unit=1),
        RatedGame("alpha2", "gamma", 1.0),
        RatedGame("gamma", "alpha2", 0.5),
        RatedGame("alpha2", "gamma", 0.0),
    ]
    expected = {r.player: r for r in fit_ratings(games).ratings}
    assert by_name["beta"]["rating"] == pytest.approx(expected["beta"].rating)
    assert by_name["beta"]["error"] == pytest.approx(expected["beta"].error)
    assert by_name["alpha [Alpha 2.0]"]["upper"] == pytest.approx(expected["alpha2"].upper)


def test_the_table_anchored_on_an_engine(two_databases: tuple[Path, Path]) -> None:
    code, out, err = rate(*map(str, two_databases), "--anchor", "gamma", "--anchor-rating", "1500")
    assert code == 0, err
    assert "Rating list (gamma = 1500; 11 games, 3 tournament(s), 2 database(s))" in out
    row = next(line for line in out.splitlines() if " gamma " in line)
    assert "+1500.0" in row and "[+1500.0, +1500.0]" in row and "Gamma 1.0" in row
    assert "alpha [Alpha 2.0]" in out


def test_an_engine_that_won_everything_is_rated_with_a_prior_and_said_so(tmp_path: Path) -> None:
    database = tmp_path / "one-sided.sqlite"
    write_event(
        database, "rout", [Entrant("x", "X"), Entrant("y", "Y")], [("x", "y", "1-0"), ("y", "x", "0-1")]
    )
    code, out, _ = rate(str(database))
    assert code == 0
    assert "each pairing counts 1 virtual draw(s) (--prior)" in out
    code, _, err = rate(str(database), "--prior", "0")
    assert code == 2 and "would be infinite" in err


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--anchor", "nobody"], 2, "the anchor 'nobody' played no game here"),
        (["missing.sqlite"], 2, "missing.sqlite"),
    ],
)
def test_bad_requests_are_told_without_a_traceback(
    two_databases: tuple[Path, Path], args: list[str], code: int, message: str
) -> None:
    exit_code, out, err = rate(str(two_databases[0]), *args)
    assert exit_code == code
    assert message in err
    assert "Traceback" not in out + err


def test_ratings_of_real_matches_from_two_databases(tmp_path: Path) -> None:
    databases = []
    for opponent in ("random", "alphabeta"):
        database = tmp_path / f"greedy-{opponent}.sqlite"
        played = subprocess.run(
            [*ARBITER, "match", "greedy", opponent, "--tc", "depth=1", "--rounds", "2", "--repeat"]
            + ["--openings", "acf-156", "--db", str(database), "--max-plies", "60"],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert played.returncode == 0, played.stdout + played.stderr
        databases.append(str(database))
    result = subprocess.run(
        [*ARBITER, "ratings", *databases, "--anchor", "greedy", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    listed = json.loads(result.stdout)
    by_name = {e["name"]: e for e in listed["engines"]}
    assert set(by_name) == {"greedy", "random", "alphabeta"}
    assert by_name["greedy"]["games"] == 8 and by_name["greedy"]["rating"] == 0.0
    assert by_name["greedy"]["identity"] == "greedy 1.0"
    assert by_name["random"]["games"] == 4 and by_name["alphabeta"]["games"] == 4
    table = subprocess.run([*ARBITER, "ratings", *databases], capture_output=True, text=True, timeout=60)
    assert (
        table.returncode == 0
        and "Rating list (average = 0; 8 games, 2 tournament(s), 2 database(s))" in table.stdout
    )


def test_an_entry_that_never_announced_itself_is_the_engine_of_that_name(tmp_path: Path) -> None:
    database = tmp_path / "two.sqlite"
    games = [("alpha", "beta", "1-0"), ("beta", "alpha", "1/2"), ("alpha", "beta", "0-1")]
    write_event(database, "first", [Entrant("alpha", "Alpha"), Entrant("beta", "Beta")], games)
    write_event(database, "second", [Entrant("alpha"), Entrant("beta", "Beta")], games)
    code, out, err = rate(str(database), "--json")
    assert code == 0, err
    by_name = {e["name"]: e for e in json.loads(out)["engines"]}
    assert set(by_name) == {"alpha", "beta"}
    assert by_name["alpha"]["games"] == 6 and by_name["alpha"]["identity"] == "Alpha 1.0"
