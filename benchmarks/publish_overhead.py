"""Publish overhead: what publishing the site as games finish adds to the arbiter's CPU time.

The same event is played twice through the full runner: 2,000 games between two bundled `random`
engines (English, `st=1`, a draw at 200 plies, engines reused), once without a site and once with
the site published as `arbiter run --report` publishes it: a child process (`arbiter.report.publisher`)
handed, a few times a second, each running game's latest move, the positions of the games that
ended and a note that games were stored (`MessageBatch`), refreshing the site as often as its pacing allows
(`arbiter.report.publisher.next_gap`) and the live page's data at most once a second. The store is
opened as `arbiter run` opens it (`RunStore`, without the ORM, which the child would import too).
The arbiter's CPU time is that of the runner's process plus, with the site, the publisher's; the
engines' time is left out. With the site, it also says how current the site was: how many refreshes
the runner saw and how long after a game was stored the site showed it.

    python benchmarks/publish_overhead.py               # 2,000 games
    python benchmarks/publish_overhead.py --games 200   # a quick look
    python benchmarks/publish_overhead.py --pairs 5     # the median of five pairs of runs
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import statistics
import tempfile
import time
from multiprocessing.queues import Queue
from pathlib import Path

from arbiter.engines import EngineConfig
from arbiter.report.live import LiveWatcher, Message, MessageBatch
from arbiter.report.publisher import publish
from arbiter.report.site import MANIFEST
from arbiter.running.runner import TournamentRunner
from arbiter.store import RunStore
from arbiter.tournament.config import Adjudication, EngineEntry, TournamentConfig, bundled_command
from arbiter.tournament.schedule import PlannedGame


def timed_publish(
    messages: Queue[Message], database: Path, out: Path, tournament_id: int, times: Queue[float]
) -> None:
    """The publisher's work, then its own CPU seconds."""
    publish(messages, database, out, tournament_id)
    used = os.times()
    times.put(used.user + used.system)


def cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


class Currency:
    """How far the site is behind the store: after each stored game, the revision the site's manifest
    says it has published (a look at the file, a few µs of the runner's time a game; it is read only
    when it was replaced since the last look)."""

    def __init__(self, site: Path) -> None:
        self.manifest = site / MANIFEST
        self.stored: list[float] = []
        """When each game was stored (its revision is its place in this list, from 1)."""
        self.seen: list[tuple[float, int]] = []
        self.looked: tuple[int, int] | None = None
        """The manifest's inode and time of change at the last read (each refresh replaces it)."""
        self.revision = 0

    def game_stored(self) -> None:
        now = time.monotonic()
        self.stored.append(now)
        try:
            status = os.stat(self.manifest)
            looked = (status.st_ino, status.st_mtime_ns)
            if looked != self.looked:
                data = json.loads(self.manifest.read_text(encoding="utf-8"))
                self.revision, self.looked = int(data["store"]["revision"]), looked
        except (OSError, ValueError, KeyError):
            pass
        self.seen.append((now, self.revision))

    def report(self) -> str:
        """Refreshes seen, and how long a game waited to be on the site (median and longest), as far
        as the moments games were stored show it."""
        revisions = sorted({revision for _, revision in self.seen})
        waits = []
        place = 0
        for number, stored in enumerate(self.stored, start=1):
            while place < len(self.seen) and self.seen[place][1] < number:
                place += 1
            if place < len(self.seen):
                waits.append(self.seen[place][0] - stored)
        if not waits:
            return "the site was not seen to show a game while the event ran"
        return (
            f"{len(revisions)} refreshes seen; a game was on the site {statistics.median(waits):.1f} s "
            f"after it was stored (median), {max(waits):.1f} s at most"
        )


def run_once(games: int, folder: Path, site: Path | None) -> tuple[float, float, float, str]:
    """(wall seconds, runner CPU seconds, publisher CPU seconds, how current the site was) of one event."""
    entries = [EngineEntry(name="random-a", bundled="random"), EngineEntry(name="random-b", bundled="random")]
    config = TournamentConfig(
        name="publish overhead",
        variant="english",
        time_control="st=1",
        format="match",
        cycles=games // 2,
        games_per_encounter=2,
        concurrency=2,
        database=folder / f"overhead-{'site' if site else 'none'}.sqlite",
        adjudication=Adjudication(max_plies=200),
        engines=entries,
    )
    engines = [EngineConfig(name=e.name, command=bundled_command("random")) for e in entries]
    runner = TournamentRunner(config, engines)
    context = multiprocessing.get_context("spawn")
    messages: Queue[Message] = context.Queue()
    times: Queue[float] = context.Queue()
    before = cpu()
    started = time.perf_counter()
    with RunStore.open(config.database) as store:
        child = None
        if site is not None:
            tournament_id = runner.open_tournament(store)
            child = context.Process(
                target=timed_publish, args=(messages, store.path, site, tournament_id, times)
            )
            child.start()
            currency = Currency(site)

            batch = MessageBatch(messages.put)

            def game_stored(_: int) -> None:
                batch.game_stored()
                currency.game_stored()

            runner.game_stored = game_stored

            def watch(game: PlannedGame) -> LiveWatcher:
                return LiveWatcher(str(game.key), batch)

            runner.game_observer = watch
        asyncio.run(runner.run(store, handle_signals=False))
        publisher = 0.0
        if child is not None:
            batch.flush()
            messages.put(("stop",))
            publisher = times.get()
            child.join()
    return time.perf_counter() - started, cpu() - before, publisher, "" if site is None else currency.report()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=2000, help="games per run (even)")
    parser.add_argument(
        "--pairs",
        type=int,
        default=1,
        help="runs without and with the site, one after the other, this many times; the share is the "
        "median over them (one event's CPU varies from run to run by as much as the share itself)",
    )
    args = parser.parse_args()
    print(
        f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; "
        f"{args.games} games of random vs random"
    )
    shares: list[float] = []
    for pair in range(1, args.pairs + 1):
        if args.pairs > 1:
            print(f"pair {pair} of {args.pairs}, load {os.getloadavg()[0]:.1f}")
        shares.append(one_pair(args.games))
    if args.pairs > 1:
        listed = ", ".join(f"{share:.0f}%" for share in shares)
        print(f"publishing adds {statistics.median(shares):.0f}% (median of {args.pairs} pairs: {listed})")
    print(f"load at the end: {os.getloadavg()[0]:.1f}")


def one_pair(games: int) -> float:
    """One event without the site, then the same with it; the share publishing added, in per cent."""
    with tempfile.TemporaryDirectory() as folder:
        wall, own, _, _ = run_once(games, Path(folder), None)
        print(
            f"without a site: wall {wall:.1f} s, arbiter CPU {own:.1f} s ({1000 * own / games:.1f} ms a game)"
        )
        wall, own_site, publisher, current = run_once(games, Path(folder), Path(folder) / "site")
        total = own_site + publisher
        print(
            f"with the site:  wall {wall:.1f} s, arbiter CPU {total:.1f} s "
            f"({1000 * total / games:.1f} ms a game) = runner {own_site:.1f} s "
            f"+ publisher {publisher:.1f} s"
        )
        print(f"how current the site was: {current}")
        share = 100 * (total - own) / own
        print(f"publishing adds {share:.0f}% to the arbiter's CPU time (goal: at most 33%)")
        return share


if __name__ == "__main__":
    main()
