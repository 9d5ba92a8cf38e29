"""What the event pages show, computed once from the games' lines: standings, each engine's record,
openings.

Standings, crosstable and Elo come from `arbiter.tournament`, fed the results counted (a few hundred
distinct results among 100,000 games); what is counted here is what only the games know: faults and
time losses, time per move, each engine's latest games and which games belong to which opening. Lists
that grow with the event keep their latest entries only, so the pages stay the same size.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from arbiter.referee.record import Side, Termination, Winner
from arbiter.report.inputs import EventInfo, OpeningInfo
from arbiter.report.lines import Line
from arbiter.tournament.scoring import FinishedGame, ScoringScheme
from arbiter.tournament.standings import (
    Crosstable,
    Standing,
    Tally,
    crosstable,
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


# An engine page lists this many of the engine's latest games; an opening pairing this many of its
# games; the index this many latest results. The games pages list them all.
ENGINE_LATEST_GAMES = 40
OPENING_GAMES = 6
LATEST_RESULTS = 12


@dataclass(frozen=True)
class Loss:
    """A game an engine lost by a fault or on time."""

    game: Line
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

    game: Line
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
    latest: deque[EngineGame] = field(default_factory=lambda: deque(maxlen=ENGINE_LATEST_GAMES))
    """The engine's latest games, oldest first."""
    game_count: int = 0
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
    """How two players scored on one opening, each with each colour, and their latest games there."""

    scores: tuple[ColourScore, ColourScore]
    games: tuple[Line, ...]
    game_count: int


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
    scheme: ScoringScheme
    players: tuple[str, ...]
    results: Counter[FinishedGame]
    """Every finished game's result, counted."""
    table: list[Standing]
    crosstable: Crosstable
    elo: dict[str, EloEstimate | None]
    engines: dict[str, EngineSummary]
    openings: list[OpeningSummary]
    match: MatchStatistics | None
    planned: int
    """Games in the event, played or not."""
    playing: list[Line]
    latest: list[Line]
    """The latest finished games, latest first."""
    started_at: datetime | None
    ended_at: datetime | None
    """When the last game ended, once every game has a result."""

    @property
    def finished(self) -> int:
        return sum(self.results.values())


def player_list(event: EventInfo, lines: Iterable[Line]) -> tuple[str, ...]:
    """The event's players, then anyone found only in the games, in order of first appearance."""
    found = dict.fromkeys(event.players)
    for line in lines:
        found.setdefault(line.white)
        found.setdefault(line.black)
    return tuple(found)


def summarize(
    event: EventInfo,
    lines: Sequence[Line],
    identities: dict[str, tuple[dict[str, str], str | None]] | None = None,
) -> EventSummary:
    """The summary of the games `lines` (every planned and played game, in playing order).

    `identities` gives each player's engine identity and engine key, when known apart from the games.
    """
    scheme = event.scoring
    players = player_list(event, lines)
    results: Counter[FinishedGame] = Counter()
    paired: list[FinishedGame] = []
    engines = {name: EngineSummary(name=name, standing=None, elo=None) for name in players}
    for name, (identity, engine_id) in (identities or {}).items():
        if name in engines:
            engines[name].identity, engines[name].engine_id = dict(identity), engine_id
    openings = _OpeningCounts()
    playing: list[Line] = []
    latest: list[tuple[datetime, int, Line]] = []
    starts: list[datetime] = []
    ends: list[datetime] = []
    every_game_done = True
    for number, line in enumerate(lines):
        if not line.played:
            every_game_done = False
            continue
        _count_game(engines, line)
        if line.started_at is not None:
            starts.append(line.started_at)
        state = line.state
        if state == "playing":
            playing.append(line)
        if state != "finished":
            every_game_done = False
            continue
        if line.ended_at is not None:
            ends.append(line.ended_at)
        result = line.finished_game()
        assert result is not None
        results[result] += 1
        if result.pair_index is not None and len(players) == 2:
            paired.append(result)
        openings.add(line, result)
        moment = line.ended_at or line.started_at
        assert moment is not None
        entry = (moment, number, line)
        if len(latest) < LATEST_RESULTS:
            heapq.heappush(latest, entry)
        else:
            heapq.heappushpop(latest, entry)
    table = standings(results, players, scheme)
    elo = {name: elo_for(results, name) for name in players}
    cross = crosstable(results, players, scheme)
    for standing in table:
        engines[standing.player].standing = standing
    for summary in engines.values():
        summary.elo = elo[summary.name]
        summary.opponents = _opponents(cross, summary.name, players)
    ordered = {standing.player: engines[standing.player] for standing in table}
    ordered.update(engines)
    return EventSummary(
        event=event,
        scheme=scheme,
        players=players,
        results=results,
        table=table,
        crosstable=cross,
        elo=elo,
        engines=ordered,
        openings=openings.summaries(),
        match=_match_statistics(players, paired),
        planned=len(lines),
        playing=playing,
        latest=[line for _, _, line in sorted(latest, reverse=True)],
        started_at=event.started_at or min(starts, default=None),
        ended_at=event.ended_at or (max(ends, default=None) if every_game_done else None),
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


def _count_game(engines: dict[str, EngineSummary], line: Line) -> None:
    for index, side in enumerate((Side.WHITE, Side.BLACK)):
        name = line.white if side is Side.WHITE else line.black
        opponent = line.black if side is Side.WHITE else line.white
        summary = engines[name]
        summary.moves_timed += line.timed[index]
        summary.time_used += line.seconds[index]
        summary.moves_with_depth += line.depths[index]
        summary.depth_total += line.depth_sum[index]
        loss = _loss_of(line, side)
        if loss is not None:
            (summary.time_losses if loss.termination in TIME_LOSSES else summary.faults).append(loss)
        summary.game_count += 1
        summary.latest.append(
            EngineGame(game=line, side=side, opponent=opponent, result=_result_for(line, side))
        )


def _loss_of(line: Line, side: Side) -> Loss | None:
    if not line.ended or line.winner is not Winner.side(side.opponent) or line.termination is None:
        return None
    if line.termination in FAULTS or line.termination in TIME_LOSSES:
        return Loss(game=line, termination=line.termination, reason=line.reason)
    return None


def _result_for(line: Line, side: Side) -> str:
    state = line.state
    if state != "finished":
        return state
    if line.winner is Winner.DRAW:
        return "draw"
    return "win" if line.winner is Winner.side(side) else "loss"


class _OpeningCounts:
    """Per opening and pair of players, in order of first appearance: each player's score with each
    colour, the number of games and the latest few."""

    def __init__(self) -> None:
        self.infos: dict[str, OpeningInfo] = {}
        self.pairs: dict[str, dict[tuple[str, str], dict[str, list[Tally]]]] = {}
        self.games: dict[tuple[str, tuple[str, str]], deque[Line]] = {}
        self.counts: Counter[tuple[str, tuple[str, str]]] = Counter()
        self.winners: dict[str, Counter[Winner]] = {}

    def add(self, line: Line, result: FinishedGame) -> None:
        opening = line.opening
        if opening is None:
            return
        self.infos.setdefault(opening.id, opening)
        pairs = self.pairs.setdefault(opening.id, {})
        pair = next((p for p in ((line.white, line.black), (line.black, line.white)) if p in pairs), None)
        if pair is None:
            pair = (line.white, line.black)
            pairs[pair] = {line.white: [Tally(), Tally()], line.black: [Tally(), Tally()]}
        scores = pairs[pair]
        scores[line.white][0] = scores[line.white][0].with_fraction(result.fraction_for(line.white))
        scores[line.black][1] = scores[line.black][1].with_fraction(result.fraction_for(line.black))
        key = (opening.id, pair)
        self.games.setdefault(key, deque(maxlen=OPENING_GAMES)).append(line)
        self.counts[key] += 1
        self.winners.setdefault(opening.id, Counter())[line.winner] += 1

    def summaries(self) -> list[OpeningSummary]:
        summaries = []
        for opening_id, pairs in self.pairs.items():
            info = self.infos[opening_id]
            rows = []
            for pair, scores in pairs.items():
                colour = tuple(ColourScore(player, *scores[player]) for player in pair)
                key = (opening_id, pair)
                rows.append(
                    OpeningPairing(
                        scores=(colour[0], colour[1]),
                        games=tuple(self.games[key]),
                        game_count=self.counts[key],
                    )
                )
            winners = self.winners[opening_id]
            summaries.append(
                OpeningSummary(
                    id=opening_id,
                    name=info.name,
                    text=info.text,
                    pairings=tuple(rows),
                    wins_for_white=winners[Winner.WHITE],
                    wins_for_black=winners[Winner.BLACK],
                    draws=winners[Winner.DRAW],
                )
            )
        return summaries


def _match_statistics(players: Sequence[str], results: Sequence[FinishedGame]) -> MatchStatistics | None:
    """Pentanomial counts and the pair-based Elo of a two-player event played in opening pairs."""
    if len(players) != 2 or not results:
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
