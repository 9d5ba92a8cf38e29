"""Perft speed: the arbiter's move generator against pydraughts, from the start position.

Both count the leaves of the legal-move tree with one move per (start, end, captured set) and count the
last ply in bulk (the number of legal moves, without playing them). pydraughts is much slower, so it
runs at a smaller depth; the figure compared is leaves per second.

    python benchmarks/perft.py                      # English perft(9), international perft(6), the rest
    python benchmarks/perft.py --quick              # smaller depths, a few seconds in all
    python benchmarks/perft.py --variant english
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

from draughts import Board

from arbiter.rules import VARIANTS, Position, get_variant, perft

# Published leaf counts from the start position (VARIANTS.md, "Perft convention").
PUBLISHED = {
    "english": [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680],
    "international": [9, 81, 658, 4265, 27117, 167140],
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302],
}
# The variants pydraughts also plays, by its names; the others are timed for the arbiter alone.
PYDRAUGHTS_NAME = {
    "english": "english",
    "international": "standard",
    "russian": "russian",
    "brazilian": "brazilian",
    "italian": "italian",
    "turkish": "turkish",
    "frisian": "frisian",
    "antidraughts": "antidraughts",
}


@dataclass(frozen=True)
class Plan:
    arbiter_depth: int
    pydraughts_depth: int
    goal: int | None = None  # the speed-up over pydraughts the project aims for


FULL = {"english": Plan(9, 6, goal=500), "international": Plan(6, 4, goal=200)}
QUICK = {"english": Plan(7, 4, goal=500), "international": Plan(5, 3, goal=200)}
# Every other variant, deep enough to take about a second: the 8x8 boards one ply deeper.
OTHERS_FULL = {"small": Plan(7, 4), "large": Plan(6, 3)}
OTHERS_QUICK = {"small": Plan(5, 3), "large": Plan(4, 2)}


def plan_for(variant_id: str, quick: bool) -> Plan:
    if variant_id in FULL:
        return (QUICK if quick else FULL)[variant_id]
    small = get_variant(variant_id).geometry.square_count <= 32
    return (OTHERS_QUICK if quick else OTHERS_FULL)["small" if small else "large"]


@dataclass(frozen=True)
class Run:
    depth: int
    leaves: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.leaves / self.seconds


def timed(count: Callable[[], int], depth: int, min_seconds: float) -> Run:
    """Best of repeated runs until ``min_seconds`` have passed, so short runs are not all noise.

    Times are CPU seconds of this process, so other work on a shared machine skews them less.
    """
    best: Run | None = None
    spent = 0.0
    while best is None or spent < min_seconds:
        start = time.process_time()
        leaves = count()
        elapsed = time.process_time() - start
        spent += elapsed
        if best is None or elapsed < best.seconds:
            best = Run(depth, leaves, elapsed)
    return best


def pydraughts_perft(board: Board, depth: int) -> int:
    """Perft with pydraughts' public API: one move per (start, end, captured set), bulk count at the end."""
    moves: dict[tuple[int, int, frozenset[int]], Any] = {}
    for m in board.legal_moves():
        moves.setdefault((m.board_move[0][0], m.board_move[-1][1], frozenset(m.captures)), m)
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    total = 0
    for move in moves.values():
        board.push(move)
        total += pydraughts_perft(board, depth - 1)
        board.pop()
    return total


def check(engine: str, variant_id: str, run: Run) -> None:
    counts = PUBLISHED.get(variant_id, [])
    if run.depth <= len(counts) and run.leaves != counts[run.depth - 1]:
        sys.exit(
            f"error: {engine} {variant_id} perft({run.depth}) = {run.leaves}, "
            f"the published count is {counts[run.depth - 1]}"
        )


def bench(variant_id: str, plan: Plan) -> float | None:
    start = Position.start(get_variant(variant_id))
    ours = timed(lambda: perft(start, plan.arbiter_depth), plan.arbiter_depth, min_seconds=1.0)
    check("arbiter", variant_id, ours)
    runs = [("arbiter", ours)]
    theirs: Run | None = None
    if variant_id in PYDRAUGHTS_NAME:
        theirs = timed(
            lambda: pydraughts_perft(Board(PYDRAUGHTS_NAME[variant_id]), plan.pydraughts_depth),
            plan.pydraughts_depth,
            min_seconds=0.0,
        )
        check("pydraughts", variant_id, theirs)
        runs.append(("pydraughts", theirs))
    for engine, run in runs:
        print(
            f"{variant_id:<14} {engine:<11} perft({run.depth}) {run.leaves:>10,} leaves "
            f"{run.seconds:>8.2f} CPU s {run.rate:>12,.0f} leaves/s"
        )
    if theirs is None:
        print()
        return None
    # Deeper trees give more leaves per generated node, so show the ratio at equal depth as well.
    level = timed(lambda: perft(start, plan.pydraughts_depth), plan.pydraughts_depth, min_seconds=1.0)
    if level.leaves != theirs.leaves:
        sys.exit(
            f"error: {variant_id} perft({level.depth}): arbiter {level.leaves}, pydraughts {theirs.leaves}"
        )
    ratio = ours.rate / theirs.rate
    goal = f" ({'meets' if ratio >= plan.goal else 'below'} the goal of {plan.goal}x)" if plan.goal else ""
    print(f"{variant_id:<14} speed-up    {ratio:,.0f}x{goal}")
    print(f"{variant_id:<14} same depth  {level.rate / theirs.rate:,.0f}x at perft({level.depth})\n")
    return ratio


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="smaller depths (a few seconds in all)")
    parser.add_argument(
        "--variant", choices=[*VARIANTS, "all"], default="all", help="one variant, or all (the default)"
    )
    args = parser.parse_args(argv)
    variants = list(VARIANTS) if args.variant == "all" else [args.variant]
    print(
        f"machine: {cpu_name()}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}; "
        f"Python {platform.python_version()}; pydraughts {version('pydraughts')}\n"
    )
    for variant_id in variants:
        bench(variant_id, plan_for(variant_id, args.quick))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
