"""What the event pages show, computed once from the games: standings, each engine's record, openings.

Standings, crosstable and Elo come from `arbiter.tournament`; what is counted here is what only the
records know: faults and time losses, time per move, and which games belong to which opening.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from arbiter.referee.record import GameRecord, Side, Termination, Winner
from arbiter.report.inputs import EventInfo, GameEntry, OpeningInfo, finished_games
from arbiter.tournament.scoring import FinishedGame, ScoringScheme
from arbiter.tournament.sprt_status import SprtStatus, sprt_status
from arbiter.tournament.standings import (
    Crosstable,
    Standing,
    Tally,
    crosstable,
    opening_results,
    standings,
)
from arbiter.tournament.stats import EloEstimate, elo_for, elo_from_pentanomial, elo_from_wdl, pentanomial

# Endings that are the loser's own fault, as opposed to losses on the board.
FAULTS = frozenset(
    {
        Termination.ILLEGAL_MOVE,
        Termination.UNPARSABLE_OUTPUT,
        Termination.CRASH,
        Termination.NO_ANSWER,
        Termination.START_FAILURE,
    }
)
TIME_LOSSES = frozenset({Termination.TIME_FORFEIT, Termination.IMPROPER_DELAY})


@dataclass(frozen=True)
class Loss:
    """A game an engine lost by a fault or on time."""

    game: GameEntry
    termination: Termination
    reason: str


@dataclass(frozen=True)
class OpponentRecord:
    opponent: str
    record: Tally
    points: float
    elo: EloEstimate | None


@dataclass(frozen=True)
class EngineGame:
    """One of an engine's games, from its side."""

    game: GameEntry
    side: Side
    opponent: str
    result: str
    """``win``, ``draw``, ``loss``, or the game's state when it has no result."""


@dataclass
class EngineSummary:
    name: str
    standing: Standing | None
    elo: EloEstimate | None
    identity: dict[str, str] = field(default_factory=dict)
    engine_id: str | None = None
    opponents: list[OpponentRecord] = field(default_factory=list)
    faults: list[Loss] = field(default_factory=list)
    time_losses: list[Loss] = field(default_factory=list)
    games: list[EngineGame] = field(default_factory=list)
    moves_timed: int = 0
    time_used: float = 0.0
    depth_total: int = 0
    moves_with_depth: int = 0

    @property
    def average_time(self) -> float | None:
        return self.time_used / self.moves_timed if self.moves_timed else None

    @property
    def average_depth(self) -> float | None:
        return self.depth_total / self.moves_with_depth if self.moves_with_depth else None


@dataclass(frozen=True)
class ColourScore:
    player: str
    as_white: Tally
    as_black: Tally


@dataclass(frozen=True)
class OpeningPairing:
    """How two players scored on one opening, each with each colour, and the games."""

    scores: tuple[ColourScore, ColourScore]
    games: tuple[GameEntry, ...]


@dataclass(frozen=True)
class OpeningSummary:
    id: str
    name: str
    text: str
    pairings: tuple[OpeningPairing, ...]
    wins_for_white: int
    wins_for_black: int
    draws: int


@dataclass(frozen=True)
class MatchStatistics:
    """Game-pair statistics, for events played in opening pairs: the first player's view."""

    player: str
    opponent: str
    pairs: int
    ll: int
    ld: int
    wl: int
    dd: int
    wd: int
    ww: int
    elo: EloEstimate | None


@dataclass
class EventSummary:
    event: EventInfo
    games: Sequence[GameEntry]
    scheme: ScoringScheme
    players: tuple[str, ...]
    results: list[FinishedGame]
    table: list[Standing]
    crosstable: Crosstable
    elo: dict[str, EloEstimate | None]
    engines: dict[str, EngineSummary]
    openings: list[OpeningSummary]
    match: MatchStatistics | None
    sprt: SprtStatus | None = None

    @property
    def finished(self) -> int:
        return len(self.results)

    @property
    def playing(self) -> list[GameEntry]:
        return [game for game in self.games if game.state == "playing"]

    @property
    def planned(self) -> int:
        return len(self.games)


def player_list(event: EventInfo, games: Sequence[GameEntry]) -> tuple[str, ...]:
    """The event's players, then anyone found only in the games, in order of first appearance."""
    found = dict.fromkeys(event.players)
    for game in games:
        found.setdefault(game.white)
        found.setdefault(game.black)
        if game.record is not None:
            found.setdefault(game.record.white.name)
            found.setdefault(game.record.black.name)
    return tuple(found)


def summarize(event: EventInfo, games: Sequence[GameEntry]) -> EventSummary:
    scheme = event.scoring
    players = player_list(event, games)
    results = finished_games(games)
    table = standings(results, players, scheme)
    elo = {name: elo_for(results, name) for name in players}
    engines = {
        standing.player: EngineSummary(name=standing.player, standing=standing, elo=elo[standing.player])
        for standing in table
    }
    for name in players:
        engines.setdefault(name, EngineSummary(name=name, standing=None, elo=elo[name]))
    cross = crosstable(results, players, scheme)
    for summary in engines.values():
        summary.opponents = _opponents(cross, summary.name, players)
    for game in games:
        _count_game(engines, game)
    return EventSummary(
        event=event,
        games=games,
        scheme=scheme,
        players=players,
        results=results,
        table=table,
        crosstable=cross,
        elo=elo,
        engines=engines,
        openings=_openings(games, results),
        match=_match_statistics(players, results),
        sprt=_sprt(event, players, results),
    )


def _opponents(table: Crosstable, name: str, players: Sequence[str]) -> list[OpponentRecord]:
    """`name`'s record against each opponent it has met, from the crosstable's cells."""
    rows = []
    for opponent in players:
        cell = table.cell(name, opponent) if opponent != name else None
        if cell is None or cell.record.games == 0:
            continue
        record = cell.record
        rows.append(
            OpponentRecord(
                opponent=opponent,
                record=record,
                points=cell.points,
                elo=elo_from_wdl(record.wins, record.draws, record.losses),
            )
        )
    return rows


def _count_game(engines: dict[str, EngineSummary], game: GameEntry) -> None:
    record = game.record
    if record is None:
        return
    for side in (Side.WHITE, Side.BLACK):
        player = record.player(side)
        summary = engines[player.name]
        if player.identity:
            summary.identity = dict(player.identity)
        if player.engine_id:
            summary.engine_id = player.engine_id
        _count_moves(summary, record, side)
        loss = _loss_of(game, record, side)
        if loss is not None:
            (summary.time_losses if loss.termination in TIME_LOSSES else summary.faults).append(loss)
        opponent = record.player(side.opponent).name
        summary.games.append(
            EngineGame(game=game, side=side, opponent=opponent, result=_result_for(game, side))
        )


def _count_moves(summary: EngineSummary, record: GameRecord, side: Side) -> None:
    for move in record.moves:
        if move.side is not side or move.from_opening:
            continue
        if move.elapsed is not None:
            summary.moves_timed += 1
            summary.time_used += move.elapsed
        if move.info is not None and move.info.depth is not None:
            summary.moves_with_depth += 1
            summary.depth_total += move.info.depth


def _loss_of(game: GameEntry, record: GameRecord, side: Side) -> Loss | None:
    outcome = record.outcome
    if outcome is None or outcome.winner is not Winner.side(side.opponent):
        return None
    if outcome.termination in FAULTS or outcome.termination in TIME_LOSSES:
        return Loss(game=game, termination=outcome.termination, reason=outcome.reason)
    return None


def _result_for(game: GameEntry, side: Side) -> str:
    if game.record is None or game.state != "finished":
        return game.state
    winner = game.record.winner
    if winner is Winner.DRAW:
        return "draw"
    return "win" if winner is Winner.side(side) else "loss"


def _openings(games: Sequence[GameEntry], results: Sequence[FinishedGame]) -> list[OpeningSummary]:
    """Per opening, in order of first appearance: each pairing's scores by colour and its games."""
    infos: dict[str, OpeningInfo] = {}
    games_of: dict[tuple[str, frozenset[str]], list[GameEntry]] = {}
    for game in games:
        if game.opening is None or game.finished_game() is None:
            continue
        infos.setdefault(game.opening.id, game.opening)
        games_of.setdefault((game.opening.id, frozenset((game.white, game.black))), []).append(game)
    pairings: dict[str, list[OpeningPairing]] = {}
    for result in opening_results(results):
        first, second = result.players
        scores = tuple(
            ColourScore(player, result.by_player[player].as_white, result.by_player[player].as_black)
            for player in (first, second)
        )
        pairing = OpeningPairing(
            scores=(scores[0], scores[1]),
            games=tuple(games_of.get((result.opening_id, frozenset(result.players)), [])),
        )
        pairings.setdefault(result.opening_id, []).append(pairing)
    summaries = []
    for opening_id, rows in pairings.items():
        info = infos.get(opening_id)
        played = [g for row in rows for g in row.games]
        summaries.append(
            OpeningSummary(
                id=opening_id,
                name=info.name if info is not None else "",
                text=info.text if info is not None else "",
                pairings=tuple(rows),
                wins_for_white=sum(1 for g in played if g.record and g.record.winner is Winner.WHITE),
                wins_for_black=sum(1 for g in played if g.record and g.record.winner is Winner.BLACK),
                draws=sum(1 for g in played if g.record and g.record.winner is Winner.DRAW),
            )
        )
    return summaries


def _match_statistics(players: Sequence[str], results: Sequence[FinishedGame]) -> MatchStatistics | None:
    """Pentanomial counts and the pair-based Elo of a two-player event played in opening pairs."""
    if len(players) != 2 or not any(result.pair_index is not None for result in results):
        return None
    player, opponent = players
    try:
        paired = pentanomial(results, player, opponent)
    except ValueError:
        return None  # pairs that do not fit together: the single-game figures still stand
    counts = paired.counts
    elo = elo_from_pentanomial(counts) if counts.pairs else None
    if elo is not None and any(math.isnan(v) for v in (elo.elo, elo.lower, elo.upper)):
        elo = None
    return MatchStatistics(
        player=player,
        opponent=opponent,
        pairs=counts.pairs,
        ll=counts.ll,
        ld=counts.ld,
        wl=counts.wl,
        dd=counts.dd,
        wd=counts.wd,
        ww=counts.ww,
        elo=elo,
    )


def _sprt(event: EventInfo, players: Sequence[str], results: Sequence[FinishedGame]) -> SprtStatus | None:
    """Where the SPRT of a match that has one stands, from the first player's side."""
    if event.sprt is None or len(players) != 2:
        return None
    try:
        return sprt_status(event.sprt, results, players[0], players[1], paired=event.ballot_pairs)
    except ValueError:
        return None  # pairs that do not fit together: no sound test to show
