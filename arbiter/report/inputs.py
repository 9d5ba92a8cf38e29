"""What the site is built from: the event's description and its games, as plain values.

The site builder knows nothing of the store or the runner. Whoever calls it (``arbiter report``, the
runner after each game) turns what it has into an ``EventInfo`` and one ``GameEntry`` per planned or
played game, in playing order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from arbiter.referee.record import GameRecord, Winner
from arbiter.tournament.schedule import Bye, PlannedGame
from arbiter.tournament.scoring import STANDARD, FinishedGame, Outcome, ScoringScheme
from arbiter.tournament.stats import SprtSettings


class SiteError(ValueError):
    """Inputs the site cannot be built from (two games with one key), or no templates to build it with."""


@dataclass(frozen=True)
class EventInfo:
    """The event as its index page describes it.

    `players` lists every player in the configuration's order (players without a game yet are shown
    too). `openings` says in words where the openings come from, or None when every game starts from
    the variant's start position. `started_at`/`ended_at`, when None, are taken from the games.
    """

    name: str
    variant: str
    time_control: str
    format: str
    players: tuple[str, ...]
    scoring: ScoringScheme = STANDARD
    openings: str | None = None
    ballot_pairs: bool = False
    """Each opening is played twice with colours swapped; the openings page is made for such events."""
    cycles: int = 1
    games_per_encounter: int = 1
    status: str | None = None
    """The run's state in a word (``running``, ``finished``), when the caller knows it."""
    started_at: datetime | None = None
    ended_at: datetime | None = None
    dated_by_games: bool = True
    """Whether dates not given here are taken from when the games started and ended. Not for an
    imported event: a game its file does not date is stored as starting when it was imported."""
    sprt: SprtSettings | None = None
    """The SPRT a match stops on, if it has one."""
    byes: tuple[Bye, ...] = ()
    """Who rests in which round (a round robin of an odd number of players): shown, never scored."""


@dataclass(frozen=True)
class OpeningInfo:
    """The opening a game starts from: a stable id (``acf-7``), its name and its moves (or FEN)."""

    id: str
    name: str = ""
    text: str = ""

    @classmethod
    def recorded(cls, acf_number: int | None, name: str | None, moves: Sequence[str]) -> OpeningInfo:
        """The opening a game's record names: known by its ACF number, or else by its moves."""
        text = " ".join(moves)
        return cls(id=f"acf-{acf_number}" if acf_number is not None else text, name=name or "", text=text)


@dataclass(frozen=True)
class GameEntry:
    """One game of the event: where the schedule put it and, once it has been played, its record.

    `key` names the game uniquely within the event (``r1-b2-g1``); it becomes the game page's name.
    A game without a record is still to be played; a record without an outcome is being played.
    """

    key: str
    white: str
    black: str
    record: GameRecord | None = None
    round: int | None = None
    board: int | None = None
    cycle: int | None = None
    opening: OpeningInfo | None = None
    pair_index: int | None = None

    @classmethod
    def planned(cls, planned: PlannedGame, record: GameRecord | None = None) -> GameEntry:
        """A scheduled game, with its record when it has been played."""
        opening = None
        if planned.opening is not None:
            given = planned.opening
            # Moves cut from a PDN game start from that game's set-up, which the reader needs to see too.
            text = given.text if given.start_fen is None else f"{given.start_fen} then {given.text}"
            opening = OpeningInfo(id=given.id, name=given.name, text=text)
        return cls(
            key=str(planned.key),
            white=planned.white,
            black=planned.black,
            record=record,
            round=planned.key.round,
            board=planned.key.board,
            cycle=planned.cycle,
            opening=opening,
            pair_index=planned.pair_index,
        )

    @classmethod
    def played(
        cls,
        key: str,
        record: GameRecord,
        *,
        round: int | None = None,
        board: int | None = None,
        cycle: int | None = None,
        pair_index: int | None = None,
    ) -> GameEntry:
        """A game known by its record, without a planned game to go with it."""
        given = record.opening
        opening = None if given is None else OpeningInfo.recorded(given.acf_number, given.name, given.moves)
        return cls(
            key=key,
            white=record.white.name,
            black=record.black.name,
            record=record,
            round=round,
            board=board,
            cycle=cycle,
            opening=opening,
            pair_index=pair_index,
        )

    @property
    def state(self) -> str:
        """``planned``, ``playing``, ``unfinished`` (stopped without a result) or ``finished``."""
        if self.record is None:
            return "planned"
        if self.record.outcome is None:
            return "playing"
        if self.record.winner is Winner.UNFINISHED:
            return "unfinished"
        return "finished"

    def finished_game(self) -> FinishedGame | None:
        """The result as the standings count it, or None when the game has no result."""
        if self.record is None:
            return None
        outcome = _OUTCOMES.get(self.record.winner)
        if outcome is None:
            return None
        return FinishedGame(
            white=self.record.white.name,
            black=self.record.black.name,
            outcome=outcome,
            opening_id=self.opening.id if self.opening is not None else None,
            pair_index=self.pair_index,
        )


_OUTCOMES = {Winner.WHITE: Outcome.WHITE_WINS, Winner.BLACK: Outcome.BLACK_WINS, Winner.DRAW: Outcome.DRAW}


def finished_games(games: Sequence[GameEntry]) -> list[FinishedGame]:
    """The results of every game that has one, in the order given."""
    return [result for result in (game.finished_game() for game in games) if result is not None]
