"""The rules' and notation's share of a referee's work per ply, timed alone.

    .venv/bin/python benchmarks/referee_rules_ply.py [--variant english] [--games 400] [--plies 52]
                                                     [--repeat 5] [--seed 1]

It plays ``--games`` random games (a seeded random legal move each ply, at most ``--plies`` plies, as
the instant engines of ``harness_compare.py`` do), keeps each move's Hub text, then replays them the
way ``arbiter.referee`` plays an engine's answers: per ply the move count and whether it captures (the
turn), reading the Hub text against the position (the engine's answer), whether the move is
irreversible, its PDN and Hub text (the record), playing it with the game's end and draw rules, and
the Hub string of the new position after an irreversible move (the engines' new search base).
Prints the CPU per ply of the replay (best and median of ``--repeat`` runs) with the machine's load.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

from arbiter.notation.movetext import format_hub, format_pdn, parse_hub
from arbiter.rules import Game, get_variant


def random_games(variant_id: str, games: int, plies: int, seed: int) -> list[list[str]]:
    """The Hub texts of ``games`` random games of at most ``plies`` plies."""
    variant = get_variant(variant_id)
    rng = random.Random(seed)
    out: list[list[str]] = []
    for _ in range(games):
        game = Game(variant)
        texts: list[str] = []
        while game.end is None and game.ply < plies:
            move = rng.choice(game.legal_moves())
            texts.append(format_hub(move))
            game.play(move)
        out.append(texts)
    return out


def replay(variant_id: str, games: list[list[str]]) -> int:
    """Replay every game as the referee does; returns the plies played."""
    variant = get_variant(variant_id)
    plies = 0
    for texts in games:
        game = Game(variant)
        game.position.hub()  # the engines' first search base
        for text in texts:
            position = game.position
            position.legal_move_count()
            position.has_capture()
            move = parse_hub(position, text, None)
            irreversible = game.is_irreversible(move)
            format_pdn(position, move)
            format_hub(move)
            game.play(move)
            if irreversible:
                game.position.hub()
            plies += 1
            if game.end is not None:
                break
    return plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="english")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--plies", type=int, default=52)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = random_games(args.variant, args.games, args.plies, args.seed)
    per_ply: list[float] = []
    plies = 0
    for _ in range(args.repeat):
        started = time.process_time()
        plies = replay(args.variant, games)
        per_ply.append((time.process_time() - started) / plies * 1e6)
    load = os.getloadavg()
    print(f"{args.variant}: {len(games)} games, {plies} plies a run, {args.repeat} runs")
    best, median = min(per_ply), statistics.median(per_ply)
    print(f"rules + notation CPU per ply: best {best:.1f} us, median {median:.1f} us")
    print(
        f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}, "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )


if __name__ == "__main__":
    main()
