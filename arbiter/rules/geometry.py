"""Board geometry: square numbering, the bit layout of bitboards, and direction tables.

Bitboards are Python integers. Every cell of the full grid (light squares too) has a bit at
``row * stride + col`` with ``stride = width + padding``: the extra ghost columns mean a step that would
wrap around the edge lands on a bit that is never playable, so whole-board shifts need only one mask.
One ghost column is enough for one-cell steps; Frisian's two-cell orthogonal jumps need two.
Row 0 is the top of the board as drawn from White's side; White moves up (towards row 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum


class Color(IntEnum):
    WHITE = 0
    BLACK = 1

    @property
    def opponent(self) -> Color:
        return Color.BLACK if self is Color.WHITE else Color.WHITE

    @property
    def letter(self) -> str:
        return "W" if self is Color.WHITE else "B"

    @classmethod
    def from_letter(cls, letter: str) -> Color:
        upper = letter.upper()
        if upper == "W":
            return cls.WHITE
        if upper == "B":
            return cls.BLACK
        raise ValueError(f"unknown colour {letter!r}: expected W or B")


# Directions named from the mover's point of view: f = forward, b = backward, l/r = left/right.
DIAGONALS = ("fl", "fr", "bl", "br")
ORTHOGONALS = ("f", "b", "l", "r")
FORWARD_DIAGONALS = ("fl", "fr")

# (row step, column step) of each relative direction for White, who moves towards row 0.
_WHITE_STEPS: dict[str, tuple[int, int]] = {
    "f": (-1, 0),
    "b": (1, 0),
    "l": (0, -1),
    "r": (0, 1),
    "fl": (-1, -1),
    "fr": (-1, 1),
    "bl": (1, -1),
    "br": (1, 1),
}


def absolute_step(direction: str, color: Color, orthogonal_span: int = 1) -> tuple[int, int]:
    """The (row, column) step of a relative direction for a colour.

    On boards that use only the dark squares, an orthogonal neighbour is two cells away
    (``orthogonal_span=2``), which is how Frisian captures along rows and files.
    """
    dr, dc = _WHITE_STEPS[direction]
    if len(direction) == 1:
        dr, dc = dr * orthogonal_span, dc * orthogonal_span
    if color is Color.BLACK:
        dr, dc = -dr, -dc
    return dr, dc


@dataclass(frozen=True)
class Geometry:
    """The board: its size, which cells are playable, and how they are numbered.

    Playable cells are numbered 1..N row by row from the top-left, as drawn from White's side.
    ``dark_parity`` picks the playable cells of a diagonal board: those with ``(row + col) % 2 ==
    dark_parity`` (1 for English and international, whose top-left corner is a light square).
    """

    width: int
    height: int
    all_squares: bool = False
    dark_parity: int = 1
    padding: int = 1  # ghost columns; 2 where pieces jump two cells along a row (Frisian)
    stride: int = field(init=False, compare=False)
    square_bits: tuple[int, ...] = field(
        init=False, repr=False, compare=False
    )  # index 0 unused; square n -> bit index
    bit_squares: dict[int, int] = field(init=False, repr=False, compare=False)  # bit index -> square number
    mask: int = field(init=False, repr=False, compare=False)  # every playable bit

    def __post_init__(self) -> None:
        stride = self.width + self.padding
        bits: list[int] = [-1]
        for row in range(self.height):
            for col in range(self.width):
                if self.all_squares or (row + col) % 2 == self.dark_parity:
                    bits.append(row * stride + col)
        object.__setattr__(self, "stride", stride)
        object.__setattr__(self, "square_bits", tuple(bits))
        object.__setattr__(self, "bit_squares", {b: n for n, b in enumerate(bits) if n > 0})
        mask = 0
        for b in bits[1:]:
            mask |= 1 << b
        object.__setattr__(self, "mask", mask)

    def algebraic(self, square: int) -> str:
        """The square's name in algebraic notation: file letter from White's left, rank from White's side."""
        row, col = self.row_col(square)
        return f"{chr(ord('a') + col)}{self.height - row}"

    def square_from_algebraic(self, name: str) -> int | None:
        """The square named ``c3`` etc., or None when the name is not a playable square of this board."""
        text = name.strip().lower()
        if len(text) < 2 or not text[0].isalpha() or not text[1:].isdecimal():
            return None
        col = ord(text[0]) - ord("a")
        row = self.height - int(text[1:])
        return self.square_at(row, col)

    @property
    def square_count(self) -> int:
        return len(self.square_bits) - 1

    def row_col(self, square: int) -> tuple[int, int]:
        bit = self.square_bits[square]
        return divmod(bit, self.stride)

    def square_at(self, row: int, col: int) -> int | None:
        if not (0 <= row < self.height and 0 <= col < self.width):
            return None
        return self.bit_squares.get(row * self.stride + col)

    def crowning_row(self, color: Color) -> int:
        """The row where a man of ``color`` is crowned: White's men move up the board to row 0, Black's
        down to the last row."""
        return 0 if color is Color.WHITE else self.height - 1

    def row_mask(self, row: int) -> int:
        """Bits of the playable cells of one row."""
        mask = 0
        for col in range(self.width):
            square = self.square_at(row, col)
            if square is not None:
                mask |= 1 << self.square_bits[square]
        return mask

    def rows_mask(self, rows: range) -> int:
        mask = 0
        for row in rows:
            mask |= self.row_mask(row)
        return mask

    def ray(self, bit: int, step: tuple[int, int]) -> tuple[int, ...]:
        """Bit indices reached by repeating ``step`` from ``bit``, nearest first, up to the edge."""
        row, col = divmod(bit, self.stride)
        out: list[int] = []
        dr, dc = step
        while True:
            row, col = row + dr, col + dc
            square = self.square_at(row, col)
            if square is None:
                return tuple(out)
            out.append(self.square_bits[square])

    def offset(self, step: tuple[int, int]) -> int:
        """The bit-index offset of a step; valid for whole-board shifts thanks to the ghost column."""
        return step[0] * self.stride + step[1]

    def squares_of(self, bitboard: int) -> list[int]:
        """Square numbers of the set bits, ascending."""
        out: list[int] = []
        while bitboard:
            low = bitboard & -bitboard
            out.append(self.bit_squares[low.bit_length() - 1])
            bitboard ^= low
        return sorted(out)

    def bits_of(self, squares: list[int] | tuple[int, ...] | range) -> int:
        bb = 0
        for n in squares:
            bb |= 1 << self.square_bits[n]
        return bb
