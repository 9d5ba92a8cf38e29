"""Which legal move the engine played, found from the board it handed back (adapter side).

English engines rarely fill ``struct CBmove``, so, as CheckerBoard itself does, the board is compared
with the result of every legal move. The rules core already counts a capture taken by two paths (a
king's loop) as one move, so two legal moves leave one board only when two kings each loop back to
their own squares taking the same men; the engine's CBmove then decides when it is filled, and
otherwise the first is taken, since the position is the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.engines.checkerboard.api import EngineMove
from arbiter.engines.checkerboard.board import BoardMap, CbBoard
from arbiter.notation.movetext import format_hub
from arbiter.rules import Color, Move, Position
from arbiter.rules.movegen import apply_raw


@dataclass(frozen=True)
class Decoded:
    """The engine's move as Hub text; ``board`` (a FEN) is set when no legal move leads to its board."""

    move: str
    board: str | None = None


def decode(position: Position, board: CbBoard, engine_move: EngineMove | None, cells: BoardMap) -> Decoded:
    pieces = cells.bitboards(board)
    matches: list[Move] = []
    if pieces is not None:
        before = (position.white, position.black, position.kings, int(position.turn))
        matches = [move for move in position.legal_moves() if apply_raw(*before, move.raw) == pieces]
    if len(matches) == 1:
        return Decoded(format_hub(matches[0]))
    if matches:
        return Decoded(format_hub(_pick(matches, engine_move, cells)))
    return Decoded(_shape(position, cells.read(board)), cells.describe(board, position.turn.opponent))


def _pick(matches: list[Move], engine_move: EngineMove | None, cells: BoardMap) -> Move:
    if engine_move is not None:
        start, end = cells.square_of(engine_move.start), cells.square_of(engine_move.end)
        captured = frozenset(cells.square_of(cell) for cell in engine_move.captured)
        for move in matches:
            if move.start == start and move.end == end and (not captured or move.captured == captured):
                return move
    return matches[0]


def _shape(position: Position, after: tuple[int, ...]) -> str:
    """Hub text for what the engine's board shows (squares its side left, reached, and the opponent's
    squares it emptied), so the referee's verdict names it; any text of the right shape will do."""
    before = (0, *(_value(position, n) for n in range(1, len(after))))
    mover = 1 if position.turn is Color.WHITE else 2
    left = [n for n in range(1, len(after)) if before[n] & mover and not after[n] & mover]
    reached = [n for n in range(1, len(after)) if after[n] & mover and not before[n] & mover]
    taken = [n for n in range(1, len(after)) if before[n] & (3 - mover) and not after[n] & (3 - mover)]
    start = left[0] if left else reached[0] if reached else 1
    end = reached[0] if reached else start
    if taken:
        return "x".join(str(n) for n in (start, end, *taken))
    return f"{start}-{end}"


def _value(position: Position, square: int) -> int:
    piece = position.piece_at(square)
    if piece is None:
        return 0
    return 1 if piece.color is Color.WHITE else 2
