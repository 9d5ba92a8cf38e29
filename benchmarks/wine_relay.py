"""What running a CheckerBoard DLL through Wine costs beside the same engine loaded in-process.

The C test engine (tests/engines/cb_engine.c) is built as a Windows DLL (MinGW-w64) and as a Linux
library (the system C compiler). For the DLL it times, in the adapter's own terms:
- the start: the engine's own prefix copied from the template, Wine started, the DLL loaded (this is
  inside the engine's handshake, never on its clock);
- `enginecommand` and `getmove` round trips through the Wine host, beside the same calls on the Linux
  library in this process (the engine answers at once: the figures are the relay's cost);
- the end: the host told to quit, `wineserver -k` for the prefix, the prefix removed.

    python benchmarks/wine_relay.py                 # 5 starts, 2000 calls of each kind
    python benchmarks/wine_relay.py --starts 1 --count 20

Needs Wine and MinGW-w64 (Debian: wine wine64 mingw-w64). The template prefix is made first if the
cache has none (many seconds, reported apart).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from arbiter.engines.checkerboard.api import BLACK, MAN, WHITE, CheckerBoardLibrary
from arbiter.engines.checkerboard.library import CtypesLibrary
from arbiter.engines.checkerboard.relay import RelayLibrary
from arbiter.engines.checkerboard.wine_setup import WineUnavailable, prepare

SOURCE = Path(__file__).resolve().parents[1] / "tests" / "engines" / "cb_engine.c"


def start_board() -> tuple[tuple[int, ...], ...]:
    """English start in CheckerBoard's board[x][y] (Black on rows 0-2)."""
    board = [[0] * 8 for _ in range(8)]
    for x in range(8):
        for y in range(8):
            if (x + y) % 2 == 0 and y != 3 and y != 4:
                board[x][y] = (BLACK if y < 3 else WHITE) | MAN
    return tuple(tuple(column) for column in board)


def build(directory: Path) -> tuple[Path, Path | None]:
    dll = directory / "cb_engine.dll"
    cross = ["x86_64-w64-mingw32-gcc", "-shared", "-static", "-O1", "-o", str(dll), str(SOURCE), "-lpthread"]
    subprocess.run(cross, check=True)
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return dll, None
    shared = directory / "cb_engine.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", str(shared), str(SOURCE)], check=True)
    return dll, shared


def timed(call: Callable[[], object], count: int) -> list[float]:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return times


def row(label: str, times: list[float], unit: str = "µs") -> str:
    scale = 1e6 if unit == "µs" else 1.0
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    figures = [statistics.median(times) * scale, p99 * scale, statistics.fmean(times) * scale]
    form = "{:.0f} µs" if unit == "µs" else "{:.2f} s"
    return f"| {label} | " + " | ".join(form.format(value) for value in figures) + " |"


def calls(library: CheckerBoardLibrary, count: int) -> tuple[list[float], list[float]]:
    board = start_board()
    command = timed(lambda: library.enginecommand("get hashsize"), count)
    library.set_play_now(False)
    search = timed(lambda: library.getmove(board, BLACK, 0.01, 0, 0), count)
    return command, search


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--starts", type=int, default=5, help="engine starts and ends to time")
    parser.add_argument("--count", type=int, default=2000, help="calls of each kind to time")
    args = parser.parse_args()
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as scratch:
        try:
            dll, shared = build(Path(scratch))
        except (OSError, subprocess.CalledProcessError) as error:
            print(f"cannot build the test engine as a DLL (install mingw-w64): {error}", file=sys.stderr)
            return 1
        started = time.monotonic()
        try:
            setup = prepare(dll, env)
        except WineUnavailable as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores; load {os.getloadavg()[0]:.2f}")
        print(f"Wine ready (host and template prefix, made or found) in {time.monotonic() - started:.2f} s")
        starts, ends = [], []
        for _ in range(args.starts):
            began = time.perf_counter()
            relay = RelayLibrary(dll, setup, env)
            relay.enginecommand("name")
            starts.append(time.perf_counter() - began)
            began = time.perf_counter()
            relay.flush_output()
            ends.append(time.perf_counter() - began)
        relay = RelayLibrary(dll, setup, env)
        relay_command, relay_search = calls(relay, args.count)
        relay.flush_output()
        heading = f"Wine engine ({args.starts} starts, {args.count} calls)"
        print(f"\n| {heading} | median | 99th percentile | mean |")
        print("|---|---|---|---|")
        print(row("start: prefix, Wine, DLL loaded", starts, "s"))
        print(row("end: quit, `wineserver -k`, prefix removed", ends, "s"))
        print(row("`enginecommand` through the Wine host", relay_command))
        print(row("`getmove` through the Wine host", relay_search))
        if shared is not None:
            local = CtypesLibrary(shared)
            local_command, local_search = calls(local, args.count)
            print(row("`enginecommand`, the Linux build in-process", local_command))
            print(row("`getmove`, the Linux build in-process", local_search))
        print(f"\nload after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
