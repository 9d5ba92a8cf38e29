"""`arbiter play` with engines named the way engine testers name them: settings (cmd= dir= name=
option.X=), Scan's variant names, the working directory Scan needs, and `--debug`."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from referee_games import ENGINES
from typer.testing import CliRunner

from arbiter.cli import app

runner = CliRunner()
SCAN_LIKE = ENGINES / "scan_like_hub.py"


def scan_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "scan"
    folder.mkdir()
    (folder / "scan.ini").write_text("")
    return folder


def spec(*words: str) -> str:
    return shlex.join([f"cmd={sys.executable}", f"arg={SCAN_LIKE}", *words])


def test_an_engine_started_in_its_working_directory_plays_under_its_given_name(tmp_path: Path) -> None:
    folder = scan_folder(tmp_path)
    args = ["play", "-q", "-v", "international", "--tc", "depth=1", "--max-plies", "1"]
    result = runner.invoke(app, [*args, spec(f"dir={folder}", "name=Scan", "option.threads=2"), "random"])
    assert result.exit_code == 0, result.output + result.stderr
    assert result.stdout.startswith("Result: ")


def test_without_its_working_directory_the_engine_cannot_start_and_the_command_says_so(
    tmp_path: Path,
) -> None:
    args = ["play", "-q", "-v", "international", "--tc", "depth=1", "--max-plies", "1"]
    result = runner.invoke(app, [*args, "random", spec("name=Scan")])
    assert result.exit_code == 1
    assert "Black's engine failed to start" in result.stdout and "cannot open scan.ini" in result.stdout


def test_debug_shows_every_line_with_the_variant_named_as_the_engine_names_it(tmp_path: Path) -> None:
    folder = scan_folder(tmp_path)
    args = ["play", "-q", "-v", "antidraughts", "--tc", "depth=1", "--max-plies", "1", "--debug"]
    result = runner.invoke(app, [*args, spec(f"dir={folder}", "name=Scan"), "random"])
    assert result.exit_code == 0, result.output + result.stderr
    assert "Scan > set-param name=variant value=losing" in result.stderr
    assert "Scan > go think" in result.stderr and "Scan < done move=" in result.stderr


def test_a_variant_name_on_the_command_line_reaches_the_engine(tmp_path: Path) -> None:
    folder = scan_folder(tmp_path)
    args = ["play", "-q", "-v", "international", "--tc", "depth=1", "--max-plies", "1", "--debug"]
    result = runner.invoke(
        app, [*args, "--variant-name", "international=bt", spec(f"dir={folder}", "name=Scan"), "random"]
    )
    assert result.exit_code == 0, result.output + result.stderr
    assert "Scan > set-param name=variant value=bt" in result.stderr


def test_an_engine_setting_that_is_not_known_is_refused_with_the_keys(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "cmd=random hash=16", "random"])
    assert result.exit_code == 2
    assert "unknown setting hash=; keys: cmd, arg, args, name, dir" in result.stderr
    bare = runner.invoke(app, ["play", "cmd=random fast", "random"])
    assert bare.exit_code == 2
    assert "'fast' is not a key=value setting; keys: cmd, arg, args, name" in bare.stderr


def dxp_follower(*arguments: str, settings: tuple[str, ...] = ()) -> str:
    """A DXP follower engine named D, started with ``arguments`` on the port the arbiter picks."""
    words = [f"arg={word}" for word in (ENGINES / "dxp_follower.py", "--listen", "{port}", *arguments)]
    return shlex.join([f"cmd={sys.executable}", *words, "proto=dxp", "listen=engine", "name=D", *settings])


def test_a_dxp_engine_plays_from_the_command_line_with_its_port_given_through_the_command() -> None:
    follower = dxp_follower("--moves", "32-28")
    args = ["play", "--no-board", "-v", "international", "--tc", "120", "--max-plies", "2"]
    result = runner.invoke(app, [*args, follower, "random"])
    assert result.exit_code == 0, result.output + result.stderr
    assert "1. white 32-28" in result.stdout
    assert "Result: 1-1  Draw: the game reached the limit of 2 plies  (2 plies)" in result.stdout


def test_a_clock_under_a_minute_is_refused_for_a_dxp_engine_before_it_is_started(tmp_path: Path) -> None:
    told = tmp_path / "told.jsonl"  # the follower writes every message it receives here
    args = ["play", "--no-board", "-v", "international", "--tc", "20", "--max-plies", "2"]
    result = runner.invoke(app, [*args, dxp_follower("--record", str(told)), "random"])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: engine 'D': DXP announces whole minutes: a clock of 20 s cannot be announced; "
        "give a DXP engine at least one minute\n"
    )
    assert not told.exists()


def test_the_own_clock_of_a_dxp_engine_is_the_one_checked() -> None:
    args = ["play", "-q", "-v", "international", "--tc", "300", "--max-plies", "2"]
    result = runner.invoke(app, [*args, dxp_follower(settings=("tc=0:30",)), "random"])
    assert result.exit_code == 2
    assert "error: engine 'D': DXP announces whole minutes: a clock of 30 s" in result.stderr


def test_what_dxp_cannot_announce_is_warned_about_and_the_game_is_played() -> None:
    args = ["play", "-q", "-v", "international", "--tc", "90+1", "--max-plies", "2"]
    result = runner.invoke(app, [*args, dxp_follower("--moves", "32-28"), "random"])
    assert result.exit_code == 0, result.output + result.stderr
    assert result.stderr == (
        "warning: engine 'D': 90 s is announced as 1 minute(s), rounded down; DXP cannot announce the "
        "increment: the engine is not told of it\n"
    )
    assert result.stdout.startswith("Result: 1-1")


def test_a_dxp_engine_s_timemargin_outranks_the_one_second_dxp_margin() -> None:
    # The engine never moves: it loses when its own margin of 3 s is over, not DXP's default of 1 s.
    follower = dxp_follower("--hang-at", "1", settings=("timemargin=3000",))
    args = ["play", "--no-board", "-v", "international", "--tc", "st=1", "--max-plies", "2"]
    result = runner.invoke(app, [*args, follower, "random"])
    assert result.exit_code == 0, result.output + result.stderr
    assert "time control st=1 margin=3 (White), st=1 (Black)" in result.stdout
    assert "White lost on time: no move came (4.000 s allowed)" in result.stdout


def test_an_engine_s_own_time_control_is_its_clock_and_the_record_shows_both() -> None:
    args = ["play", "--no-board", "--tc", "depth=1", "--max-plies", "2"]
    result = runner.invoke(app, [*args, "cmd=random tc=st=0.5", "greedy"])
    assert result.exit_code == 0, result.output + result.stderr
    assert "time control depth=1 (White), st=0.5 (Black)" in result.stdout  # random moves first: Black


def test_an_engine_s_unreadable_clock_is_told_by_the_engine_and_its_setting() -> None:
    result = runner.invoke(app, ["play", "-q", "cmd=random st=soon", "greedy"])
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "error: engine 'random': st=soon: bad time control 'st=soon': st= needs a number such as 2 or 0.5"
    )


def test_an_engine_s_tc_inf_without_a_limit_is_refused_naming_the_engine() -> None:
    result = runner.invoke(app, ["play", "-q", "greedy", "cmd=random name=A tc=inf"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: engine 'A': tc=inf: an engine with no clock needs a limit")


def test_two_time_controls_of_one_engine_are_refused_by_play_too() -> None:
    result = runner.invoke(app, ["play", "-q", "greedy", "cmd=random name=A tc=60 depth=2"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: engine 'A': tc=60 and depth=2 are two time controls")


def test_an_engine_s_timemargin_replaces_the_margin_of_the_tc_it_plays_under() -> None:
    args = ["play", "--no-board", "--tc", "st=0.5 margin=0.2", "--max-plies", "2"]
    result = runner.invoke(app, [*args, "cmd=random timemargin=1500", "cmd=greedy timemargin=0"])
    assert result.exit_code == 0, result.output + result.stderr
    # random moves first: Black
    assert "time control st=0.5 (White), st=0.5 margin=1.5 (Black)" in result.stdout


def test_an_engine_whose_settings_do_not_fit_together_is_told_in_the_validator_s_own_words() -> None:
    result = runner.invoke(app, ["play", "cmd=./engine proto=dxp port=27531 option.hash=16", "random"])
    assert result.exit_code == 2
    assert "engine 'engine': engine: DXP has no parameters: configure a DXP engine" in result.stderr
    assert "Value error" not in result.stderr
