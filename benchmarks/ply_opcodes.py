"""Work per move counted, not timed: the Python bytecode instructions and calls of each layer.

CPU time on a shared machine moves by a tenth from one run to the next, more than most changes to the
per-move path are worth. The number of bytecode instructions the interpreter runs for the same work
does not move at all, so two trees can be compared at any load. It is not time (a call into C, a system
call or a regular expression counts as one instruction), only the interpreted work around it; time it
with ``per_move_layers.py`` as well. Three figures:

- the engine layer's search round trip (``per_move_layers.py``'s: two instant C Hub engines searched in
  turn, the wait and the event loop's steps included), per search;
- the referee alone (``per_move_layers.py``'s scripted in-process engines, 60+1), per ply;
- storing a played game (``RunStore.record_game`` in a new database), per game and per move.

    python benchmarks/ply_opcodes.py
    python benchmarks/ply_opcodes.py --top 20     # also the functions with the most instructions
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from harness_compare import compile_engine
from per_move_layers import (
    ENGLISH_START,
    MAX_PLIES,
    _Book,
    _Scripted,
    instant_engines,
    random_games,
    referee_plies,
)

from arbiter.engines.level import Clock
from arbiter.referee.game import play_game
from arbiter.referee.record import GameRecord, PlayerRecord
from arbiter.referee.settings import RefereeRules
from arbiter.referee.setup import GameSetup
from arbiter.referee.timecontrol import parse_time_control
from arbiter.store.models import PlayerEntry
from arbiter.store.records import GameKey
from arbiter.store.run_store import RunStore


class Tally:
    """Counts the instructions (by function) and the calls run while it is on."""

    def __init__(self) -> None:
        self.by_function: Counter[str] = Counter()
        self.python_calls = 0
        self.c_calls = 0

    @property
    def instructions(self) -> int:
        return sum(self.by_function.values())

    def _trace(self, frame: FrameType, event: str, arg: object) -> Callable[..., Any]:
        frame.f_trace_opcodes = True
        if event == "opcode":
            code = frame.f_code
            self.by_function[f"{Path(code.co_filename).name}:{code.co_qualname}"] += 1
        return self._trace

    def _profile(self, frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            self.python_calls += 1
        elif event == "c_call":
            self.c_calls += 1

    def on(self) -> None:
        sys.settrace(self._trace)
        sys.setprofile(self._profile)

    def off(self) -> None:
        sys.settrace(None)
        sys.setprofile(None)


async def engine_searches(engine_path: Path, searches: int, tally: Tally) -> None:
    async with instant_engines(engine_path) as engines:
        for number in range(searches + 20):
            if number == 20:  # the first searches warm the caches up
                tally.on()
            search = await engines[number % 2].begin_search(
                ENGLISH_START, [], Clock(time=60.0 - number * 1e-4, inc=1.0)
            )
            await search.wait(60.0)
        tally.off()


@dataclass(frozen=True)
class _Planned:
    """What the store needs of a planned game."""

    key: GameKey
    cycle: int = 0
    white: str = "a"
    black: str = "b"
    opening: None = None
    opening_index: int | None = None
    pair_index: int | None = None


def played_games(count: int) -> list[GameRecord]:
    """Records of English games as the referee makes them (scripted engines, 60+1)."""
    records: list[GameRecord] = []

    async def play() -> None:
        book = _Book()
        white, black = _Scripted("a", book), _Scripted("b", book)
        setup = GameSetup("english", parse_time_control("60+1"), rules=RefereeRules(max_plies=MAX_PLIES))
        for moves in random_games(count):
            book.moves, book.next = moves, 0
            a, b = PlayerRecord(name="a"), PlayerRecord(name="b")
            records.append(await play_game(setup, white, black, white_player=a, black_player=b))

    asyncio.run(play())
    return records


def store_games(records: list[GameRecord], tally: Tally) -> None:
    with (
        tempfile.TemporaryDirectory(prefix="ply-opcodes-") as folder,
        RunStore.open(Path(folder) / "t.sqlite") as store,
    ):
        tournament = store.create_tournament(
            name="t",
            variant="english",
            format="match",
            time_control="60+1",
            players=[PlayerEntry(name="a"), PlayerEntry(name="b")],
            config="{}",
        )
        store.record_game(tournament, _Planned(GameKey(0, 0, 0)), records[0])  # warm up
        tally.on()
        for number, record in enumerate(records, start=1):
            store.record_game(tournament, _Planned(GameKey(1, 1, number)), record)
        tally.off()


def report(what: str, per: str, count: int, tally: Tally, top: int) -> None:
    print(
        f"{what}: {tally.instructions / count:.0f} instructions, {tally.python_calls / count:.1f} Python "
        f"calls and {tally.c_calls / count:.1f} C calls per {per}"
    )
    for name, instructions in tally.by_function.most_common(top):
        print(f"    {instructions / count:8.1f}  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--searches", type=int, default=300, help="engine round trips (default 300)")
    parser.add_argument("--games", type=int, default=20, help="games for the referee and the store (20)")
    parser.add_argument("--top", type=int, default=0, help="list the functions with the most instructions")
    args = parser.parse_args()
    engine_tally = Tally()
    with tempfile.TemporaryDirectory(prefix="ply-opcodes-") as folder:
        engine = compile_engine("instant_hub.c", Path(folder))
        asyncio.run(engine_searches(engine, args.searches, engine_tally))
    report("engine layer, search round trip", "search", args.searches, engine_tally, args.top)

    games = random_games(args.games)
    asyncio.run(referee_plies(games[:2]))  # warm up
    referee_tally = Tally()

    async def counted() -> int:
        referee_tally.on()
        try:
            return (await referee_plies(games))[1]
        finally:
            referee_tally.off()

    plies = asyncio.run(counted())
    report("referee alone", "ply", plies, referee_tally, args.top)

    records = played_games(args.games)
    moves = sum(len(record.moves) for record in records)
    store_tally = Tally()
    store_games(records, store_tally)
    report("storing a game", "game", len(records), store_tally, args.top)
    print(f"    ({store_tally.instructions / moves:.0f} instructions per stored move, {moves} moves)")


if __name__ == "__main__":
    main()
