"""Mule checkers (It's Your Turn): how the mules decide a game.

Mules move, capture and are captured exactly like men, so the move generator never looks at them; only
this end rule does. It runs after every move, before the usual rules, and checks in this order:

1. capturing every opposing piece in one turn wins (even when the last of them were mules);
2. crowning your own mule loses (even when the same capture took the opponent's last regular piece);
3. capturing the opponent's last mule loses: a player wins by losing all their mules;
4. a player left with mules but no regular piece (man or king) loses;
5. a player whose every legal move crowns a mule loses ("forced to crown a mule");

otherwise the usual rules decide (no piece or no legal move loses, and the draw rules).
Rules 1-3 judge the last move, so a game set up without mules (a Hub position has none) is not over
at once: it plays as English checkers with rules 4 and 5.
"""

from __future__ import annotations

from arbiter.rules.game import EndReason, GameEnd
from arbiter.rules.geometry import Color
from arbiter.rules.position import Move, Position
from arbiter.rules.variant import GameSoFar

EVERY_PIECE = "every piece captured in one turn"
CROWNED_MULE = "crowned a mule"
ALL_MULES_LOST = "all mules lost"
NO_REGULAR_PIECES = "all regular pieces captured"
FORCED_TO_CROWN = "forced to crown a mule"


def _own(position: Position, color: Color) -> int:
    return position.white if color is Color.WHITE else position.black


def crowns_a_mule(position: Position, move: Move) -> bool:
    """Whether ``move`` (legal in ``position``) takes a mule to the back row."""
    return move.crowns and bool(position.mules & move.raw[0])


def mule_end(game: GameSoFar) -> GameEnd | None:
    """How the mule rules end the game now, or None when they do not."""
    after = game.positions[-1]
    side = after.turn  # the side to move now; the last move was the opponent's
    ply = len(game.moves)

    def end(winner: Color, rule: str, detail: str) -> GameEnd:
        return GameEnd(winner, EndReason.VARIANT_RULE, rule, ply, detail)

    if game.moves:
        move = game.moves[-1]
        before = game.positions[-2]
        mover = before.turn
        if move.is_capture and not _own(after, side):
            return end(mover, EVERY_PIECE, f"{_name(mover)} captured every {_name(side)} piece in one turn")
        if crowns_a_mule(before, move):
            return end(side, CROWNED_MULE, f"{_name(mover)} crowned its own mule")
        if _own(before, side) & before.mules and not _own(after, side) & after.mules:
            return end(side, ALL_MULES_LOST, f"{_name(mover)} captured {_name(side)}'s last mule")
    own = _own(after, side)
    if own and not own & ~after.mules:
        return end(side.opponent, NO_REGULAR_PIECES, f"{_name(side)} has no regular piece left")
    if own & after.mules:
        moves = game.legal_moves()
        if moves and all(crowns_a_mule(after, m) for m in moves):
            return end(side.opponent, FORCED_TO_CROWN, f"{_name(side)} can only move by crowning a mule")
    return None


def _name(color: Color) -> str:
    return color.name.capitalize()
