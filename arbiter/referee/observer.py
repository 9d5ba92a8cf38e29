"""Watching a game as it is played (the `arbiter play` display, a live tournament view).

The referee tells the observer of a move once the next engine has been sent ``go`` (or the game has
ended), so a slow observer does not add to the referee's time between moves; several moves (an
opening) may be told one after the other. The default hooks do nothing.
"""

from __future__ import annotations

from arbiter.referee.record import GameRecord, MoveRecord
from arbiter.rules import Position


class GameObserver:
    def game_started(self, record: GameRecord, position: Position) -> None:
        """The record is set up and ``position`` is the start position (before the opening)."""

    def move_played(self, record: GameRecord, move: MoveRecord, position: Position) -> None:
        """``move`` was just recorded; ``position`` is the position after it."""

    def game_ended(self, record: GameRecord, position: Position) -> None:
        """``record.outcome`` is set; ``position`` is the final position."""
