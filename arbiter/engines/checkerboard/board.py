"""The arbiter's positions as CheckerBoard boards, and back. Used by the adapter program only: the
engine layer itself knows no draughts rules.

CheckerBoard puts every 8x8 game on the cells with an even ``x + y`` of ``board[x][y]``, Black's men
on rows ``y = 0..2`` and White's on ``y = 5..7``. The arbiter draws the board from White's side with
row 0 at the top, so ``y`` is the arbiter's row, and ``x`` its column, mirrored on boards whose top-left
corner is a light square (English, Russian, Brazilian, pool): that way the square numbers agree with
CheckerBoard's for every game type (English square 1 is (6, 0), Italian square 1 is (0, 0)).
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.engines.checkerboard.api import BLACK, FREE, KING, MAN, WHITE
from arbiter.rules import Color, Piece, Position, Variant

CbBoard = tuple[tuple[int, ...], ...]

_VALUES = {
    Piece.WHITE_MAN: WHITE | MAN,
    Piece.WHITE_KING: WHITE | KING,
    Piece.BLACK_MAN: BLACK | MAN,
    Piece.BLACK_KING: BLACK | KING,
}


def cb_color(color: Color) -> int:
    return WHITE if color is Color.WHITE else BLACK


@dataclass(frozen=True)
class BoardMap:
    """Where each square of an 8x8 variant lies on CheckerBoard's board."""

    cells: tuple[tuple[int, int], ...]  # index 0 unused: square n -> (x, y)
    light: tuple[tuple[int, int], ...]  # the cells no piece may stand on
    names: tuple[str, ...]  # index 0 unused: the square as the variant's notation writes it
    bits: tuple[int, ...]  # index 0 unused: square n -> its bit in the rules core's bitboards

    @classmethod
    def of(cls, variant: Variant) -> BoardMap:
        geometry = variant.geometry
        if geometry.width != 8 or geometry.height != 8 or geometry.all_squares:
            raise ValueError(f"{variant.id} is not played on the dark squares of an 8x8 board")
        mirror = geometry.dark_parity == 1
        cells = [(-1, -1)]
        for square in range(1, geometry.square_count + 1):
            row, col = geometry.row_col(square)
            cells.append((7 - col if mirror else col, row))
        dark = set(cells[1:])
        light = tuple((x, y) for x in range(8) for y in range(8) if (x, y) not in dark)
        names = variant.square_names()
        bits = (0, *(1 << geometry.square_bits[n] for n in range(1, geometry.square_count + 1)))
        return cls(tuple(cells), light, names, bits)

    def square_of(self, cell: tuple[int, int]) -> int | None:
        try:
            return self.cells.index(cell, 1)
        except ValueError:
            return None

    def values(self, position: Position) -> tuple[int, ...]:
        """The CheckerBoard value of every square, in square order (index 0 unused)."""
        pieces = (position.piece_at(n) for n in range(1, len(self.cells)))
        return (FREE, *(FREE if piece is None else _VALUES[piece] for piece in pieces))

    def board(self, position: Position) -> CbBoard:
        grid = [[FREE] * 8 for _ in range(8)]
        for square, value in enumerate(self.values(position)):
            if square:
                x, y = self.cells[square]
                grid[x][y] = value
        return tuple(tuple(column) for column in grid)

    def read(self, board: CbBoard) -> tuple[int, ...]:
        """The engine's board in square order (index 0 unused), as ``values`` gives a position."""
        return (FREE, *(board[x][y] for x, y in self.cells[1:]))

    def bitboards(self, board: CbBoard) -> tuple[int, int, int] | None:
        """The engine's board as the rules core's (white, black, kings) bitboards; None when a cell holds
        something no position can (a piece on a light cell, a value that is no piece)."""
        white = black = kings = 0
        for square in range(1, len(self.cells)):
            x, y = self.cells[square]
            value = board[x][y]
            if value == FREE:
                continue
            bit = self.bits[square]
            if value == WHITE | MAN:
                white |= bit
            elif value == BLACK | MAN:
                black |= bit
            elif value == WHITE | KING:
                white |= bit
                kings |= bit
            elif value == BLACK | KING:
                black |= bit
                kings |= bit
            else:
                return None
        if any(board[x][y] != FREE for x, y in self.light):
            return None
        return white, black, kings

    def describe(self, board: CbBoard, turn: Color) -> str:
        """The engine's board as a FEN (side to move after its move), with whatever does not fit one."""
        white: list[str] = []
        black: list[str] = []
        odd: list[str] = []
        for square, value in enumerate(self.read(board)):
            if not square or value == FREE:
                continue
            if value in (WHITE | MAN, WHITE | KING):
                white.append(("K" if value & KING else "") + self.names[square])
            elif value in (BLACK | MAN, BLACK | KING):
                black.append(("K" if value & KING else "") + self.names[square])
            else:
                odd.append(f"square {self.names[square]} holds {value}")
        odd += [f"light cell ({x},{y}) holds {board[x][y]}" for x, y in self.light if board[x][y] != FREE]
        fen = f"{turn.letter}:W{','.join(white)}:B{','.join(black)}"
        return fen + (f" ({'; '.join(odd)})" if odd else "")
