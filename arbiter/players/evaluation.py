"""Static evaluation for the bundled engines, on raw bitboards, in centi-men (a man is worth 100).

Terms: material; men's advancement (growing as a man nears its crowning row); men left on the back
row (they stop the opponent from crowning); pieces in the centre; and a bonus for trading when ahead,
since fewer pieces make an advantage easier to convert. Every term is computed for White minus Black
and then turned to the side to move's view. In variants where having no move wins (antidraughts,
anti-checkers) material is counted the other way round and nothing else is scored. In Mule checkers
a mule is no material (a player who loses all their mules wins): it is scored as a small burden that
grows as it nears the row where crowning it would lose the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.rules import Position, Variant
from arbiter.rules.variant import NoMoveOutcome

MAN_VALUE = 100
# A short king is worth a bit more than a man; a flying king controls whole diagonals, which players
# of international draughts rate at two to three men.
SHORT_KING_VALUE = 135
FLYING_KING_VALUE = 250
BACK_ROW_GUARD = 12
CENTRE_MAN = 4
CENTRE_KING = 8
# Advancement of a man that is one step from crowning, beyond its linear part (2 per row).
NEAR_CROWNING = 24
MULE_VALUE = -20


@dataclass(frozen=True)
class PieceValues:
    man: int
    king: int


def piece_values(variant: Variant) -> PieceValues:
    return PieceValues(MAN_VALUE, FLYING_KING_VALUE if variant.flying_kings else SHORT_KING_VALUE)


def plays_to_lose(variant: Variant) -> bool:
    """Whether having no move wins, so pieces are a burden."""
    return variant.no_move_outcome is NoMoveOutcome.WIN


def material_balance(values: PieceValues, white: int, black: int, kings: int, mules: int = 0) -> int:
    """White's material minus Black's, in centi-men; mules (Mule checkers) count ``MULE_VALUE`` each."""
    men = ~kings & ~mules
    return (
        ((white & men).bit_count() - (black & men).bit_count()) * values.man
        + ((white & kings).bit_count() - (black & kings).bit_count()) * values.king
        + ((white & mules).bit_count() - (black & mules).bit_count()) * MULE_VALUE
    )


class Evaluator:
    """The evaluation of one variant, with its square tables built once."""

    def __init__(self, variant: Variant) -> None:
        g = variant.geometry
        self.values = piece_values(variant)
        self.losing = plays_to_lose(variant)
        height = g.height
        last = max(1, height - 2)  # rows a man can stand on before crowning, counted from 0
        white_rows: list[tuple[int, int]] = []
        black_rows: list[tuple[int, int]] = []
        for advanced in range(1, height - 1):
            bonus = 2 * advanced + round(NEAR_CROWNING * (advanced / last) ** 2)
            # White starts at the bottom (last row) and crowns on row 0; Black the other way round.
            white_rows.append((g.row_mask(height - 1 - advanced), bonus))
            black_rows.append((g.row_mask(advanced), bonus))
        self.white_rows = tuple(white_rows)
        self.black_rows = tuple(black_rows)
        self.white_back = g.row_mask(height - 1)
        self.black_back = g.row_mask(0)
        centre = 0
        for square in range(1, g.square_count + 1):
            row, col = g.row_col(square)
            if height // 4 <= row < height - height // 4 and g.width // 4 <= col < g.width - g.width // 4:
                centre |= 1 << g.square_bits[square]
        self.centre = centre
        start = Position.start(variant)
        self.start_pieces = (start.white | start.black).bit_count()

    def evaluate(self, white: int, black: int, kings: int, turn: int, mules: int = 0) -> int:
        """The score for the side to move (``turn`` 0 is White, 1 is Black)."""
        material = material_balance(self.values, white, black, kings, mules)
        if self.losing:
            return -material if turn == 0 else material
        score = material
        if mules:
            # A mule's advancement counts against its side; the regular pieces are scored as usual.
            for mask, bonus in self.white_rows:
                score -= (white & mules & mask).bit_count() * bonus
            for mask, bonus in self.black_rows:
                score += (black & mules & mask).bit_count() * bonus
            white, black = white & ~mules, black & ~mules
        white_men = white & ~kings
        black_men = black & ~kings
        for mask, bonus in self.white_rows:
            score += (white_men & mask).bit_count() * bonus
        for mask, bonus in self.black_rows:
            score -= (black_men & mask).bit_count() * bonus
        guards = (white_men & self.white_back).bit_count() - (black_men & self.black_back).bit_count()
        score += BACK_ROW_GUARD * guards
        centre = self.centre
        score += CENTRE_MAN * ((white_men & centre).bit_count() - (black_men & centre).bit_count())
        score += CENTRE_KING * ((white & kings & centre).bit_count() - (black & kings & centre).bit_count())
        pieces = (white | black).bit_count()
        if material and pieces < self.start_pieces:
            # Up to half the material edge again as the board empties: trade when ahead.
            score += int(material * (self.start_pieces - pieces) / (2 * self.start_pieces))
        return score if turn == 0 else -score
