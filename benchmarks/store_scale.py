"""Store scale: write many synthetic games to a tournament database, then time the standings.

Each game is stored the way the runner stores it (`TournamentStore.record_game`: one transaction with
the game row, every move and an event, committed with full synchronous writes). The moves are real:
a few dozen random legal English games of exactly `--plies` plies are played by the rules core and
dealt out again and again, each move with its time, clock and engine info.

Prints the time to write one game (mean, median, 99th percentile), the time to compute the standings
and crosstable from the database, the time of the resume query, and the database size.

    python benchmarks/store_scale.py                      # 100,000 games of 60 plies
    python benchmarks/store_scale.py --games 5000 --keep  # a smaller run, keeping the file
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from arbiter.notation.movetext import format_hub, format_pdn
from arbiter.referee.record import (
    EngineInfo,
    GameOutcome,
    GameRecord,
    MoveRecord,
    PlayerRecord,
    Side,
    Termination,
    Winner,
)
from arbiter.rules import Game, get_variant
from arbiter.store import Event, EventKind, PlayerEntry, TournamentStore
from arbiter.tournament.schedule import PlannedGame, TournamentFormat, plan_games
from arbiter.tournament.stored_standings import stored_standings

PLAYERS = [f"Engine {letter}" for letter in "ABCDEFGHIJ"]
START = datetime(2024, 1, 1, tzinfo=UTC)


def move_lists(count: int, plies: int, seed: int) -> list[list[MoveRecord]]:
    """`count` different random legal games of exactly `plies` plies, as recorded moves."""
    rng = random.Random(seed)
    rules = get_variant("english")
    games: list[list[MoveRecord]] = []
    while len(games) < count:
        game = Game(rules)
        moves: list[MoveRecord] = []
        clocks = {Side.WHITE: 300.0, Side.BLACK: 300.0}
        while game.end is None and game.ply < plies:
            position = game.position
            move = rng.choice(game.legal_moves())
            side = Side.of(position.turn)
            text = format_pdn(position, move)
            elapsed = rng.uniform(0.05, 3.0)
            clocks[side] -= elapsed
            info = EngineInfo(
                depth=rng.randint(8, 24),
                score=round(rng.uniform(-2, 2), 2),
                nodes=rng.randint(10**4, 10**8),
                time=elapsed,
                pv=[text, "9-14", "22-18"],
            )
            moves.append(
                MoveRecord(
                    ply=game.ply + 1,
                    side=side,
                    text=text,
                    hub=format_hub(move),
                    elapsed=elapsed,
                    clock=clocks[side],
                    info=info,
                )
            )
            game.play(move)
        if len(moves) == plies:
            games.append(moves)
    return games


def record_for(
    planned: PlannedGame, moves: list[MoveRecord], winner: Winner, started: datetime
) -> GameRecord:
    termination = Termination.ADJUDICATION_DRAW if winner is Winner.DRAW else Termination.ADJUDICATION_WIN
    return GameRecord(
        variant="english",
        white=PlayerRecord(name=planned.white, engine_id=planned.white.lower().replace(" ", "-")),
        black=PlayerRecord(name=planned.black, engine_id=planned.black.lower().replace(" ", "-")),
        start_fen="B:W21-32:B1-12",
        time_control="40/300+1",
        moves=moves,
        outcome=GameOutcome.of(winner, termination),
        started_at=started,
        ended_at=started + timedelta(minutes=5),
    )


def random_winner(rng: random.Random, planned: PlannedGame) -> Winner:
    # Stronger engines come first in PLAYERS, so the table has a clear order.
    edge = (PLAYERS.index(planned.black) - PLAYERS.index(planned.white)) * 0.03
    draw = 0.4
    roll = rng.random()
    if roll < draw:
        return Winner.DRAW
    return Winner.WHITE if roll < draw + (1 - draw) / 2 + edge else Winner.BLACK


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="games to write (default 100,000)")
    parser.add_argument("--plies", type=int, default=60, help="plies per game (default 60)")
    parser.add_argument("--db", type=Path, help="database file to create (default: a temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the database file")
    args = parser.parse_args()

    folder = None
    if args.db is None:
        folder = tempfile.mkdtemp(prefix="arbiter-store-scale-")
        args.db = Path(folder) / "scale.db"
    if args.db.exists():
        sys.exit(f"error: {args.db} exists; name a new file")

    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    print(f"database: {args.db}")
    started = time.perf_counter()
    deck = move_lists(64, args.plies, seed=1)
    print(f"played {len(deck)} random games of {args.plies} plies in {time.perf_counter() - started:.1f} s")

    encounters_per_cycle = len(PLAYERS) * (len(PLAYERS) - 1) // 2
    cycles = -(-args.games // (2 * encounters_per_cycle))
    schedule = plan_games(PLAYERS, TournamentFormat.ROUND_ROBIN, cycles=cycles, games_per_encounter=2)
    planned_games = schedule.games[: args.games]

    rng = random.Random(2)
    write_times: list[float] = []
    with TournamentStore.open(args.db) as store:
        tid = store.create_tournament(
            name="Store scale",
            variant="english",
            format=TournamentFormat.ROUND_ROBIN,
            time_control="40/300+1",
            players=[PlayerEntry(name, name.lower().replace(" ", "-")) for name in PLAYERS],
            config='{"benchmark": "store_scale"}',
        )
        for number, planned in enumerate(planned_games):
            record = record_for(
                planned,
                deck[number % len(deck)],
                random_winner(rng, planned),
                START + timedelta(minutes=number),
            )
            event = Event(EventKind.NOTE, f"game {planned.key} stored by the benchmark", engine=planned.white)
            before = time.perf_counter()
            store.record_game(tid, planned, record, [event])
            write_times.append(time.perf_counter() - before)
            if (number + 1) % 10_000 == 0:
                print(f"  {number + 1:>7,} games written, {sum(write_times):.0f} s so far", flush=True)

        standings_times: list[float] = []
        for _ in range(5):
            before = time.perf_counter()
            table = stored_standings(store, tid)
            standings_times.append(time.perf_counter() - before)
        before = time.perf_counter()
        results = store.finished_results(tid)
        results_time = time.perf_counter() - before
        before = time.perf_counter()
        done = store.finished_keys(tid)
        keys_time = time.perf_counter() - before
    size = args.db.stat().st_size

    write_times.sort()
    total_moves = len(planned_games) * args.plies
    print()
    print(f"games written: {len(planned_games):,} ({total_moves:,} move rows), {args.plies} plies each")
    print(
        f"write one game: mean {statistics.fmean(write_times) * 1000:.2f} ms, "
        f"median {statistics.median(write_times) * 1000:.2f} ms, "
        f"99th percentile {write_times[int(len(write_times) * 0.99)] * 1000:.2f} ms; "
        f"total {sum(write_times):.0f} s"
    )
    print(
        f"standings + crosstable of {table.games:,} games: best {min(standings_times):.3f} s, "
        f"median {statistics.median(standings_times):.3f} s (5 runs)"
    )
    print(f"finished results with openings and pairs ({len(results):,} rows): {results_time:.3f} s")
    print(f"resume query ({len(done):,} finished keys): {keys_time:.3f} s")
    print(f"database size: {size / 2**20:.1f} MiB ({size / len(planned_games):,.0f} bytes per game)")
    print(f"leader: {table.table[0].player} with {table.table[0].points} points")
    if not args.keep:
        args.db.unlink()
        if folder is not None:
            for leftover in Path(folder).iterdir():
                leftover.unlink()
            os.rmdir(folder)


if __name__ == "__main__":
    main()
