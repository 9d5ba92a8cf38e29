"""The referee's API with the bundled engines: a complete record, reused engines, observers, overhead."""

from __future__ import annotations

import asyncio
from pathlib import Path

from referee_games import bundled, game_setup, received, replay, scripted

from arbiter.engines import EngineClient, create_engine
from arbiter.referee.game import play_game
from arbiter.referee.observer import GameObserver
from arbiter.referee.record import GameRecord, MoveRecord, PlayerRecord, Side, Termination
from arbiter.referee.settings import RefereeRules
from arbiter.rules import Position


def test_a_game_between_bundled_engines_is_recorded_completely() -> None:
    async def main() -> GameRecord:
        white = create_engine(bundled("alphabeta"))
        black = create_engine(bundled("greedy"))
        try:
            await asyncio.gather(white.open("english"), black.open("english"))
            setup = game_setup(
                "acf scale=0.001", opening="11-15 23-19 8-11", rules=RefereeRules(max_plies=16)
            )
            return await play_game(setup, white, black)
        finally:
            await asyncio.gather(white.quit(), black.quit())

    record = asyncio.run(main())
    assert record.variant == "english" and record.time_control == "acf scale=0.001"
    assert record.start_fen == "B:W21-32:B1-12"
    assert record.white.name == "alphabeta" and record.white.identity["name"] == "alphabeta"
    assert record.black.identity["name"] == "greedy"
    assert record.opening is not None and record.opening.moves == ["11-15", "23-19", "8-11"]
    opening, played = record.moves[:3], record.moves[3:]
    assert [move.text for move in opening] == ["11-15", "23-19", "8-11"]
    assert all(move.from_opening and move.elapsed is None and move.clock is None for move in opening)
    assert played and all(not move.from_opening for move in played)
    for move in played:
        assert move.elapsed is not None and move.elapsed >= 0
        assert move.clock is not None and 0 < move.clock <= 3.6  # 30/3600 scaled by 0.001
    # The searching engine's last info line is kept with each of its moves.
    white_moves = [move for move in played if move.side is Side.WHITE]
    assert all(move.info is not None and move.info.depth is not None for move in white_moves)
    assert all(move.info is not None and move.info.pv for move in white_moves)
    assert record.outcome is not None and record.outcome.reason
    assert record.plies == len(record.moves) <= 16
    assert record.ended_at is not None and record.ended_at >= record.started_at
    replay(record)  # every recorded move is legal where it was played
    assert GameRecord.from_json(record.to_json()) == record


def test_engines_opened_by_the_caller_play_several_games_with_new_game_between(tmp_path: Path) -> None:
    logs = {side: tmp_path / f"{side}.log" for side in ("a", "b")}

    async def main() -> list[GameRecord]:
        a = create_engine(scripted("a", "--log", str(logs["a"])))
        b = create_engine(scripted("b", "--log", str(logs["b"])))
        try:
            await asyncio.gather(a.open("english"), b.open("english"))
            setup = game_setup(fen="W:WK1,K2:BK31,K32", rules=RefereeRules(max_plies=6))
            first = await play_game(setup, a, b)
            second = await play_game(setup, b, a)  # colours swapped, same processes
            return [first, second]
        finally:
            await asyncio.gather(a.quit(), b.quit())

    first, second = asyncio.run(main())
    assert (first.white.name, second.white.name) == ("a", "b")
    for record in (first, second):
        assert record.outcome is not None and record.outcome.termination is Termination.MAX_LENGTH
    # The same deterministic engines from the same position: the same moves, whoever plays which side.
    assert [move.text for move in first.moves] == [move.text for move in second.moves]
    for log in logs.values():
        lines = log.read_text().splitlines()
        assert lines.count("new-game") == 2 and lines.count("hub") == 1


def test_the_observer_sees_every_move_in_order_and_the_end() -> None:
    seen: list[str] = []

    class Watcher(GameObserver):
        def game_started(self, record: GameRecord, position: Position) -> None:
            seen.append(f"start {position.fen()}")

        def move_played(self, record: GameRecord, move: MoveRecord, position: Position) -> None:
            assert record.moves[move.ply - 1] is move
            seen.append(f"{move.ply} {move.text}")

        def game_ended(self, record: GameRecord, position: Position) -> None:
            assert record.outcome is not None
            seen.append(f"end {record.outcome.termination}")

    async def main() -> GameRecord:
        engines: list[EngineClient] = [create_engine(scripted("w")), create_engine(scripted("b"))]
        try:
            await asyncio.gather(*(engine.open("english") for engine in engines))
            setup = game_setup(fen="W:WK1:BK32", opening="1-6", rules=RefereeRules(max_plies=3))
            return await play_game(setup, engines[0], engines[1], observer=Watcher())
        finally:
            await asyncio.gather(*(engine.quit() for engine in engines))

    record = asyncio.run(main())
    assert seen[0] == "start W:WK1:BK32"
    assert seen[1:-1] == [f"{move.ply} {move.text}" for move in record.moves]
    assert seen[1] == "1 1-6" and seen[-1] == "end max_length"


def test_the_overhead_list_gets_one_figure_per_move_after_the_first() -> None:
    overhead: list[float] = []

    async def main() -> GameRecord:
        engines = [create_engine(scripted("w")), create_engine(scripted("b"))]
        try:
            await asyncio.gather(*(engine.open("english") for engine in engines))
            setup = game_setup(fen="W:WK1,K2:BK31,K32", rules=RefereeRules(max_plies=10))
            players = (PlayerRecord(name="Wendy", engine_id="w"), PlayerRecord(name="Bob", engine_id="b"))
            return await play_game(
                setup,
                engines[0],
                engines[1],
                white_player=players[0],
                black_player=players[1],
                overhead=overhead,
            )
        finally:
            await asyncio.gather(*(engine.quit() for engine in engines))

    record = asyncio.run(main())
    assert (record.white.name, record.black.engine_id) == ("Wendy", "b")
    assert len(overhead) == record.plies - 1
    assert all(seconds >= 0 for seconds in overhead)


def test_a_hub_engine_is_sent_the_position_after_the_last_man_move_and_the_moves_since(
    tmp_path: Path,
) -> None:
    log = tmp_path / "black.log"

    async def main() -> GameRecord:
        engines = [
            create_engine(scripted("w", "--moves", "1-6 28-24 6-10")),
            create_engine(scripted("b", "--moves", "4-8 8-4 4-8", "--log", str(log))),
        ]
        try:
            await asyncio.gather(*(engine.open("english") for engine in engines))
            setup = game_setup(fen="W:W28,K1:BK4", rules=RefereeRules(max_plies=6))
            return await play_game(setup, engines[0], engines[1])
        finally:
            await asyncio.gather(*(engine.quit() for engine in engines))

    record = asyncio.run(main())
    positions = replay(record)
    sent = [line.split(" moves=") for line in received(log, "pos")]
    assert [len(parts) for parts in sent] == [2, 1, 2]
    assert sent[0] == [f"pos pos={positions[0].hub()}", "1-6"]  # quiet king moves: from the start
    assert sent[1] == [f"pos pos={positions[3].hub()}"]  # 28-24 moved a man: nothing before it matters
    assert sent[2] == [f"pos pos={positions[3].hub()}", '"8-4 6-10"']
