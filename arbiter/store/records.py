"""The plain records the store keeps and hands back: game keys, results and scoring schemes.

They know nothing of pairing or standings; the tournament plans games and scores them with these.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


@dataclass(frozen=True, order=True)
class GameKey:
    """Where a game sits in the schedule: round, board (encounter) and game within the encounter.

    It is the same every time the schedule is rebuilt from the same options.
    """

    round: int
    board: int
    game: int

    def __str__(self) -> str:
        return f"r{self.round}-b{self.board}-g{self.game}"


class OpeningRef(Protocol):
    """What the store needs of a planned game's opening: its id."""

    @property
    def id(self) -> str: ...


class ScheduledGame(Protocol):
    """What the store needs of a planned game (the tournament's `PlannedGame`) to file its record."""

    @property
    def key(self) -> GameKey: ...
    @property
    def cycle(self) -> int: ...
    @property
    def white(self) -> str: ...
    @property
    def black(self) -> str: ...
    @property
    def opening(self) -> OpeningRef | None: ...
    @property
    def opening_index(self) -> int | None: ...
    @property
    def pair_index(self) -> int | None: ...


class Outcome(StrEnum):
    WHITE_WINS = "white-wins"
    BLACK_WINS = "black-wins"
    DRAW = "draw"


@dataclass(frozen=True)
class FinishedGame:
    """One finished game as the standings see it.

    `opening_id` names the opening it started from (None: the variant's start position); games that
    share a `pair_index` were played as a pair on one opening with colours swapped.
    """

    white: str
    black: str
    outcome: Outcome
    opening_id: str | None = None
    pair_index: int | None = None
    pieces: int = 0
    """The winner's pieces left on the board (0 for a draw), for piece-count scoring; 0 where the
    event does not score by pieces, so that results of other events group by outcome alone."""

    def __post_init__(self) -> None:
        if self.white == self.black:
            raise ValueError(f"a game needs two different players, got {self.white!r} twice")

    @property
    def players(self) -> tuple[str, str]:
        return (self.white, self.black)

    def involves(self, player: str) -> bool:
        return player in (self.white, self.black)

    def opponent_of(self, player: str) -> str:
        if player == self.white:
            return self.black
        if player == self.black:
            return self.white
        raise ValueError(f"{player!r} did not play in {self.white} - {self.black}")

    def fraction_for(self, player: str) -> float:
        """The share of the game `player` earned: 1 for a win, 1/2 for a draw, 0 for a loss."""
        self.opponent_of(player)  # checks that the player took part
        if self.outcome is Outcome.DRAW:
            return 0.5
        winner = self.white if self.outcome is Outcome.WHITE_WINS else self.black
        return 1.0 if player == winner else 0.0


@dataclass(frozen=True)
class ScoringScheme:
    """Points for a win, a draw and a loss."""

    name: str
    win: float
    draw: float
    loss: float
    by_pieces: bool = False
    """Piece-count scoring: a win is worth the winner's pieces left (`FinishedGame.pieces`), a draw
    and a loss nothing; `win`/`draw`/`loss` are then only the stored nominal 1 / 1/2 / 0."""

    def __post_init__(self) -> None:
        if not self.win > self.draw > self.loss:
            raise ValueError(
                f"scoring scheme {self.name!r} must value a win above a draw above a loss, "
                f"got {self.win}/{self.draw}/{self.loss}"
            )

    def points_for(self, game: FinishedGame, player: str) -> float:
        fraction = game.fraction_for(player)
        if self.by_pieces:
            return float(game.pieces) if fraction == 1.0 else 0.0
        if fraction == 1.0:
            return self.win
        if fraction == 0.5:
            return self.draw
        return self.loss


# The usual 1 / 1/2 / 0 of tournament play.
STANDARD = ScoringScheme(name="1-1/2-0", win=1.0, draw=0.5, loss=0.0)
# The source rule text's other way (seeds/001): the winner scores its pieces left on the board.
PIECES = ScoringScheme(name="pieces", win=1.0, draw=0.5, loss=0.0, by_pieces=True)
