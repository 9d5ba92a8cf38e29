"""Seeded sample positions for comparing the arbiter with another implementation.

Half come from long random games from the start position (so kings appear late, as in play), half from
shorter random games from middle-game set-ups with men and kings of both colours.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from arbiter.rules import Move, Position, Variant


def random_setup(variant: Variant, rng: random.Random) -> Position:
    """A middle-game position with men and kings of both sides; men never stand on their crowning row."""
    g = variant.geometry
    squares = list(range(1, variant.square_count + 1))
    rng.shuffle(squares)
    half = variant.square_count // 2
    counts = {
        "white_men": rng.randint(1, half // 2),
        "white_kings": rng.randint(0, 3),
        "black_men": rng.randint(1, half // 2),
        "black_kings": rng.randint(0, 3),
    }
    chosen: dict[str, list[int]] = {name: [] for name in counts}
    for name, count in counts.items():
        for square in list(squares):
            if len(chosen[name]) == count:
                break
            row = g.row_col(square)[0]
            # White men crown on the top row (row 0), Black men on the bottom row.
            if (name == "white_men" and row == 0) or (name == "black_men" and row == g.height - 1):
                continue
            chosen[name].append(square)
            squares.remove(square)
    white = ",".join([str(s) for s in chosen["white_men"]] + [f"K{s}" for s in chosen["white_kings"]])
    black = ",".join([str(s) for s in chosen["black_men"]] + [f"K{s}" for s in chosen["black_kings"]])
    turn = rng.choice("WB")
    return Position.from_fen(variant, f"{turn}:W{white}:B{black}")


def move_order(move: Move) -> tuple[int, int, list[int]]:
    return (move.start, move.end, sorted(move.captured))


def random_game(start: Position, rng: random.Random, max_plies: int) -> Iterator[Position]:
    """The positions of one random legal game, start included, up to ``max_plies`` moves."""
    position = start
    yield position
    for _ in range(max_plies):
        moves = position.legal_moves()
        if not moves:
            return
        # Sorted, so a sample depends on the rules and the seed, not on the order the generator lists moves.
        position = position.play(rng.choice(sorted(moves, key=move_order)))
        yield position


def sample_positions(variant: Variant, count: int, seed: int) -> list[Position]:
    """Half from long games from the start position, half from shorter games from random set-ups."""
    rng = random.Random(seed)
    from_start: list[Position] = []
    while len(from_start) < count // 2:
        from_start.extend(random_game(Position.start(variant), rng, max_plies=200))
    from_setups: list[Position] = []
    while len(from_setups) < count - count // 2:
        from_setups.extend(random_game(random_setup(variant, rng), rng, max_plies=40))
    return from_start[: count // 2] + from_setups[: count - count // 2]
