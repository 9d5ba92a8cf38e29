"""The arbiter's CPU per ply in a long `arbiter match`, imports left out: the steady cost of a move.

Two copies of the instant Hub engine (``benchmarks/instant_hub.c``, built with the system compiler, as
``harness_compare.py`` does) play ``--games`` games (400 by default, 52 plies at most, 60+1) under
`arbiter match` in a fresh interpreter per run. The process reads its own CPU (user and system, every
thread: the store's too) once its modules are imported and again when the match has ended; the
difference, over the plies stored, is the figure. The engines' CPU is not in it. The share of it spent
in the store's thread (writing each game as it ends, in a thread of its own so that nothing slow runs
on the loop that times the engines) is printed too, per ply and per game.
``harness_compare.py`` gives the whole process's CPU side by side with the chess harnesses;
``match_startup.py`` what a run pays once; ``match_opcodes.py`` the same work counted in instructions,
which does not move with the load.

With ``--compare PATH`` (the root of another checkout, e.g. a ``git worktree`` of the branch point) the
runs alternate between that tree and this one, so both see the same load.

    python benchmarks/match_cpu.py [--runs 5] [--games 400] [--concurrency 1] [--compare PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from harness_compare import compile_engine
from match_startup import match_command, run_environment, trees_to_run

# Run in the child: the CPU spent after the imports, printed as JSON on the last line of stderr.
MEASURED = """
import json, os, sys, threading, time
import concurrent.futures.thread as pool_threads
from arbiter.cli import main
# Each pool thread's own CPU, read as it ends (the store's is named arbiter-store_N). The pool starts its
# threads on its module's `_worker`, looked up as each starts: no work is added while the games run.
threads_cpu = {}
pool_worker = pool_threads._worker
def timed_worker(*args, **kwargs):
    try:
        pool_worker(*args, **kwargs)
    finally:
        threads_cpu[threading.current_thread().name] = time.thread_time()
pool_threads._worker = timed_worker
before = os.times()
sys.argv = ["arbiter", *sys.argv[1:]]
try:
    main()
except SystemExit as ended:
    if ended.code not in (None, 0):
        raise
after = os.times()
store = sum(cpu for name, cpu in threads_cpu.items() if name.startswith("arbiter-store"))
print(json.dumps({"user": after.user - before.user, "system": after.system - before.system, "store": store}),
      file=sys.stderr)
"""


def one_run(
    tree: Path | None, engine: Path, games: int, concurrency: int, folder: Path
) -> tuple[float, float, float, int]:
    """(user seconds, system seconds, the store thread's seconds, plies) of one match after its imports."""
    database = folder / "match.sqlite"
    database.unlink(missing_ok=True)
    env = run_environment(tree)
    command = match_command(MEASURED, engine, games, database, concurrency)
    # Started in the temporary folder: `-c` puts the working directory first on the import path.
    done = subprocess.run(command, cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    errors = done.stderr.decode(errors="replace")
    if done.returncode != 0:
        sys.exit(f"error: arbiter match exited with {done.returncode}:\n{errors}")
    spent = json.loads(errors.strip().splitlines()[-1])
    with sqlite3.connect(database) as db:
        plies = int(db.execute("SELECT count(*) FROM move").fetchone()[0])
    return spent["user"], spent["system"], spent["store"], plies


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5, help="runs of each tree (default 5)")
    parser.add_argument("--games", type=int, default=400, help="games of each match (default 400)")
    parser.add_argument("--concurrency", type=int, default=1, help="games played at once (default 1)")
    parser.add_argument("--compare", type=Path, help="root of another checkout, run alternately")
    args = parser.parse_args()
    trees = trees_to_run(args.compare)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start")
    per_ply: dict[str, list[tuple[float, float]]] = {label: [] for label in trees}
    store_cpu: dict[str, list[tuple[float, float]]] = {label: [] for label in trees}  # per ply, per game
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        engine = compile_engine("instant_hub.c", folder)
        for tree in trees.values():
            one_run(tree, engine, 2, args.concurrency, folder)  # writes the .pyc files: not counted
        for _ in range(args.runs):
            for label, tree in trees.items():
                user, system, store, plies = one_run(tree, engine, args.games, args.concurrency, folder)
                per_ply[label].append((1e6 * user / plies, 1e6 * system / plies))
                store_cpu[label].append((1e6 * store / plies, 1e3 * store / args.games))
    for label, figures in per_ply.items():
        totals = sorted(user + system for user, system in figures)
        print(
            f"{label}: CPU per ply after the imports, median {statistics.median(totals):.0f} µs "
            f"(user {statistics.median(u for u, _ in figures):.0f}, system "
            f"{statistics.median(s for _, s in figures):.0f}), fewest {totals[0]:.0f}, most {totals[-1]:.0f} "
            f"over {len(figures)} runs of {args.games} games at concurrency {args.concurrency}"
        )
        ply_us = statistics.median(share for share, _ in store_cpu[label])
        game_ms = statistics.median(share for _, share in store_cpu[label])
        print(f"  of which the store's thread: median {ply_us:.0f} µs a ply, {game_ms:.2f} ms a game")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
