"""PDN move text against a position: squares as numbers or coordinates, short or full capture paths.

`resolve_played` finds the one move that text names within a game, or says exactly why there is none:
a square that is not on the board, a move that is not legal (with the legal ones listed) or that the
rules on earlier moves forbid (Frisian's king-move limit), or a short capture that fits several
sequences, of which it keeps the one after which the rest of the game replays if there is just one.
The separator is not trusted (archives write `10x14` for a quiet move).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from arbiter.notation.movetext import format_pdn, moves_named
from arbiter.notation.pdn_model import FaultKind
from arbiter.rules import History, Move, Position

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


def _illegal_reason(position: Position, text: str, moves: list[Move]) -> str:
    side = position.turn.name.capitalize()
    legal = ", ".join(format_pdn(position, m) for m in sorted(moves, key=lambda m: m.path)) or "none"
    return f"{text} is not legal for {side} in {position.fen()}; legal moves: {legal}"


def resolve_played(
    positions: Sequence[Position], moves: Sequence[Move], text: str, rest: Sequence[str] = ()
) -> tuple[Move, str | None]:
    """The move that ``text`` names after the game so far: ``positions`` (the current one last) and the
    ``moves`` between them, with the rules on earlier moves applied. Where the text fits several capture
    sequences, the one after which ``rest`` (the texts of the moves that follow) replays is taken, with
    a note that says so; a true ambiguity is a fault listing the candidates."""
    position = positions[-1]
    matches = moves_named(position, move_squares(position, text))
    if position.variant.history_filter is not None and matches:
        allowed = History(positions, moves).legal_moves()
        kept = [m for m in matches if m in allowed]
        if not kept:
            rule = position.variant.history_rule
            side = position.turn.name.capitalize()
            legal = ", ".join(format_pdn(position, m) for m in sorted(allowed, key=lambda m: m.path))
            raise MoveFault(
                FaultKind.ILLEGAL_MOVE,
                f"{text} is not allowed for {side} in {position.fen()}: it breaks {rule}; "
                f"allowed moves: {legal or 'none'}",
            )
        matches = kept
    if len(matches) == 1:
        return matches[0], None
    if not matches:
        raise MoveFault(FaultKind.ILLEGAL_MOVE, _illegal_reason(position, text, position.legal_moves()))
    ordered = sorted(matches, key=lambda m: m.path)
    options = ", ".join(format_pdn(position, m, full_path=True) for m in ordered)
    fitting = [m for m in ordered if _replays([*positions, position.play(m)], [*moves, m], rest)]
    if len(fitting) == 1:
        chosen = format_pdn(position, fitting[0], full_path=True)
        return fitting[0], (
            f"{text} fits {len(matches)} capture sequences ({options}); {chosen} is the one after which "
            "the rest of the game replays"
        )
    why = "each of them lets" if fitting else "none of them lets"
    raise MoveFault(
        FaultKind.AMBIGUOUS_MOVE,
        f"{text} fits {len(matches)} capture sequences in {position.fen()} ({options}); "
        f"{why} the rest of the game replay, so the full path is needed",
    )


def _replays(positions: list[Position], moves: list[Move], texts: Sequence[str]) -> bool:
    """Whether every move text of ``texts`` replays after the game so far."""
    for index, text in enumerate(texts):
        try:
            move, _ = resolve_played(positions, moves, text, texts[index + 1 :])
        except MoveFault:
            return False
        positions.append(positions[-1].play(move))
        moves.append(move)
    return True
