"""PDN move text against a position: squares as numbers or coordinates, short or full capture paths.

`resolve_move` finds the one legal move that text names, or says exactly why there is none: a square
that is not on the board, a move that is not legal (with the legal ones listed), or a short capture
that fits several sequences. The separator is not trusted (archives write `10x14` for a quiet move).
"""

from __future__ import annotations

import re

from arbiter.notation.movetext import format_pdn, moves_named
from arbiter.notation.pdn_model import FaultKind
from arbiter.rules import Move, Position

_SEPARATOR = re.compile(r"[-xX:×]")


class MoveFault(ValueError):
    """Move text that names no legal move, or several; ``kind`` says which."""

    def __init__(self, kind: FaultKind, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


def move_squares(position: Position, text: str) -> list[int]:
    """The squares of move text, checked against the board."""
    variant = position.variant
    geometry = variant.geometry
    board = f"{geometry.width}x{geometry.height} board"
    squares: list[int] = []
    for part in _SEPARATOR.split(text):
        square = variant.parse_square(part)
        if square is None:
            if part.isdigit():
                why = f"square {int(part)} is not on the {board} (1-{variant.square_count})"
            else:
                why = f"{part!r} is not a playable square of the {board}"
            raise MoveFault(FaultKind.UNKNOWN_SQUARE, f"{text}: {why}")
        squares.append(square)
    if len(squares) < 2:
        raise MoveFault(FaultKind.SYNTAX, f"{text!r} is not a move (it needs two squares or more)")
    return squares


def resolve_move(position: Position, text: str) -> Move:
    """The legal move that PDN move text names in ``position``."""
    matches = moves_named(position, move_squares(position, text))
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise MoveFault(FaultKind.ILLEGAL_MOVE, _illegal_reason(position, text, position.legal_moves()))
    options = ", ".join(
        format_pdn(position, m, full_path=True) for m in sorted(matches, key=lambda m: m.path)
    )
    raise MoveFault(
        FaultKind.AMBIGUOUS_MOVE,
        f"{text} fits {len(matches)} capture sequences in {position.fen()} ({options}); "
        "the full path is needed",
    )


def _illegal_reason(position: Position, text: str, moves: list[Move]) -> str:
    side = position.turn.name.capitalize()
    legal = ", ".join(format_pdn(position, m) for m in sorted(moves, key=lambda m: m.path)) or "none"
    return f"{text} is not legal for {side} in {position.fen()}; legal moves: {legal}"
