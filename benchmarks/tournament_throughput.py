"""Tournament throughput: many games between the bundled `random` engines, at concurrency 1 and 2.

Prints games per second and the arbiter process's share of the CPU time (its own time against the
engines', which are its children). Usage: python benchmarks/tournament_throughput.py [--games 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import tempfile
import time
from pathlib import Path

from arbiter.engines import EngineConfig
from arbiter.running.runner import TournamentRunner
from arbiter.store import TournamentStore
from arbiter.tournament.config import Adjudication, EngineEntry, TournamentConfig, bundled_command


def run_once(games: int, concurrency: int, folder: Path) -> tuple[float, float, float, int]:
    entries = [EngineEntry(name="random-a", bundled="random"), EngineEntry(name="random-b", bundled="random")]
    config = TournamentConfig(
        name=f"throughput c={concurrency}",
        variant="english",
        time_control="st=1",
        format="match",
        cycles=games // 2,
        games_per_encounter=2,
        concurrency=concurrency,
        database=folder / f"throughput-{concurrency}.sqlite",
        adjudication=Adjudication(max_plies=200),
        engines=entries,
    )
    engines = [EngineConfig(name=e.name, command=bundled_command("random")) for e in entries]
    runner = TournamentRunner(config, engines)
    before_self = resource.getrusage(resource.RUSAGE_SELF)
    before_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with TournamentStore.open(config.database) as store:
        summary = asyncio.run(runner.run(store, handle_signals=False))
        plies = sum(g.record.plies for g in store.games(summary.tournament_id))
    wall = time.perf_counter() - started
    after_self = resource.getrusage(resource.RUSAGE_SELF)
    after_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = (after_self.ru_utime + after_self.ru_stime) - (before_self.ru_utime + before_self.ru_stime)
    children = (after_children.ru_utime + after_children.ru_stime) - (
        before_children.ru_utime + before_children.ru_stime
    )
    return wall, own, children, plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="games per run (even)")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores; {args.games} games of random vs random (english, max 200 plies)")
    with tempfile.TemporaryDirectory() as folder:
        for concurrency in (1, 2):
            wall, own, children, plies = run_once(args.games, concurrency, Path(folder))
            share = own / (own + children) if own + children else 0.0
            print(
                f"concurrency {concurrency}: {args.games / wall:7.1f} games/s  {plies / wall:8.0f} plies/s  "
                f"wall {wall:6.1f} s  arbiter CPU {own:6.1f} s  engines CPU {children:6.1f} s  "
                f"arbiter share {share:.0%}  arbiter CPU per game {1000 * own / args.games:.1f} ms"
            )


if __name__ == "__main__":
    main()
