"""Perft: count the leaves of the legal-move tree, the standard check of a move generator.

The last ply is counted in bulk: quiet moves are counted on whole bitboards without being listed.
"""

from __future__ import annotations

from arbiter.rules.movegen import MoveGenerator, apply_raw
from arbiter.rules.position import Move, Position, tables


def perft(position: Position, depth: int) -> int:
    if depth < 0:
        raise ValueError("perft depth must be 0 or more")
    gen = tables(position.variant).generator
    return _perft(gen, position.white, position.black, position.kings, int(position.turn), depth)


def _perft(gen: MoveGenerator, white: int, black: int, kings: int, turn: int, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return gen.count_legal_moves(white, black, kings, turn)
    total = 0
    nxt = 1 - turn
    for move in gen.legal_moves(white, black, kings, turn):
        w, b, k = apply_raw(white, black, kings, turn, move)
        total += _perft(gen, w, b, k, nxt, depth - 1)
    return total


def divide(position: Position, depth: int) -> list[tuple[Move, int]]:
    """Perft of each legal move at ``depth - 1``, as engine authors use to find generator bugs."""
    if depth < 1:
        raise ValueError("divide needs depth 1 or more")
    return [(m, perft(position.play(m), depth - 1)) for m in position.legal_moves()]
