"""PDN import speed and memory: write a PDN file of many real games, then `arbiter pdn import` it.

The games are random legal English games of 40 to 120 plies played by the rules core (a few dozen,
dealt out again and again under different player names and dates), written by the project's PDN
writer. The import runs in a child process, as a user runs it, so that its peak memory (the largest
resident set) is its own; importing a file twice as large should not take more memory.

    python benchmarks/pdn_import.py                    # 20,000 games, then 5,000 for the memory figure
    python benchmarks/pdn_import.py --games 200 --small 50
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arbiter.notation.pdn_model import result_text
from arbiter.notation.pdn_writer import format_game, game_record
from arbiter.rules import Game, Move, get_variant

DISTINCT_GAMES = 48


def random_games(count: int, seed: int = 2026) -> list[tuple[list[Move], str]]:
    """`count` random legal English games of 40 to 120 plies, each with its PDN result."""
    variant = get_variant("english")
    chance = random.Random(seed)
    games: list[tuple[list[Move], str]] = []
    while len(games) < count:
        game = Game(variant)
        length = chance.randint(40, 120)
        while game.end is None and len(game.moves) < length:
            game.play(chance.choice(game.legal_moves()))
        if game.end is not None and game.end.winner is not None:
            result = result_text(variant, game.end.winner)
        else:
            result = "1/2-1/2"  # stopped by length: agreed drawn, as the file says
        games.append((list(game.moves), result))
    return games


def write_file(path: Path, count: int) -> int:
    """Write `count` games to `path`; return the file's size in bytes."""
    variant = get_variant("english")
    dealt = random_games(DISTINCT_GAMES)
    with path.open("w", encoding="utf-8") as out:
        for number in range(count):
            moves, result = dealt[number % len(dealt)]
            tags = {
                "Event": "import benchmark",
                "Date": f"{2000 + number % 25}.{1 + number % 12:02d}.{1 + number % 28:02d}",
                "White": f"Player {number % 97}",
                "Black": f"Player {(number * 7 + 1) % 97 if (number * 7 + 1) % 97 != number % 97 else 96}",
                "Round": str(number + 1),
            }
            out.write(format_game(game_record(variant, moves, tags=tags, result=result)))
    return path.stat().st_size


def run_import(pdn: Path, database: Path) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds, peak resident set (KiB) and the summary line of `arbiter pdn import`
    as a child. The CPU time does not grow when other work shares the machine; the wall time does."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "pdn", "import", str(pdn), "--db", str(database)],
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"the import failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return seconds, cpu, after.ru_maxrss, done.stdout.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20_000, help="games in the large file (default 20,000)")
    parser.add_argument("--small", type=int, default=5_000, help="games in the small file (default 5,000)")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        # The small file first: the children's peak is the largest so far, so it must grow to count.
        figures = []
        for count in (args.small, args.games):
            pdn = root / f"games-{count}.pdn"
            size = write_file(pdn, count)
            seconds, cpu, peak, summary = run_import(pdn, root / f"import-{count}.sqlite")
            figures.append((count, size, seconds, cpu, peak))
            print(f"  {summary}")
        print()
        print(
            "| games in the file | file size | import time | games/minute | CPU time | games/minute of CPU "
            "| peak memory (largest so far) |"
        )
        print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for count, size, seconds, cpu, peak in figures:
            print(
                f"| {count:,} | {size / 2**20:.1f} MiB | {seconds:.1f} s | {count / seconds * 60:,.0f} | "
                f"{cpu:.1f} s | {count / cpu * 60:,.0f} | {peak / 1024:.0f} MiB |"
            )


if __name__ == "__main__":
    main()
