"""What a variant is: a description of its board and rules, plus the few hooks data cannot express."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from arbiter.rules.draws import DrawRule
from arbiter.rules.geometry import Color, Geometry


class CaptureChoice(StrEnum):
    FREE = "free"  # any capture sequence may be chosen
    MAJORITY = "majority"  # a sequence taking the most pieces is compulsory (a king counts as one)


class CrowningInCapture(StrEnum):
    ENDS_MOVE = "ends-move"  # English: a man reaching the back row is crowned and the move ends
    PASSES_THROUGH = "passes-through"  # international: crowned only if the capture ends there
    CONTINUES_AS_KING = "continues-as-king"  # Russian: crowned at once, goes on capturing as a king


class NoMoveOutcome(StrEnum):
    LOSS = "loss"  # the side to move with no legal move (or no piece) loses
    WIN = "win"  # losing variants: it wins


@dataclass(frozen=True, slots=True)
class CaptureSequence:
    """One complete capture found by the generator, as a variant hook sees it."""

    path: tuple[int, ...]  # bit indices visited, start first
    captured: tuple[int, ...]  # bit indices of the captured pieces, in capture order
    kings_captured: tuple[bool, ...]  # whether each captured piece was a king
    by_king: bool  # the capturing piece was a king when the move started
    crowned: bool  # the capturing man ends the move as a king


CaptureFilter = Callable[[Sequence[CaptureSequence]], Sequence[CaptureSequence]]


@dataclass(frozen=True)
class Variant:
    """A draughts variant described as data.

    Directions are relative to the mover (see ``geometry.DIAGONALS``). ``capture_filter`` is the one
    hook for capture-priority rules that counting alone cannot express (Italian, Frisian); it runs
    after the ``capture_choice`` rule and keeps the sequences that are allowed.
    """

    id: str
    title: str
    summary: str
    geometry: Geometry
    first_to_move: Color
    rows_of_men: int
    man_steps: tuple[str, ...]
    man_captures: tuple[str, ...]
    king_steps: tuple[str, ...]
    king_captures: tuple[str, ...]
    flying_kings: bool
    capture_choice: CaptureChoice
    crowning_in_capture: CrowningInCapture
    draw_rules: tuple[DrawRule, ...]
    men_capture_kings: bool = True
    no_move_outcome: NoMoveOutcome = NoMoveOutcome.LOSS
    pdn_gametype: int | None = None
    hub_name: str | None = None
    capture_filter: CaptureFilter | None = field(default=None, compare=False)

    @property
    def square_count(self) -> int:
        return self.geometry.square_count

    def start_fen(self) -> str:
        """The start position as PDN FEN: men on the first ``rows_of_men`` rows of each side."""
        g = self.geometry
        black = g.squares_of(g.rows_mask(range(self.rows_of_men)))
        white = g.squares_of(g.rows_mask(range(g.height - self.rows_of_men, g.height)))
        return f"{self.first_to_move.letter}:W{_ranges(white)}:B{_ranges(black)}"


def _ranges(squares: list[int]) -> str:
    parts: list[str] = []
    i = 0
    while i < len(squares):
        j = i
        while j + 1 < len(squares) and squares[j + 1] == squares[j] + 1:
            j += 1
        parts.append(f"{squares[i]}-{squares[j]}" if j > i else str(squares[i]))
        i = j + 1
    return ",".join(parts)
