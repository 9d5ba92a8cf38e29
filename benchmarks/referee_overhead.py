"""Referee overhead: many games between two instant engines, and the referee's own time per move.

The engines are the bundled ``random`` player (it answers at once), started once and reused for every
game with ``new-game``, as the tournament runner does. The referee's overhead per move is the time from
reading one engine's ``done`` (the moment its line arrived) to writing the next ``go`` to the other
engine: waking up, checking the move, playing it, recording it, the game-end rules, the clock, and the
engine layer formatting and writing ``pos``/``level``/``go``. The figures are also split into the part
before the search is handed to the engine layer and the engine layer's write. Plies per second is the
whole loop, engines included.

    python benchmarks/referee_overhead.py                   # 200 English games under "acf"
    python benchmarks/referee_overhead.py --games 50 --variant international --tc 5400+30
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence

from arbiter.engines import EngineConfig, HubEngine, Level, SearchMode
from arbiter.engines.hub import HubSearch
from arbiter.referee.game import play_game
from arbiter.referee.record import Termination
from arbiter.referee.setup import GameSetup
from arbiter.referee.timecontrol import parse_time_control


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
    before = [total - write for total, write in zip(overhead, writes, strict=True)]
    print(f"  before the engine layer is called: {summary(before)}")
    print(f"  the engine layer writing pos/level/go: {summary(writes)}")
    goal_met = statistics.median(overhead) < 0.0005 and percentile(overhead, 0.99) < 0.005
    print(f"goal (median < 500 us, 99th percentile < 5000 us): {'met' if goal_met else 'NOT met'}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--variant", default="english")
    parser.add_argument("--tc", default="acf", help="time control (default: acf, with its jump limits)")
    parser.add_argument("--engine", default="random", help="bundled engine to use on both sides")
    args = parser.parse_args()
    asyncio.run(run(args.games, args.variant, args.tc, args.engine))


if __name__ == "__main__":
    main()
