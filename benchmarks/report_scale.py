"""Report scale: the time to build the HTML site of a 10,000-game event, its size, and the time of the
refresh after one more game (what `arbiter run --report site/` does after each game).

The games are real: each is played through the rules core from an ACF ballot, with moves chosen at
random (seeded) and the time of each choice recorded, to a natural end or a draw at 200 plies. The
event is a 10-engine round robin played in ballot pairs, so the site has every page kind: index,
games list, openings, one page per engine, one page and one PDN file per game, and the event PDN.

    python benchmarks/report_scale.py                   # 10,000 games
    python benchmarks/report_scale.py --games 500       # a quick look
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
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
from arbiter.report import EventInfo, GameEntry, build_site
from arbiter.rules import EndReason, Game, get_variant
from arbiter.tournament.openings import OpeningOrder, OpeningSequence, acf_deck
from arbiter.tournament.schedule import Colour, PlannedGame, TournamentFormat, plan_games

PLAYERS = [f"Engine {letter}" for letter in "ABCDEFGHIJ"]
MAX_PLIES = 200
START = datetime(2025, 1, 1, tzinfo=UTC)
_TERMINATIONS = {
    EndReason.NO_PIECES: Termination.NO_PIECES,
    EndReason.NO_LEGAL_MOVES: Termination.NO_LEGAL_MOVES,
    EndReason.REPETITION: Termination.REPETITION,
    EndReason.MOVE_COUNT_RULE: Termination.MOVE_COUNT_RULE,
}


def play(planned: PlannedGame, number: int) -> GameRecord:
    variant = get_variant("english")
    rng = random.Random(number)
    game = Game(variant)
    opening = planned.opening.text.split() if planned.opening is not None else []
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
            info = EngineInfo(depth=rng.randint(4, 12), score=round(rng.uniform(-2, 2), 2), nodes=len(legal))
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
    started = START + timedelta(minutes=number)
    ballot = planned.opening
    return GameRecord(
        variant="english",
        white=PlayerRecord(name=planned.white),
        black=PlayerRecord(name=planned.black),
        start_fen=variant.start_fen(),
        opening=OpeningRecord(
            name=ballot.name or None, acf_number=int(ballot.id.removeprefix("acf-")), moves=opening
        )
        if ballot is not None
        else None,
        time_control="5:00",
        moves=moves,
        outcome=outcome,
        started_at=started,
        ended_at=started + timedelta(minutes=3),
    )


def site_size(folder: Path) -> tuple[int, int]:
    files = [path for path in folder.rglob("*") if path.is_file()]
    return len(files), sum(path.stat().st_size for path in files)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10_000, help="games in the event (default 10000)")
    args = parser.parse_args()

    deck = OpeningSequence(tuple(acf_deck("acf-156")), OpeningOrder.RANDOM, seed=1)
    per_cycle = len(PLAYERS) * (len(PLAYERS) - 1)  # two games per encounter
    cycles = -(-args.games // per_cycle)
    schedule = plan_games(
        PLAYERS,
        TournamentFormat.ROUND_ROBIN,
        cycles=cycles,
        games_per_encounter=2,
        repeat=True,
        openings=deck,
        first_mover=Colour.BLACK,
    )
    planned = list(schedule.games[: args.games])
    print(
        f"arbiter report scale: {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores, {platform.machine()}"
    )
    began = time.perf_counter()
    records = [play(game, number) for number, game in enumerate(planned)]
    plies = sum(record.plies for record in records)
    print(f"played {len(records):,} games ({plies:,} plies) in {time.perf_counter() - began:.1f} s")

    event = EventInfo(
        name="Report scale",
        variant="english",
        time_control="5:00",
        format="round-robin",
        players=tuple(PLAYERS),
        openings="ACF deck acf-156, random order (seed 1); each opening played twice, colours swapped",
        ballot_pairs=True,
        cycles=cycles,
        games_per_encounter=2,
    )
    last = len(planned) - 1
    before_last = [
        GameEntry.planned(game, record if n < last else None)
        for n, (game, record) in enumerate(zip(planned, records, strict=True))
    ]
    everything = [GameEntry.planned(game, record) for game, record in zip(planned, records, strict=True)]
    with tempfile.TemporaryDirectory(prefix="report-scale-") as folder:
        site = Path(folder) / "site"
        began = time.perf_counter()
        built = build_site(site, event, before_last, workers=os.cpu_count() or 1)
        full = time.perf_counter() - began
        files, size = site_size(site)
        print(
            f"full build of {built.games_written:,} game pages: {full:.1f} s "
            f"({full / max(1, built.games_written) * 1000:.2f} ms per game)"
        )
        print(
            f"site: {files:,} files, {size / 1e6:.1f} MB "
            f"(index {(site / 'index.html').stat().st_size / 1e3:.0f} kB, "
            f"games list {(site / 'games.html').stat().st_size / 1e6:.1f} MB, "
            f"event PDN {(site / 'event.pdn').stat().st_size / 1e6:.1f} MB)"
        )
        began = time.perf_counter()
        again = build_site(site, event, everything)
        refresh = time.perf_counter() - began
        print(
            f"refresh after one more game: {refresh:.2f} s "
            f"({again.games_written} game pages written, {again.games_kept:,} kept)"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (whole run): {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
