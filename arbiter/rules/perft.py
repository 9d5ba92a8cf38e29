"""Perft: count the leaves of the legal-move tree, the standard check of a move generator.

The last ply is counted in bulk: quiet moves are counted on whole bitboards without being listed.
"""

from __future__ import annotations

from collections import Counter

from arbiter.rules.movegen import MoveGenerator, RawMove, apply_raw
from arbiter.rules.position import Move, Position, tables


def perft(position: Position, depth: int, count_paths: bool = False) -> int:
    """The leaves of the legal-move tree ``depth`` plies deep. A capture counts once per (start, end,
    captured set), the convention of the published counts; ``count_paths`` counts it once per path
    instead, as some published tables do (Aart Bik's)."""
    if depth < 0:
        raise ValueError("perft depth must be 0 or more")
    gen = tables(position.variant).generator
    count = _perft_paths if count_paths else _perft
    return count(gen, position.white, position.black, position.kings, int(position.turn), depth)


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


def _every_path(gen: MoveGenerator, white: int, black: int, kings: int, turn: int) -> list[RawMove]:
    """The legal moves (as the variant's generator gives them) with each capture once per path."""
    moves = gen.legal_moves(white, black, kings, turn)
    keys = {(fb, tb, cm) for fb, tb, cm, _, _ in moves if cm}
    if not keys:
        return moves
    paths = gen.captures(white, black, kings, turn, every_path=True)
    return [m for m in paths if (m[0], m[1], m[2]) in keys] + [m for m in moves if not m[2]]


def _perft_paths(gen: MoveGenerator, white: int, black: int, kings: int, turn: int, depth: int) -> int:
    """``_perft`` with one move per capture path (slower: it is not the published convention)."""
    if depth == 0:
        return 1
    moves = _every_path(gen, white, black, kings, turn)
    if depth == 1:
        return len(moves)
    total = 0
    nxt = 1 - turn
    for move in moves:
        w, b, k = apply_raw(white, black, kings, turn, move)
        total += _perft_paths(gen, w, b, k, nxt, depth - 1)
    return total


def divide(position: Position, depth: int, count_paths: bool = False) -> list[tuple[Move, int]]:
    """Perft of each legal move at ``depth - 1``, as engine authors use to find generator bugs.
    With ``count_paths`` each move's count is multiplied by the number of paths that play it."""
    if depth < 1:
        raise ValueError("divide needs depth 1 or more")
    paths: Counter[tuple[int, int, int]] = Counter()
    if count_paths:
        gen = tables(position.variant).generator
        raws = _every_path(gen, position.white, position.black, position.kings, int(position.turn))
        paths.update((fb, tb, cm) for fb, tb, cm, _, _ in raws)
    out = []
    for m in position.legal_moves():
        times = paths[m.raw[:3]] or 1
        out.append((m, times * perft(position.play(m), depth - 1, count_paths)))
    return out
