"""Referee overhead: many games between two instant engines, and the referee's own time per move.

The engines are the bundled ``random`` player (it answers at once), started once and reused for every
game with ``new-game``, as the tournament runner does. The referee's overhead per move is the time from
reading one engine's ``done`` (the moment its line arrived) to the moment the next ``go`` is about to
be written to the other engine (where that engine's clock starts): waking up, checking the move,
playing it, recording it, the game-end rules, the clock, and the engine layer formatting
``pos``/``level``/``go``. The engine layer's part (formatting and writing) is also shown on its own.
Plies per second is the whole loop, engines included.

    python benchmarks/referee_overhead.py                   # 200 English games under "acf"
    python benchmarks/referee_overhead.py --games 50 --variant international --tc 5400+30

With ``--concurrency N [N ...]`` it plays a whole event instead, through the tournament runner with its
store, N games at a time, for each N given, and reports what the clock is about: the time the arbiter
adds between an answer's sending and the arrival it is charged (the instant engine of
``benchmarks/instant_engine.py`` writes the moment T just before it writes each answer; the arbiter
charges the kernel's arrival stamp of the answer; on Linux both clocks are one: since the stamp *is*
the arrival, what is measured is the engine's send time T against the moment charged, the write itself
included), what charging at the moment it is read (by the loop, or by a reader thread where there is no
stamp) or at the event loop's handling would add instead
(the designs before), what each move was charged beyond the engine's own time (the engine also writes
the moment its read of ``go`` returned: the rest is the arbiter writing ``go``, the system waking the
engine, and the answer's way back), the longest step of the event loop, the garbage collections, and
the losses on time. ``--debug`` keeps the engines' communication logs, as ``arbiter run --debug`` does.
``--engine alphabeta`` (or any bundled engine) plays that engine against itself instead; its answers
carry no send time.

    python benchmarks/referee_overhead.py --concurrency 1 4 8 --games 400 --tc st=0.05 [--debug]
    python benchmarks/referee_overhead.py --concurrency 2 --games 100 --tc st=0.5 --engine alphabeta
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from arbiter.engines import EngineConfig, HubEngine, Level, SearchMode
from arbiter.engines.arrival import ArrivalClock
from arbiter.engines.hub import HubSearch
from arbiter.engines.hub_wire import HubLine
from arbiter.engines.pauses import PauseLog
from arbiter.engines.stamped_reader import StampedReader
from arbiter.referee.game import play_game
from arbiter.referee.record import GameRecord, Termination
from arbiter.referee.setup import GameSetup
from arbiter.referee.timecontrol import parse_time_control
from arbiter.running import event_loop
from arbiter.running.loop_steps import LoopSteps
from arbiter.running.runner import QuietObserver, TournamentRunner
from arbiter.store import TournamentStore
from arbiter.tournament.config import load_tournament
from arbiter.tournament.schedule import PlannedGame

INSTANT_ENGINE = Path(__file__).resolve().parent / "instant_engine.py"


class TimedHub(HubEngine):
    """A Hub client that notes when each search is handed to it and when its ``go`` has been written."""

    marks: list[tuple[float, float]] = []

    async def begin_search(
        self,
        position: str,
        moves: Sequence[str],
        level: Level,
        draw_offered: bool = False,
        mode: SearchMode = "think",
        *,
        mules: Sequence[int] = (),
    ) -> HubSearch:
        called = time.monotonic()
        search = await super().begin_search(position, moves, level, draw_offered, mode, mules=mules)
        self.marks.append((called, time.monotonic()))
        return search


def summary(seconds: list[float]) -> str:
    micro = [value * 1e6 for value in seconds]
    return (
        f"median {statistics.median(micro):.0f} us, 99th percentile {percentile(micro, 0.99):.0f} us, "
        f"mean {statistics.fmean(micro):.0f} us, max {max(micro):.0f} us"
    )


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


async def run(games: int, variant: str, tc: str, engine: str) -> None:
    setup = GameSetup(variant=variant, time_control=parse_time_control(tc))
    configs = [
        EngineConfig(
            name=f"{engine}-{seat}",
            command=[sys.executable, "-m", f"arbiter.players.{engine}"],
            params={"seed": seed} if engine == "random" else {},
        )
        for seat, seed in (("a", 1), ("b", 2))
    ]
    engines = [TimedHub(config) for config in configs]
    overhead: list[float] = []
    writes: list[float] = []
    plies = 0
    endings: dict[Termination, int] = {}
    try:
        await asyncio.gather(*(engine.open(variant) for engine in engines))
        started = time.perf_counter()
        for number in range(games):
            white, black = engines if number % 2 == 0 else engines[::-1]
            TimedHub.marks.clear()
            game_overhead: list[float] = []
            record = await play_game(setup, white, black, overhead=game_overhead)
            overhead.extend(game_overhead)
            # The overhead figures start with the second search of the game.
            writes.extend(written - called for called, written in TimedHub.marks[1:])
            plies += record.plies
            assert record.outcome is not None
            endings[record.outcome.termination] = endings.get(record.outcome.termination, 0) + 1
        elapsed = time.perf_counter() - started
    finally:
        await asyncio.gather(*(engine.quit() for engine in engines))

    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    print(f"{games} {variant} games under '{tc}' between two '{engine}' engines")
    print(f"plies: {plies}, in {elapsed:.2f} s: {plies / elapsed:,.0f} plies per second")
    print("endings: " + ", ".join(f"{name} {count}" for name, count in sorted(endings.items())))
    print(f"referee overhead per move ({len(overhead)} moves): {summary(overhead)}")
    print(f"  the engine layer formatting and writing pos/level/go: {summary(writes)}")
    goal_met = statistics.median(overhead) < 0.0005 and percentile(overhead, 0.99) < 0.005
    print(f"goal (median < 500 us, 99th percentile < 5000 us): {'met' if goal_met else 'NOT met'}")


class Arrivals:
    """Wraps the Hub client's handling of ``done`` to note, for each answer that carries its send time,
    the seconds from the engine's send time to the moment charged (the arrival stamp), to the reader
    thread's read, and to the loop handling the answer; and the seconds charged beyond the engine's own
    time, from its read of ``go`` to its send time."""

    def __init__(self) -> None:
        self.added: list[float] = []  # the engine's send time to the charged arrival
        self.read: list[float] = []  # the engine's send time to its read (the loop's, or a reader thread's)
        self.handling: list[float] = []  # the engine's send time to the event loop handling the answer
        self.beyond: list[float] = []  # charged, less the engine's own time (its read of go to its send)
        self.stamped = 0  # answers whose arrival was the kernel's stamp
        self._read_at: dict[float, float] = {}  # arrival -> the monotonic clock as it was read
        original = HubSearch._complete
        take = StampedReader._take
        arrival = ArrivalClock.arrival

        def taken(reader: StampedReader, data: bytes, at: float) -> str | None:
            self._read_at[at] = time.monotonic()
            return take(reader, data, at)

        def arrived(clock: ArrivalClock, stamp: float | None, emptied: bool) -> tuple[float, bool]:
            at, stamped = arrival(clock, stamp, emptied)
            self._read_at[at] = time.monotonic()  # the loop reader's read (a reader thread's is noted later)
            return at, stamped

        def complete(search: HubSearch, line: HubLine, at: float) -> None:
            handled = time.monotonic()
            read = self._read_at.pop(at, at)
            info = next((info for info in reversed(search._infos or ()) if "sent" in info), None)
            if info is not None:
                sent = info["sent"]
                self.added.append(max(0.0, at - float(sent)))
                if "read" in info:
                    self.beyond.append(search._elapsed(at) - (float(sent) - float(info["read"])))
                self.read.append(max(0.0, read - float(sent)))
                self.handling.append(max(0.0, handled - float(sent)))
                self.stamped += read != at
            original(search, line, at)

        StampedReader._take = taken  # type: ignore[method-assign,assignment]
        ArrivalClock.arrival = arrived  # type: ignore[method-assign,assignment]
        HubSearch._complete = complete  # type: ignore[method-assign,assignment]


class WhileGamesArePlayed(QuietObserver):
    """Times the loop's steps from the first game's start to the last game's end."""

    def __init__(self, steps: LoopSteps, pauses: PauseLog, games: int) -> None:
        self.steps, self.pauses, self.left = steps, pauses, games

    def game_started(self, game: PlannedGame) -> None:
        if not self.steps.measuring and self.left > 0:
            self.steps.measuring = True
            self.pauses.attach()  # the collections while games are played, not the one at start-up

    def game_finished(self, game: PlannedGame, record: GameRecord) -> None:
        self.left -= 1
        self.steps.measuring = self.left > 0
        if self.left == 0:
            self.pauses.detach()  # not the collections of reading the games back afterwards


def event_file(
    folder: Path, games: int, concurrency: int, variant: str, tc: str, engine: str, debug: bool = False
) -> Path:
    logged = "debug = true\n" if debug else ""
    if engine == "instant":
        entries = [
            f'[[engines]]\nname = "instant-{seat}"\n'
            f'command = ["{sys.executable}", "{INSTANT_ENGINE}", "{seed}"]\n{logged}'
            for seat, seed in (("a", 1), ("b", 2))
        ]
    else:
        entries = [f'[[engines]]\nname = "{engine}-{seat}"\nbundled = "{engine}"\n{logged}' for seat in "ab"]
    path = folder / "event.toml"
    path.write_text(
        f'name = "referee overhead"\nvariant = "{variant}"\ntime_control = "{tc}"\nformat = "match"\n'
        f"games_per_encounter = {games}\nconcurrency = {concurrency}\nreuse_engines = true\n"
        f'database = "event.sqlite"\n[adjudication]\nmax_plies = 300\n\n' + "\n".join(entries),
        encoding="utf-8",
    )
    return path


def milliseconds(values: list[float]) -> str:
    if not values:
        return "none measured"
    return (
        f"median {statistics.median(values) * 1000:.3f} ms, 99th percentile "
        f"{percentile(values, 0.99) * 1000:.3f} ms, max {max(values) * 1000:.1f} ms ({len(values)} answers)"
    )


async def run_event(
    games: int, concurrency: int, variant: str, tc: str, engine: str, debug: bool = False
) -> tuple[int, float]:
    """One event at ``concurrency``; prints its figures and returns (time forfeits, p99 added)."""
    arrivals = Arrivals()
    pauses = PauseLog()
    with tempfile.TemporaryDirectory() as folder:
        event = event_file(Path(folder), games, concurrency, variant, tc, engine, debug)
        config, engines = load_tournament(event)
        load_before = os.getloadavg()
        before = resource.getrusage(resource.RUSAGE_SELF)
        cpu_before = before.ru_utime + before.ru_stime
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        children_before = children.ru_utime + children.ru_stime
        with TournamentStore.open(config.database) as store, LoopSteps(measuring=False) as steps:
            observer = WhileGamesArePlayed(steps, pauses, games)
            # The engines' logs as a run keeps them (the communication logs too, with --debug).
            runner = TournamentRunner(config, engines, observer=observer, log_dir=Path(folder) / "logs")
            started = time.perf_counter()
            summary = await runner.run(store, handle_signals=False)
            elapsed = time.perf_counter() - started
            endings = store.termination_counts(summary.tournament_id)
            records = [stored.record for stored in store.games(summary.tournament_id)]
            plies = sum(record.plies for record in records)
    pauses.detach()
    load_after = os.getloadavg()
    used = resource.getrusage(resource.RUSAGE_SELF)
    engines_used = resource.getrusage(resource.RUSAGE_CHILDREN)
    arbiter_cpu = used.ru_utime + used.ru_stime - cpu_before
    engine_cpu = engines_used.ru_utime + engines_used.ru_stime - children_before
    forfeits = endings.get(Termination.TIME_FORFEIT, 0) + endings.get(Termination.IMPROPER_DELAY, 0)
    print(
        f"concurrency {concurrency}: {summary.finished} games, {plies} plies in {elapsed:.1f} s; "
        f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after"
    )
    print(
        f"  CPU: the arbiter {arbiter_cpu:.1f} s ({arbiter_cpu / max(plies, 1) * 1e6:.0f} us a ply), "
        f"the engines {engine_cpu:.1f} s ({engine_cpu / max(plies, 1) * 1e6:.0f} us a ply)"
    )
    print("  endings: " + ", ".join(f"{name} {count}" for name, count in sorted(endings.items())))
    print(f"  time forfeits: {forfeits}")
    lost = (Termination.TIME_FORFEIT, Termination.IMPROPER_DELAY)
    for record in records:
        if record.outcome is not None and record.outcome.termination in lost:
            print(f"    ply {record.plies + 1}: {record.outcome.reason}")
    charged = [move.elapsed for record in records for move in record.moves if move.elapsed is not None]
    if charged:
        print(
            f"  time charged a move: median {statistics.median(charged) * 1000:.1f} ms, 99th percentile "
            f"{percentile(charged, 0.99) * 1000:.1f} ms, max {max(charged) * 1000:.1f} ms"
        )
    print(
        f"  added between the engine's send time and the arrival charged: {milliseconds(arrivals.added)}"
        f" ({arrivals.stamped} of them stamped by the kernel)"
    )
    print(f"  (charged when it is read, it would add: {milliseconds(arrivals.read)})")
    print(f"  (charged when the loop handles it, it would add: {milliseconds(arrivals.handling)})")
    beyond = milliseconds(arrivals.beyond)
    print(f"  charged beyond the engine's own time (its read of go to its send): {beyond}")
    wall, cpu = steps.longest_wall, steps.longest_cpu
    print(
        f"  longest loop step: {wall.wall * 1000:.1f} ms wall, {wall.cpu * 1000:.1f} ms CPU ({wall.what}); "
        f"{cpu.cpu * 1000:.1f} ms CPU ({cpu.what}); {steps.count} steps"
    )
    print(f"  garbage collections: {pauses.describe()}")
    return forfeits, percentile(arrivals.added, 0.99) if arrivals.added else 0.0


async def run_events(
    games: int, levels: list[int], variant: str, tc: str, engine: str, debug: bool = False
) -> None:
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    logged = ", communication logs kept (--debug)" if debug else ""
    print(f"{games} {variant} games under '{tc}' between two '{engine}' engines, at each concurrency{logged}")
    for concurrency in levels:
        forfeits, p99 = await run_event(games, concurrency, variant, tc, engine, debug)
        if engine == "instant" and concurrency == 8:
            print(f"  goal (0 time forfeits at concurrency 8): {'met' if forfeits == 0 else 'NOT met'}")
        if engine == "instant" and concurrency == 4:
            met = "met" if p99 < 0.002 else "NOT met"
            print(f"  goal (99th percentile added < 2 ms at concurrency 4): {met}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--variant", default="english")
    parser.add_argument("--tc", default=None, help="time control (default: acf; st=0.05 with --concurrency)")
    parser.add_argument(
        "--engine",
        default=None,
        help="bundled engine to use on both sides (default: random; with --concurrency, 'instant': "
        "benchmarks/instant_engine.py)",
    )
    parser.add_argument(
        "--concurrency", type=int, nargs="+", default=None, help="play events, N games at a time, for each N"
    )
    parser.add_argument(
        "--debug", action="store_true", help="with --concurrency: keep the engines' communication logs"
    )
    args = parser.parse_args()
    # On the loop the commands play on (``arbiter.running.event_loop``), so the figures are theirs.
    if args.concurrency:
        event_loop.run(
            run_events(
                args.games,
                args.concurrency,
                args.variant,
                args.tc or "st=0.05",
                args.engine or "instant",
                args.debug,
            )
        )
    else:
        event_loop.run(run(args.games, args.variant, args.tc or "acf", args.engine or "random"))


if __name__ == "__main__":
    main()
