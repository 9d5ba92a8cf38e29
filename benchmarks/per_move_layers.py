"""CPU per move of the arbiter's layers outside the rules, each timed alone in this process.

Two figures, both as CPU time of this process (user + system, all threads) over the work done:

- the engine layer's search round trip: two copies of an instant Hub engine written in C
  (``benchmarks/instant_hub.c``, built with the system compiler) are sent ``pos``/``level``/``go`` in
  turn and their ``done`` waited for, as the referee does (``begin_search``, then a wait), on
  the start position with a clock level: writing the command, the event loop, reading, stamping and
  parsing the answer, waking the wait;
- the referee alone: random English games (up to 52 plies, the same every run) played by the real
  ``Referee`` with a 60+1 clock against in-process engines that answer each ``go`` at once with the
  game's next move (no process, no pipe, no wait): the clock, the told level, judging the move, the
  record, the game-end checks. The rules' own share of it is timed too, by replaying the same moves
  through the calls the referee makes of them, and printed beside it.

    python benchmarks/per_move_layers.py                         # 20,000 searches, 400 games
    python benchmarks/per_move_layers.py --searches 50000 --games 1000

Pin it to one core (``taskset -c 1 ...``) to compare two trees with less noise from the scheduler.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from harness_compare import compile_engine
from referee_rules_ply import replay

from arbiter.engines import EngineConfig, HubEngine
from arbiter.engines.client import EngineClient, SearchHandle, SearchMode
from arbiter.engines.faults import EngineFault
from arbiter.engines.level import Clock, Level
from arbiter.engines.params import EngineIdentity
from arbiter.engines.results import SearchResult
from arbiter.notation.movetext import format_hub
from arbiter.referee.game import play_game
from arbiter.referee.record import PlayerRecord
from arbiter.referee.settings import RefereeRules
from arbiter.referee.setup import GameSetup
from arbiter.referee.timecontrol import parse_time_control
from arbiter.rules import Game, get_variant

ENGLISH_START = "B" + "b" * 12 + "e" * 8 + "w" * 12
MAX_PLIES = 52


def cpu() -> float:
    return time.process_time()  # user + system, every thread of this process


@contextlib.asynccontextmanager
async def instant_engines(engine_path: Path) -> AsyncIterator[list[HubEngine]]:
    """Two copies of the instant Hub engine, opened for English checkers and ended afterwards."""
    engines = [
        HubEngine(EngineConfig(name=f"instant-{seed}", command=[str(engine_path), "-", str(seed)]))
        for seed in (1, 2)
    ]
    try:
        for engine in engines:
            await engine.open("english")
        yield engines
    finally:
        for engine in engines:
            await engine.quit()


async def engine_round_trips(engine_path: Path, searches: int) -> float:
    """CPU seconds per search of two instant engines searched in turn."""
    async with instant_engines(engine_path) as engines:
        began = cpu()
        for number in range(searches):
            search = await engines[number % 2].begin_search(
                ENGLISH_START, [], Clock(time=60.0 - number * 1e-4, inc=1.0)
            )
            if await search.wait(60.0) is None:
                sys.exit("error: an instant engine gave no move within a minute")
        return (cpu() - began) / searches


class _Answered(SearchHandle):
    """A search whose answer is there when it starts."""

    def __init__(self, result: SearchResult) -> None:
        super().__init__(time.monotonic())
        self._settle(result)

    async def stop(self) -> None:
        """Nothing runs."""

    async def finish(self, timeout: float | None = None) -> SearchResult:
        assert self._result is not None
        return self._result


class _Book:
    """The moves of the game being played and the next one, shared by both scripted engines."""

    def __init__(self) -> None:
        self.moves: list[str] = []
        self.next = 0

    def take(self) -> str:
        move = self.moves[self.next]
        self.next += 1
        return move


class _Scripted(EngineClient):
    """An in-process engine that answers each search with the game's next move at once."""

    protocol = "hub"

    def __init__(self, name: str, book: _Book) -> None:
        super().__init__(EngineConfig(name=name, command=["scripted"]), stderr_log=Path(os.devnull))
        self.book = book

    async def start(self) -> None:
        """Nothing to start."""

    async def handshake(self) -> EngineIdentity:
        raise NotImplementedError

    async def configure(self, variant: str | None = None) -> None:
        """Nothing to configure."""

    async def new_game(self) -> None:
        """Nothing to reset."""

    async def begin_search(
        self,
        position: str,
        moves: Sequence[str],
        level: Level,
        draw_offered: bool = False,
        mode: SearchMode = "think",
        *,
        mules: Sequence[int] = (),
    ) -> SearchHandle:
        return _Answered(SearchResult(self.book.take(), elapsed=0.0001))

    async def ping(self) -> float:
        return 0.0

    async def stop(self) -> None:
        """Nothing runs."""

    async def end_game(self) -> None:
        """Nothing to tell."""

    async def quit(self) -> None:
        """Nothing to end."""

    def _wake_all(self, fault: EngineFault) -> None:
        """Nobody waits."""

    def on_line(self, line: bytes, at: float) -> None:
        """No output."""


def random_games(count: int) -> list[list[str]]:
    variant, chooser = get_variant("english"), random.Random(1)
    games = []
    for _ in range(count):
        game, moves = Game(variant), []
        while game.end is None and game.ply < MAX_PLIES:
            move = chooser.choice(game.legal_moves())
            moves.append(format_hub(move))
            game.play(move)
        games.append(moves)
    return games


async def referee_plies(games: list[list[str]]) -> tuple[float, int]:
    """CPU seconds per ply of the referee playing ``games`` with scripted engines, and the plies."""
    book = _Book()
    white, black = _Scripted("a", book), _Scripted("b", book)
    setup = GameSetup("english", parse_time_control("60+1"), rules=RefereeRules(max_plies=MAX_PLIES))
    plies = 0
    began = cpu()
    for moves in games:
        book.moves, book.next = moves, 0
        record = await play_game(
            setup, white, black, white_player=PlayerRecord(name="a"), black_player=PlayerRecord(name="b")
        )
        plies += len(record.moves)
    return (cpu() - began) / plies, plies


def rules_plies(games: list[list[str]]) -> float:
    """CPU seconds per ply of the rules' calls the referee makes, on the same moves."""
    began = cpu()
    plies = replay("english", games)  # the referee's calls, as referee_rules_ply.py makes them
    return (cpu() - began) / plies


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--searches", type=int, default=20_000, help="engine round trips (default 20,000)")
    parser.add_argument("--games", type=int, default=400, help="games the referee plays (default 400)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="per-move-") as folder:
        engine = compile_engine("instant_hub.c", Path(folder))
        per_search = asyncio.run(engine_round_trips(engine, args.searches))
    games = random_games(args.games)
    per_ply, plies = asyncio.run(referee_plies(games))
    rules = rules_plies(games)
    print(
        f"engine layer, search round trip: {per_search * 1e6:.1f} µs of CPU per search "
        f"({args.searches} searches)"
    )
    print(
        f"referee alone: {per_ply * 1e6:.1f} µs of CPU per ply ({plies} plies, {args.games} games), "
        f"of which the rules' calls about {rules * 1e6:.1f} µs"
    )


if __name__ == "__main__":
    main()
