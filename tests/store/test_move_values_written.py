"""The values written for a game's moves, made the short way (one pass, plain tuples), are exactly what
each column means: a move's row field by field, and each side's figures summed in the order played."""

from __future__ import annotations

from typing import Any

import pytest
from store_samples import played_game

from arbiter.referee.record import Side
from arbiter.store.codec import MOVE_ROW_COLUMNS, dump_json, move_row, move_stats


@pytest.mark.parametrize("seed", range(6))
def test_a_move_row_holds_each_column_of_the_move(seed: int) -> None:
    record = played_game(seed, plies=80)
    assert any(m.info is None for m in record.moves) and any(m.info is not None for m in record.moves)
    for move in record.moves:
        info = move.info
        columns: dict[str, Any] = {
            "game_id": 7,
            "ply": move.ply,
            "side": move.side.value,
            "text": move.text,
            "hub": move.hub,
            "from_opening": move.from_opening,
            "elapsed": move.elapsed,
            "clock": move.clock,
            "warnings": dump_json(move.warnings),
            "draw_offered": move.draw_offered,
            "has_info": info is not None,
            "depth": None if info is None else info.depth,
            "score": None if info is None else info.score,
            "nodes": None if info is None else info.nodes,
            "info_time": None if info is None else info.time,
            "nps": None if info is None else info.nps,
            "pv": None if info is None else dump_json(info.pv),
            "info_extra": None if info is None else dump_json(info.extra),
        }
        expected = tuple(columns[name] for name in MOVE_ROW_COLUMNS)
        row = move_row(7, move)
        assert row == expected
        assert [type(value) for value in row] == [type(value) for value in expected]  # True, not 1


@pytest.mark.parametrize("seed", range(6))
def test_each_sides_figures_leave_the_opening_out_and_are_summed_in_the_order_played(seed: int) -> None:
    record = played_game(seed, plies=80, opening_plies=seed)
    expected: dict[str, Any] = {}
    for side in (Side.WHITE, Side.BLACK):
        own = [m for m in record.moves if m.side is side and not m.from_opening]
        timed = [m.elapsed for m in own if m.elapsed is not None]
        depths = [m.info.depth for m in own if m.info is not None and m.info.depth is not None]
        expected |= {
            f"{side.value}_timed": len(timed),
            f"{side.value}_seconds": float(sum(timed)),
            f"{side.value}_depths": len(depths),
            f"{side.value}_depth_sum": sum(depths),
        }
    stats = move_stats(record)
    assert list(stats.items()) == list(expected.items())  # the same floats, bit for bit, in column order
    assert all(type(stats[name]) is type(value) for name, value in expected.items())
