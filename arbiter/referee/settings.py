"""What a tournament may change about how the referee ends games: length limit, score adjudication,
automatic forced moves. Validated once (pydantic), so a tournament file can embed them as they are."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DrawAdjudication(_Settings):
    """Adjudicate a draw when each engine's last ``moves`` scores all lie within ``±margin``.

    Scores are the ones the engines report in their last ``info`` line of each move, in the engines' own
    units (often hundredths of a man).
    """

    margin: float = Field(ge=0, description="the largest absolute score that still counts as level")
    moves: int = Field(ge=1, description="how many consecutive moves of each engine must agree")
    min_plies: int = Field(0, ge=0, description="never adjudicate a draw before this many plies")


class WinAdjudication(_Settings):
    """Adjudicate a win when each engine's last ``moves`` scores all say the same side leads by at least
    ``margin`` (each engine scores from its own side; the referee turns them to one point of view).

    One-sided (``two_sided`` False, cutechess-cli's and fastchess's ``-resign`` default), an engine
    whose own last ``moves`` scores all put its side at least ``margin`` behind loses, whatever its
    opponent thinks: it resigns."""

    margin: float = Field(gt=0, description="the lead, in the engines' score units, that counts as won")
    moves: int = Field(ge=1, description="how many consecutive moves of each engine must agree")
    two_sided: bool = Field(
        True, description="both engines must see the lead; false: the losing engine's own scores decide"
    )


class RefereeRules(_Settings):
    """How games end beyond the rules of the variant. Everything is off by default."""

    max_plies: int | None = Field(None, ge=1, description="a draw once this many plies have been played")
    draw_adjudication: DrawAdjudication | None = None
    win_adjudication: WinAdjudication | None = None
    auto_forced_moves: bool = Field(
        False, description="play the move for the engine when it has only one (as CheckerBoard offers)"
    )
