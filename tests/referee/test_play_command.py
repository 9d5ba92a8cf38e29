"""`arbiter play`: one game from the command line, shown as it goes, with the result, the reason and PDN."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from referee_games import ENGINES
from typer.testing import CliRunner

from arbiter.cli import app
from arbiter.notation.pdn import read_pdn_text

runner = CliRunner()


def scripted_command(*args: str) -> str:
    return shlex.join([sys.executable, str(ENGINES / "scripted_player.py"), *args])


def test_the_issue_example_plays_a_game_and_writes_it_as_pdn(tmp_path: Path) -> None:
    pdn = tmp_path / "game.pdn"
    args = ["play", "--variant", "english", "--tc", "acf scale=0.01", "--opening", "11-15 23-19 8-11"]
    result = runner.invoke(app, [*args, "random", "greedy", "--pdn", str(pdn)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Black: random (random 1.0)" and lines[1] == "White: greedy (greedy 1.0)"
    assert "   1. black 11-15        opening" in lines
    result_line = next(line for line in lines if line.startswith("Result: "))
    [game] = read_pdn_text(pdn.read_text())
    assert game.ok and game.variant_id == "english"
    assert [move.text for move in game.moves[:3]] == ["11-15", "23-19", "8-11"]
    assert game.tags["Black"] == "random" and game.tags["White"] == "greedy"
    assert result_line.startswith(f"Result: {game.result}  ")
    assert result_line.endswith(f"({len(game.moves)} plies)")
    assert all(move.clock is not None for move in game.moves[3:])


def test_an_engine_given_as_a_command_line_plays_and_its_resignation_is_the_reason() -> None:
    resigner = scripted_command("--name", "quitter", "--resign-at", "2")
    result = runner.invoke(app, ["play", "--tc", "st=1", "--no-board", scripted_command(), resigner])
    assert result.exit_code == 0, result.output
    assert "Result: 1-0  Black wins: White resigned  (3 plies)" in result.output
    # Two engines named after the same program are told apart.
    program = Path(sys.executable).name
    assert f"Black: {program} (scripted 1.0)" in result.output
    assert f"White: {program}-2 (quitter 1.0)" in result.output


def test_quiet_prints_only_the_result() -> None:
    result = runner.invoke(
        app, ["play", "-q", "--tc", "depth=1", "--max-plies", "6", scripted_command(), scripted_command()]
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "Result: 1/2-1/2  Draw: the game reached the limit of 6 plies  (6 plies)"
    ]


def test_international_names_white_first_and_scores_two_points() -> None:
    result = runner.invoke(
        app,
        [
            "play",
            "-q",
            "--variant",
            "international",
            "--tc",
            "depth=1",
            "random",
            "random",
            "--max-plies",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Result: 1-1  Draw: the game reached the limit of 2 plies")


def test_an_engine_that_cannot_start_forfeits_and_the_exit_code_says_so() -> None:
    result = runner.invoke(app, ["play", "-q", "/nonexistent/engine", "random"])
    assert result.exit_code == 1
    assert "White wins: Black's engine failed to start" in result.output
    assert "program not found" in result.output


def test_bad_options_are_refused_before_any_engine_starts() -> None:
    bad_tc = runner.invoke(app, ["play", "--tc", "40 moves in 2 hours", "random", "random"])
    assert bad_tc.exit_code == 2 and "bad time control" in bad_tc.output
    bad_opening = runner.invoke(app, ["play", "--opening", "11-15 22-19", "random", "random"])
    assert bad_opening.exit_code == 2 and "move 2 ('22-19')" in bad_opening.output
    bad_variant = runner.invoke(app, ["play", "--variant", "chess", "random", "random"])
    assert bad_variant.exit_code == 2 and "chess" in bad_variant.output
    bad_adjudication = runner.invoke(app, ["play", "--adjudicate-draw", "small", "random", "random"])
    assert bad_adjudication.exit_code == 2 and "MARGIN:MOVES" in bad_adjudication.output
