"""Score-based adjudication: a pure tally of the scores both engines report, move by move.

Each engine scores from its own side. The tally keeps, per engine, how many of its latest moves in a row
met each condition; a draw (or a win) is adjudicated when both engines' runs reach the configured
number of moves; a one-sided win, when the losing engine's own run does. A move without a score breaks
that engine's runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.referee.settings import DrawAdjudication, WinAdjudication
from arbiter.rules import Color


@dataclass(frozen=True)
class Verdict:
    """What adjudication decided: ``winner`` None means a draw. ``reason`` is in words."""

    winner: Color | None
    reason: str


class ScoreAdjudicator:
    def __init__(self, draw: DrawAdjudication | None, win: WinAdjudication | None) -> None:
        self.draw = draw
        self.win = win
        self._level_run = {Color.WHITE: 0, Color.BLACK: 0}
        # The run of moves in which an engine saw one side (by colour) winning.
        self._lead_run: dict[Color, tuple[Color | None, int]] = {
            Color.WHITE: (None, 0),
            Color.BLACK: (None, 0),
        }

    @property
    def active(self) -> bool:
        return self.draw is not None or self.win is not None

    def add(self, mover: Color, score: float | None, plies: int) -> Verdict | None:
        """Count the score ``mover`` reported for its move; ``plies`` is the number played after it."""
        if score is None:
            self._level_run[mover] = 0
            self._lead_run[mover] = (None, 0)
            return None
        draw, win = self.draw, self.win
        if draw is not None:
            self._level_run[mover] = self._level_run[mover] + 1 if abs(score) <= draw.margin else 0
        if win is not None:
            leader: Color | None = None
            # A lead of exactly the margin counts, as cutechess-cli's and fastchess's -resign count it.
            if score >= win.margin:
                leader = mover
            elif score <= -win.margin:
                leader = mover.opponent
            previous, run = self._lead_run[mover]
            if leader is None:
                run = 0
            elif leader == previous:
                run += 1
            else:
                run = 1
            self._lead_run[mover] = (leader, run)
            if not win.two_sided:
                if leader == mover.opponent and run >= win.moves:
                    return Verdict(
                        leader,
                        f"{mover.name.capitalize()}'s engine resigned: its last {win.moves} scores put "
                        f"it behind by at least {win.margin:g}",
                    )
            else:
                white_view, black_view = self._lead_run[Color.WHITE], self._lead_run[Color.BLACK]
                if (
                    white_view[0] is not None
                    and white_view[0] == black_view[0]
                    and min(white_view[1], black_view[1]) >= win.moves
                ):
                    side = white_view[0]
                    return Verdict(
                        side,
                        f"both engines' last {win.moves} scores gave {side.name.capitalize()} "
                        f"a lead of at least {win.margin:g}",
                    )
        if draw is not None and plies >= draw.min_plies and min(self._level_run.values()) >= draw.moves:
            return Verdict(None, f"both engines' last {draw.moves} scores were within ±{draw.margin:g}")
        return None
