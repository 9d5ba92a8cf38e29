"""What a harness costs per move, measured the same way for the arbiter and for the chess harnesses.

The script builds two instant engines in C with the system compiler: a Hub engine for English checkers
(``benchmarks/instant_hub.c``: a random legal move at once) for the arbiter, and a UCI engine
(``benchmarks/instant_uci.c``: a legal move at once) for cutechess-cli and fastchess. Each harness
plays a match of two copies of its engine, at each concurrency, as a command of its own
(``arbiter match`` for the arbiter), and the figures are taken from the outside:

- harness CPU per ply: the CPU time of the harness process itself (every thread of it, none of its
  children), read from ``/proc/PID/stat`` once it has exited and before it is reaped, divided by the
  plies played;
- time added per move: the engines note, on the machine's monotonic clock, when they wrote each move
  and when they read each ``go``; the time from one engine's move to the other engine's ``go`` for the
  position that move led to is what the harness added (reading the move, judging it, clocks, record,
  writing the next command, and waiting for a CPU on a busy machine);
- games per second: games over the wall time of the whole command, start-up included;
- peak memory: the largest resident set of the harness process (``ru_maxrss`` of ``wait4``; the C
  engines' is far smaller, so it is the harness's own).

Games last about 52 plies: the arbiter adjudicates a draw at ``--max-plies`` (its random engines may
end a game earlier), the chess harnesses at ``-maxmoves`` (the UCI engine never ends a game itself).
With ``--fastchess PATH`` and/or ``--cutechess PATH`` (binaries built from their public sources) those
harnesses are run too, interleaved with the arbiter run by run, and the ratios are printed.

    python benchmarks/harness_compare.py [--games 200] [--concurrency 1 2] [--repeat 3]
        [--fastchess PATH] [--cutechess PATH]
"""

from __future__ import annotations

import argparse
import bisect
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAX_PLIES = 52
TIME_CONTROL = "60+1"  # a clock far longer than the games: no engine is ever short of time


@dataclass(frozen=True)
class Run:
    """The figures of one harness at one concurrency."""

    harness: str
    concurrency: int
    games: int
    plies: int
    wall: float
    cpu: float
    peak_rss_mb: float
    added: list[float]  # seconds, one per move answered by a go

    @property
    def cpu_per_ply_us(self) -> float:
        return self.cpu / max(self.plies, 1) * 1e6

    @property
    def games_per_second(self) -> float:
        return self.games / self.wall


def compile_engine(source: str, folder: Path) -> Path:
    compiler = os.environ.get("CC") or next(
        (name for name in ("cc", "gcc", "clang") if shutil.which(name)), None
    )
    if compiler is None:
        sys.exit("error: no C compiler (cc, gcc or clang) to build the instant engines")
    out = folder / Path(source).stem
    done = subprocess.run(
        [compiler, "-O2", "-o", str(out), str(HERE / source)], capture_output=True, text=True
    )
    if done.returncode != 0:
        sys.exit(f"error: building {source} failed:\n{done.stderr}")
    return out


def arbiter_command() -> list[str]:
    """The installed ``arbiter`` command beside this interpreter, or the same entry point through it."""
    script = Path(sys.executable).parent / "arbiter"
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from arbiter.cli import main; sys.argv[0] = 'arbiter'; main()"]


def harness_command(
    harness: str, path: str, engine: Path, stamps: Path, games: int, concurrency: int
) -> list[str]:
    if harness == "arbiter":
        return [
            *arbiter_command(),
            "match",
            "--engine", f"cmd={engine} arg={stamps} arg=1 name=instant-a",
            "--engine", f"cmd={engine} arg={stamps} arg=2 name=instant-b",
            "--tc", TIME_CONTROL,
            "--games", str(games),
            "--concurrency", str(concurrency),
            "--max-plies", str(MAX_PLIES),
            "--db", "match.sqlite",
        ]  # fmt: skip
    if harness == "fastchess":
        return [
            path,
            "-engine", f"cmd={engine}", f"args={stamps}", "name=instant-a",
            "-engine", f"cmd={engine}", f"args={stamps}", "name=instant-b",
            "-each", f"tc={TIME_CONTROL}",
            "-rounds", str(games), "-games", "1",
            "-concurrency", str(concurrency),
            "-maxmoves", str(MAX_PLIES // 2),
            "-autosaveinterval", "0",
        ]  # fmt: skip
    return [
        path,
        "-engine", f"cmd={engine}", f"arg={stamps}", "name=instant-a", "proto=uci",
        "-engine", f"cmd={engine}", f"arg={stamps}", "name=instant-b", "proto=uci",
        "-each", f"tc={TIME_CONTROL}",
        "-games", str(games),
        "-concurrency", str(concurrency),
        "-maxmoves", str(MAX_PLIES // 2),
    ]  # fmt: skip


def own_cpu_seconds(pid: int) -> float:
    """User + system CPU of an exited, not yet reaped process: all its threads, none of its children."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14 and 15 of stat)


def read_stamps(folder: Path) -> tuple[int, list[float]]:
    """(moves sent, seconds from each move to the go it led to) from the engines' notes."""
    sends: dict[str, list[int]] = {}
    goes: list[tuple[str, int]] = []
    for path in folder.glob("*.stamps"):
        for line in path.read_text().splitlines():
            kind, key, at = line.split()
            if kind == "s":
                sends.setdefault(key, []).append(int(at))
            else:
                goes.append((key, int(at)))
    for times in sends.values():
        times.sort()
    added = []
    for key, go_at in goes:
        moved = sends.get(key)
        if not moved:
            continue  # the first go of a game: no move led to it
        index = bisect.bisect_left(moved, go_at) - 1  # the latest move to this position before the go
        if index >= 0:
            added.append((go_at - moved[index]) / 1e9)
    return sum(len(times) for times in sends.values()), added


def arbiter_plies(folder: Path) -> int | None:
    """Plies of the games the arbiter stored (it may play a forced move without asking the engine)."""
    import sqlite3

    database = folder / "match.sqlite"
    if not database.is_file():
        return None
    with sqlite3.connect(database) as connection:
        (plies,) = connection.execute("SELECT COALESCE(SUM(plies), 0) FROM game").fetchone()
    return int(plies)


def run_once(harness: str, path: str, engine: Path, games: int, concurrency: int) -> Run:
    with tempfile.TemporaryDirectory(prefix=f"harness-{harness}-") as name:
        folder = Path(name)
        stamps = folder / "stamps"
        stamps.mkdir()
        command = harness_command(harness, path, engine, stamps, games, concurrency)
        with open(folder / "output.txt", "wb") as output:
            started = time.perf_counter()
            process = subprocess.Popen(command, cwd=folder, stdout=output, stderr=subprocess.STDOUT)
            os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)  # exited, still readable
            wall = time.perf_counter() - started
            cpu = own_cpu_seconds(process.pid)
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            tail = (folder / "output.txt").read_text(errors="replace")[-3000:]
            sys.exit(f"error: {harness} exited with {process.returncode}:\n{' '.join(command)}\n{tail}")
        sent, added = read_stamps(stamps)
        plies = arbiter_plies(folder) if harness == "arbiter" else None
        return Run(
            harness, concurrency, games, plies if plies is not None else sent, wall, cpu,
            usage.ru_maxrss / 1024, added,
        )  # fmt: skip


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))] if ordered else 0.0


def describe(run: Run) -> str:
    added = run.added
    return (
        f"{run.harness} c{run.concurrency}: {run.games} games, {run.plies} plies in {run.wall:.2f} s; "
        f"CPU {run.cpu:.2f} s = {run.cpu_per_ply_us:.0f} us a ply; {run.games_per_second:.1f} games/s; "
        f"peak RSS {run.peak_rss_mb:.1f} MB; added per move median {percentile(added, 0.5) * 1e6:.0f} us, "
        f"99th pct {percentile(added, 0.99) * 1e6:.0f} us ({len(added)} moves)"
    )


def median_of(runs: list[Run], figure: str) -> float:
    values = {
        "cpu": [run.cpu_per_ply_us for run in runs],
        "added50": [percentile(run.added, 0.5) * 1e6 for run in runs],
        "added99": [percentile(run.added, 0.99) * 1e6 for run in runs],
        "gps": [run.games_per_second for run in runs],
        "rss": [run.peak_rss_mb for run in runs],
    }[figure]
    return statistics.median(values)


FIGURES = [
    ("harness CPU per ply (us)", "cpu", "{:.0f}"),
    ("time added per move, median (us)", "added50", "{:.0f}"),
    ("time added per move, 99th pct (us)", "added99", "{:.0f}"),
    ("games per second", "gps", "{:.1f}"),
    ("peak memory (MB)", "rss", "{:.1f}"),
]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="games per run (default 200)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each harness; medians are shown")
    parser.add_argument("--fastchess", help="path of a fastchess binary, run interleaved with the arbiter")
    parser.add_argument(
        "--cutechess", help="path of a cutechess-cli binary, run interleaved with the arbiter"
    )
    args = parser.parse_args()
    harnesses = [("arbiter", "")]
    for name in ("fastchess", "cutechess"):
        path = getattr(args, name)
        if path:
            if shutil.which(path) is None:
                sys.exit(f"error: --{name} {path}: no such program")
            harnesses.append((name, str(Path(shutil.which(path) or path).resolve())))
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(f"{args.games} games a run, at most {MAX_PLIES} plies a game, {args.repeat} runs of each")
    runs: dict[tuple[str, int], list[Run]] = {}
    with tempfile.TemporaryDirectory(prefix="harness-engines-") as name:
        engines = {"arbiter": compile_engine("instant_hub.c", Path(name))}
        if len(harnesses) > 1:
            engines["uci"] = compile_engine("instant_uci.c", Path(name))
        for _ in range(args.repeat):
            for concurrency in args.concurrency:
                for harness, path in harnesses:  # interleaved: the machine's load falls on all alike
                    engine = engines["arbiter" if harness == "arbiter" else "uci"]
                    run = run_once(harness, path, engine, args.games, concurrency)
                    print(describe(run), flush=True)
                    runs.setdefault((harness, concurrency), []).append(run)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    names = [harness for harness, _ in harnesses]
    print()
    print(f"| figure (median of {args.repeat}) | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for concurrency in args.concurrency:
        for label, figure, style in FIGURES:
            cells = [style.format(median_of(runs[(name, concurrency)], figure)) for name in names]
            print(f"| {label}, concurrency {concurrency} | " + " | ".join(cells) + " |")
    for other in names[1:]:
        for concurrency in args.concurrency:
            ours, theirs = runs[("arbiter", concurrency)], runs[(other, concurrency)]
            ratios = ", ".join(
                f"{label.split(' (')[0]} x{median_of(ours, key) / max(median_of(theirs, key), 1e-9):.2f}"
                for label, key, _ in FIGURES
            )
            print(f"arbiter / {other}, concurrency {concurrency}: {ratios}")


if __name__ == "__main__":
    main()
