"""The benchmark scripts keep working as the code under them changes: each is run with the least work
it accepts and must finish and print its figures. What the figures are is never judged here (tests do
not fail on speed); `docs/benchmarks.md` holds the measured ones."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

# A game as a PDN archive holds it, for the PDN replay benchmark without the shared archives.
ONE_GAME = """[Event "smoke"]
[White "a"]
[Black "b"]
[Result "1-0"]

1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17x10 4. 7x14 1-0
"""

CASES = {
    "perft": (["--quick", "--variant", "english"], "leaves/s"),
    "engine_roundtrip": (["--count", "20", "--warmup", "5"], "arbiter's own share"),
    "referee_overhead": (["--games", "2"], "plies"),
    "referee_rules_ply": (["--games", "2", "--plies", "10", "--repeat", "1"], "CPU per ply"),
    "tournament_throughput": (["--games", "2"], "games/s"),
    "store_scale": (["--games", "20", "--plies", "10"], "standings"),
    "report_scale": (["--games", "20"], "refresh after one more game"),
    "publish_overhead": (["--games", "4", "--pairs", "2"], "median of 2 pairs"),
    "statistics_speed": (["--games", "100", "--players", "4"], "rating list"),
    "pdn_import": (["--games", "20", "--small", "10"], "games/minute"),
}


def run_benchmark(name: str, *args: str, cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / f"{name}.py"), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=600,
    )
    assert done.returncode == 0, f"{name} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.parametrize("name", sorted(CASES))
def test_benchmark_runs_with_the_least_work_and_prints_its_figures(name: str, tmp_path: Path) -> None:
    args, figure = CASES[name]
    assert figure in run_benchmark(name, *args, cwd=tmp_path)


def test_pdn_replay_benchmark_runs_on_a_small_file(tmp_path: Path) -> None:
    archive = tmp_path / "one.pdn"
    archive.write_text(ONE_GAME, encoding="utf-8")
    out = run_benchmark("pdn_replay", str(archive), "--repeat", "1", "--pydraughts-games", "1", cwd=tmp_path)
    assert "plies/s" in out


def test_distributed_scaling_benchmark_runs_a_tiny_match(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    out = run_benchmark("distributed_scaling", "--games", "4", "--tasks", "20", cwd=tmp_path)
    assert "games/s" in out


def test_checkerboard_roundtrip_benchmark_runs_on_the_test_engine(tmp_path: Path) -> None:
    if not any(shutil.which(name) for name in ("cc", "gcc", "clang")):
        pytest.skip("no C compiler to build the CheckerBoard test engine")
    out = run_benchmark("checkerboard_roundtrip", "--count", "20", "--warmup", "5", cwd=tmp_path)
    assert "adapter's own share" in out


def test_referee_overhead_benchmark_runs_an_event_at_a_concurrency(tmp_path: Path) -> None:
    args = ["--concurrency", "2", "--games", "2", "--tc", "st=1", "--debug"]
    out = run_benchmark("referee_overhead", *args, cwd=tmp_path)
    assert "added between the engine's send time and the arrival charged" in out and "time forfeits" in out
    beyond = next(line for line in out.splitlines() if "charged beyond the engine's own time" in line)
    assert "median" in beyond, "the instant engine's read times came back with its answers"


def test_match_startup_benchmark_runs_a_match_of_this_tree_beside_another_checkout(tmp_path: Path) -> None:
    if not any(shutil.which(name) for name in ("cc", "gcc", "clang")):
        pytest.skip("no C compiler to build the instant engine")
    tree = BENCHMARKS.parent
    out = run_benchmark("match_startup", "--runs", "1", "--games", "1", "--compare", str(tree), cwd=tmp_path)
    assert out.count("CPU of the whole process") == 2 and "over 1 runs" in out
    assert out.count("imports of the match command alone") == 2 and "the libraries a match uses" in out


def test_harness_compare_benchmark_runs_a_tiny_arbiter_match(tmp_path: Path) -> None:
    if not any(shutil.which(name) for name in ("cc", "gcc", "clang")):
        pytest.skip("no C compiler to build the instant engines")
    args = ["--games", "2", "--repeat", "1", "--concurrency", "1"]
    out = run_benchmark("harness_compare", *args, cwd=tmp_path)
    assert "harness CPU per ply" in out and "peak memory" in out


def test_harness_compare_splits_start_up_from_the_cpu_per_ply_with_a_short_run(tmp_path: Path) -> None:
    if not any(shutil.which(name) for name in ("cc", "gcc", "clang")):
        pytest.skip("no C compiler to build the instant engines")
    harness = _mini_cutechess(tmp_path)
    args = ["--games", "3", "--short-games", "1", "--repeat", "1", "--concurrency", "1"]
    out = run_benchmark("harness_compare", *args, "--cutechess", str(harness), cwd=tmp_path)
    assert "(short) arbiter c1: 1 games" in out and "(short) cutechess c1: 1 games, 52 plies" in out
    assert "| harness CPU per ply beyond start-up (us), concurrency 1 |" in out
    assert "| harness start-up CPU (ms), concurrency 1 |" in out
    assert "harness CPU per ply beyond start-up x" in out or "beyond start-up n/a" in out
    assert "PROBLEM" not in out


def test_harness_compare_runs_no_short_run_when_it_would_not_be_shorter(tmp_path: Path) -> None:
    if not any(shutil.which(name) for name in ("cc", "gcc", "clang")):
        pytest.skip("no C compiler to build the instant engines")
    args = ["--games", "2", "--repeat", "1", "--concurrency", "1"]
    out = run_benchmark("harness_compare", *args, cwd=tmp_path)
    assert "--short-games 10 is not fewer than --games 2: no short runs" in out
    assert "(short)" not in out and "beyond start-up" not in out


def _mini_cutechess(tmp_path: Path) -> Path:
    """An executable standing in for cutechess-cli (see mini_chess_harness.py)."""
    wrapper = tmp_path / "mini-cutechess"
    harness = Path(__file__).resolve().parent / "mini_chess_harness.py"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{harness}" "$@"\n')
    wrapper.chmod(0o755)
    return wrapper


def test_harness_compare_runs_a_chess_harness_beside_the_arbiter_and_prints_ratios(tmp_path: Path) -> None:
    if not any(shutil.which(name) for name in ("cc", "gcc", "clang")):
        pytest.skip("no C compiler to build the instant engines")
    harness = _mini_cutechess(tmp_path)
    args = ["--games", "2", "--repeat", "1", "--concurrency", "1", "--cutechess", str(harness)]
    out = run_benchmark("harness_compare", *args, cwd=tmp_path)
    # Both games went to the engine's repetition at ply 52, and every move the engines sent is counted
    # (none lost when the harness exits before its engines).
    assert "cutechess c1: 2 games, 104 plies" in out and "2 x 1/2-1/2 {Draw by 3-fold repetition}" in out
    assert "arbiter / cutechess, concurrency 1: harness CPU per ply x" in out
    assert "PROBLEM" not in out


def test_harness_compare_reports_a_forfeit_in_a_chess_harness_and_exits_non_zero(tmp_path: Path) -> None:
    if not any(shutil.which(name) for name in ("cc", "gcc", "clang")):
        pytest.skip("no C compiler to build the instant engines")
    harness = _mini_cutechess(tmp_path)
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "harness_compare.py"), "--games", "2", "--repeat", "1",
         "--concurrency", "1", "--cutechess", str(harness)],
        capture_output=True, text=True, cwd=tmp_path, timeout=600,
        env={**os.environ, "MINI_HARNESS_END": "0-1 {White makes an illegal move: e2e5}"},
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    problem = "PROBLEM: games ended otherwise than at the limit or by the rules: 1 x 0-1 {White makes"
    assert problem in done.stdout
    assert "run(s) had problems" in done.stdout and "Traceback" not in done.stderr


def test_per_move_layers_benchmark_times_the_engine_layer_and_the_referee_alone(tmp_path: Path) -> None:
    if not any(shutil.which(name) for name in ("cc", "gcc", "clang")):
        pytest.skip("no C compiler to build the instant engine")
    out = run_benchmark("per_move_layers", "--searches", "20", "--games", "2", cwd=tmp_path)
    assert "per search (20 searches)" in out and "of which the rules' calls" in out


def test_ply_opcodes_benchmark_counts_the_work_of_each_layer(tmp_path: Path) -> None:
    if not any(shutil.which(name) for name in ("cc", "gcc", "clang")):
        pytest.skip("no C compiler to build the instant engine")
    out = run_benchmark("ply_opcodes", "--searches", "5", "--games", "2", "--top", "1", cwd=tmp_path)
    assert "instructions" in out and "per search" in out and "per ply" in out and "per stored move" in out


def test_match_opcodes_benchmark_counts_a_whole_match_by_layer(tmp_path: Path) -> None:
    if not any(shutil.which(name) for name in ("cc", "gcc", "clang")):
        pytest.skip("no C compiler to build the instant engine")
    out = run_benchmark("match_opcodes", "--games", "2", "--top", "3", cwd=tmp_path)
    assert "instructions" in out and "per ply (2 games" in out
    assert "arbiter.referee" in out and "arbiter.rules" in out and "arbiter.engines" in out


def test_match_cpu_benchmark_runs_a_match_of_this_tree_beside_another_checkout(tmp_path: Path) -> None:
    if not any(shutil.which(name) for name in ("cc", "gcc", "clang")):
        pytest.skip("no C compiler to build the instant engine")
    tree = BENCHMARKS.parent
    out = run_benchmark("match_cpu", "--runs", "1", "--games", "2", "--compare", str(tree), cwd=tmp_path)
    assert out.count("CPU per ply after the imports") == 2 and "over 1 runs of 2 games" in out
    # The store's thread wrote both games: its CPU was read as it ended.
    store_line = r"store's thread: median \d+ µs a ply, ([\d.]+) ms a game"
    per_game = [float(ms) for ms in re.findall(store_line, out)]
    assert len(per_game) == 2 and all(ms > 0 for ms in per_game)
