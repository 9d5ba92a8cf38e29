"""Statistics speed: what the SPRT costs after every game of a match, and what a rating list costs.

Prints, for synthetic results (seeded, so every run sees the same):

* the generalized SPRT's LLR alone, per call, for single games and pairs, logistic and normalized;
* the whole per-game update the runner makes once the results are read (`sprt_status`: counting the
  games of the match, its pairs, the LLR and the Elo estimate) for a match of `--games` games;
* `fit_ratings` over a round robin of `--players` engines and `--games` games.

    python benchmarks/statistics_speed.py                          # 10,000 games, 12 players
    python benchmarks/statistics_speed.py --games 100 --players 4  # the least work
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable
from functools import partial

from arbiter.tournament.ratings import RatedGame, fit_ratings
from arbiter.tournament.scoring import FinishedGame, Outcome
from arbiter.tournament.sprt_status import sprt_status
from arbiter.tournament.stats import EloModel, Pentanomial, SprtSettings, sprt_pentanomial, sprt_wdl

OUTCOMES = (Outcome.WHITE_WINS, Outcome.DRAW, Outcome.BLACK_WINS)


def per_call(action: Callable[[], object], least_seconds: float = 0.3) -> float:
    """Seconds per call, over as many calls as fill `least_seconds` (at least 3)."""
    calls, started = 0, time.perf_counter()
    while calls < 3 or time.perf_counter() - started < least_seconds:
        action()
        calls += 1
    return (time.perf_counter() - started) / calls


def drawish_match(games: int, rng: random.Random) -> list[FinishedGame]:
    """A match of `games` games in opening pairs, 80 % draws, colours swapped within each pair."""
    results = []
    for number in range(games):
        white, black = ("A", "B") if number % 2 == 0 else ("B", "A")
        outcome = rng.choices(OUTCOMES, weights=(11, 80, 9))[0]
        results.append(FinishedGame(white, black, outcome, pair_index=number // 2))
    return results


def round_robin(players: int, games: int, rng: random.Random) -> list[RatedGame]:
    names = [f"engine-{n:02d}" for n in range(players)]
    strength = {name: rng.gauss(0.0, 100.0) for name in names}
    rated = []
    for number in range(games):
        first, second = rng.sample(names, 2)
        expected = 1.0 / (1.0 + 10 ** (-(strength[first] - strength[second]) / 400.0))
        draw = rng.random() < 0.6
        score = 0.5 if draw else (1.0 if rng.random() < expected else 0.0)
        rated.append(RatedGame(first, second, score, unit=number // 2))
    return rated


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10_000, help="games of the match and of the rating list")
    parser.add_argument("--players", type=int, default=12, help="engines of the rating list")
    options = parser.parse_args()
    rng = random.Random(2026)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    logistic, normalized = SprtSettings(0.0, 5.0), SprtSettings(0.0, 5.0, model=EloModel.NORMALIZED)
    pairs = Pentanomial(ll=30, ld=400, wl=100, dd=3000, wd=420, ww=35)
    for label, settings in (("logistic", logistic), ("normalized", normalized)):
        games = per_call(partial(sprt_wdl, settings, 1200, 7000, 1100))
        paired = per_call(partial(sprt_pentanomial, settings, pairs))
        print(f"LLR {label:10s}: games {games * 1e6:8.1f} µs/call, pairs {paired * 1e6:8.1f} µs/call")

    match = drawish_match(options.games, rng)
    for label, settings in (("logistic", logistic), ("normalized", normalized)):
        for paired_games in (False, True):
            seconds = per_call(partial(sprt_status, settings, match, "A", "B", paired=paired_games))
            kind = "pairs" if paired_games else "games"
            print(
                f"SPRT update after a game, {options.games} games, {label}, by {kind}: {seconds * 1e3:.2f} ms"
            )

    rated = round_robin(options.players, options.games, rng)
    started = time.perf_counter()
    listed = fit_ratings(rated)
    seconds = time.perf_counter() - started
    best = listed.ratings[0]
    print(
        f"rating list: {options.players} players, {options.games} games in pairs: {seconds:.3f} s "
        f"(best {best.player} {best.rating:+.1f} ± {best.margin:.1f})"
    )


if __name__ == "__main__":
    main()
