"""CheckerBoard round trip: what the adapter adds to a search of a CheckerBoard engine library.

Figures for a search (`pos` + `level` + `go think` -> `done`):
- the adapter's own share, timed inside one process around the adapter's own steps: reading the
  three lines, replaying the moves, the board and time arguments, handing the search to the getmove
  thread, decoding the returned board by comparing it with every legal move's result, and writing
  `info` and `done`; getmove itself (the engine's thinking) is left out. Once for every ply of random
  games, sent as the referee sends them (the adapter picks up from its last search), and once for
  positions it cannot pick up from;
- the wall time of the search as the referee sees it, through the arbiter's Hub client and the adapter
  process, and the arbiter's own share of that (as in engine_roundtrip.py);
- the same for `ping` -> `pong`, answered by the adapter while no search runs.

The library is the test engine tests/engines/cb_engine.c (it answers at once), compiled with the
system C compiler, or any CheckerBoard library given with --library.

    python benchmarks/checkerboard_roundtrip.py
    python benchmarks/checkerboard_roundtrip.py --count 2000 --library /path/engine.so
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from engine_roundtrip import OwnShare, summary

from arbiter.engines import EngineConfig, MoveTime, Timeouts, create_engine
from arbiter.engines.checkerboard.adapter import Adapter, Output
from arbiter.engines.checkerboard.api import GetMoveReply
from arbiter.engines.checkerboard.library import CtypesLibrary
from arbiter.engines.hub_wire import format_line, parse_line
from arbiter.rules import Move, Position, get_variant

SOURCE = Path(__file__).resolve().parents[1] / "tests" / "engines" / "cb_engine.c"


def compile_test_engine(directory: Path) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        sys.exit("no C compiler: give a CheckerBoard library with --library")
    target = directory / "cb_engine.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(target), str(SOURCE)], check=True)
    return target


class TimedLibrary(CtypesLibrary):
    """The library, with the seconds of its last getmove noted (that time is the engine's, not ours)."""

    last_getmove = 0.0

    def getmove(
        self, board: tuple[tuple[int, ...], ...], color: int, maxtime: float, info: int, moreinfo: int
    ) -> GetMoveReply:
        started = time.perf_counter()
        reply = super().getmove(board, color, maxtime, info, moreinfo)
        self.last_getmove = time.perf_counter() - started
        return reply


class TimedOutput(Output):
    """Writes to a sink and notes when `done` has been written."""

    def __init__(self, fd: int) -> None:
        super().__init__(fd)
        self.done_at = 0.0
        self.done = threading.Event()

    def line(self, command: str, fields: dict[str, str] | None = None, flags: Sequence[str] = ()) -> None:
        super().line(command, fields, flags)
        if command == "done":
            self.done_at = time.perf_counter()
            self.done.set()


def search_lines(base: str, moves: list[str]) -> list[bytes]:
    fields = {"pos": base} | ({"moves": " ".join(moves)} if moves else {})
    return [(format_line("pos", fields) + "\n").encode(), b"level move-time=1\n", b"go think\n"]


def hub_text(move: Move) -> str:
    if move.captured:
        return "x".join(map(str, (move.start, move.end, *sorted(move.captured))))
    return f"{move.start}-{move.end}"


def game_searches(count: int) -> list[list[bytes]]:
    """Every ply of random English games, sent as the referee sends it: the position after the last
    capture or man move, and the moves since."""
    variant = get_variant("english")
    chooser = random.Random(2026)
    searches: list[list[bytes]] = []
    while len(searches) < count:
        position = Position.start(variant)
        base, since = position.hub(), list[str]()
        for _ply in range(200):
            legal = position.legal_moves()
            if not legal or len(searches) >= count:
                break
            searches.append(search_lines(base, since))
            move = chooser.choice(legal)
            piece = position.piece_at(move.start)
            position = position.play(move)
            if move.captured or piece is None or not piece.is_king:
                base, since = position.hub(), []
            else:
                since.append(hub_text(move))
    return searches


def cold_searches(count: int) -> list[list[bytes]]:
    """Positions from random English games, each sent as the start position and up to 12 moves: nothing
    the adapter can pick up from its last search (more work than a game gives it)."""
    variant = get_variant("english")
    chooser = random.Random(2026)
    searches: list[list[bytes]] = []
    while len(searches) < count:
        position = Position.start(variant)
        moves: list[str] = []
        for _ in range(chooser.randrange(0, 13)):
            legal = position.legal_moves()
            if not legal:
                break
            move = chooser.choice(legal)
            moves.append(hub_text(move))
            position = position.play(move)
        if position.legal_moves():
            searches.append(search_lines(Position.start(variant).hub(), moves))
    return searches


def adapter_share(library: Path, searches: list[list[bytes]], warmup: int) -> list[float]:
    """The adapter's own seconds per search, in this process, getmove left out."""
    engine = TimedLibrary(library)
    sink = os.open(os.devnull, os.O_WRONLY)
    # The engine notes its calls on stderr; here they would only bury the figures.
    saved_stderr = os.dup(2)
    os.dup2(sink, 2)
    out = TimedOutput(sink)
    adapter = Adapter(engine, out, library)
    adapter.handle(parse_line("hub"))
    adapter.handle(parse_line("set-param name=variant value=english"))
    shares = []
    for index, lines in enumerate(searches):
        out.done.clear()
        started = time.perf_counter()
        for raw in lines:
            adapter.handle(parse_line(raw.decode().strip()))
        out.done.wait()
        if index >= warmup:
            shares.append(out.done_at - started - engine.last_getmove)
    os.dup2(saved_stderr, 2)
    os.close(sink)
    return shares


async def through_the_arbiter(library: Path, count: int, warmup: int) -> tuple[list[float], ...]:
    config = EngineConfig(
        name="cb", protocol="checkerboard", library=library, timeouts=Timeouts(search=30, ping=30)
    )
    engine = create_engine(config)
    await engine.open("english")
    assert engine._process is not None
    share = OwnShare(engine._process)
    start = Position.start(get_variant("english")).hub()
    level = MoveTime(1)
    try:
        for _ in range(warmup):
            await engine.ping()
            await engine.search(start, [], level)
        pings, ping_shares, searches, search_shares = [], [], [], []
        for _ in range(count):
            began = time.perf_counter()
            share.begin()
            await engine.ping()
            ping_shares.append(share.end())
            pings.append(time.perf_counter() - began)
        for _ in range(count):
            began = time.perf_counter()
            share.begin()
            await engine.search(start, [], level)
            search_shares.append(share.end())
            searches.append(time.perf_counter() - began)
    finally:
        await engine.quit()
    if engine.faults:
        print("faults:", ", ".join(fault.kind for fault in engine.faults))
    return pings, ping_shares, searches, search_shares


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=2000, help="round trips of each kind")
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--library", type=Path, help="a CheckerBoard library (default: the test engine)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        library = options.library or compile_test_engine(Path(directory))
        in_games = adapter_share(
            library.absolute(), game_searches(options.count + options.warmup), options.warmup
        )
        cold = adapter_share(
            library.absolute(), cold_searches(options.count + options.warmup), options.warmup
        )
        pings, ping_shares, searches, search_shares = asyncio.run(
            through_the_arbiter(library.absolute(), options.count, options.warmup)
        )
    machine = platform.processor() or platform.machine()
    print(f"library: {library}")
    print(f"machine: {machine}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(summary("adapter's own share, searches of games", in_games))
    print(summary("adapter's own share, cold positions", cold))
    worst = max(statistics.median(in_games), statistics.median(cold))
    print(f"{'':<36} the larger median: {worst * 1e3:.3f} ms (the target is under 1 ms)")
    print(summary("pos + level + go think -> done", searches))
    print(summary("  of which the arbiter's own share", search_shares))
    print(summary("ping -> pong (answered by the adapter)", pings))
    print(summary("  of which the arbiter's own share", ping_shares))


if __name__ == "__main__":
    main()
