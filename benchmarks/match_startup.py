"""What a run of `arbiter match` costs besides its moves: the CPU of a short match, process and all.

Two copies of the instant Hub engine (``benchmarks/instant_hub.c``, built with the system compiler, as
``harness_compare.py`` does) play a 2-game match (``--games``) under `arbiter match`, started as a
user starts it; the CPU of the whole process (user + system, the engines' tiny share included, from
``wait4``) is taken for each run. In a 2-game match the moves are some 20 ms of it: the rest is what
every run pays once (the interpreter, the imports, the command line, the preflight, the store, the
engines' start and end, the final tables), whatever its number of games.

With ``--compare PATH`` (the root of another checkout of the project, e.g. a ``git worktree`` of the
branch point) the runs alternate between that tree and this one, so both see the same load.

Beside each match, the same tree's imports of the match command alone are timed (``import
arbiter.commands.run``, the collector paused as `arbiter` pauses it), and so are the libraries a match
uses, imported alone with one pydantic model built: what the imports take above that floor is the
arbiter's own modules, classes and models.

    python benchmarks/match_startup.py [--runs 10] [--games 2] [--compare PATH]

Python writes no ``.pyc`` files under ``PYTHONDONTWRITEBYTECODE``; the script unsets it for the runs,
so after the first run every tree's modules load compiled, as an installed package's do.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from harness_compare import MAX_PLIES, TIME_CONTROL, compile_engine

ENTRY = "import sys; from arbiter.cli import main; sys.argv[0] = 'arbiter'; main()"
# With the collector paused and what they made frozen, as `arbiter` imports a command's modules (see
# `arbiter.cli.started`): otherwise the collection at the interpreter's exit walks it all.
MATCH_IMPORTS = "import gc; gc.disable(); import arbiter.commands.run; gc.freeze()"
# The libraries every match loads (Typer builds pydantic adapters for the options as it parses them).
LIBRARIES = (
    "import gc; gc.disable()\n"
    "import asyncio, sqlite3, typer, typer.main, rich.console, rich.table\n"
    "from pydantic import BaseModel\n"
    "class Model(BaseModel):\n"
    "    x: int\n"
    "Model(x=1)\n"
    "gc.freeze()"
)


def run_environment(tree: Path | None) -> dict[str, str]:
    """This process's environment with ``tree`` first on the import path, and ``.pyc`` files written."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    return env


def match_command(code: str, engine: Path, games: int, database: Path, concurrency: int = 1) -> list[str]:
    """`arbiter match` of two copies of ``engine`` through ``python -c code`` (the command line follows)."""
    return [
        sys.executable, "-c", code, "match",
        "--engine", f"cmd={engine} arg=- arg=1 name=a",
        "--engine", f"cmd={engine} arg=- arg=2 name=b",
        "--tc", TIME_CONTROL, "--games", str(games), "--max-plies", str(MAX_PLIES),
        "--concurrency", str(concurrency), "--db", str(database),
    ]  # fmt: skip


def one_run(tree: Path | None, engine: Path, games: int, folder: Path) -> tuple[float, int]:
    """The CPU seconds of one `arbiter match` process, and the plies it stored."""
    database = folder / "match.sqlite"
    database.unlink(missing_ok=True)
    env = run_environment(tree)
    command = match_command(ENTRY, engine, games, database)
    # Started in the temporary folder: `-c` puts the working directory first on the import path.
    process = subprocess.Popen(
        command, cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert process.stderr is not None
    errors = process.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"error: arbiter match exited with {process.returncode}:\n{errors}")
    with sqlite3.connect(database) as db:
        plies = int(db.execute("SELECT count(*) FROM move").fetchone()[0])
    return usage.ru_utime + usage.ru_stime, plies


def process_cpu(code: str, tree: Path | None, folder: Path) -> float:
    """The CPU seconds of a `python -c CODE` process run with ``tree`` first on the import path."""
    env = run_environment(tree)
    process = subprocess.Popen(
        [sys.executable, "-c", code], cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert process.stderr is not None
    errors = process.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"error: python -c {code!r} failed:\n{errors}")
    return usage.ru_utime + usage.ru_stime


def spread(seconds: list[float]) -> str:
    return f"median {statistics.median(seconds):.3f} s, fewest {min(seconds):.3f} s"


def describe(name: str, seconds: list[float], plies: list[int]) -> str:
    return (
        f"{name}: CPU of the whole process, median {statistics.median(seconds):.3f} s, fewest "
        f"{min(seconds):.3f} s over {len(seconds)} runs ({statistics.median(plies):.0f} plies a run): "
        + " ".join(f"{value:.3f}" for value in seconds)
    )


def trees_to_run(compare: Path | None) -> dict[str, Path | None]:
    """The checkouts to run, by label: this interpreter's arbiter (None: no import path set), after
    ``compare``'s root when given (run first in each alternation)."""
    if compare is not None and not (compare / "arbiter" / "cli.py").is_file():
        sys.exit(f"error: {compare} holds no arbiter/cli.py (give the root of a checkout)")
    spec = importlib.util.find_spec("arbiter")
    installed = Path(spec.origin).parents[1] if spec is not None and spec.origin else "?"
    trees: dict[str, Path | None] = {f"{installed} (this interpreter's arbiter)": None}
    if compare is not None:
        trees = {str(compare): compare.resolve(), **trees}
    return trees


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=10, help="runs of each tree (default 10)")
    parser.add_argument("--games", type=int, default=2, help="games of each match (default 2)")
    parser.add_argument("--compare", type=Path, help="root of another checkout, run alternately")
    args = parser.parse_args()
    trees = trees_to_run(args.compare)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        engine = compile_engine("instant_hub.c", folder)
        for tree in trees.values():
            one_run(tree, engine, args.games, folder)  # writes the .pyc files: not counted
        seconds: dict[str, list[float]] = {label: [] for label in trees}
        plies: dict[str, list[int]] = {label: [] for label in trees}
        imports: dict[str, list[float]] = {label: [] for label in trees}
        libraries: list[float] = []
        for _ in range(args.runs):
            for label, tree in trees.items():
                cpu, played = one_run(tree, engine, args.games, folder)
                seconds[label].append(cpu)
                plies[label].append(played)
                imports[label].append(process_cpu(MATCH_IMPORTS, tree, folder))
            libraries.append(process_cpu(LIBRARIES, None, folder))
    for label in trees:
        print(describe(label, seconds[label], plies[label]))
        print(f"  its imports of the match command alone (`{MATCH_IMPORTS}`): {spread(imports[label])}")
    print(
        "the libraries a match uses, imported alone (asyncio, sqlite3, Typer, rich's console and table, "
        f"pydantic with one model built): {spread(libraries)}"
    )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
