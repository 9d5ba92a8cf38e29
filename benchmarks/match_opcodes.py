"""A whole `arbiter match` counted, not timed: bytecode instructions per ply of the main thread, by layer.

``ply_opcodes.py`` counts the layers one at a time, each in a harness of its own; this runs the real
command between two instant C Hub engines (built with the system compiler) and counts everything the
main thread interprets while the match runs: the runner, the referee, the rules, the engine layer, the
event loop, the progress line. A first short match in the same process loads the modules and fills
the caches, so the figure is the steady cost of a ply, start-up left out (``match_startup.py`` times
that). The store's thread is not counted; ``ply_opcodes.py`` gives its work per stored move.

Like ``ply_opcodes.py``, the figures do not move with the machine's load: two trees can be compared at
any time. An instruction is not a unit of time (a system call counts as one); CPU per ply is
``harness_compare.py``'s.

    python benchmarks/match_opcodes.py                 # 100 games
    python benchmarks/match_opcodes.py --games 200 --top 30
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sqlite3
import sys
import sysconfig
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

from harness_compare import compile_engine
from ply_opcodes import Tally

import arbiter
from arbiter.cli import main as arbiter_main

MAX_PLIES = 52  # as harness_compare.py's games
_PACKAGE = Path(arbiter.__file__).parent
_STDLIB = Path(sysconfig.get_paths()["stdlib"])
_EVENT_LOOP = {"asyncio", "selectors.py"}


def layer_of(filename: str) -> str:
    """The part of the program a code object belongs to: an arbiter subpackage, the event loop, the
    rest of the standard library, or the installed libraries."""
    path = Path(filename)
    if path.is_relative_to(_PACKAGE):
        parts = path.relative_to(_PACKAGE).parts
        return f"arbiter.{parts[0]}" if len(parts) > 1 else f"arbiter.{path.stem}"
    if path.is_relative_to(_STDLIB):
        first = path.relative_to(_STDLIB).parts[0]
        if first == "site-packages":
            return "libraries"
        return "event loop" if first in _EVENT_LOOP else "standard library"
    if filename.startswith("<"):  # code made at run time: dataclasses' __init__, namedtuples
        return "generated (<string>)"
    return "libraries"


class MainThreadTally(Tally):
    """``ply_opcodes.py``'s tally, by code object (file and function) rather than by function name, and
    turned on for the thread that enters ``counting``."""

    def __init__(self) -> None:
        super().__init__()
        self.by_code: Counter[tuple[str, str]] = Counter()

    def _trace(self, frame: FrameType, event: str, arg: object) -> Callable[..., Any]:
        frame.f_trace_opcodes = True
        if event == "opcode":
            code = frame.f_code
            self.by_code[(code.co_filename, code.co_qualname)] += 1
        return self._trace

    @contextlib.contextmanager
    def counting(self) -> Iterator[None]:
        self.on()
        try:
            yield
        finally:
            self.off()


def run_match(engine: Path, games: int, database: Path) -> int:
    """Play an in-process `arbiter match` of ``games`` games; the plies it stored."""
    sys.argv = [
        "arbiter", "match",
        "--engine", f"cmd={engine} arg=- arg=1 name=a",
        "--engine", f"cmd={engine} arg=- arg=2 name=b",
        "--tc", "60+1", "--games", str(games), "--max-plies", str(MAX_PLIES), "--db", str(database),
    ]  # fmt: skip
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        arbiter_main()
    with contextlib.closing(sqlite3.connect(database)) as connection:
        plies: int = connection.execute("SELECT count(*) FROM move").fetchone()[0]
    return plies


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100, help="games counted (default 100)")
    parser.add_argument("--top", type=int, default=0, help="list the top functions too")
    args = parser.parse_args()
    tally = MainThreadTally()
    with tempfile.TemporaryDirectory(prefix="match-opcodes-") as name:
        folder = Path(name)
        engine = compile_engine("instant_hub.c", folder)
        run_match(engine, 4, folder / "warm.sqlite")
        with tally.counting():
            plies = run_match(engine, args.games, folder / "counted.sqlite")
    if plies == 0:
        sys.exit("error: the counted match stored no move")
    total = sum(tally.by_code.values())
    print(
        f"arbiter match, main thread: {total / plies:.0f} instructions, {tally.python_calls / plies:.1f} "
        f"Python calls and {tally.c_calls / plies:.1f} C calls per ply ({args.games} games, {plies} plies)"
    )
    layers: Counter[str] = Counter()
    for (filename, _), count in tally.by_code.items():
        layers[layer_of(filename)] += count
    for layer, count in layers.most_common():
        print(f"    {count / plies:8.1f}  {layer}")
    if args.top:
        print("functions:")
        for (filename, qualname), count in tally.by_code.most_common(args.top):
            print(f"    {count / plies:8.1f}  {Path(filename).name}:{qualname}")


if __name__ == "__main__":
    os.environ.setdefault("NO_COLOR", "1")
    main()
