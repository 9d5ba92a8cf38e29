"""What a harness costs per move, measured the same way for the arbiter and for the chess harnesses.

The script builds two instant engines in C with the system compiler: a Hub engine for English checkers
(``benchmarks/instant_hub.c``: a random legal move at once) for the arbiter, and a UCI engine
(``benchmarks/instant_uci.c``: a legal move at once) for cutechess-cli and fastchess. Each harness
plays a match of two copies of its engine, at each concurrency, as a command of its own
(``arbiter match`` for the arbiter), and the figures are taken from the outside:

- harness CPU per ply: the CPU time of the harness process itself (every thread of it, none of its
  children), read from ``/proc/PID/stat`` once it has exited and before it is reaped, divided by the
  plies played. It is counted in clock ticks of 10 ms: fastchess spends some tens of them on 200
  games, so give it more games for a closer figure (the arbiter's modules are compiled to bytecode
  first, as an installed package's are, so that no run pays for compiling them);
- time added per move: the engines note, on the machine's monotonic clock, when they wrote each move
  and when they read each ``go``; the time from one engine's move to the other engine's ``go`` for the
  position that move led to is what the harness added (reading the move, judging it, clocks, record,
  writing the next command, and waiting for a CPU on a busy machine);
- games per second: over the wall time of the whole command, start-up and shut-down included;
- plies per second while playing: from the engines' first ``go`` to their last move, so without the
  harness's start-up and shut-down (fastchess, for one, looks for the end of its games once a second,
  which rounds its whole command up to a second), and in plies because the arbiter's random engines
  may end a game before the limit;
- peak memory: the high-water mark of the harness program's resident set (``VmHWM`` of
  ``/proc/PID/status``, which only grows), read every 10 ms while it runs. Not ``ru_maxrss``: a child
  keeps the high-water mark of the process it was forked from, this script, across ``exec``, so a
  harness smaller than the script would be shown at the script's size.

With ``--short-games N`` (10 by default; 0: none) each run is preceded by a run of N games of the
same harness at the same concurrency, and the two give the harness's CPU per ply beyond its start-up,
(CPU of the run - CPU of the short run) / (plies of the run - plies of the short run), and its
start-up CPU, what the short run spent beyond its plies at that rate: in a long match of thousands of
games the start-up is spread thin, and the first figure is what each move costs. Both are subject to the
10 ms ticks the CPU is counted in: a start-up within them shows as 0 (fastchess's, cutechess-cli's).

Games last about 52 plies: the arbiter adjudicates a draw at ``--max-plies`` (its random engines may
end a game earlier); the UCI engine repeats a position for the third time at ply 52, and the chess
harnesses end the game there as a draw by repetition (see ``instant_uci.c`` for why not ``-maxmoves``).
Every harness keeps every game: the arbiter in its SQLite file, the chess harnesses in a PGN file
(``-pgnout``). The plies are counted from that record (the database, the PGN's ``PlyCount`` tags), and
how each game ended is read from it or from the harness's ``Finished game`` lines: a game that did not
end at the limit or by the rules (a forfeit, a crash, an illegal move) is reported, and the script
exits non-zero after its table, as the figures of such a run do not measure what they claim.
With ``--fastchess PATH`` and/or ``--cutechess PATH`` (binaries built from their public sources) those
harnesses are run too, interleaved with the arbiter run by run, and the ratios are printed.

    python benchmarks/harness_compare.py [--games 200] [--concurrency 1 2] [--repeat 3]
        [--short-games 10] [--fastchess PATH] [--cutechess PATH]
"""

from __future__ import annotations

import argparse
import bisect
import compileall
import ctypes
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAX_PLIES = 52
TIME_CONTROL = "60+1"  # a clock far longer than the games: no engine is ever short of time
# How a game may end without spoiling the figures: at the ply limit, or (the arbiter's random engines)
# by the rules. Anything else (a forfeit, a crash, an illegal move) is reported as a problem.
ARBITER_ENDS = {"max_length", "no_pieces", "no_legal_moves", "repetition", "move_count_rule"}
CHESS_END = "1/2-1/2 {Draw by 3-fold repetition}"  # at ply 52: see instant_uci.c
FINISHED = re.compile(r"^Finished game \d+ \([^)]*\): (.*)$", re.MULTILINE)
PLY_COUNT = re.compile(r'^\[PlyCount "(\d+)"\]', re.MULTILINE)
PR_SET_CHILD_SUBREAPER = 36


@dataclass(frozen=True)
class Run:
    """The figures of one harness at one concurrency."""

    harness: str
    concurrency: int
    games: int
    plies: int
    wall: float
    playing: float  # seconds from the first go to the last move
    cpu: float
    peak_rss_mb: float
    added: list[float]  # seconds, one per move answered by a go
    ends: Counter[str]  # how the games ended, as the harness recorded it
    problems: list[str]  # what makes this run's figures doubtful

    @property
    def cpu_per_ply_us(self) -> float:
        return self.cpu / max(self.plies, 1) * 1e6

    @property
    def games_per_second(self) -> float:
        return self.games / self.wall

    @property
    def plies_per_second(self) -> float:
        return self.plies / max(self.playing, 1e-9)


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


def compile_bytecode() -> None:
    """Compile the arbiter's modules to bytecode first, as installing the package does.

    A checkout run with ``PYTHONDONTWRITEBYTECODE`` set (or never run before) would otherwise compile
    every module again at each start, a cost an installed arbiter does not have."""
    import arbiter

    for folder in arbiter.__path__:
        compileall.compile_dir(folder, quiet=1)


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
            "-concurrency", str(concurrency), "-force-concurrency",  # the asked concurrency, as the others
            "-pgnout", "file=games.pgn",
            "-autosaveinterval", "0",
        ]  # fmt: skip
    return [
        path,
        "-engine", f"cmd={engine}", f"arg={stamps}", "name=instant-a", "proto=uci",
        "-engine", f"cmd={engine}", f"arg={stamps}", "name=instant-b", "proto=uci",
        "-each", f"tc={TIME_CONTROL}",
        "-games", str(games),
        "-concurrency", str(concurrency),
        "-pgnout", "games.pgn",
    ]  # fmt: skip


def own_cpu_seconds(pid: int) -> float:
    """User + system CPU of an exited, not yet reaped process: all its threads, none of its children."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14 and 15 of stat)


class PeakMemory:
    """Follows a running process's ``VmHWM`` (its program's peak resident set since ``exec``) from a
    thread; the mark only grows, so the last reading misses at most the final 10 ms."""

    def __init__(self, pid: int) -> None:
        self._path = Path(f"/proc/{pid}/status")
        self._peak_kb = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while True:
            try:
                text = self._path.read_text()
            except OSError:
                return
            for line in text.splitlines():
                if line.startswith("VmHWM:"):  # absent once the process is a zombie
                    self._peak_kb = max(self._peak_kb, int(line.split()[1]))
            if self._done.wait(0.01):
                return

    def stop(self) -> float:
        """The peak in MB."""
        self._done.set()
        self._thread.join()
        return self._peak_kb / 1024


def read_stamps(folder: Path) -> tuple[int, list[float], float]:
    """(moves sent, seconds from each move to the go it led to, seconds from the first go to the last
    move) from the engines' notes."""
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
    first_go = min((at for _, at in goes), default=0)
    last_move = max((times[-1] for times in sends.values()), default=first_go)
    return sum(len(times) for times in sends.values()), added, (last_move - first_go) / 1e9


def arbiter_record(folder: Path) -> tuple[int, Counter[str]]:
    """Plies and ends of the games the arbiter stored (it may play a forced move without asking)."""
    import sqlite3

    database = folder / "match.sqlite"
    if not database.is_file():
        return 0, Counter()
    with sqlite3.connect(database) as connection:
        (plies,) = connection.execute("SELECT COALESCE(SUM(plies), 0) FROM game").fetchone()
        rows = connection.execute(
            "SELECT CASE WHEN finished THEN COALESCE(termination, '?') ELSE 'unfinished' END, COUNT(*) "
            "FROM game GROUP BY 1"
        ).fetchall()
    return int(plies), Counter({str(end): int(count) for end, count in rows})


def chess_record(folder: Path) -> tuple[int, Counter[str]]:
    """Plies of the games in the chess harness's PGN, and the ends it printed ("Finished game ...")."""
    pgn = folder / "games.pgn"
    text = pgn.read_text(errors="replace") if pgn.is_file() else ""
    plies = sum(int(count) for count in PLY_COUNT.findall(text))
    output = (folder / "output.txt").read_text(errors="replace")
    return plies, Counter(FINISHED.findall(output))


def doubts(harness: str, games: int, plies: int, sent: int, ends: Counter[str]) -> list[str]:
    """What would make a run's figures measure something else than a harness's cost per move."""
    problems: list[str] = []
    if sum(ends.values()) != games:
        problems.append(f"{sum(ends.values())} games recorded as finished, {games} asked")
    if harness == "arbiter":
        odd = {end: count for end, count in ends.items() if end not in ARBITER_ENDS}
    else:
        odd = {end: count for end, count in ends.items() if end != CHESS_END}
        if plies != games * MAX_PLIES:
            problems.append(f"{plies} plies in the PGN, {games * MAX_PLIES} expected")
    if odd:
        problems.append("games ended otherwise than at the limit or by the rules: " + ", ".join(
            f"{count} x {end}" for end, count in sorted(odd.items())
        ))  # fmt: skip
    # The arbiter may play a forced move without asking: its plies may outnumber the engines' moves.
    if harness != "arbiter" and sent != plies:
        problems.append(f"the engines noted {sent} moves sent for {plies} plies (notes lost?)")
    return problems


def become_subreaper() -> None:
    """Engines left behind by a harness that exits become this script's children, so it can wait for
    them to write their notes (they write them as they exit) before reading them."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit(f"error: prctl(PR_SET_CHILD_SUBREAPER): {os.strerror(ctypes.get_errno())}")


def reap_leftovers(timeout: float = 30.0) -> int:
    """Wait for the engines the harness left running (they end on end of input): how many there were."""
    reaped = 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return reaped  # no child left
        if pid == 0:
            time.sleep(0.01)
        else:
            reaped += 1
    sys.exit(f"error: engines still running {timeout:.0f} s after their harness exited")


def run_once(harness: str, path: str, engine: Path, games: int, concurrency: int) -> Run:
    with tempfile.TemporaryDirectory(prefix=f"harness-{harness}-") as name:
        folder = Path(name)
        stamps = folder / "stamps"
        stamps.mkdir()
        command = harness_command(harness, path, engine, stamps, games, concurrency)
        with open(folder / "output.txt", "wb") as output:
            started = time.perf_counter()
            process = subprocess.Popen(command, cwd=folder, stdout=output, stderr=subprocess.STDOUT)
            memory = PeakMemory(process.pid)
            os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)  # exited, still readable
            wall = time.perf_counter() - started
            peak_mb = memory.stop()
            cpu = own_cpu_seconds(process.pid)
            _, status = os.waitpid(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            tail = (folder / "output.txt").read_text(errors="replace")[-3000:]
            sys.exit(f"error: {harness} exited with {process.returncode}:\n{' '.join(command)}\n{tail}")
        reap_leftovers()
        sent, added, playing = read_stamps(stamps)
        plies, ends = arbiter_record(folder) if harness == "arbiter" else chess_record(folder)
        problems = doubts(harness, games, plies, sent, ends)
        return Run(harness, concurrency, games, plies, wall, playing, cpu, peak_mb, added, ends, problems)


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))] if ordered else 0.0


def describe(run: Run) -> str:
    added = run.added
    return (
        f"{run.harness} c{run.concurrency}: {run.games} games, {run.plies} plies in {run.wall:.2f} s; "
        f"CPU {run.cpu:.2f} s = {run.cpu_per_ply_us:.0f} us a ply; {run.games_per_second:.1f} games/s, "
        f"{run.plies_per_second:.0f} plies/s while playing; peak RSS {run.peak_rss_mb:.1f} MB; added per "
        f"move median {percentile(added, 0.5) * 1e6:.0f} us, 99th pct {percentile(added, 0.99) * 1e6:.0f} us "
        f"({len(added)} moves); ends: {', '.join(f'{n} x {end}' for end, n in run.ends.most_common())}"
        + "".join(f"\n  PROBLEM: {problem}" for problem in run.problems)
    )


def median_of(runs: list[Run], figure: str) -> float:
    values = {
        "cpu": [run.cpu_per_ply_us for run in runs],
        "added50": [percentile(run.added, 0.5) * 1e6 for run in runs],
        "added99": [percentile(run.added, 0.99) * 1e6 for run in runs],
        "gps": [run.games_per_second for run in runs],
        "pps": [run.plies_per_second for run in runs],
        "rss": [run.peak_rss_mb for run in runs],
    }[figure]
    return statistics.median(values)


@dataclass(frozen=True)
class Split:
    """A run's CPU split by the short run beside it: per ply beyond start-up, and start-up."""

    per_ply_us: float
    startup_ms: float

    @classmethod
    def of(cls, short: Run, run: Run) -> Split:
        per_ply = (run.cpu - short.cpu) / max(run.plies - short.plies, 1)
        # Counted in 10 ms ticks, a lean harness's start-up can come out below zero: it is none we can see.
        return cls(per_ply * 1e6, max(0.0, short.cpu - per_ply * short.plies) * 1e3)


SPLIT_FIGURES = [
    ("harness CPU per ply beyond start-up (us)", "per_ply_us", "{:.0f}"),
    ("harness start-up CPU (ms)", "startup_ms", "{:.0f}"),
]


def medians(runs: list[Run], splits: list[Split]) -> dict[str, float]:
    """Every figure of one harness at one concurrency, the median over its runs (and their splits)."""
    figures = {key: median_of(runs, key) for _, key, _ in FIGURES}
    for _, key, _ in SPLIT_FIGURES if splits else []:
        values: list[float] = [getattr(split, key) for split in splits]
        figures[key] = statistics.median(values)
    return figures


_MEASURABLE = 1e-6  # below this, a figure of the other harness is taken for none


def ratio(ours: float, theirs: float) -> str:
    # The CPU is counted in clock ticks (10 ms): a short run of a lean harness may show none, and a
    # start-up worked out as the difference of two runs may then be rounding dust (4e-18 ms), not 0.
    return f"x{ours / theirs:.2f}" if theirs > _MEASURABLE else "n/a (too short a run to measure)"


FIGURES = [
    ("harness CPU per ply (us)", "cpu", "{:.0f}"),
    ("time added per move, median (us)", "added50", "{:.0f}"),
    ("time added per move, 99th pct (us)", "added99", "{:.0f}"),
    ("games per second", "gps", "{:.1f}"),
    ("plies per second while playing", "pps", "{:.0f}"),
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
    parser.add_argument(
        "--short-games",
        type=int,
        default=10,
        help="games of a short run before each run, to split off start-up (default 10; 0: none)",
    )
    args = parser.parse_args()
    short_games = args.short_games if 0 < args.short_games < args.games else 0
    if args.short_games and not short_games:
        print(f"note: --short-games {args.short_games} is not fewer than --games {args.games}: no short runs")
    harnesses = [("arbiter", "")]
    for name in ("cutechess", "fastchess"):
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
    compile_bytecode()
    become_subreaper()
    runs: dict[tuple[str, int], list[Run]] = {}
    shorts: list[Run] = []
    splits: dict[tuple[str, int], list[Split]] = {}
    with tempfile.TemporaryDirectory(prefix="harness-engines-") as name:
        engines = {"arbiter": compile_engine("instant_hub.c", Path(name))}
        if len(harnesses) > 1:
            engines["uci"] = compile_engine("instant_uci.c", Path(name))
        for _ in range(args.repeat):
            for concurrency in args.concurrency:
                for harness, path in harnesses:  # interleaved: the machine's load falls on all alike
                    engine = engines["arbiter" if harness == "arbiter" else "uci"]
                    short = None
                    if short_games:
                        short = run_once(harness, path, engine, short_games, concurrency)
                        print("(short) " + describe(short), flush=True)
                        shorts.append(short)
                    run = run_once(harness, path, engine, args.games, concurrency)
                    print(describe(run), flush=True)
                    runs.setdefault((harness, concurrency), []).append(run)
                    if short is not None:
                        splits.setdefault((harness, concurrency), []).append(Split.of(short, run))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    names = [harness for harness, _ in harnesses]
    print()
    figures = FIGURES + (SPLIT_FIGURES if splits else [])
    shown = {group: medians(group_runs, splits.get(group, [])) for group, group_runs in runs.items()}
    print(f"| figure (median of {args.repeat}) | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for concurrency in args.concurrency:
        for label, key, style in figures:
            cells = [style.format(shown[(name, concurrency)][key]) for name in names]
            print(f"| {label}, concurrency {concurrency} | " + " | ".join(cells) + " |")
    for other in names[1:]:
        for concurrency in args.concurrency:
            ours, theirs = shown[("arbiter", concurrency)], shown[(other, concurrency)]
            ratios = ", ".join(
                f"{label.split(' (')[0]} {ratio(ours[key], theirs[key])}" for label, key, _ in figures
            )
            print(f"arbiter / {other}, concurrency {concurrency}: {ratios}")
    doubtful = [run for group in runs.values() for run in group if run.problems]
    doubtful += [run for run in shorts if run.problems]
    if doubtful:
        print(f"\nerror: {len(doubtful)} run(s) had problems (see PROBLEM above); their figures are doubtful")
        sys.exit(1)


if __name__ == "__main__":
    main()
