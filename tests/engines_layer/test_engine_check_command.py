"""`arbiter engine check -- CMD ...` against real engine programs."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from engine_layer_support import engine_command, run_check

from arbiter.players import PLAYER_MODULES


def test_check_prints_identity_parameters_step_times_and_the_searches(tmp_path: Path) -> None:
    log = tmp_path / "instant.log"
    code, output = run_check("--log", str(log), "--", *engine_command("instant_hub.py", "--answer-captures"))
    assert code == 0, output
    assert re.search(r"^  name\s+instant$", output, re.MULTILINE)
    assert re.search(r"^  author\s+Arbiter tests$", output, re.MULTILINE)
    assert re.search(r"^  hash\s+int 1..1024\s+default '16'$", output, re.MULTILINE)
    for step in ("start", "handshake", "configure (init/ready)", "ping", "quit"):
        assert re.search(rf"^{re.escape(step)}\s+\d+\.\d{{4}} s$", output, re.MULTILINE), step
    # Without --variant: English, said so, from its start and then after the engine's own move.
    assert "variant english (the default: no --variant given), 8x8 board" in output
    assert re.search(r"^search start\s+\d", output, re.MULTILINE) and "-> 11-15 in" in output
    assert "search after 11-15" in output and "-> 23-19 in" in output
    # Then a position of random play where a capture is due: where move texts most often go wrong.
    assert re.search(
        r"^search a capture\s+\d+\.\d{4} s\n  from B:W\S+, where a capture takes 2 pieces\n  -> \d+x",
        output,
        re.M,
    )
    assert "depth 3, score 25, nodes 1234" in output  # 0.25 men, in centi-men
    assert output.rstrip().endswith("faults: none")
    assert f"stderr log: {log}" in output


def test_check_says_when_a_move_came_after_its_move_time(tmp_path: Path) -> None:
    # Its first move comes 0.5 s after a 0.2 s move time: a game under st=0.2 would be lost on time there.
    late = engine_command("late_once.py", str(tmp_path / "marker"), "0.5")
    code, output = run_check("--move-time", "0.2", "--", *late)
    assert code == 0, output
    first = output.split("search after", 1)[0]
    assert re.search(r"^  late: 0\.[5-9]\d\d s for a 0\.2 s move time; in a game under st=0\.2", first, re.M)


def test_check_without_a_variant_of_an_engine_that_has_no_english_names_the_variants_it_plays() -> None:
    # Scan's variant parameter offers normal killer bt frisian losing: the English default cannot be
    # set, and the check says which variants to name instead.
    code, output = run_check("--", *engine_command("scan_like_hub.py"))
    assert code == 2, output
    assert "cannot play variant 'english'" in output
    assert (
        "no --variant was given, so english was checked; the engine plays international, frisian, "
        "antidraughts, killer, bt: name one with --variant"
    ) in output


def test_check_with_a_variant_sets_it_and_searches_from_its_start() -> None:
    code, output = run_check(
        "--variant", "international", "--set", "hash=32", "--",
        *engine_command("instant_hub.py", "--answer-captures"),
    )  # fmt: skip
    assert code == 0, output
    assert "variant international, 10x10 board" in output
    assert "-> 32-28 in" in output and "search after 32-28" in output and "-> 19-23 in" in output


@pytest.mark.parametrize("variant", [None, "english", "international", "russian", "frisian", "turkish"])
@pytest.mark.parametrize("player", list(PLAYER_MODULES))
def test_check_finds_no_fault_in_a_bundled_engine(player: str, variant: str | None) -> None:
    chosen = ["--variant", variant] if variant is not None else []
    command = [sys.executable, "-m", PLAYER_MODULES[player]]
    code, output = run_check(*chosen, "--move-time", "0.05", "--", *command)
    assert code == 0, output
    assert output.rstrip().endswith("faults: none")
    assert f"variant {variant or 'english'}" in output
    assert re.search(r"^search after \d+[-x]\d+", output, re.MULTILINE), output


@pytest.mark.parametrize("player", list(PLAYER_MODULES))
def test_check_takes_a_bundled_engine_by_its_name_as_play_and_match_do(player: str) -> None:
    code, output = run_check("--move-time", "0.05", player)
    assert code == 0, output
    assert output.startswith(f"engine '{player}' (hub): {sys.executable} -m {PLAYER_MODULES[player]}")
    assert output.rstrip().endswith("faults: none")


def test_check_reports_a_move_the_rules_do_not_allow_and_fails() -> None:
    # The test engine plays 11-15 on every 8x8 board; in Russian draughts White moves first, from 21-32.
    code, output = run_check("--variant", "russian", "--", *engine_command("instant_hub.py"))
    assert code == 1
    assert "-> 11-15 in" in output and "ILLEGAL" in output
    assert "illegal move 11-15 in Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww" in output


def test_check_refuses_a_variant_the_rules_do_not_know() -> None:
    code, output = run_check("--variant", "chess", "--", *engine_command("instant_hub.py"))
    assert code == 2
    assert "unknown variant 'chess'" in output and "english" in output


def test_check_names_the_fault_of_a_misbehaving_engine_and_fails() -> None:
    code, output = run_check("--variant", "english", "--", *engine_command("crash_in_search.py"))
    assert code == 1
    assert re.search(r"^search start\s+FAULT crashed after", output, re.MULTILINE)
    assert "crashed: stopped unexpectedly: it was killed by SIGSEGV" in output


def test_check_refuses_a_variant_the_engine_cannot_play() -> None:
    code, output = run_check("--variant", "frisian", "--", *engine_command("instant_hub.py"))
    assert code == 2
    assert "cannot play variant 'frisian'" in output


def test_check_refuses_a_parameter_setting_without_a_value() -> None:
    code, output = run_check("--set", "hash", "--", *engine_command("instant_hub.py"))
    assert code == 2 and "--set expects NAME=VALUE" in output


def test_check_plays_a_dxp_engine_too() -> None:
    command = engine_command(
        "dxp_follower.py", "--connect", "{port}", "--moves", "33-29", "--black-moves", "18-23",
        "--name", "Follower 2", "--answer-captures",
    )  # fmt: skip
    code, output = run_check("--protocol", "dxp", "--dxp-mode", "engine_connects", "--", *command)
    assert code == 0, output
    assert "variant international (the default: no --variant given), 10x10 board" in output
    assert "-> 33-29 in" in output and "search after 33-29" in output and "-> 18-23 in" in output
    assert "named itself 'Follower 2' in its acceptance of the game" in output, output
    assert "search a capture" in output and output.rstrip().endswith("faults: none")


def test_check_searches_a_due_capture_and_names_a_capture_written_as_pdn_illegal() -> None:
    """A capture written as PDN writes it (28x19, no captured square) is the commonest Hub mistake, and
    the opening searches never meet one: the check searches a position where a capture is due."""
    code, output = run_check("--", *engine_command("scripted_player.py", "--captures-as-pdn"))
    assert code == 1, output
    assert re.search(r"^search a capture\s+\d+\.\d{4} s$", output, re.M)
    assert re.search(r"^  ILLEGAL: '\d+x\d+' is not a legal move in B:W", output, re.M), output
    assert re.search(r"^  illegal move \d+x\d+ in ", output, re.M), output
