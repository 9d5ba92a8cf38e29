"""Report scale: the site of a tournament database of 1,000, 10,000 and 100,000 games.

For each size, a database is written as the runner writes it (`TournamentStore.record_game`, one
transaction a game), then:

* full build: `arbiter report DB --out SITE --full` as a user runs it, in a process of its own
  (with worker processes for the game pages); its time and the peak memory of that process;
* refresh after one more game: one game is stored, and the site brought up to date, (a) by the
  publisher of a running event, which keeps its counts between refreshes, and (b) by a new
  `arbiter report` on the existing site, which reads every game's line once (a batch at a time).

The event is a ten-engine English round robin on the ACF 156 deck, in ballot pairs, so the site has
every page kind. Its games are real: two games per ballot are played through the rules core from the
ballot with seeded random moves (timed, with engine info), to a natural end or a draw at 200 plies,
and each planned game gets one of its ballot's two, under its own players' names.

    python benchmarks/report_scale.py                          # 1,000 and 10,000 games
    python benchmarks/report_scale.py --sizes 1000,10000,100000
    python benchmarks/report_scale.py --games 200              # one size, a quick look
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from arbiter.notation.movetext import format_hub, format_pdn, parse_pdn
from arbiter.referee.record import (
    EngineInfo,
    GameOutcome,
    GameRecord,
    MoveRecord,
    OpeningRecord,
    PlayerRecord,
    Side,
    Termination,
    Winner,
)
from arbiter.report.store_site import StoreSite
from arbiter.rules import EndReason, Game, get_variant
from arbiter.store import PlayerEntry, TournamentStatus, TournamentStore
from arbiter.tournament.config import EngineEntry, Openings, TournamentConfig
from arbiter.tournament.openings import Opening
from arbiter.tournament.plan import plan_tournament
from arbiter.tournament.schedule import PlannedGame

PLAYERS = [f"Engine {letter}" for letter in "ABCDEFGHIJ"]
REFRESHES = 5
PROGRESS_EVERY = 10_000
MAX_PLIES = 200
START = datetime(2025, 1, 1, tzinfo=UTC)
_TERMINATIONS = {
    EndReason.NO_PIECES: Termination.NO_PIECES,
    EndReason.NO_LEGAL_MOVES: Termination.NO_LEGAL_MOVES,
    EndReason.REPETITION: Termination.REPETITION,
    EndReason.MOVE_COUNT_RULE: Termination.MOVE_COUNT_RULE,
}


def play(ballot: Opening, seed: int) -> GameRecord:
    """One game from `ballot`, random moves (seeded) after it, each with its time and engine info."""
    variant = get_variant("english")
    rng = random.Random(seed)
    game = Game(variant)
    opening = ballot.text.split()
    clocks = {Side.WHITE: 300.0, Side.BLACK: 300.0}
    moves: list[MoveRecord] = []
    end = None
    while end is None and game.ply < MAX_PLIES:
        position = game.position
        side = Side.of(position.turn)
        began = time.perf_counter()
        if game.ply < len(opening):
            move = parse_pdn(position, opening[game.ply])
            extra: dict[str, object] = {"from_opening": True}
        else:
            legal = position.legal_moves()
            move = rng.choice(legal)
            elapsed = time.perf_counter() - began
            clocks[side] -= elapsed
            pv = [format_hub(move)]
            info = EngineInfo(
                depth=rng.randint(4, 12), score=round(rng.uniform(-2, 2), 2), nodes=len(legal), pv=pv
            )
            extra = {"elapsed": elapsed, "clock": clocks[side], "info": info}
        moves.append(
            MoveRecord(
                ply=game.ply + 1,
                side=side,
                text=format_pdn(position, move),
                hub=format_hub(move),
                **extra,  # type: ignore[arg-type]
            )
        )
        end = game.play(move)
    if end is None:
        outcome = GameOutcome.of(Winner.DRAW, Termination.MAX_LENGTH)
    else:
        winner = Winner.DRAW if end.winner is None else Winner.side(end.winner)
        rule = end.rule if end.reason is EndReason.MOVE_COUNT_RULE else None
        outcome = GameOutcome.of(winner, _TERMINATIONS[end.reason], rule=rule)
    return GameRecord(
        variant="english",
        white=PlayerRecord(name="white"),
        black=PlayerRecord(name="black"),
        start_fen=variant.start_fen(),
        opening=OpeningRecord(
            name=ballot.name or None, acf_number=int(ballot.id.removeprefix("acf-")), moves=opening
        ),
        time_control="5:00",
        moves=moves,
        outcome=outcome,
        started_at=START,
        ended_at=START + timedelta(minutes=3),
    )


def config_for(games: int) -> TournamentConfig:
    per_cycle = len(PLAYERS) * (len(PLAYERS) - 1)  # two games per encounter
    return TournamentConfig(
        name="Report scale",
        variant="english",
        time_control="300",
        format="round-robin",
        cycles=-(-(games + REFRESHES + 1) // per_cycle),
        games_per_encounter=2,
        repeat=True,
        openings=Openings(deck="acf-156", order="random", seed=1),
        engines=[EngineEntry(name=name, bundled="random") for name in PLAYERS],
    )


class Games:
    """Records for planned games: two played games per ballot, dealt out under the players' names."""

    def __init__(self, planned: list[PlannedGame]) -> None:
        self.pool: dict[tuple[str, int], GameRecord] = {}
        for game in planned:
            assert game.opening is not None
            for copy in (0, 1):
                key = (game.opening.id, copy)
                if key not in self.pool:
                    self.pool[key] = play(game.opening, seed=len(self.pool))

    def record(self, game: PlannedGame, number: int) -> GameRecord:
        assert game.opening is not None
        base = self.pool[(game.opening.id, number % 2)]
        started = START + timedelta(minutes=number)
        return base.model_copy(
            update={
                "white": PlayerRecord(name=game.white),
                "black": PlayerRecord(name=game.black),
                "started_at": started,
                "ended_at": started + timedelta(minutes=3),
            }
        )


def write_database(path: Path, games: int) -> tuple[int, list[PlannedGame], Games]:
    config = config_for(games)
    planned = list(plan_tournament(config).schedule.games)
    pool = Games(planned[: games + REFRESHES + 1])
    with TournamentStore.open(path) as store:
        tid = store.create_tournament(
            name=config.name,
            variant=config.variant,
            format=config.format,
            time_control=config.time_control,
            players=[PlayerEntry(name, name) for name in PLAYERS],
            config=config,
            status=TournamentStatus.RUNNING,
        )
        began, cpu = time.perf_counter(), time.process_time()
        for number, game in enumerate(planned[:games]):
            store.record_game(tid, game, pool.record(game, number))
            if (number + 1) % PROGRESS_EVERY == 0 or number + 1 == games:
                wall, used = time.perf_counter() - began, time.process_time() - cpu
                print(
                    f"  stored {number + 1:,} games: {wall:.0f} s, {1000 * wall / (number + 1):.2f} ms "
                    f"a game (CPU {1000 * used / (number + 1):.2f} ms), load {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
    return tid, planned, pool


def full_build(database: Path, site: Path) -> tuple[float, float, float, float]:
    """`arbiter report --full` in a process of its own: (seconds, CPU seconds of that process and its
    workers, peak MB of that process, peak MB of its largest worker)."""
    probe = (
        "import resource, sys, time\n"
        "from arbiter.cli import app\n"
        "began = time.perf_counter()\n"
        "try:\n"
        "    app(sys.argv[1:], standalone_mode=False)\n"
        "finally:\n"
        "    took = time.perf_counter() - began\n"
        "    own = resource.getrusage(resource.RUSAGE_SELF)\n"
        "    workers = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "    cpu = own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime\n"
        "    print('MEASURED', took, cpu, own.ru_maxrss / 1024, workers.ru_maxrss / 1024)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, "report", str(database), "--out", str(site), "--full"],
        capture_output=True,
        text=True,
        check=True,
    )
    line = next(text for text in done.stdout.splitlines() if text.startswith("MEASURED"))
    _, took, cpu, peak, worker_peak = line.split()
    return float(took), float(cpu), float(peak), float(worker_peak)


def load_times(site: Path) -> dict[str, float]:
    """Seconds Chromium takes to load some pages from the disk (to the load event), when it is here."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {}
    if not Path("/usr/bin/chromium").is_file():
        return {}
    engine = sorted((site / "engines").glob("*.html"))[0]
    pages = ["index.html", "games.html", f"engines/{engine.name}", "openings.html", "live.html"]
    times = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page()
        for name in pages:
            page.goto((site / name).as_uri())
            took = page.evaluate(
                "(() => { const n = performance.getEntriesByType('navigation')[0];"
                " return (n.loadEventEnd - n.startTime) / 1000; })()"
            )
            times[str(name)] = float(took)
        browser.close()
    return times


def site_size(folder: Path) -> tuple[int, int]:
    files = [path for path in folder.rglob("*") if path.is_file()]
    return len(files), sum(path.stat().st_size for path in files)


def rss_mb() -> float:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def measure(games: int, folder: Path) -> dict[str, float]:
    database, site = folder / f"event-{games}.sqlite", folder / f"site-{games}"
    kept = folder / f"event-{games}.kept.sqlite"
    began = time.perf_counter()
    if kept.is_file():  # --keep: the database of an earlier run, as it was before the refreshes
        shutil.copyfile(kept, database)
        config = config_for(games)
        planned = list(plan_tournament(config).schedule.games)
        pool = Games(planned[: games + REFRESHES + 1])
        tid = 1
        print(f"  {games:,} games: the database kept by an earlier run", flush=True)
    else:
        tid, planned, pool = write_database(database, games)
        print(f"  {games:,} games stored in {time.perf_counter() - began:.0f} s", flush=True)
        shutil.copyfile(database, kept)
    took, build_cpu, peak, worker_peak = full_build(database, site)
    files, size = site_size(site)
    print(
        f"  full build: {took:.1f} s (CPU {build_cpu:.1f} s with its workers), peak {peak:.0f} MB "
        f"(largest worker {worker_peak:.0f} MB); site {files:,} files, {size / 1e6:.0f} MB; "
        f"load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    engine = sorted((site / "engines").glob("*.html"))[0].relative_to(site)
    sizes = {
        str(name): (site / name).stat().st_size / 1e3
        for name in ("index.html", "games.html", engine, "openings.html")
    }
    print("  page sizes: " + ", ".join(f"{name} {kb:.0f} kB" for name, kb in sizes.items()), flush=True)
    loads = load_times(site)
    if loads:
        print(
            "  Chromium load from the disk: " + ", ".join(f"{n} {s:.2f} s" for n, s in loads.items()),
            flush=True,
        )
    publisher = StoreSite(database, site, tid)
    began = time.perf_counter()
    publisher.refresh()
    first = time.perf_counter() - began
    warm, warm_cpu = [], []
    for extra in range(REFRESHES):
        with TournamentStore.open(database) as store:
            store.record_game(tid, planned[games + extra], pool.record(planned[games + extra], games + extra))
        began, cpu = time.perf_counter(), time.process_time()
        built = publisher.refresh()
        warm.append(time.perf_counter() - began)
        warm_cpu.append(time.process_time() - cpu)
        assert built.games_written == 1, built
    print(
        f"  publisher: first look {first:.2f} s; refresh after one more game, {REFRESHES} times: "
        f"median {statistics.median(warm):.3f} s (CPU {statistics.median(warm_cpu):.3f} s), "
        f"best {min(warm):.3f} s (holding {rss_mb():.0f} MB)",
        flush=True,
    )
    with TournamentStore.open(database) as store:
        store.record_game(
            tid, planned[games + REFRESHES], pool.record(planned[games + REFRESHES], games + REFRESHES)
        )
    began, cpu = time.perf_counter(), time.process_time()
    StoreSite(database, site, tid).refresh()
    cold, cold_cpu = time.perf_counter() - began, time.process_time() - cpu
    print(f"  a new `arbiter report` after one more game: {cold:.2f} s (CPU {cold_cpu:.2f} s)", flush=True)
    return {
        "games": games,
        "full": took,
        "full_cpu": build_cpu,
        "peak_mb": peak,
        "refresh": statistics.median(warm),
        "refresh_cpu": statistics.median(warm_cpu),
        "cold_refresh": cold,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--sizes", default="1000,10000", help="event sizes, comma-separated (default 1000,10000)"
    )
    parser.add_argument("--games", type=int, help="one event size (instead of --sizes)")
    parser.add_argument("--keep", type=Path, help="a folder to keep the databases in, and reuse them from")
    args = parser.parse_args()
    sizes = [args.games] if args.games else [int(size) for size in args.sizes.split(",")]
    print(
        f"arbiter report scale: {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores, {platform.machine()}, load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    results = []
    with tempfile.TemporaryDirectory(prefix="report-scale-") as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        for games in sizes:
            print(f"{games:,} games:", flush=True)
            results.append(measure(games, folder))
    print(json.dumps(results))
    print(f"peak memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
