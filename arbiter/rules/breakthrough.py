"""Breakthrough draughts (Scan's ``bt``): international rules, and the first side to crown a man wins.

The move generator gives no move to a side whose opponent has a king (``CrowningWinsGenerator``), so
perft and searches stop there; this end rule names the win. A position set up with a king already on
the board is won by that king's side at once (both sides having kings is not a breakthrough position).
"""

from __future__ import annotations

from arbiter.rules.game import EndReason, GameEnd
from arbiter.rules.geometry import Color
from arbiter.rules.variant import GameSoFar

CROWNED_FIRST = "crowned first"


def breakthrough_end(game: GameSoFar) -> GameEnd | None:
    position = game.positions[-1]
    side = position.turn
    opponent = position.black if side is Color.WHITE else position.white
    if not opponent & position.kings:
        return None
    winner = side.opponent
    detail = f"{winner.name.capitalize()} crowned a king first"
    return GameEnd(winner, EndReason.VARIANT_RULE, CROWNED_FIRST, len(game.moves), detail)
