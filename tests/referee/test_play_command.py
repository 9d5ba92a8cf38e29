"""`arbiter play`: one game from the command line, shown as it goes, with the result, the reason and PDN."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest
from referee_games import ENGINES, received
from typer.testing import CliRunner

from arbiter.cli import app
from arbiter.notation.pdn import read_pdn_text

runner = CliRunner()


def scripted_command(*args: str) -> str:
    return shlex.join([sys.executable, str(ENGINES / "scripted_player.py"), *args])


# White must capture 22x15 (its only move), then Black's 4-8 is its only move; after that White has two.
FORCED_START = "W:W22:B4,18"
KINGS = "W:WK1,K2:BK31,K32"  # quiet king moves, no capture for many plies

# The board as `arbiter play` draws it (from White's side, square 1 top left), before and after 22x15.
BOARD_AT_START = [
    "     .   .   .   b",
    "   .   .   .   .  ",
    "     .   .   .   .",
    "   .   .   .   .  ",
    "     .   b   .   .",
    "   .   w   .   .  ",
    "     .   .   .   .",
    "   .   .   .   .  ",
]
BOARD_AFTER_CAPTURE = [
    "     .   .   .   b",
    "   .   .   .   .  ",
    "     .   .   .   .",
    "   .   .   w   .  ",
    "     .   .   .   .",
    "   .   .   .   .  ",
    "     .   .   .   .",
    "   .   .   .   .  ",
]


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
    # Two engines named after the same script (not the interpreter that runs it) are told apart.
    assert "Black: scripted_player (scripted 1.0)" in result.output
    assert "White: scripted_player-2 (quitter 1.0)" in result.output


def test_play_writes_how_the_game_ended_after_the_last_move_as_pdn_export_does(tmp_path: Path) -> None:
    pdn = tmp_path / "game.pdn"
    resigner = scripted_command("--name", "quitter", "--resign-at", "2")
    args = ["play", "-q", "--tc", "st=1", scripted_command(), resigner, "--pdn", str(pdn)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    [game] = read_pdn_text(pdn.read_text())
    assert game.comments == ()
    assert "{Black wins: White resigned}" in pdn.read_text()
    assert "Black wins: White resigned" in game.moves[-1].comments


def test_a_reason_longer_than_a_pdn_line_is_wrapped_within_79_characters_and_reads_back(
    tmp_path: Path,
) -> None:
    pdn = tmp_path / "game.pdn"
    bad = shlex.join([sys.executable, str(ENGINES / "bad_move.py")])
    result = runner.invoke(app, ["play", "-q", "--tc", "depth=2", "random", bad, "--pdn", str(pdn)])
    assert result.exit_code == 0, result.output
    reason = result.output.split("Result: 1-0  ", 1)[1].rsplit("  (", 1)[0]
    assert len(reason) > 79 and "ended its search with move='e3-d4'" in reason
    text = pdn.read_text()
    assert max(len(line) for line in text.splitlines()) <= 79, text
    [game] = read_pdn_text(text)
    assert game.ok and game.result == "1-0"
    assert " ".join(game.moves[-1].comments[-1].split()) == reason


def test_a_canadian_game_is_scored_in_two_points_as_pdn_3_gives_its_game_type(tmp_path: Path) -> None:
    pdn = tmp_path / "game.pdn"
    args = ["play", "-q", "-v", "canadian", "--tc", "depth=1", "--max-plies", "2", "random", "random"]
    result = runner.invoke(app, [*args, "--pdn", str(pdn)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Result: 1-1  Draw: the game reached the limit of 2 plies")
    text = pdn.read_text()
    assert '[Result "1-1"]' in text and '[GameType "27"]' in text and text.rstrip().endswith("1-1")


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


def test_the_live_display_shows_each_move_with_its_time_both_clocks_and_the_board() -> None:
    white = scripted_command("--name", "w", "--capture-sleep", "0.3")
    args = ["play", "--tc", "acf scale=0.01", "--fen", FORCED_START, "--max-plies", "2"]
    result = runner.invoke(app, [*args, white, scripted_command("--name", "b")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    title = "American checkers / English draughts"
    header = lines.index(f"{title}, time control acf scale=0.01, from {FORCED_START}")
    assert lines[header + 1 : header + 9] == BOARD_AT_START
    capture = lines[header + 9]
    shown = re.fullmatch(r"   1\. white 22x15 +(\d+\.\d{3}) s   clocks W (\d+\.\d\d)", capture)
    assert shown is not None, capture
    elapsed, white_clock = float(shown[1]), float(shown[2])
    assert elapsed >= 0.3
    assert white_clock == pytest.approx(36 - elapsed, abs=0.006)  # 30/3600 at scale 0.01: 36 s
    assert lines[header + 10 : header + 18] == BOARD_AFTER_CAPTURE
    reply = lines[header + 18]
    # White moved first from this position, so Black's reply opens move 2, as PDN numbers it.
    shown = re.fullmatch(r"   2\. black 4-8 +\d+\.\d{3} s   clocks W (\d+\.\d\d) B (\d+\.\d\d)", reply)
    assert shown is not None, reply
    assert float(shown[1]) == white_clock and 35.9 < float(shown[2]) <= 36
    assert "forced move" not in result.output  # forced moves are the engines' own unless asked


def test_auto_forced_plays_the_only_move_without_asking_the_engine(tmp_path: Path) -> None:
    logs = {side: tmp_path / f"{side}.log" for side in ("white", "black")}
    white = scripted_command("--name", "w", "--log", str(logs["white"]))
    black = scripted_command("--name", "b", "--log", str(logs["black"]))
    args = ["play", "--no-board", "--tc", "depth=1", "--fen", FORCED_START, "--max-plies", "3"]
    result = runner.invoke(app, [*args, "--auto-forced", white, black])
    assert result.exit_code == 0, result.output
    moves = [line for line in result.output.splitlines() if re.match(r" +\d+\. ", line)]
    assert [line.split()[2] for line in moves] == ["22x15", "4-8", moves[2].split()[2]]
    assert result.output.count("      ! forced move, played by the referee") == 2
    # Only White's third-ply move, which had a choice, was asked of an engine.
    assert len(received(logs["white"], "go")) == 1
    assert received(logs["black"], "go") == []


def test_adjudicate_draw_ends_the_game_when_both_scores_stay_level() -> None:
    white = scripted_command("--name", "w", "--score", "0.1")
    black = scripted_command("--name", "b", "--score", "-0.1")
    # The engines' scores are men (Hub's unit); the margin is in centi-men, the unit scores are kept in.
    args = ["play", "-q", "--tc", "depth=1", "--fen", KINGS, "--adjudicate-draw", "20:2"]
    result = runner.invoke(app, [*args, white, black])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "Result: 1/2-1/2  Draw: both engines' last 2 scores were within ±20  (4 plies)"
    ]


def test_adjudicate_win_ends_the_game_when_both_engines_agree_who_leads() -> None:
    white = scripted_command("--name", "w", "--score", "5")
    black = scripted_command("--name", "b", "--score", "-5")
    args = ["play", "-q", "--tc", "depth=1", "--fen", KINGS, "--adjudicate-win", "300:2"]
    result = runner.invoke(app, [*args, white, black])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "Result: 0-1  White wins: both engines' last 2 scores gave White a lead of at least 300  (4 plies)"
    ]


def test_a_mule_rule_ending_names_the_winner_once() -> None:
    args = ["play", "-q", "--variant", "mule", "--tc", "depth=1", "--fen", "B:WM14,30:BM1,10"]
    result = runner.invoke(app, [*args, "random", "random"])
    assert result.exit_code == 0, result.output
    result_line = "Result: 0-1  White wins: Black captured White's last mule  (1 ply)"
    assert result.output.splitlines() == [result_line]


def test_the_time_control_help_states_the_margin_and_its_default() -> None:
    result = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "300"})
    assert result.exit_code == 0
    assert "margin=S" in result.output and "default 0" in result.output


@pytest.mark.parametrize("seed", [9, 10, 11])
def test_bundled_engines_keep_the_frisian_king_move_limit_in_a_whole_game(seed: int) -> None:
    # The audit's game: a king and a man against a man and a king. The engines are told enough of the
    # game to see the limit, keep it, and the game ends by the rules, never by an illegal move.
    engine = f"{sys.executable} -m arbiter.players.random --param seed={seed}"
    args = ["play", "-q", "-v", "frisian", "--fen", "W:WK28,46:B1,K5", "--tc", "depth=1"]
    result = runner.invoke(app, [*args, "--max-plies", "200", engine, engine])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Result: ")
    assert "illegal" not in result.output


def test_a_variant_with_a_draw_rule_option_is_played_as_its_base_variant_by_the_engines() -> None:
    # english+iyt-draws changes no move: engines are told "english"; the referee keeps the 50-move rule.
    args = ["play", "-q", "-v", "english+iyt-draws", "--tc", "depth=1", "--max-plies", "20"]
    result = runner.invoke(app, [*args, "random", "random"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Result: "), result.output


def test_an_option_that_changes_the_moves_is_told_to_engines_that_offer_it() -> None:
    args = ["play", "-q", "-v", "turkish+crown-continues", "--tc", "depth=1", "--max-plies", "20"]
    result = runner.invoke(app, [*args, "random", "greedy"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Result: "), result.output


def test_an_engine_that_does_not_offer_an_option_that_changes_the_moves_cannot_play_it() -> None:
    # The scripted engine offers the plain variants only.
    args = ["play", "-q", "-v", "turkish+crown-continues", "--tc", "depth=1", "--max-plies", "20"]
    result = runner.invoke(app, [*args, scripted_command(), "random"])
    assert "cannot play variant 'turkish+crown-continues'" in result.output, result.output
    assert "its rule option changes the moves, so the engine must offer 'turkish+crown-continues'" in (
        result.output
    )


def test_the_bundled_engines_play_with_optional_capture() -> None:
    args = ["play", "-q", "-v", "english+optional-capture", "--tc", "depth=2", "--max-plies", "30"]
    result = runner.invoke(app, [*args, "alphabeta", "greedy"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Result: ") and "illegal" not in result.output, result.output


def test_optional_capture_for_a_losing_game_is_refused_with_the_reason() -> None:
    result = runner.invoke(app, ["play", "-q", "-v", "anti+optional-capture", "random", "random"])
    assert result.exit_code != 0
    assert "option 'optional-capture' makes no sense for anti" in result.output
    assert "Traceback" not in result.output


def test_a_pdn_file_that_cannot_be_written_is_refused_before_the_game(tmp_path: Path) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder\n")
    result = runner.invoke(app, ["play", "-q", "random", "random", "--pdn", str(blocked / "game.pdn")])
    assert result.exit_code == 2
    assert f"error: --pdn {blocked / 'game.pdn'}: {blocked} is a file, not a folder" in result.stderr
    assert "Result:" not in result.output, "no game was played"


def test_a_pdn_file_in_folders_not_made_yet_is_written_with_them_after_the_game(tmp_path: Path) -> None:
    pdn = tmp_path / "new" / "folder" / "game.pdn"
    result = runner.invoke(app, ["play", "-q", "--tc", "depth=1", "random", "random", "--pdn", str(pdn)])
    assert result.exit_code == 0, result.output
    [game] = read_pdn_text(pdn.read_text())
    assert game.moves


def test_one_sided_win_adjudication_needs_a_win_adjudication() -> None:
    result = runner.invoke(app, ["play", "-q", "random", "random", "--adjudicate-win-one-sided"])
    assert result.exit_code == 2
    assert "--adjudicate-win-one-sided needs --adjudicate-win MARGIN:MOVES" in result.stderr


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        (
            "--adjudicate-draw",
            "-5:3",
            "--adjudicate-draw -5:3: margin: Input should be greater than or equal to 0",
        ),
        (
            "--adjudicate-win",
            "300:0",
            "--adjudicate-win 300:0: moves: Input should be greater than or equal to 1",
        ),
    ],
)
def test_an_adjudication_out_of_range_names_its_option_not_the_model(
    option: str, value: str, said: str
) -> None:
    result = runner.invoke(app, ["play", "-q", "random", "random", option, value])
    assert result.exit_code == 2
    assert said in result.stderr
    assert "validation error for" not in result.stderr and "errors.pydantic.dev" not in result.stderr
