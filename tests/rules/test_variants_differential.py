"""Every variant pydraughts knows, compared move for move with it in seeded random positions.

pydraughts numbers the squares of Russian, Brazilian and Turkish boards from White's lower-left corner,
so moves are compared by square name; the other boards number squares as the arbiter does.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from arbiter.rules import Position, get_variant
from arbiter.rules.variant import Variant

draughts = pytest.importorskip("draughts", reason="pydraughts is the test-only reference for rules")

POSITIONS_PER_VARIANT = 1000
MoveKey = tuple[str, str, frozenset[str]]


def pydraughts_square_namer(variant_id: str, variant: Variant) -> Callable[[int], str]:
    if variant_id in ("russian", "brazilian"):
        return lambda n: ("aceg" if ((n - 1) // 4) % 2 == 0 else "bdfh")[(n - 1) % 4] + str((n - 1) // 4 + 1)
    if variant_id == "turkish":
        return lambda n: "abcdefgh"[(n - 1) % 8] + str((n - 1) // 8 + 1)
    return str


def ours(position: Position) -> set[MoveKey]:
    name = position.variant.square_name if position.variant.id in ("russian", "brazilian", "turkish") else str
    return {
        (name(m.start), name(m.end), frozenset(name(c) for c in m.captured)) for m in position.legal_moves()
    }


def theirs(variant_id: str, position: Position) -> set[MoveKey]:
    name = pydraughts_square_namer(variant_id, position.variant)
    board = draughts.Board(variant=variant_id, fen=position.fen())
    out: set[MoveKey] = set()
    for move in board.legal_moves():
        steps = move.steps_move
        captured = frozenset(name(c) for c in (move.captures or []) if c)
        out.add((name(steps[0]), name(steps[-1]), captured))
    return out


def random_positions(variant: Variant, count: int, seed: int) -> list[Position]:
    """Positions met in seeded random games, from the start and deep into the middle and end game."""
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        position = Position.start(variant)
        for _ in range(rng.randint(20, 160)):
            moves = position.legal_moves()
            if not moves:
                break
            positions.append(position)
            position = position.play(rng.choice(moves))
    return positions[:count]


TURKISH_KING_RULE = (
    "VARIANTS.md, Turkish: kings are flying and orthogonal: a king moves any distance along a row or "
    "file over empty squares only; it cannot pass over a piece of its own."
)


def crosses_a_piece(position: Position, move: MoveKey) -> bool:
    """pydraughts lets a Turkish king's quiet move pass over its own men; those moves are not legal."""
    start, end, captured = move
    if captured:
        return False
    g = position.variant.geometry
    a = g.row_col(position.variant.parse_square(start) or 0)
    b = g.row_col(position.variant.parse_square(end) or 0)
    steps = max(abs(a[0] - b[0]), abs(a[1] - b[1]))
    dr, dc = (b[0] - a[0]) // steps, (b[1] - a[1]) // steps
    between = [g.square_at(a[0] + dr * i, a[1] + dc * i) for i in range(1, steps)]
    return any(sq is not None and position.piece_at(sq) is not None for sq in between)


def test_pydraughts_lets_a_turkish_king_pass_over_its_own_men() -> None:
    # The known pydraughts error excused below, shown once with both answers.
    position = Position.from_fen(get_variant("turkish"), "W:WKh4,c4:Ba7")
    arbiter, reference = ours(position), theirs("turkish", position)
    assert reference - arbiter == {("h4", "b4", frozenset()), ("h4", "a4", frozenset())}, TURKISH_KING_RULE
    assert arbiter - reference == set()


@pytest.mark.parametrize(
    "variant_id", ["russian", "brazilian", "italian", "turkish", "frisian", "antidraughts"]
)
def test_legal_moves_match_pydraughts(variant_id: str) -> None:
    variant = get_variant(variant_id)
    mismatches = []
    for position in random_positions(variant, POSITIONS_PER_VARIANT, seed=hash(variant_id) % 1000):
        a, b = ours(position), theirs(variant_id, position)
        if variant_id == "turkish":
            b = {m for m in b if not crosses_a_piece(position, m)}
        if a != b:
            mismatches.append(
                f"{position.fen()}\n  arbiter only: {sorted(a - b)}\n  pydraughts only: {sorted(b - a)}"
            )
    assert not mismatches, f"{len(mismatches)} positions differ, e.g.:\n" + "\n".join(mismatches[:5])
