"""What the event pages show, computed once from the games' lines: standings, each engine's record,
openings.

Standings, crosstable and Elo come from `arbiter.tournament`, fed the results counted (a few hundred
distinct results among 100,000 games); what is counted here is what only the games know: faults and
time losses, time per move, each engine's latest games and which games belong to which opening. Lists
that grow with the event keep their latest entries only, so the pages stay the same size.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from arbiter.referee.record import Side, Termination, Winner
from arbiter.report.inputs import EventInfo, OpeningInfo
from arbiter.report.lines import Line
from arbiter.tournament.scoring import FinishedGame, ScoringScheme
from arbiter.tournament.sprt_status import SprtStatus, sprt_status
from arbiter.tournament.standings import (
    Crosstable,
    Standing,
    Tally,
    crosstable,
    standings,
)
from arbiter.tournament.stats import (
    PAIR_KINDS,
    EloEstimate,
    Pentanomial,
    elo_by_pairs_or_games,
    pair_kind,
    pentanomial,
)

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
    """From the complete game pairs where the games were played in pairs (None before the first)."""


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
    latest: list[EngineGame] = field(default_factory=list)
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
    """Each player's Elo against the field: from its complete game pairs where the games were played
    in pairs (None before the first), from its single games otherwise (None without a game)."""
    in_pairs: bool
    """Whether games were played in opening pairs (some finished game belongs to a pair)."""
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
    sprt: SprtStatus | None = None

    @property
    def finished(self) -> int:
        return sum(self.results.values())


def summarize(
    event: EventInfo,
    lines: Sequence[Line],
    identities: dict[str, tuple[dict[str, str], str | None]] | None = None,
) -> EventSummary:
    """The summary of the games `lines` (every planned and played game, in playing order).

    `identities` gives each player's engine identity and engine key, when known apart from the games.
    """
    tallies = Tallies(event)
    counted: dict[str, Line] = {}
    for line in lines:
        tallies.add(line, counted.get(line.key))
        counted[line.key] = line
    return tallies.summary(identities)


class Tallies:
    """What the summary counts, kept game by game: a game is added, or its line counted before taken
    out again when a newer line of it comes (the publisher of a running event keeps one between
    refreshes, so that a refresh costs the games that changed, not the event). It holds no game's
    line beyond the latest few, so its memory does not grow with the event: whoever adds a newer line
    says which one it replaces. The latest games are those added last."""

    def __init__(self, event: EventInfo) -> None:
        self.event = event
        self.players: dict[str, None] = dict.fromkeys(event.players)
        self.planned = 0
        self.unfinished = 0
        """Games in `lines` (planned or played) without a result."""
        self.results: Counter[FinishedGame] = Counter()
        """Results by players and outcome only: a long event has a few hundred distinct ones."""
        self.pairs: dict[int, list[FinishedGame]] = {}
        self.pair_counts = _PairCounts()
        self.engines: dict[str, _EngineCounts] = {}
        self.openings = _OpeningCounts()
        self.playing: dict[str, Line] = {}
        self.latest: OrderedDict[str, Line] = OrderedDict()
        self.started_at: datetime | None = None
        self.ended_at: datetime | None = None

    def add(self, line: Line, replaces: Line | None = None) -> None:
        """Count `line`, in place of `replaces`, the game's line counted before (None: a new game)."""
        if replaces is not None:
            self._count(replaces, -1)
        else:
            self.planned += 1
        self._count(line, 1)

    def _count(self, line: Line, sign: int) -> None:
        self.players.setdefault(line.white)
        self.players.setdefault(line.black)
        state = line.state
        if state != "finished":
            self.unfinished += sign
        if not line.played:
            return
        for index, name in enumerate((line.white, line.black)):
            self.engines.setdefault(name, _EngineCounts()).count(line, index, sign)
        if state == "playing":
            if sign > 0:
                self.playing[line.key] = line
            else:
                self.playing.pop(line.key, None)
        if sign > 0 and line.started_at is not None:
            self.started_at = min(self.started_at or line.started_at, line.started_at)
        result = line.finished_game()
        if result is None:
            return
        self.results[FinishedGame(result.white, result.black, result.outcome, pieces=result.pieces)] += sign
        if result.pair_index is not None:
            pair = self.pairs.setdefault(result.pair_index, [])
            self.pair_counts.count(result.pair_index, pair, -1)
            if sign > 0:
                pair.append(result)
            elif result in pair:
                pair.remove(result)
            self.pair_counts.count(result.pair_index, pair, 1)
        self.openings.count(line, result, sign)
        if sign > 0:
            self.latest[line.key] = line
            self.latest.move_to_end(line.key)
            while len(self.latest) > LATEST_RESULTS:
                self.latest.popitem(last=False)
            if line.ended_at is not None:
                self.ended_at = max(self.ended_at or line.ended_at, line.ended_at)
        else:
            self.latest.pop(line.key, None)

    def summary(self, identities: dict[str, tuple[dict[str, str], str | None]] | None = None) -> EventSummary:
        event = self.event
        scheme = event.scoring
        players = tuple(self.players)
        results = +self.results
        table = standings(results, players, scheme)
        cross = crosstable(results, players, scheme)
        identities = identities or {}
        engines = {standing.player: standing for standing in table}
        pair_counts = self.pair_counts
        elo = {
            name: elo_by_pairs_or_games(
                engines[name].overall if name in engines else Tally(),
                pair_counts.pentanomial(name),
                pair_counts.games_of(name),
            )
            for name in players
        }
        summaries: dict[str, EngineSummary] = {}
        for name in [standing.player for standing in table] + list(players):
            if name in summaries:
                continue
            counts = self.engines.get(name, _EngineCounts())
            identity, engine_id = identities.get(name, ({}, None))
            summaries[name] = counts.summary(
                name,
                engines.get(name),
                elo[name],
                _opponents(cross, name, players, pair_counts),
                identity,
                engine_id,
            )
        paired = [game for pair in self.pairs.values() for game in pair] if len(players) == 2 else []
        sprt = None
        if event.sprt is not None and len(players) == 2:
            tested = paired if event.ballot_pairs else list(results.elements())
            try:
                sprt = sprt_status(event.sprt, tested, players[0], players[1], paired=event.ballot_pairs)
            except ValueError:
                sprt = None  # pairs that do not fit together: no sound test to show
        started_at, ended_at = event.started_at, event.ended_at
        if event.dated_by_games:
            started_at = started_at or self.started_at
            ended_at = ended_at or (self.ended_at if self.unfinished == 0 else None)
        return EventSummary(
            event=event,
            scheme=scheme,
            players=players,
            results=results,
            table=table,
            crosstable=cross,
            elo=elo,
            in_pairs=pair_counts.any_games(),
            engines=summaries,
            openings=self.openings.summaries(),
            match=_match_statistics(players, paired, None if sprt is None else sprt.pentanomial),
            planned=self.planned,
            playing=list(self.playing.values()),
            latest=list(reversed(self.latest.values())),
            started_at=started_at,
            ended_at=ended_at,
            sprt=sprt,
        )


def _opponents(
    table: Crosstable, name: str, players: Sequence[str], pair_counts: _PairCounts
) -> list[OpponentRecord]:
    """`name`'s record against each opponent it has met, from the crosstable's cells, and its Elo
    against each, from their game pairs where they played in pairs."""
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
                elo=elo_by_pairs_or_games(
                    record, pair_counts.pentanomial(name, opponent), pair_counts.games_of(name, opponent)
                ),
            )
        )
    return rows


class _PairCounts:
    """Each player's complete game pairs against each opponent by kind (their pentanomial counts), and
    its games played in pairs, kept as games come and go: a refresh does not go over every pair again."""

    def __init__(self) -> None:
        self.kinds: dict[str, dict[str, Counter[str]]] = {}
        """Player, then opponent, then kind."""
        self.games: dict[str, Counter[str]] = {}
        """Player, then opponent."""

    def count(self, index: int, pair: Sequence[FinishedGame], sign: int) -> None:
        """Count the finished games of pair `index` (sign 1), or take them out again (sign -1)."""
        for game in pair:
            for player in game.players:
                self.games.setdefault(player, Counter())[game.opponent_of(player)] += sign
        if len(pair) < 2:
            return
        try:
            kinds = {player: pair_kind(index, pair, player) for player in pair[0].players}
        except ValueError:
            return  # not two games of two players with colours swapped: no pair to count
        for player, kind in kinds.items():
            against = self.kinds.setdefault(player, {})
            against.setdefault(pair[0].opponent_of(player), Counter())[kind] += sign

    def pentanomial(self, player: str, opponent: str | None = None) -> Pentanomial:
        """`player`'s counts against `opponent`, or against the field when none is named."""
        against = self.kinds.get(player, {})
        chosen = list(against.values()) if opponent is None else [against.get(opponent, Counter())]
        return Pentanomial(**{kind: sum(kinds[kind] for kinds in chosen) for kind in PAIR_KINDS})

    def games_of(self, player: str, opponent: str | None = None) -> int:
        """`player`'s finished games in pairs against `opponent`, or against the field."""
        against = self.games.get(player, Counter())
        return sum(against.values()) if opponent is None else against[opponent]

    def any_games(self) -> bool:
        return any(n > 0 for against in self.games.values() for n in against.values())


class _EngineCounts:
    """One engine's games as its page counts them."""

    def __init__(self) -> None:
        self.moves = [0, 0.0, 0, 0]  # timed moves, their seconds, moves with a depth, the depths
        self.games = 0
        self.losses: dict[str, Loss] = {}
        self.latest: OrderedDict[str, EngineGame] = OrderedDict()

    def count(self, line: Line, index: int, sign: int) -> None:
        side = Side.WHITE if index == 0 else Side.BLACK
        moves = self.moves
        moves[0] += sign * line.timed[index]
        moves[1] += sign * line.seconds[index]
        moves[2] += sign * line.depths[index]
        moves[3] += sign * line.depth_sum[index]
        self.games += sign
        if sign < 0:
            self.losses.pop(line.key, None)
            self.latest.pop(line.key, None)
            return
        loss = _loss_of(line, side)
        if loss is not None:
            self.losses[line.key] = loss
        opponent = line.black if side is Side.WHITE else line.white
        self.latest[line.key] = EngineGame(
            game=line, side=side, opponent=opponent, result=_result_for(line, side)
        )
        self.latest.move_to_end(line.key)
        while len(self.latest) > ENGINE_LATEST_GAMES:
            self.latest.popitem(last=False)

    def summary(
        self,
        name: str,
        standing: Standing | None,
        elo: EloEstimate | None,
        opponents: list[OpponentRecord],
        identity: dict[str, str],
        engine_id: str | None,
    ) -> EngineSummary:
        losses = list(self.losses.values())
        return EngineSummary(
            name=name,
            standing=standing,
            elo=elo,
            identity=dict(identity),
            engine_id=engine_id,
            opponents=opponents,
            faults=[loss for loss in losses if loss.termination not in TIME_LOSSES],
            time_losses=[loss for loss in losses if loss.termination in TIME_LOSSES],
            latest=list(self.latest.values()),
            game_count=self.games,
            moves_timed=int(self.moves[0]),
            time_used=float(self.moves[1]),
            moves_with_depth=int(self.moves[2]),
            depth_total=int(self.moves[3]),
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


def _minus(tally: Tally, fraction: float) -> Tally:
    """`tally` without one game in which the player earned `fraction`."""
    if fraction == 1.0:
        return Tally(tally.wins - 1, tally.draws, tally.losses)
    if fraction == 0.5:
        return Tally(tally.wins, tally.draws - 1, tally.losses)
    return Tally(tally.wins, tally.draws, tally.losses - 1)


class _OpeningCounts:
    """Per opening and pair of players, in order of first appearance: each player's score with each
    colour, the number of games and the latest few."""

    def __init__(self) -> None:
        self.infos: dict[str, OpeningInfo] = {}
        self.pairs: dict[str, dict[tuple[str, str], dict[str, list[Tally]]]] = {}
        self.games: dict[tuple[str, tuple[str, str]], OrderedDict[str, Line]] = {}
        self.counts: Counter[tuple[str, tuple[str, str]]] = Counter()
        self.winners: dict[str, Counter[Winner]] = {}

    def count(self, line: Line, result: FinishedGame, sign: int) -> None:
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
        for player, colour in ((line.white, 0), (line.black, 1)):
            fraction = result.fraction_for(player)
            tally = scores[player][colour]
            scores[player][colour] = tally.with_fraction(fraction) if sign > 0 else _minus(tally, fraction)
        key = (opening.id, pair)
        games = self.games.setdefault(key, OrderedDict())
        if sign > 0:
            games[line.key] = line
            games.move_to_end(line.key)
            while len(games) > OPENING_GAMES:
                games.popitem(last=False)
        else:
            games.pop(line.key, None)
        self.counts[key] += sign
        self.winners.setdefault(opening.id, Counter())[line.winner] += sign

    def summaries(self) -> list[OpeningSummary]:
        summaries = []
        for opening_id, pairs in self.pairs.items():
            info = self.infos[opening_id]
            rows = []
            for pair, scores in pairs.items():
                key = (opening_id, pair)
                if self.counts[key] <= 0:
                    continue
                colour = tuple(ColourScore(player, *scores[player]) for player in pair)
                rows.append(
                    OpeningPairing(
                        scores=(colour[0], colour[1]),
                        games=tuple(self.games[key].values()),
                        game_count=self.counts[key],
                    )
                )
            if not rows:
                continue
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


def _match_statistics(
    players: Sequence[str], results: Sequence[FinishedGame], counts: Pentanomial | None = None
) -> MatchStatistics | None:
    """Pentanomial counts of a two-player event played in opening pairs; `counts`: the pairs of
    `results` when they are already counted (for the SPRT)."""
    if len(players) != 2 or not results:
        return None
    player, opponent = players
    if counts is None:
        try:
            counts = pentanomial(results, player, opponent).counts
        except ValueError:
            return None  # pairs that do not fit together: the single-game figures still stand
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
    )
