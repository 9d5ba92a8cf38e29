"""`arbiter pdn check FILE...`, run as a user runs it: faults one per line, a summary, the exit status."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PDN_DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "pdn"


def arbiter(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arbiter.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_a_clean_file_checks_with_exit_zero(tmp_path: Path) -> None:
    path = tmp_path / "good.pdn"
    path.write_text('[Event "a"]\n[GameType "21"]\n1. 11-15 23-19 *\n\n[GameType "20"]\n1. 32-28 *\n')
    run = arbiter("pdn", "check", path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        f"{path}: 2 game(s), 2 replayed without fault (3 plies), 0 with faults",
        "checked 1 file(s): 2 game(s), 2 replayed without fault (3 plies), 0 with faults",
    ]


def test_faults_are_listed_one_per_line_and_the_exit_status_is_one(tmp_path: Path) -> None:
    path = tmp_path / "bad.pdn"
    path.write_text('[Event "a"]\n[GameType "21"]\n1. 11-15 23-19 2. 8-12 *\n\n[GameType "31"]\n1. a3-b4 *\n')
    run = arbiter("pdn", "check", path)
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert lines[0].startswith(f"{path}:3:19: game 1 (a), ply 3: illegal move: 8-12 is not legal for Black")
    assert lines[1].startswith(f"{path}:5:1: game 2: variant not supported yet: Thai draughts (GameType 31)")
    assert lines[2] == (
        f"{path}: 2 game(s), 0 replayed without fault (2 plies), 2 with faults "
        "(1 illegal move, 1 variant not supported yet); variant not supported yet: thai (1)"
    )


def test_notes_and_a_non_utf8_file_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "old.pdn"
    path.write_bytes('[Event "caf\u00e9"]\n1. 11-15 *\n'.encode("cp1252"))
    run = arbiter("pdn", "check", "--notes", path)
    assert run.returncode == 0, run.stdout
    assert f"{path}:1: game 1 (caf\u00e9): note: variant guessed English draughts" in run.stdout
    assert (
        f"{path}: note: 1 line(s) are not UTF-8 and were read as cp1252 (the first is line 1)" in run.stdout
    )


def test_a_missing_file_is_an_error_with_exit_two_and_the_others_are_still_checked(tmp_path: Path) -> None:
    good = tmp_path / "good.pdn"
    good.write_text('[GameType "21"]\n1. 11-15 *\n')
    run = arbiter("pdn", "check", tmp_path / "missing.pdn", good)
    assert run.returncode == 2
    assert "missing.pdn: cannot read: No such file or directory" in run.stderr
    assert run.stdout.splitlines()[-1].startswith("checked 1 file(s), 1 unreadable: 1 game(s)")


def test_an_unknown_variant_option_is_refused(tmp_path: Path) -> None:
    run = arbiter("pdn", "check", "--variant", "chess", tmp_path / "x.pdn")
    assert run.returncode == 2
    assert "unknown variant 'chess'" in run.stderr


def test_checking_tinsley_lists_its_three_faulty_games() -> None:
    if not PDN_DATA.exists():
        pytest.skip(f"shared PDN data not present at {PDN_DATA.resolve()}")
    path = PDN_DATA / "succeed" / "tinsley.pdn"
    run = arbiter("pdn", "check", path)
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert [line.split(": game ")[0] for line in lines[:3]] == [
        f"{path}:5588:5",
        f"{path}:6434:70",
        f"{path}:7170:17",
    ]
    assert lines[-1] == (
        "checked 1 file(s): 724 game(s), 721 replayed without fault (36,106 plies), 3 with faults "
        "(1 illegal move, 2 syntax)"
    )


def test_a_frisian_game_that_breaks_the_king_move_limit_is_a_fault_at_that_ply(tmp_path: Path) -> None:
    # White's king goes 1-6-1-6 while Black moves its man; the fourth king move 6-1 is illegal.
    path = tmp_path / "frisian.pdn"
    moves = "1. 1-6 22-27 2. 6-1 27-32 3. 1-6 32-38 4. 6-1 *"
    path.write_text(f'[GameType "40"]\n[FEN "W:WK1,9:BK35,22"]\n{moves}\n')
    run = arbiter("pdn", "check", path)
    assert run.returncode == 1
    assert run.stdout.splitlines()[0] == (
        f"{path}:3:43: game 1, ply 7: illegal move: 6-1 is not allowed for White in W:WK6,9:BK35,38: "
        "it breaks the king-move limit (one king may not make more than three non-capturing moves in a "
        "row while its side has men); allowed moves: 9-3, 9-4"
    )


def test_side_lines_nested_hundreds_deep_are_a_one_line_fault_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "deep.pdn"
    path.write_text(
        '[Event "deep"]\n[GameType "21"]\n1. 11-15 23-19 ' + "(1... 22-18 " * 500 + ")" * 500 + " *\n"
    )
    run = arbiter("pdn", "check", "--variations", path)
    assert run.returncode == 1
    assert run.stderr == ""
    assert run.stdout.splitlines()[0] == (
        f"{path}:3:1210: game 1 (deep), ply 2: syntax: in a variation: "
        "side lines nest deeper than 100 levels after this move; the deeper ones are not replayed"
    )
