"""`arbiter match` as engine testers drive it: cutechess-cli/fastchess spellings, engines checked before
anything is stored, a finished match recognised, logs beside the database, progress and JSON lines."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.commands.cutechess_args import (
    OPTIONS_READ,
    CutechessArgsError,
    translate,
    translate_command_line,
)
from arbiter.commands.engine_spec import EngineSpecError, command_line_engines, parse_each
from arbiter.referee.record import Termination
from arbiter.store import TournamentStore

ARBITER = [sys.executable, "-m", "arbiter.cli"]
ENGINES = Path(__file__).resolve().parents[1] / "engines"
OPENINGS_PDN = Path(__file__).resolve().parent / "openings.pdn"


def arbiter(*args: str, cwd: Path, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ARBITER, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd)


def test_cutechess_spellings_become_the_match_options() -> None:
    args = [
        "-engine", "cmd=./scan", "arg=hub", "name=Scan 3", "dir=/opt/scan", "option.threads=2",
        "-engine", "cmd=alphabeta",
        "-each", "tc=40/60+0.6", "proto=hub",
        "-rounds", "3", "-games", "2", "-repeat", "-concurrency", "2",
        "-openings", "file=games.pdn", "format=pgn", "order=random", "plies=4", "start=3",
        "-pgnout", "out.pgn", "min", "-draw", "movenumber=40", "movecount=8", "score=10",
        "-resign", "movecount=3", "score=900", "-sprt", "elo0=0", "elo1=5", "alpha=0.05", "beta=0.05",
        "-ratinginterval", "10", "-recover", "-maxmoves", "150", "-event", "Night run", "-srand", "7",
        "-log", "file=x.log", "level=info",
    ]  # fmt: skip
    assert translate(args) == [
        "--engine", "cmd=./scan arg=hub name='Scan 3' dir=/opt/scan option.threads=2",
        "--engine", "cmd=alphabeta",
        "--each", "tc=40/60+0.6 proto=hub",
        "--rounds", "3", "--games", "2", "--repeat", "--concurrency", "2",
        "--openings", "games.pdn", "--order", "random", "--plies", "4", "--opening-start", "3",
        "--pdn-out", "out.pgn", "--adjudicate-draw", "10:8", "--adjudicate-draw-from", "40",
        "--adjudicate-win", "900:3", "--adjudicate-win-one-sided",
        "--sprt", "elo0=0 elo1=5 alpha=0.05 beta=0.05",
        "--rating-interval", "10", "--recover", "--max-plies", "300", "--name", "Night run", "--seed", "7",
        "--debug",
    ]  # fmt: skip
    # Only `match` is translated; the arbiter's own spellings pass through.
    assert translate_command_line(["play", "-engine"]) == ["play", "-engine"]
    assert translate_command_line(["match", "a", "b", "--games", "4"]) == ["match", "a", "b", "--games", "4"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-openings", "order=random"], "-openings needs file="),
        (["-openings", "file=x", "format=bin"], "formats: pgn"),
        (["-draw", "movecount=3", "colour=white"], "unknown setting colour="),
        (["-repeat", "4"], "repeated twice"),
        (["-engine"], "-engine needs key=value settings"),
        (["-pgnout", "file=games.pgn", "colour=white"], "unknown setting colour="),
        (["-pgnout", "file="], "-pgnout file= needs a file name"),
        (["-resign", "movecount=3", "score=500", "twosided=yes"], "twosided= is true or false"),
        # Options of the chess harnesses it does not read, and its own given one dash, are named; Typer
        # would only say "No such option: -o".
        (["-engine", "cmd=a", "-output", "format=cutechess"], "-output: not an option of `arbiter match`"),
        (["-noswap"], "-noswap: not an option"),
        (["-db", "m.sqlite"], "-db: not an option of `arbiter match`. Its own options take two dashes"),
    ],
)
def test_cutechess_spellings_that_cannot_be_followed_are_refused_by_name(
    args: list[str], message: str
) -> None:
    with pytest.raises(CutechessArgsError, match=message):
        translate(args)


@pytest.mark.parametrize(
    "settings",
    [["file=games.pgn", "format=pgn"], ["file=book.txt", "format=pdn"], ["file=games.pgn"]],
)
def test_an_opening_file_of_games_not_named_pdn_is_refused_saying_to_rename_it(settings: list[str]) -> None:
    """Games are read from a .pdn file only: any other name is read one opening a line, and the --plies
    the translation added was refused, an option the user never gave."""
    with pytest.raises(CutechessArgsError, match=r"^-openings file=.*: PDN games are read from a file whose"):
        translate(["-openings", *settings])
    assert translate(["-openings", "file=games.pdn", "format=pgn"]) == [
        "--openings",
        "games.pdn",
        "--plies",
        "1000",
    ]


def test_a_misnamed_opening_file_of_games_stops_the_match_before_anything_is_stored(tmp_path: Path) -> None:
    (tmp_path / "games.pgn").write_text(OPENINGS_PDN.read_text())
    result = arbiter(
        "match", "-engine", "cmd=random", "-engine", "cmd=greedy", "-each", "tc=depth=1",
        "-openings", "file=games.pgn", "format=pgn", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 2
    assert "-openings file=games.pgn format=pgn: PDN games are read from a file whose name ends in .pdn" in (
        result.stderr
    )
    assert "--plies" not in result.stderr and not (tmp_path / "match.sqlite").exists()


@pytest.mark.parametrize("policy", ["round", "encounter"])
def test_an_opening_policy_that_shares_openings_is_refused_pointing_to_repeat(policy: str) -> None:
    """cutechess-cli's policy=round gives the games of a round one opening; without -repeat each game
    gets the next one, so the setting would not apply."""
    with pytest.raises(CutechessArgsError, match=rf"-openings policy={policy}: .*give -repeat"):
        translate(["-openings", "file=games.pdn", f"policy={policy}"])
    assert translate(["-openings", "file=o.txt", "policy=default"]) == ["--openings", "o.txt"]


@pytest.mark.parametrize("word", ["ponder", "trust", "whitepov"])
def test_a_one_word_cutechess_engine_setting_is_refused_by_name_not_taken_for_an_engine(word: str) -> None:
    """`-each tc=10 ponder` was read as a third engine named `ponder` (\"a match needs two engines, got
    3\")."""
    with pytest.raises(CutechessArgsError, match=rf"^-each {word}: a cutechess-cli engine setting"):
        translate(["-engine", "cmd=a", "-engine", "cmd=b", "-each", "tc=10", word])
    with pytest.raises(CutechessArgsError, match=rf"^-engine {word}: "):
        translate(["-engine", "cmd=a", word, "-engine", "cmd=b"])


def test_maxmoves_0_sets_no_length_limit_as_in_cutechess() -> None:
    # It was --max-plies 0, refused naming an option the user never gave.
    assert translate(["-maxmoves", "0", "-rounds", "2"]) == ["--rounds", "2"]
    assert translate(["-maxmoves", "75"]) == ["--max-plies", "150"]


def test_fastchess_s_roundrobin_is_a_match_and_other_tournament_types_name_the_tournament_file() -> None:
    assert translate(["-tournament", "roundrobin"]) == translate(["-tournament", "round-robin"]) == []
    with pytest.raises(CutechessArgsError, match=r"-tournament gauntlet: .*format = .*`arbiter run`"):
        translate(["-tournament", "gauntlet"])


@pytest.mark.parametrize(
    ("args", "instead"),
    [
        (["-report", "penta=true"], "pentanomial"),
        (["-use-affinity"], "not pinned to CPUs"),
        (["-output", "format=cutechess"], "--json FILE"),
        (["-config", "file=config.json"], "running the same command again goes on where it stopped"),
        (["-randomseed"], "-srand N"),
        (["-pgnin", "book.pgn"], "-openings file=F"),
    ],
)
def test_a_harness_option_the_arbiter_does_not_read_is_refused_saying_what_does_its_work(
    args: list[str], instead: str
) -> None:
    """`-report: not an option ... its own options take two dashes` led to `--report penta=true`, which
    writes the site into a folder named penta=true."""
    with pytest.raises(
        CutechessArgsError, match=rf"^{args[0]}: not an option of `arbiter match`: .*{instead}"
    ):
        translate(["-engine", "cmd=a", *args])


def test_every_cutechess_option_match_reads_is_named_in_its_help(tmp_path: Path) -> None:
    shown = arbiter("match", "--help", cwd=tmp_path).stdout
    missing = [option for option in OPTIONS_READ if not re.search(rf"(?<![-\w]){option}\b", shown)]
    assert not missing, missing


def test_resign_is_one_sided_as_in_cutechess_unless_twosided_is_true() -> None:
    """cutechess-cli and fastchess resign a game on the losing engine's own scores alone by default."""
    resign = ["-resign", "movecount=3", "score=500"]
    one_sided = ["--adjudicate-win", "500:3", "--adjudicate-win-one-sided"]
    assert translate(resign) == translate([*resign, "twosided=false"]) == one_sided
    assert translate([*resign, "twosided=true"]) == ["--adjudicate-win", "500:3"]


def test_fastchess_pgnout_names_its_file_with_file_and_its_move_details_are_left_to_the_pdn() -> None:
    args = ["-pgnout", "file=games.pgn", "notation=san", "nodes=true", "min=true", "-rounds", "2"]
    assert translate(args) == ["--pdn-out", "games.pgn", "--rounds", "2"]
    assert translate(["-pdnout", "file=g.pdn"]) == ["--pdn-out", "g.pdn"]


def test_words_that_only_look_like_foreign_options_pass_through_to_typer() -> None:
    # A value of one of the arbiter's own options, and a short option with its value attached.
    assert translate(["--name", "-odd-", "-c2", "-n", "4"]) == ["--name", "-odd-", "-c2", "-n", "4"]


@pytest.mark.parametrize(
    ("given", "clock"),
    [
        # cutechess-cli's MINUTES:SECONDS and 0 moves (all of them: test_clock_timecontrol)
        ("1:30+1", "90+1"),
        ("0/60+0.5", "60+0.5"),
        ("50/7200:25/3600", "50/7200:25/3600"),  # two of the arbiter's stages: no minutes there
        ("st=0.2", "st=0.2"),
    ],
)
def test_an_engine_s_tc_reads_cutechess_minutes_and_seconds(given: str, clock: str) -> None:
    (spec, _) = command_line_engines([f"cmd=random tc={given}", "greedy"])
    assert spec.time_control == clock


def test_fastchess_args_gives_the_engine_its_arguments_split_as_a_shell_would() -> None:
    (spec, _) = command_line_engines(["cmd=./engine args='--hub --threads 2' arg=last", "greedy"])
    assert spec.config.command == ["./engine", "last", "--hub", "--threads", "2"]


def test_an_unknown_engine_setting_is_refused_with_each_too_not_taken_for_a_command(tmp_path: Path) -> None:
    # With -each, the engine's words were once read as a command line: 'cannot start cmd=./e'.
    result = arbiter(
        "match", "-engine", "cmd=./e", "argz=1", "-engine", "cmd=greedy", "-each", "tc=depth=1", cwd=tmp_path
    )  # fmt: skip
    assert result.returncode == 2
    assert "unknown setting argz=; keys: cmd, arg, args" in result.stderr
    assert not (tmp_path / "match.sqlite").exists()


@pytest.mark.parametrize(
    ("setting", "instead"),
    [
        ("restart=on", "reuse_engines = false"),
        ("stderr=e.log", "stderr is kept in the logs folder"),
        ("book=book.bin", "-openings file=F"),
        ("initstr=x", "option.NAME=VALUE"),
    ],
)
def test_a_cutechess_engine_setting_the_arbiter_does_not_take_says_what_does_its_work(
    setting: str, instead: str
) -> None:
    with pytest.raises(
        EngineSpecError, match=rf"unknown setting {setting.split('=')[0]}=, a cutechess-cli .*{instead}"
    ):
        parse_each(f"tc=10 {setting}")
    with pytest.raises(EngineSpecError, match=rf"unknown setting .*{instead}"):
        command_line_engines([f"cmd=random {setting}", "greedy"])


@pytest.mark.parametrize("engine", ["conf=stockfish", "restart=off cmd=random", "conf=sf tc=60"])
def test_a_cutechess_engine_setting_given_first_is_told_as_a_setting_not_run_as_a_command(
    engine: str,
) -> None:
    # cutechess-cli's `-engine conf=NAME` (an engine of its engines.json) is a setting, not a program.
    with pytest.raises(EngineSpecError, match=r"unknown setting (conf|restart)=, a cutechess-cli setting"):
        command_line_engines([engine, "greedy"])


def test_an_engine_s_timeouts_settings_set_its_waits_as_a_tournament_file_s_engines_timeouts_do() -> None:
    (slow, other) = command_line_engines(["cmd=random timeouts.handshake=60 timeouts.ready=120", "greedy"])
    assert (slow.config.timeouts.handshake, slow.config.timeouts.ready) == (60.0, 120.0)
    assert other.config.timeouts.handshake == 10.0, "the other engine keeps the default"
    (first, second) = command_line_engines(["random", "greedy"], each=parse_each("timeouts.quit=7.5"))
    assert first.config.timeouts.quit == second.config.timeouts.quit == 7.5
    assert "timeouts" in first.entry(), "stored with the event's engines"


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ("timeouts.hand=5", "timeouts.hand=: no such timeout; timeouts: handshake, ready"),
        ("timeouts.ready=soon", "timeouts.ready=soon: give seconds"),
        ("timeouts.ready=0", "timeouts.ready: Input should be greater than 0"),
        ("timeouts.quit=inf", "timeouts.quit: inf seconds: give a finite wait"),
    ],
)
def test_a_wrong_timeouts_setting_is_refused_naming_it_in_the_engine_and_in_each(
    setting: str, said: str
) -> None:
    with pytest.raises(EngineSpecError, match=rf"^engine 'random': .*{re.escape(said)}"):
        command_line_engines([f"cmd=random {setting}", "greedy"])
    with pytest.raises(EngineSpecError, match=rf"^--each .*{re.escape(said)}"):
        parse_each(setting)


def test_a_slow_starting_engine_is_refused_saying_which_setting_waits_longer_and_plays_with_it(
    tmp_path: Path,
) -> None:
    slow = f"cmd={sys.executable} arg={ENGINES / 'slow_start.py'} arg=1.5 name=Slow"
    match = ["match", "--engine", "random", "--tc", "depth=1", "--games", "1", "--max-plies", "10"]
    refused = arbiter(*match, "--engine", f"{slow} timeouts.handshake=0.5", "--db", "a.sqlite", cwd=tmp_path)
    assert refused.returncode == 1
    assert "engine 'Slow': no wait within 0.5 s after hub" in refused.stderr
    assert "to wait longer: timeouts.handshake=SECONDS in the engine's settings" in refused.stderr
    assert not (tmp_path / "a.sqlite").exists()
    played = arbiter(*match, "--engine", f"{slow} timeouts.handshake=5", "--db", "b.sqlite", cwd=tmp_path)
    assert played.returncode == 0, played.stdout + played.stderr
    assert "finished: 1/1 games in b.sqlite" in played.stdout


def test_tc_inf_takes_its_limit_from_depth_or_nodes_and_alone_is_refused() -> None:
    (spec, _) = command_line_engines(["cmd=random tc=inf depth=3", "greedy"])
    assert spec.time_control == "depth=3"
    with pytest.raises(EngineSpecError, match="tc=inf: an engine with no clock needs a limit of its own"):
        command_line_engines(["cmd=random tc=inf", "greedy"])


@pytest.mark.parametrize(
    ("setting", "told"),
    [
        ("tc=inf", "tc=inf: an engine with no clock needs a limit of its own: depth=N or nodes=N"),
        ("timemargin=soon", "timemargin='soon' is not a number of milliseconds"),
    ],
)
def test_an_engine_s_unusable_clock_setting_is_refused_naming_the_engine(
    setting: str, told: str, tmp_path: Path
) -> None:
    result = arbiter("match", f"cmd=random name=A {setting}", "greedy", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: engine 'A': {told}"), result.stderr
    assert not (tmp_path / "match.sqlite").exists()


@pytest.mark.parametrize(
    ("engine", "each", "told"),
    [
        # cutechess-cli: st= "can't be used in combination with tc"; fastchess refuses it. A depth= or
        # nodes= limit under a clock, which those two combine, is no time control of the arbiter's.
        ("cmd=random name=A tc=60 st=1", None, "engine 'A': tc=60 and st=1 are two time controls"),
        ("cmd=random name=A tc=1:00 depth=3", None, "engine 'A': tc=1:00 and depth=3 are two"),
        ("cmd=random name=A st=1 nodes=500", None, "engine 'A': st=1 and nodes=500 are two"),
        ("cmd=random name=A tc=inf depth=3 nodes=500", None, "engine 'A': depth=3 and nodes=500 are two"),
        ("cmd=random name=A tc=inf", "st=1 depth=3", "--each st=1 and --each depth=3 are two"),
    ],
)
def test_two_time_controls_for_one_engine_are_refused_naming_both_and_the_engine(
    engine: str, each: str | None, told: str
) -> None:
    with pytest.raises(EngineSpecError) as refused:
        command_line_engines([engine, "greedy"], each=parse_each(each) if each is not None else None)
    assert str(refused.value).startswith(told), refused.value
    assert "an engine plays under one: give one of them" in str(refused.value)


def test_two_time_controls_for_one_engine_stop_the_match_before_anything_is_stored(tmp_path: Path) -> None:
    result = arbiter("match", "--engine", "cmd=random tc=60 st=1", "--engine", "cmd=greedy", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("error: engine 'random': tc=60 and st=1 are two time controls")
    assert not (tmp_path / "match.sqlite").exists()


def test_an_opening_start_past_the_deck_is_refused_by_its_option_before_anything_is_stored(
    tmp_path: Path,
) -> None:
    ran = arbiter(
        "match", "random", "greedy", "--openings", "acf-156", "--opening-start", "500", "--games", "2",
        "--db", "m.sqlite", cwd=tmp_path,
    )  # fmt: skip
    assert ran.returncode == 2, ran.stderr
    assert "error: --opening-start: 500 is past the last of the 156 opening(s) acf-156 holds" in ran.stderr
    assert "Traceback" not in ran.stderr
    assert not (tmp_path / "m.sqlite").exists()


def test_an_engine_s_own_time_control_outranks_every_clock_setting_of_each(tmp_path: Path) -> None:
    # Its own tc= once lost to --each st= (a limit outranked tc=, wherever it came from).
    own_tc, other = command_line_engines(["cmd=random tc=60", "greedy"], each=parse_each("st=1"))
    assert (own_tc.time_control, other.time_control) == ("60", "st=1")
    own_st, other = command_line_engines(["cmd=random st=1", "greedy"], each=parse_each("tc=60"))
    assert (own_st.time_control, other.time_control) == ("st=1", "60")
    # tc=inf is no clock: the engine takes --each's limit, and --each's tc=inf goes with the engines' own.
    no_clock, other = command_line_engines(["cmd=random tc=inf", "greedy"], each=parse_each("depth=2"))
    assert (no_clock.time_control, other.time_control) == ("depth=2", "depth=2")
    both_own = command_line_engines(["cmd=random depth=2", "cmd=greedy nodes=9"], each=parse_each("tc=inf"))
    assert [spec.time_control for spec in both_own] == ["depth=2", "nodes=9"]
    played = arbiter(
        "match", "--engine", "cmd=random name=A tc=60", "--engine", "cmd=greedy", "--each", "st=0.2",
        "--games", "1", "--max-plies", "2", cwd=tmp_path,
    )  # fmt: skip
    assert played.returncode == 0, played.stdout + played.stderr
    with TournamentStore.open(tmp_path / "match.sqlite", create=False) as store:
        (info,) = store.tournaments()
        assert (info.config()["time_control"], info.config()["time_controls"]) == ("60", {"greedy": "st=0.2"})


def test_a_clock_of_each_that_neither_engine_plays_under_is_refused(tmp_path: Path) -> None:
    result = arbiter(
        "match", "--engine", "cmd=random depth=2", "--engine", "cmd=greedy tc=60", "--each", "st=1",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.startswith(
        "error: --each st=1 is played by neither engine: each has a time control of its own "
        "(engine 'random': depth=2, engine 'greedy': tc=60)"
    ), result.stderr
    assert not (tmp_path / "match.sqlite").exists()


def test_an_engine_s_unreadable_tc_is_told_as_its_own_setting_not_as_the_tc_option(tmp_path: Path) -> None:
    result = arbiter("match", "--engine", "cmd=random tc=abc", "--engine", "cmd=greedy", cwd=tmp_path)
    assert result.returncode == 2
    first_line = result.stderr.splitlines()[0]
    assert first_line.startswith("error: engine 'random': tc=abc: bad time control 'abc': 'abc' is not")
    assert "--tc" not in result.stderr
    assert not (tmp_path / "match.sqlite").exists()


@pytest.mark.parametrize(
    ("each", "told"),
    [
        ("tc=abc", "--each tc=abc: bad time control 'abc': 'abc' is not a stage"),
        ("proto=hub st=soon", "--each st=soon: bad time control 'st=soon': st= needs a number"),
        ("timemargin=soon", "--each timemargin='soon' is not a number of milliseconds"),
        ("argz=1", "--each 'argz=1': unknown setting argz=; keys: cmd, arg"),
    ],
)
def test_a_bad_each_setting_is_told_as_each_s_not_as_the_first_engine_s(
    each: str, told: str, tmp_path: Path
) -> None:
    result = arbiter("match", "cmd=random name=A", "greedy", "--each", each, cwd=tmp_path)
    assert result.returncode == 2
    first_line = result.stderr.splitlines()[0]
    assert first_line.startswith(f"error: {told}"), result.stderr
    assert "engine" not in first_line
    assert not (tmp_path / "match.sqlite").exists()


@pytest.mark.parametrize("engines", [["random", "greedy"], ["cmd=random name=A", "cmd=greedy name=B"]])
def test_a_name_in_each_is_refused_as_one_name_cannot_name_every_engine(
    engines: list[str], tmp_path: Path
) -> None:
    # Neither X and X-2 (engines without names of their own) nor A and B with X left unused.
    result = arbiter("match", *engines, "--tc", "depth=1", "--each", "name=X", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith(
        "error: --each name=X: one name cannot name every engine; give each its own in its --engine settings"
    ), result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "match.sqlite").exists()


@pytest.mark.parametrize("margin", ["-5", "soon", "inf"])
def test_a_timemargin_that_is_no_count_of_milliseconds_is_refused_by_name(margin: str) -> None:
    with pytest.raises(EngineSpecError, match=f"timemargin='{margin}' is not a number of milliseconds"):
        command_line_engines([f"cmd=random timemargin={margin}", "greedy"])


def test_a_cutechess_command_line_plays_the_match_it_describes(tmp_path: Path) -> None:
    result = arbiter(
        "match",
        "-engine", "cmd=alphabeta", "name=AB",
        "-engine", "cmd=greedy",
        "-each", "tc=depth=1",
        "-rounds", "2", "-games", "2", "-repeat", "-concurrency", "2",
        "-openings", f"file={OPENINGS_PDN}", "format=pdn", "order=sequential", "plies=2", "start=2",
        "-pgnout", "out.pdn",
        "-draw", "movenumber=30", "movecount=5", "score=5",
        "-resign", "movecount=3", "score=900",
        "-ratinginterval", "2", "-recover", "-event", "Cute",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    with TournamentStore.open(tmp_path / "match.sqlite", create=False) as store:
        (info,) = store.tournaments()
        config = info.config()
        assert info.name == "Cute" and info.finished_games == 4
        assert [engine["name"] for engine in config["engines"]] == ["AB", "greedy"]
    assert (config["cycles"], config["games_per_encounter"], config["repeat"], config["concurrency"]) == (
        2,
        2,
        True,
        2,
    )
    assert config["time_control"] == "depth=1"
    assert (config["openings"]["start"], config["openings"]["plies"]) == (2, 2)
    adjudication = config["adjudication"]
    draw = (adjudication["draw_score"], adjudication["draw_moves"], adjudication["draw_min_plies"])
    assert draw == (5, 5, 60)
    assert (adjudication["win_score"], adjudication["win_moves"]) == (900, 3)
    assert adjudication["win_two_sided"] is False  # cutechess-cli's -resign: the loser's own scores
    assert (tmp_path / "out.pdn").read_text().count("[Event ") == 4
    # fastchess's spelling of the same file (`-pgnout file=F notation=san`): the file F, not `file=F`.
    again = arbiter(
        "match", "-engine", "cmd=alphabeta", "name=AB", "-engine", "cmd=greedy", "-each", "tc=depth=1",
        "-rounds", "2", "-games", "2", "-repeat", "-concurrency", "2",
        "-openings", f"file={OPENINGS_PDN}", "format=pdn", "order=sequential", "plies=2", "start=2",
        "-pgnout", "file=fast.pdn", "notation=san", "-draw", "movenumber=30", "movecount=5", "score=5",
        "-resign", "movecount=3", "score=900", "-ratinginterval", "2", "-recover", "-event", "Cute",
        cwd=tmp_path,
    )  # fmt: skip
    assert again.returncode == 0, again.stdout + again.stderr
    assert (tmp_path / "fast.pdn").read_text().count("[Event ") == 4
    # cutechess's minutes and seconds: a game under 0:03+0.05 is a game under 3 s and 0.05 s a move.
    clocked = arbiter(
        "match", "-engine", "cmd=random", "-engine", "cmd=greedy", "-each", "tc=0:03+0.05", "-games", "1",
        "-maxmoves", "5", "--db", "clocked.sqlite", cwd=tmp_path,
    )  # fmt: skip
    assert clocked.returncode == 0, clocked.stdout + clocked.stderr
    with TournamentStore.open(tmp_path / "clocked.sqlite", create=False) as store:
        (info,) = store.tournaments()
        assert info.config()["time_control"] == "3+0.05"
    assert not (tmp_path / "file=fast.pdn").exists()
    # Progress every second game: the running score of the first engine, its Elo, the games left.
    progress = [line for line in result.stdout.splitlines() if line.startswith("done ")]
    assert len(progress) == 2 and progress[0].startswith("done 2/4, left 2, AB +")


def test_a_mistyped_engine_stops_the_match_before_anything_is_stored_and_the_corrected_command_runs(
    tmp_path: Path,
) -> None:
    wrong = arbiter("match", "./nope", "alphabeta", "--tc", "depth=1", "--games", "2", cwd=tmp_path)
    assert wrong.returncode == 1
    assert "cannot start './nope'" in wrong.stderr and "nothing was played or stored" in wrong.stderr
    assert not (tmp_path / "match.sqlite").exists()
    right = arbiter("match", "random", "alphabeta", "--tc", "depth=1", "--games", "2", cwd=tmp_path)
    assert right.returncode == 0, right.stdout + right.stderr
    assert "finished: 2/2 games" in right.stdout


def test_openings_that_are_neither_a_file_nor_a_deck_are_named_before_anything_is_stored(
    tmp_path: Path,
) -> None:
    wrong = arbiter("match", "random", "greedy", "--openings", "ballots.pdn", "--tc", "depth=1", cwd=tmp_path)
    assert wrong.returncode == 2
    assert f"--openings ballots.pdn: no such file (from {tmp_path})" in wrong.stderr
    assert "no deck of that name (decks: acf-144, acf-156" in wrong.stderr
    assert not (tmp_path / "match.sqlite").exists()
    deck = arbiter("match", "random", "greedy", "--openings", "ACF-156", "--tc", "depth=1", cwd=tmp_path)
    assert deck.returncode == 0, deck.stdout + deck.stderr


def test_output_files_that_cannot_be_written_are_refused_before_the_first_game(tmp_path: Path) -> None:
    (tmp_path / "a folder").mkdir()
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder\n")
    result = arbiter(
        "match", "random", "greedy", "--tc", "depth=1", "--games", "1",
        "--pdn-out", str(blocked / "games.pdn"), "--json", "a folder", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 2
    assert f"error: --pdn-out {blocked / 'games.pdn'}: {blocked} is a file, not a folder" in result.stderr
    assert "error: --json a folder: a folder, not a file" in result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a file", "a folder"], "no database, no logs"
    # Folders that do not exist yet are made, as writing the files does.
    fine = arbiter(
        "match", "random", "greedy", "--tc", "depth=1", "--games", "1", "--max-plies", "10",
        "--pdn-out", "out/games.pdn", "--json", "out/games.json", cwd=tmp_path,
    )  # fmt: skip
    assert fine.returncode == 0, fine.stdout + fine.stderr
    assert (tmp_path / "out" / "games.pdn").is_file() and (tmp_path / "out" / "games.json").is_file()
    assert [path.name for path in (tmp_path / "out").iterdir() if path.name.startswith(".")] == []


def test_a_pdn_out_file_holding_other_games_is_refused_before_the_first_game_and_kept(tmp_path: Path) -> None:
    match = ["match", "random", "greedy", "--tc", "depth=1", "--games", "1", "--max-plies", "10"]
    first = arbiter(*match, "--name", 'The "first" one', "--pdn-out", "games.pdn", cwd=tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    written = (tmp_path / "games.pdn").read_bytes()
    # The same event run again (here: already finished) writes its games over its own earlier copy.
    again = arbiter(*match, "--name", 'The "first" one', "--pdn-out", "games.pdn", cwd=tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "1 game(s) written to games.pdn" in again.stdout
    # Another event is refused before anything is played: the first event's games stay in the file.
    another = ["--name", "Another", "--db", "other.sqlite"]
    other = arbiter(*match, *another, "--pdn-out", "games.pdn", cwd=tmp_path)
    assert other.returncode == 2
    assert "error: --pdn-out games.pdn: it holds games of another event ('The \"first\" one')" in other.stderr
    assert "Traceback" not in other.stderr
    assert (tmp_path / "games.pdn").read_bytes() == written
    assert not (tmp_path / "other.sqlite").exists()
    # So is a file that holds something else; an empty one is written.
    (tmp_path / "notes.pdn").write_text("my notes\n")
    (tmp_path / "empty.pdn").write_text("")
    notes = arbiter(*match, *another, "-pgnout", "notes.pdn", cwd=tmp_path)
    assert notes.returncode == 2 and "it holds text that is not this event's games" in notes.stderr
    assert (tmp_path / "notes.pdn").read_text() == "my notes\n"
    empty = arbiter(*match, *another, "-pgnout", "empty.pdn", cwd=tmp_path)
    assert empty.returncode == 0, empty.stdout + empty.stderr
    assert '[Event "Another"]' in (tmp_path / "empty.pdn").read_text()


def test_a_match_refused_before_its_first_game_makes_no_folder_and_keeps_those_that_existed(
    tmp_path: Path,
) -> None:
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "notes.txt").write_text("mine\n")
    outputs = ["--pdn-out", "out/games.pdn", "--json", "lines/games.json"]
    for report in ("site/deep", "kept"):
        wrong = arbiter(
            "match", "./nope", "random", "--tc", "depth=1", "--games", "1", "--report", report, *outputs,
            cwd=tmp_path,
        )  # fmt: skip
        assert wrong.returncode == 1 and "cannot start './nope'" in wrong.stderr
        assert not (tmp_path / "site").exists(), "the report folder is made when the games start"
        assert not (tmp_path / "out").exists() and not (tmp_path / "lines").exists()
        assert sorted(path.name for path in kept.iterdir()) == ["notes.txt"]
    right = arbiter(
        "match", "greedy", "random", "--tc", "depth=1", "--games", "1", "--max-plies", "10",
        "--report", "site/deep", *outputs, cwd=tmp_path,
    )  # fmt: skip
    assert right.returncode == 0, right.stdout + right.stderr
    assert (tmp_path / "site" / "deep" / "index.html").is_file()
    assert (tmp_path / "out" / "games.pdn").is_file() and (tmp_path / "lines" / "games.json").is_file()


def test_an_empty_tc_is_refused_not_replaced_by_the_default(tmp_path: Path) -> None:
    result = arbiter("match", "random", "greedy", "--tc", "", cwd=tmp_path)
    assert result.returncode == 2
    assert "error: --tc: bad time control '': it is empty" in result.stderr
    assert not (tmp_path / "match.sqlite").exists()


@pytest.mark.parametrize(
    ("options", "said"),
    [
        # A sign is refused, not dropped: -5 is no margin, and as a lead it would mean the other side.
        (["--adjudicate-draw", "-5:3"], "--adjudicate-draw -5:3: SCORE must be at least 0 (centi-men)"),
        (["--adjudicate-win", "0:3"], "--adjudicate-win 0:3: SCORE must be at least 1 (centi-men)"),
        (["--adjudicate-draw", "20:0"], "--adjudicate-draw 20:0: MOVES must be at least 1"),
        # Centi-men are whole: 20.7 was cut to 20 without a word.
        (
            ["--adjudicate-draw", "20.7:3"],
            "--adjudicate-draw expects SCORE:MOVES in whole numbers such as 20:10, not '20.7:3'",
        ),
        (["--adjudicate-win-one-sided"], "--adjudicate-win-one-sided needs --adjudicate-win SCORE:MOVES"),
    ],
)
def test_an_adjudication_out_of_range_is_refused_before_the_event(
    tmp_path: Path, options: list[str], said: str
) -> None:
    result = arbiter("match", "random", "greedy", *options, cwd=tmp_path)
    assert result.returncode == 2
    assert f"error: {said}" in result.stderr
    assert not (tmp_path / "match.sqlite").exists()


def test_a_one_sided_win_adjudication_is_stored_with_the_event(tmp_path: Path) -> None:
    result = arbiter(
        "match", "random", "greedy", "--games", "1", "--tc", "depth=1", "--max-plies", "4",
        "--adjudicate-win", "500:3", "--adjudicate-win-one-sided", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    with TournamentStore.open(tmp_path / "match.sqlite", create=False) as store:
        (info,) = store.tournaments()
        adjudication = info.config()["adjudication"]
    assert (adjudication["win_score"], adjudication["win_moves"], adjudication["win_two_sided"]) == (
        500,
        3,
        False,
    )


def test_empty_openings_are_refused_by_name(tmp_path: Path) -> None:
    result = arbiter("match", "random", "greedy", "--openings", "", cwd=tmp_path)
    assert result.returncode == 2
    assert "--openings is empty; give a file or a deck (acf-144" in result.stderr


def test_repeating_a_finished_match_says_it_is_finished_shows_its_result_and_how_to_start_a_new_one(
    tmp_path: Path,
) -> None:
    command = ["match", "random", "greedy", "--tc", "depth=1", "--games", "2", "--max-plies", "40"]
    first = arbiter(*command, cwd=tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    again = arbiter(*command, cwd=tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "'random vs greedy' is already finished in match.sqlite" in again.stdout
    assert "another database (--db) or another name (--name)" in again.stdout
    # Nothing is resumed and nothing is to play: no "resuming: 2 of 2 games already played, 0 to play".
    assert "Standings" in again.stdout and "to play" not in again.stdout and "resuming" not in again.stdout
    with TournamentStore.open(tmp_path / "match.sqlite", create=False) as store:
        (info,) = store.tournaments()
        assert info.finished_games == 2


@pytest.mark.parametrize(
    "sprt",
    [
        ["elo0=-1", "elo1=50", "alpha=0.1", "beta=0.2", "model=normalized"],
        ["elo0=-1 elo1=50 alpha=0.1 beta=0.2 model=normalized"],
        ["elo0=-1", "elo1=50 alpha=0.1", "beta=0.2 model=normalized"],
    ],
)
def test_sprt_settings_after_engines_given_by_option_are_the_sprt_s(tmp_path: Path, sprt: list[str]) -> None:
    # With both engines given by --engine, `--sprt elo0=0 elo1=50 alpha=0.1 ...` was refused: elo1=50
    # and alpha=0.1 were taken for the two engines ("a match needs two engines ..., got 4").
    engines = ["--engine", "cmd=random name=one", "--engine", "cmd=random name=two"]
    result = arbiter("match", *engines, "--max-plies", "2", "--sprt", *sprt, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "elo0=-1 elo1=50 alpha=0.1 beta=0.2 model=normalized" in result.stdout
    with TournamentStore.open(tmp_path / "match.sqlite", create=False) as store:
        (info,) = store.tournaments()
        assert info.config()["sprt"] == {
            "elo0": -1.0, "elo1": 50.0, "alpha": 0.1, "beta": 0.2, "model": "normalized"
        }  # fmt: skip
        assert info.finished_games == 2


def test_a_word_after_the_sprt_settings_that_is_no_setting_is_refused_by_name(tmp_path: Path) -> None:
    result = arbiter("match", "random", "--sprt", "elo0=0", "elo1=5", "random", cwd=tmp_path)
    assert result.returncode == 2
    assert "unexpected argument 'random' (after --sprt, settings such as elo1=10)" in result.stderr
    assert not (tmp_path / "match.sqlite").exists()


def test_a_hub_version_1_engine_stops_the_match_before_anything_is_stored(tmp_path: Path) -> None:
    hub1 = f"cmd={sys.executable} arg={ENGINES / 'hub1_engine.py'} name=Old"
    result = arbiter("match", "--engine", hub1, "--engine", "cmd=random", "--tc", "depth=1", cwd=tmp_path)
    assert result.returncode == 1
    assert "'Old'" in result.stderr and "speaks Hub version 1" in result.stderr
    assert "last lines exchanged" in result.stderr and "Old < name Hub1Test 2.0" in result.stderr
    assert not (tmp_path / "match.sqlite").exists()


def test_debug_logs_and_stderr_logs_live_beside_the_database_named_by_engine_and_game(tmp_path: Path) -> None:
    work, data = tmp_path / "work", tmp_path / "data"
    work.mkdir()
    database = data / "m.sqlite"
    result = arbiter(
        "match", "random", "greedy", "--tc", "depth=1", "--games", "2", "--max-plies", "20",
        "--db", str(database), "--debug", "--json", str(data / "games.jsonl"),
        cwd=work,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert list(work.iterdir()) == []  # nothing in the folder the command ran in
    logs = data / "m-logs"
    names = sorted(path.name for path in logs.iterdir())
    assert "random.debug.log" in names and "greedy.debug.log" in names
    assert "random-game-r1-b1-g1.stderr.log" in names and "random-preflight.stderr.log" in names
    debug = (logs / "random.debug.log").read_text().splitlines()
    assert any(" game r1-b1-g2 random > go think" in line for line in debug)
    assert any(" game r1-b1-g1 random < done move=" in line for line in debug)
    assert any(" preflight random > hub" in line for line in debug)
    games = [json.loads(line) for line in (data / "games.jsonl").read_text().splitlines()]
    assert [game["game"] for game in games] == ["r1-b1-g1", "r1-b1-g2"]
    assert {game["white"] for game in games} == {"random", "greedy"}
    assert all(game["winner"] in ("white", "black", "draw") and game["reason"] for game in games)
    # Not a terminal: one line a game, with the running score and the games left.
    assert "done 1/2, left 1, random " in result.stdout


def test_json_lines_on_stdout_are_all_stdout_holds_the_rest_goes_to_stderr(tmp_path: Path) -> None:
    # `--json -` is for a pipe (`arbiter match ... --json - | jq`): a progress line or a table among the
    # JSON lines would stop the program reading them at the first line.
    result = arbiter(
        "match", "random", "greedy", "--tc", "depth=1", "--games", "4", "--max-plies", "20",
        "--rating-interval", "2", "--pdn-out", "games.pdn", "--json", "-", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    games = [json.loads(line) for line in result.stdout.splitlines()]
    assert sorted(game["game"] for game in games) == ["r1-b1-g1", "r1-b1-g2", "r1-b1-g3", "r1-b1-g4"]
    # What a person reads is all still there, on stderr: progress, rating lines, standings, the PDN file.
    assert "4 games to play" in result.stderr and "done 2/4, left 2, random " in result.stderr
    assert "Standings" in result.stderr and "finished: 4/4 games" in result.stderr
    assert "4 game(s) written to games.pdn" in result.stderr


def test_the_version_is_printed() -> None:
    result = subprocess.run([*ARBITER, "--version"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.startswith("arbiter 0.")


def test_python_dash_m_arbiter_is_the_arbiter_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "arbiter", "--version"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 and result.stdout.startswith("arbiter 0.")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def dxp_engine(*words: str) -> str:
    script = ENGINES / "dxp_follower.py"
    return f"cmd={sys.executable} arg={script} proto=dxp " + " ".join(words)


def test_a_fixed_dxp_port_with_concurrent_games_is_refused_before_the_event(tmp_path: Path) -> None:
    port = str(free_port())
    engine = dxp_engine("arg=--listen", f"arg={port}", f"port={port}", "name=Fixed")
    result = arbiter(
        "match", "--engine", engine, "--engine", "cmd=alphabeta", "-v", "international",
        "--tc", "300", "--concurrency", "2", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 2, "a configuration error"
    assert f"'Fixed' listens on the fixed DXP port {port}, but 2 games are played at a time" in result.stderr
    assert not (tmp_path / "match.sqlite").exists()
    assert "engine logs" not in result.stderr, "no engine was started: there are no logs to point to"


def test_a_dxp_clock_shorter_than_a_minute_is_refused_before_the_event(tmp_path: Path) -> None:
    engine = dxp_engine("arg=--listen", "arg={port}", "name=Quick")
    result = arbiter(
        "match", "--engine", engine, "--engine", "cmd=alphabeta", "-v", "international", "--tc", "20",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 2, "a configuration error"
    assert "DXP announces whole minutes: a clock of 20 s cannot be announced" in result.stderr
    assert not (tmp_path / "match.sqlite").exists()


def test_a_dxp_engine_on_a_fixed_port_is_stored_under_the_name_it_gives(tmp_path: Path) -> None:
    port = str(free_port())
    engine = dxp_engine("arg=--listen", f"arg={port}", f"port={port}", "arg=--name", "arg=Moby", "name=D")
    result = arbiter(
        "match", "--engine", engine, "--engine", "cmd=random", "-v", "international", "--tc", "90",
        "--games", "1", "--max-plies", "2", cwd=tmp_path,
    )  # fmt: skip
    assert "announced as 1 minute(s), rounded down" in result.stderr  # 90 s: never more than there is
    assert result.returncode == 0, result.stdout + result.stderr
    with TournamentStore.open(tmp_path / "match.sqlite", create=False) as store:
        (info,) = store.tournaments()
        identities = {e.name: e.identity.name if e.identity else None for e in store.engines(info.id)}
    assert identities["D"] == "Moby"


def test_a_tournament_whose_engine_cannot_start_stops_before_its_database_exists(tmp_path: Path) -> None:
    missing = '[[engines]]\nname = "typo"\ncommand = ["./no-such-engine"]\n'
    path = tmp_path / "t.toml"
    path.write_text(
        'name = "t"\ndatabase = "t.sqlite"\ntime_control = "depth=1"\n'
        f'[[engines]]\nname = "random"\nbundled = "random"\n{missing}'
    )
    result = arbiter("run", str(path), cwd=tmp_path)
    assert result.returncode == 1
    assert "engine 'typo': cannot start './no-such-engine'" in result.stderr
    assert not (tmp_path / "t.sqlite").exists()


def test_each_engine_plays_under_its_own_time_control_when_given_one(tmp_path: Path) -> None:
    result = arbiter(
        "match", "-engine", "cmd=random", "tc=st=0.2", "-engine", "cmd=greedy", "tc=depth=1",
        "-games", "2", "-maxmoves", "5", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    with TournamentStore.open(tmp_path / "match.sqlite", create=False) as store:
        (info,) = store.tournaments()
        config = info.config()
        assert (config["time_control"], config["time_controls"]) == ("st=0.2", {"greedy": "depth=1"})
        controls = {(game.record.white.name, game.record.time_control) for game in store.games(info.id)}
    assert controls == {
        ("random", "st=0.2 (White), depth=1 (Black)"),
        ("greedy", "depth=1 (White), st=0.2 (Black)"),
    }


def test_an_engine_s_timemargin_is_the_margin_of_the_clock_it_plays_under(tmp_path: Path) -> None:
    # Its third move comes 0.4 s after go: lost under st=0.3 alone, played within a 500 ms margin.
    late = f"cmd={sys.executable} arg={ENGINES / 'scripted_player.py'} arg=--late-at arg=3 arg=--late arg=0.4"
    other = f"cmd={sys.executable} arg={ENGINES / 'scripted_player.py'} name=Other"
    common = ["--tc", "st=0.3", "--games", "1", "--max-plies", "8"]
    engine = arbiter(
        "match", *common, "--engine", f"{late} name=Late timemargin=500", "--engine", other,
        "--db", "engine.sqlite", cwd=tmp_path,
    )  # fmt: skip
    each = arbiter(
        "match", *common, "--engine", f"{late} name=Late", "--engine", other, "--each", "timemargin=500",
        "--db", "each.sqlite", cwd=tmp_path,
    )  # fmt: skip
    stored = {}
    for result, database in ((engine, "engine.sqlite"), (each, "each.sqlite")):
        assert result.returncode == 0, result.stdout + result.stderr
        with TournamentStore.open(tmp_path / database, create=False) as store:
            (info,) = store.tournaments()
            config = info.config()
            stored[database] = (config["time_control"], config["time_controls"])
            (game,) = store.games(info.id)
        assert game.record.outcome is not None
        assert game.record.outcome.termination is Termination.MAX_LENGTH, game.record.outcome.reason
    assert stored == {
        "engine.sqlite": ("st=0.3", {"Late": "st=0.3 margin=0.5"}),
        "each.sqlite": ("st=0.3 margin=0.5", {}),  # both engines play under it: it is the event's
    }


def test_a_tc_that_neither_engine_would_play_under_is_refused_naming_both_options(tmp_path: Path) -> None:
    # cutechess-cli's -each tc= is the clock: a different --tc beside it would be the event's on record
    # while every game is played under --each's.
    each = arbiter("match", "random", "greedy", "--tc", "acf scale=0.01", "--each", "tc=60+1", cwd=tmp_path)
    assert each.returncode == 2
    assert each.stderr.startswith("error: --tc 'acf scale=0.01' and --each tc=60+1 disagree")
    own = arbiter(
        "match", "--engine", "cmd=random tc=10", "--engine", "cmd=greedy st=1", "--tc", "60", cwd=tmp_path
    )  # fmt: skip
    assert own.returncode == 2
    assert own.stderr.startswith("error: --tc '60' is played by neither engine: both have a clock of")
    assert "Traceback" not in each.stderr + own.stderr
    assert not (tmp_path / "match.sqlite").exists()
    # The same clock twice, in cutechess-cli's minutes and seconds, is one clock.
    same = arbiter(
        "match", "random", "greedy", "--tc", "1+0.1", "--each", "tc=0:01+0.1", "--games", "1",
        "--max-plies", "2", cwd=tmp_path,
    )  # fmt: skip
    assert same.returncode == 0, same.stdout + same.stderr
    with TournamentStore.open(tmp_path / "match.sqlite", create=False) as store:
        (info,) = store.tournaments()
        assert (info.config()["time_control"], info.config()["time_controls"]) == ("1+0.1", {})


def test_a_match_whose_engines_cannot_be_started_for_its_games_exits_with_an_error(tmp_path: Path) -> None:
    # Both engines pass the check before the games, then never start again: no game can be played, so
    # the run is no finished event for a script reading its exit code; running it again retries them.
    engines = [
        f"cmd={sys.executable} arg={ENGINES / 'scripted_player.py'} arg=--exit-at-restart "
        f"arg={tmp_path / name} name={name}"
        for name in ("a", "b")
    ]
    command = [
        sys.executable, "-m", "arbiter.cli", "match", "--engine", engines[0], "--engine", engines[1],
        "--tc", "st=0.05", "--games", "2", "--db", "m.sqlite",
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "2 of 2 games could not be played" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_an_engine_that_cannot_begin_a_game_is_found_before_the_first_game(tmp_path: Path) -> None:
    # It passes its handshake and init and exits at `new-game`: every game it got would be forfeited.
    quitter = f"cmd={sys.executable} arg={ENGINES / 'exits_on_new_game.py'} name=quitter"
    result = arbiter("match", "--engine", quitter, "--engine", "cmd=random", "--games", "2", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "engine 'quitter'" in result.stderr and "exited with code 0" in result.stderr, result.stderr
    assert "> new-game" in result.stderr, "the last lines exchanged show where it stopped"
    assert "Traceback" not in result.stderr
    assert "nothing was played or stored" in result.stderr and not (tmp_path / "match.sqlite").exists()


def test_a_variant_an_engine_cannot_play_is_a_configuration_error_before_the_event(tmp_path: Path) -> None:
    scan_like = f"cmd={sys.executable} arg={ENGINES / 'scan_like_hub.py'} dir={tmp_path} name=scanlike"
    (tmp_path / "scan.ini").write_text("")
    result = arbiter("match", "--engine", scan_like, "--engine", "cmd=random", "-v", "english", cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "cannot play variant 'english'" in result.stderr
    assert "nothing was played or stored; engine logs:" in result.stderr


def test_each_game_s_line_gives_its_length_in_plies_one_ply_in_the_singular(tmp_path: Path) -> None:
    # The engine writing a move in chess squares loses at once: at ply 0 as Black, after one ply as White.
    bad = f"cmd={sys.executable} arg={ENGINES / 'bad_move.py'} name=Bad"
    good = f"cmd={sys.executable} arg={ENGINES / 'instant_hub.py'} name=Good"
    ran = arbiter("match", "--engine", bad, "--engine", good, "--tc", "depth=1", "--games", "2", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert re.search(r"^\[1/2\] r1-b1-g1 Good \(White\) - Bad \(Black\): .* \(0 plies\)$", ran.stdout, re.M)
    assert re.search(r"^\[2/2\] r1-b1-g2 Bad \(White\) - Good \(Black\): .* \(1 ply\)$", ran.stdout, re.M)
