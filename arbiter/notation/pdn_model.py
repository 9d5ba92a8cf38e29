"""The PDN data model: a game as read from (or written to) a PDN file.

A `PdnGame` holds its tags, start position, variant, the moves that replayed (each with the text as
written, the legal `Move` it names, its comments, clock and marks), the result and any faults. The
reader, the writer, and later the store and the referee all share it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum

from arbiter.rules import Color, Game, GameEnd, Move, Position, UnknownVariantError, Variant, get_variant

RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*")
# Each result as (first mover's score, second mover's score); None where the game is unfinished.
# In PDN the first side named in a result is the side that moves first: Black in English, so "1-0"
# there means Black won; White in international.
_RESULT_SCORES: dict[str, tuple[float, float] | None] = {
    "1-0": (1.0, 0.0),
    "2-0": (1.0, 0.0),
    "0-1": (0.0, 1.0),
    "0-2": (0.0, 1.0),
    "1/2-1/2": (0.5, 0.5),
    "1-1": (0.5, 0.5),
    "0-0": (0.0, 0.0),  # both sides lose (a double forfeit)
    "*": None,
}
# PDN 3.0's result for a game declared lost for both players: a stored game cannot hold it (it has one
# winner, a draw, or no result), so the readers that store games read it as a fault (`ReadOptions`).
DOUBLE_LOSS = "0-0"


def result_scores(result: str) -> tuple[float, float] | None:
    """The scores of the first and second mover for a PDN result; None for `*` or an unknown text."""
    return _RESULT_SCORES.get(result)


def result_winner(result: str, variant: Variant) -> Color | None:
    """The colour that won, or None for a draw, a double loss or an unfinished game."""
    scores = result_scores(result)
    if scores is None or scores[0] == scores[1]:
        return None
    first = variant.first_to_move
    return first if scores[0] > scores[1] else first.opponent


def end_at_last_move(game: Game, moves: Iterable[Move]) -> GameEnd | None:
    """Play ``moves`` into ``game`` while it goes on, and say how the rules end it at the last of them:
    None where they do not, or where they ended it earlier (a draw rule reached, and the players played
    on). A move the rules refuse raises ValueError, with ``game`` at the position before it."""
    for move in moves:
        if game.end is not None:
            return None
        game.play(move)
    return game.end


# The game types PDN 3.0's GameType table gives the International result type (2-0, 0-2, 1-1):
# international (20) and Canadian (27) draughts; every other has the Default one (1-0, 0-1, 1/2-1/2).
TWO_POINT_GAME_TYPES = frozenset({20, 27})


def result_text(variant: Variant, winner: Color | None, finished: bool = True) -> str:
    """The PDN result for a winner (None: a draw); `*` for an unfinished game.

    The result type is the game type's in PDN 3.0: international and Canadian files score a win 2-0
    and a draw 1-1 (with a rule option too: the file's GameType is the same); other variants use 1-0
    and 1/2-1/2. Either way the first number is the score of the side that moves first.
    """
    if not finished:
        return "*"
    two_points = variant.pdn_gametype in TWO_POINT_GAME_TYPES
    if winner is None:
        return "1-1" if two_points else "1/2-1/2"
    if winner is variant.first_to_move:
        return "2-0" if two_points else "1-0"
    return "0-2" if two_points else "0-1"


class FaultKind(StrEnum):
    UNKNOWN_SQUARE = "unknown square"
    ILLEGAL_MOVE = "illegal move"
    AMBIGUOUS_MOVE = "ambiguous capture"
    BROKEN_TAG = "broken tag"
    BAD_FEN = "bad FEN"
    BAD_RESULT = "bad result"
    UNSUPPORTED_VARIANT = "variant not supported yet"
    UNSTORABLE_RESULT = "result not stored"
    UNKNOWN_VARIANT = "unknown variant"
    SYNTAX = "syntax"


@dataclass(frozen=True)
class PdnFault:
    """One fault in a game: what kind, why, and where (line and column from 1; the ply from 1)."""

    kind: FaultKind
    reason: str
    line: int
    column: int
    ply: int | None = None
    in_variation: bool = False


@dataclass(frozen=True)
class PdnMove:
    """One move of a game: the text as written, the legal move it names, and what came with it.

    ``clock`` is the mover's time left after the move, in seconds (millisecond resolution).
    ``variations`` are alternatives to this move, each a line of moves from the position before it;
    they are kept only when the reader is asked to keep them.
    """

    text: str
    move: Move
    comments: tuple[str, ...] = ()
    clock: float | None = None
    marks: tuple[str, ...] = ()
    variations: tuple[tuple[PdnMove, ...], ...] = ()
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


@dataclass(frozen=True)
class PdnGame:
    """One game of a PDN file.

    ``moves`` are the moves that replayed legally; ``rest`` the move texts after the first fault
    that stopped the replay (empty when the whole game replayed). ``start_fen`` is the start
    position in the project's FEN form (or the FEN as written, when the variant is not supported).
    ``result`` is the game terminator (or the Result tag where the terminator is missing).
    """

    tags: dict[str, str]
    variant_id: str | None
    start_fen: str
    moves: tuple[PdnMove, ...] = ()
    result: str = "*"
    comments: tuple[str, ...] = ()  # before the first move
    rest: tuple[str, ...] = ()
    # Written after the last move, before the result (how the game ended); the reader keeps a comment
    # there with the last move, as PDN does not tell the two apart.
    closing: tuple[str, ...] = ()
    faults: tuple[PdnFault, ...] = field(default=(), compare=False)
    notes: tuple[str, ...] = field(default=(), compare=False)  # guesses and oddities that are not faults
    # What replays but contradicts itself (a Result tag against the terminator).
    warnings: tuple[str, ...] = field(default=(), compare=False)
    variant_guessed: bool = field(default=False, compare=False)
    variant_how: str = field(default="", compare=False)
    source: str = field(default="<text>", compare=False)
    number: int = field(default=1, compare=False)  # place in the file, from 1
    line: int = field(default=1, compare=False)  # where the game starts in the file

    @property
    def ok(self) -> bool:
        return not self.faults

    @property
    def variant(self) -> Variant | None:
        """The rules-core variant, or None where the variant is unknown or not supported yet."""
        if not self.variant_id:
            return None
        try:
            return get_variant(self.variant_id)
        except UnknownVariantError:
            return None

    @property
    def plies(self) -> int:
        return len(self.moves)

    def start_position(self) -> Position:
        variant = self.variant
        if variant is None:
            raise ValueError(f"{self.label()}: variant {self.variant_id!r} is not supported yet")
        return Position.from_fen(variant, self.start_fen)

    def positions(self) -> Iterator[Position]:
        """The start position, then the position after each move."""
        position = self.start_position()
        yield position
        for pdn_move in self.moves:
            position = position.play(pdn_move.move)
            yield position

    def end_position(self) -> Position:
        position = self.start_position()
        for pdn_move in self.moves:
            position = position.play(pdn_move.move)
        return position

    @property
    def winner(self) -> Color | None:
        variant = self.variant
        return result_winner(self.result, variant) if variant else None

    def label(self) -> str:
        """`game 12 (Event; Round; White name; Black name)`, for messages."""
        parts = [self.tags[name] for name in ("Event", "Round") if self.tags.get(name, "").strip("?- ")]
        for colour in ("White", "Black"):
            player = self.tags.get(colour, "").strip()
            if player.strip("?"):
                parts.append(f"{colour} {player}")
        return f"game {self.number}" + (f" ({'; '.join(parts)})" if parts else "")

    def describe_fault(self, fault: PdnFault) -> str:
        ply = f", ply {fault.ply}" if fault.ply is not None else ""
        return f"{self.source}:{fault.line}:{fault.column}: {self.label()}{ply}: {fault.kind}: {fault.reason}"
