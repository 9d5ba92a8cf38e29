"""What a variant is: a description of its board and rules, plus the few hooks data cannot express."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from arbiter.rules.draws import DrawRule
from arbiter.rules.fen import FenSetup, format_fen
from arbiter.rules.geometry import Color, Geometry

if TYPE_CHECKING:
    from arbiter.rules.game import GameEnd
    from arbiter.rules.position import Move, Position


class CaptureChoice(StrEnum):
    FREE = "free"  # any capture sequence may be chosen
    MAJORITY = "majority"  # a sequence taking the most pieces is compulsory (a king counts as one)


class CrowningInCapture(StrEnum):
    ENDS_MOVE = "ends-move"  # English: a man reaching the back row is crowned and the move ends
    PASSES_THROUGH = "passes-through"  # international: crowned only if the capture ends there
    CONTINUES_AS_KING = "continues-as-king"  # Russian: crowned at once, goes on capturing as a king


class CaptureRemoval(StrEnum):
    AFTER_MOVE = "after-move"  # jumped pieces stay as blockers until the move ends
    IMMEDIATE = "immediate"  # Turkish: each piece leaves the board as it is jumped


class Notation(StrEnum):
    NUMERIC = "numeric"  # squares 1..N
    ALGEBRAIC = "algebraic"  # a1..h8, as Russian, Brazilian and Turkish files write them


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


class MoveHistory(Protocol):
    """What a history rule may look at: the moves so far and the position each one was played from."""

    @property
    def moves(self) -> Sequence[Move]: ...

    @property
    def positions(self) -> Sequence[Position]: ...


# A rule that depends on earlier moves, not just the position (Frisian's king-move limit): it gets the
# game so far and the position's legal moves, and returns those still allowed.
HistoryFilter = Callable[[MoveHistory, list["Move"]], list["Move"]]


class GameSoFar(MoveHistory, Protocol):
    """What a game-end rule may look at: the history, and the legal moves of the side to move now."""

    def legal_moves(self) -> list[Move]: ...


# A variant's own way of ending a game (Mule checkers' mule rules): it gets the game after each move
# (and at the start, before any move) and returns how the game ended, or None to let the usual rules
# (no piece, no legal move, draw rules) decide.
EndRule = Callable[[GameSoFar], "GameEnd | None"]


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
    capture_removal: CaptureRemoval = CaptureRemoval.AFTER_MOVE
    no_reversal: bool = False  # Turkish: no 180-degree turn between two jumps
    empty_back_rows: int = 0  # Turkish: the men start one row in from each edge
    notation: Notation = Notation.NUMERIC
    history_filter: HistoryFilter | None = field(default=None, compare=False)
    # The history rule in words (a generic name unless the variant gives one), for the referee's
    # verdict, and how many plies back it looks: a client that sends an engine a position with the
    # moves after it sends at least that many.
    history_rule: str = "the rules on earlier moves"
    history_plies: int = 0
    options: tuple[str, ...] = ()  # the named rule options applied, e.g. ("iyt-draws",)
    no_move_outcome: NoMoveOutcome = NoMoveOutcome.LOSS
    pdn_gametype: int | None = None
    hub_name: str | None = None
    capture_filter: CaptureFilter | None = field(default=None, compare=False)
    mule_rows: int = 0  # Mule checkers: the men on this many back rows of each side start as mules
    # Killer draughts: a king whose capture ends by taking a king stops on the square right behind it.
    killer: bool = False
    # Breakthrough: the first to crown wins, so a side whose opponent has a king has no move.
    crowning_wins: bool = False
    # The source texts' variation where capturing is optional: quiet moves stay legal beside captures
    # (a capture, once chosen, follows the variant's capture rules).
    optional_capture: bool = False
    end_rule: EndRule | None = field(default=None, compare=False)

    @property
    def square_count(self) -> int:
        return self.geometry.square_count

    @property
    def has_mules(self) -> bool:
        """Whether positions of this variant may hold mules (men that only count for the mule rules)."""
        return self.mule_rows > 0

    def square_name(self, square: int) -> str:
        """How notation writes a square: its number, or ``c3`` on boards read algebraically."""
        if self.notation is Notation.ALGEBRAIC:
            return self.geometry.algebraic(square)
        return str(square)

    def square_names(self) -> tuple[str, ...]:
        """Every square's name as notation writes it, by square number (index 0, no square, is empty):
        made once per variant by the tables that keep it (``position.tables``, the notation's)."""
        return ("", *(self.square_name(n) for n in range(1, self.square_count + 1)))

    def parse_square(self, text: str) -> int | None:
        """A square written as a number or, on any board, algebraically; None if it is not on the board."""
        token = text.strip()
        if token.isdecimal():  # not isdigit: int() refuses a superscript digit such as "²"
            n = int(token)
            return n if 1 <= n <= self.square_count else None
        return self.geometry.square_from_algebraic(token)

    def start_fen(self) -> str:
        """The start position as PDN FEN: men on the first ``rows_of_men`` rows of each side.

        With ``mule_rows``, the men on each side's back rows are mules, written ``M1``.
        """
        g = self.geometry
        first, last = self.empty_back_rows, self.empty_back_rows + self.rows_of_men
        black = frozenset(g.squares_of(g.rows_mask(range(first, last))))
        white = frozenset(g.squares_of(g.rows_mask(range(g.height - last, g.height - first))))
        mule_rows = min(self.mule_rows, self.rows_of_men)
        mules = frozenset(g.squares_of(g.rows_mask(range(first, first + mule_rows))))
        mules |= frozenset(g.squares_of(g.rows_mask(range(g.height - first - mule_rows, g.height - first))))
        setup = FenSetup(
            turn=self.first_to_move.letter,
            white_men=white,
            white_kings=frozenset(),
            black_men=black,
            black_kings=frozenset(),
            white_mules=white & mules,
            black_mules=black & mules,
        )
        return format_fen(setup, self.square_name if self.notation is Notation.ALGEBRAIC else None)
