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

from collections.abc import Sequence

from arbiter.rules.game import EndReason, GameEnd
from arbiter.rules.geometry import Color
from arbiter.rules.movegen import RawMove
from arbiter.rules.position import Move, Position
from arbiter.rules.variant import GameSoFar

EVERY_PIECE = "every piece captured in one turn"
CROWNED_MULE = "crowned a mule"
ALL_MULES_LOST = "all mules lost"
NO_REGULAR_PIECES = "all regular pieces captured"
FORCED_TO_CROWN = "forced to crown a mule"


def _own(position: Position, color: Color) -> int:
    return position.white if color is Color.WHITE else position.black


def judge_move(
    move: RawMove, opponent_before: int, opponent_after: int, mules: int, mules_next: int
) -> tuple[bool, str] | None:
    """Rules 1-3 on bitboards: (whether the side that just played ``move`` won, the rule), or None.
    ``mules`` and ``mules_next`` are every mule before and after the move."""
    start, _, captured, crowns, _ = move
    if captured and not opponent_after:
        return True, EVERY_PIECE
    if crowns and mules & start:
        return False, CROWNED_MULE
    if opponent_before & mules and not opponent_after & mules_next:
        return False, ALL_MULES_LOST
    return None


def judge_played(before: Position, move: Move, after: Position) -> tuple[bool, str] | None:
    """``judge_move`` for ``move`` played from ``before`` to ``after``."""
    side = after.turn
    return judge_move(move.raw, _own(before, side), _own(after, side), before.mules, after.mules)


def side_loses(own: int, mules: int, moves: Sequence[RawMove]) -> str | None:
    """Rules 4-5 on bitboards: the rule by which the side to move (pieces ``own``, legal ``moves``)
    has lost, or None."""
    if own and not own & ~mules:
        return NO_REGULAR_PIECES
    if own & mules and moves and all(move[3] and mules & move[0] for move in moves):
        return FORCED_TO_CROWN
    return None


def mule_end(game: GameSoFar) -> GameEnd | None:
    """How the mule rules end the game now, or None when they do not."""
    after = game.positions[-1]
    side = after.turn  # the side to move now; the last move was the opponent's
    ply = len(game.moves)

    def end(winner: Color, rule: str, detail: str) -> GameEnd:
        return GameEnd(winner, EndReason.VARIANT_RULE, rule, ply, detail)

    if game.moves:
        before = game.positions[-2]
        mover = before.turn
        verdict = judge_played(before, game.moves[-1], after)
        if verdict is not None:
            mover_won, rule = verdict
            details = {
                EVERY_PIECE: f"{_name(mover)} captured every {_name(side)} piece in one turn",
                CROWNED_MULE: f"{_name(mover)} crowned its own mule",
                ALL_MULES_LOST: f"{_name(mover)} captured {_name(side)}'s last mule",
            }
            return end(mover if mover_won else side, rule, details[rule])
    own = _own(after, side)
    lost_by = side_loses(own, after.mules, [m.raw for m in game.legal_moves()] if own & after.mules else ())
    if lost_by is not None:
        details = {
            NO_REGULAR_PIECES: f"{_name(side)} has no regular piece left",
            FORCED_TO_CROWN: f"{_name(side)} can only move by crowning a mule",
        }
        return end(side.opponent, lost_by, details[lost_by])
    return None


def _name(color: Color) -> str:
    return color.name.capitalize()
