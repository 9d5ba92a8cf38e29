"""A game as the lists, standings and engine pages see it: one small line, without its moves.

An event of 100,000 games is summed up and listed from its lines; only a game's own page needs the
moves, and those are read a game at a time. A line comes from a `GameEntry` (games held in memory) or
from the store's `GameLine` (a game row), beside its planned game when there is one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from sys import intern

from arbiter.notation.pdn_model import result_text
from arbiter.referee.record import Side, Termination, Winner
from arbiter.report.files import page_key
from arbiter.report.inputs import GameEntry, OpeningInfo
from arbiter.rules import Color, UnknownVariantError, Variant, get_variant
from arbiter.store import GameLine
from arbiter.store.codec import move_stats
from arbiter.tournament.piece_scoring import winner_pieces
from arbiter.tournament.scoring import FinishedGame, Outcome

_OUTCOMES = {Winner.WHITE: Outcome.WHITE_WINS, Winner.BLACK: Outcome.BLACK_WINS, Winner.DRAW: Outcome.DRAW}
NO_MOVES = ((0, 0), (0.0, 0.0), (0, 0), (0, 0))


@dataclass(frozen=True, slots=True)
class Line:
    key: str
    white: str
    black: str
    round: int | None = None
    board: int | None = None
    cycle: int | None = None
    pair_index: int | None = None
    opening: OpeningInfo | None = None
    variant: str | None = None
    played: bool = False
    """Whether the game has a record (and so a page of its own)."""
    winner: Winner = Winner.UNFINISHED
    ended: bool = False
    """Whether the record has an outcome (a game without one is being played)."""
    termination: Termination | None = None
    reason: str = ""
    plies: int = 0
    started_at: datetime | None = None
    ended_at: datetime | None = None
    timed: tuple[int, int] = (0, 0)
    """(White's, Black's) moves with a time; the same pairs follow for seconds and depths."""
    seconds: tuple[float, float] = (0.0, 0.0)
    depths: tuple[int, int] = (0, 0)
    depth_sum: tuple[int, int] = (0, 0)
    pieces: int = 0
    """The winner's pieces left on the board, counted only for an event scored by pieces."""

    @property
    def state(self) -> str:
        """``planned``, ``playing``, ``unfinished`` (stopped without a result) or ``finished``."""
        if not self.played:
            return "planned"
        if not self.ended:
            return "playing"
        return "unfinished" if self.winner is Winner.UNFINISHED else "finished"

    @property
    def page(self) -> str | None:
        """The game page's file name (without ``.html``), for a game that has a record."""
        return page_key(self.key) if self.played else None

    @property
    def result(self) -> str:
        """The PDN result (``1-0``: the first mover won), ``*`` without one, empty before the game."""
        if not self.played:
            return ""
        if self.winner is Winner.UNFINISHED:
            return "*"
        variant = variant_named(self.variant)
        colour = Side(self.winner.value).color if self.winner.decisive else None
        if variant is None:
            return {Color.WHITE: "1-0", Color.BLACK: "0-1", None: "1/2-1/2"}[colour]
        return result_text(variant, colour)

    @property
    def ending(self) -> str:
        """The ending in words (``Black wins: no legal move``), empty while the game is not over."""
        return self.reason if self.ended else ""

    def finished_game(self) -> FinishedGame | None:
        outcome = _OUTCOMES.get(self.winner) if self.ended else None
        if outcome is None:
            return None
        return FinishedGame(
            white=self.white,
            black=self.black,
            outcome=outcome,
            opening_id=self.opening.id if self.opening is not None else None,
            pair_index=self.pair_index,
            pieces=self.pieces,
        )

    def players_in_order(self, first: Color) -> tuple[str, str]:
        """The two players, the one who moves first first."""
        return (self.black, self.white) if first is Color.BLACK else (self.white, self.black)


@cache
def variant_named(variant_id: str | None) -> Variant | None:
    if variant_id is None:
        return None
    try:
        return get_variant(variant_id)
    except UnknownVariantError:
        return None


def entry_line(game: GameEntry, pieces: bool = False) -> Line:
    """The line of a game held in memory: its record's moves are counted as the store counts them;
    with `pieces`, the winner's pieces left are counted too (an event scored by pieces)."""
    record = game.record
    if record is None:
        return Line(
            key=game.key,
            white=game.white,
            black=game.black,
            round=game.round,
            board=game.board,
            cycle=game.cycle,
            pair_index=game.pair_index,
            opening=game.opening,
        )
    stats = move_stats(record)
    outcome = record.outcome
    return Line(
        key=game.key,
        white=record.white.name,
        black=record.black.name,
        round=game.round,
        board=game.board,
        cycle=game.cycle,
        pair_index=game.pair_index,
        opening=game.opening,
        variant=record.variant,
        played=True,
        winner=record.winner,
        ended=outcome is not None,
        termination=None if outcome is None else outcome.termination,
        reason="" if outcome is None else outcome.reason,
        plies=record.plies,
        started_at=record.started_at,
        ended_at=record.ended_at,
        timed=(stats["white_timed"], stats["black_timed"]),
        seconds=(stats["white_seconds"], stats["black_seconds"]),
        depths=(stats["white_depths"], stats["black_depths"]),
        depth_sum=(stats["white_depth_sum"], stats["black_depth_sum"]),
        pieces=winner_pieces(record) if pieces and outcome is not None else 0,
    )


def stored_line(stored: GameLine, planned: Line | None, pieces: int = 0) -> Line:
    """The line of a stored game, where the schedule put it (`planned`, when the plan knows it);
    `pieces` is the winner's pieces left, for an event scored by pieces."""
    opening = planned.opening if planned is not None else stored_opening(stored.opening)
    # Names and endings repeat from game to game: one string each, not one per game read.
    return Line(
        key=str(stored.key),
        white=planned.white
        if planned is not None and planned.white == stored.white
        else intern(stored.white),
        black=planned.black
        if planned is not None and planned.black == stored.black
        else intern(stored.black),
        round=stored.key.round,
        board=stored.key.board,
        cycle=stored.cycle,
        pair_index=stored.pair_index,
        opening=opening,
        variant=intern(stored.variant),
        played=True,
        winner=stored.winner,
        ended=stored.termination is not None,
        termination=None if stored.termination is None else Termination(stored.termination),
        reason=intern(stored.reason),
        plies=stored.plies,
        started_at=stored.started_at,
        ended_at=stored.ended_at,
        timed=stored.timed,
        seconds=stored.seconds,
        depths=stored.depths,
        depth_sum=stored.depth_sum,
        pieces=pieces,
    )


def stored_opening(text: str | None) -> OpeningInfo | None:
    if text is None:
        return None
    data = json.loads(text)
    return OpeningInfo.recorded(data.get("acf_number"), data.get("name"), data.get("moves") or [])
