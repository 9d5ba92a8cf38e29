"""Standings, head-to-head scores, the crosstable and per-opening results, from finished games.

Everything here is a pure function of a list of `FinishedGame`s; the order of the list does not matter
except where a result lists things "in order of first appearance". The games may also be given counted
(a mapping from a result to how many games ended so): a long event has a few hundred distinct results
among its 100,000 games, and the functions then do the work once per distinct result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from arbiter.tournament.scoring import STANDARD, FinishedGame, ScoringScheme

Results = Iterable[FinishedGame] | Mapping[FinishedGame, int]
"""Finished games, one by one or counted."""


def counted(games: Results) -> list[tuple[FinishedGame, int]]:
    """Each distinct result once, with the number of games that ended so, in order of first appearance."""
    if isinstance(games, Mapping):
        return [(game, count) for game, count in games.items() if count > 0]
    return list(Counter(games).items())


@dataclass(frozen=True)
class Tally:
    """Wins, draws and losses from one player's side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Game points on the 1 / 1/2 / 0 scale, whatever the tournament's scoring scheme."""
        return self.wins + self.draws / 2

    def points(self, scheme: ScoringScheme) -> float:
        return self.wins * scheme.win + self.draws * scheme.draw + self.losses * scheme.loss

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.wins + other.wins, self.draws + other.draws, self.losses + other.losses)

    def with_fraction(self, fraction: float, count: int = 1) -> Tally:
        """This tally plus `count` games in which the player earned `fraction` (1, 1/2 or 0)."""
        if fraction == 1.0:
            return Tally(self.wins + count, self.draws, self.losses)
        if fraction == 0.5:
            return Tally(self.wins, self.draws + count, self.losses)
        return Tally(self.wins, self.draws, self.losses + count)


def tally(games: Results, player: str, opponent: str | None = None) -> Tally:
    """`player`'s wins, draws and losses, against `opponent` only when one is named."""
    result = Tally()
    for game, count in counted(games):
        if game.involves(player) and (opponent is None or game.opponent_of(player) == opponent):
            result = result.with_fraction(game.fraction_for(player), count)
    return result


def head_to_head(games: Results, player: str, opponent: str) -> Tally:
    """`player`'s record against `opponent`."""
    return tally(games, player, opponent)


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    rank: int
    player: str
    points: float
    overall: Tally
    as_white: Tally
    as_black: Tally
    sonneborn_berger: float

    @property
    def games(self) -> int:
        return self.overall.games


def standings(
    games: Results, players: Sequence[str] | None = None, scheme: ScoringScheme = STANDARD
) -> list[Standing]:
    """The table, best first: by points, then Sonneborn-Berger, then wins; players equal on all
    three share a rank and are listed by name.

    Sonneborn-Berger adds, for every game, the share of it the player earned (1, 1/2, 0) times the
    opponent's final points. `players` lists everyone to show, including those without games; without
    it the players are those found in the games.
    """
    grouped = counted(games)
    names = _player_list(grouped, players, partial(_game_number, games))
    points = {name: 0.0 for name in names}
    white = {name: Tally() for name in names}
    black = {name: Tally() for name in names}
    for game, count in grouped:
        white[game.white] = white[game.white].with_fraction(game.fraction_for(game.white), count)
        black[game.black] = black[game.black].with_fraction(game.fraction_for(game.black), count)
        points[game.white] += scheme.points_for(game, game.white) * count
        points[game.black] += scheme.points_for(game, game.black) * count
    sonneborn_berger = {name: 0.0 for name in names}
    for game, count in grouped:
        for player in game.players:
            sonneborn_berger[player] += game.fraction_for(player) * points[game.opponent_of(player)] * count

    def sort_key(name: str) -> tuple[float, float, int, str]:
        return (-points[name], -sonneborn_berger[name], -(white[name] + black[name]).wins, name)

    table: list[Standing] = []
    previous: tuple[float, float, int] | None = None
    rank = 0
    for position, name in enumerate(sorted(names, key=sort_key), start=1):
        merit = sort_key(name)[:3]
        if merit != previous:
            rank, previous = position, merit
        table.append(
            Standing(
                rank=rank,
                player=name,
                points=points[name],
                overall=white[name] + black[name],
                as_white=white[name],
                as_black=black[name],
                sonneborn_berger=sonneborn_berger[name],
            )
        )
    return table


@dataclass(frozen=True)
class PairScore:
    """What `player` scored against `opponent`."""

    player: str
    opponent: str
    points: float
    record: Tally


@dataclass(frozen=True)
class Crosstable:
    """Each pair's score; `players` is in standings order."""

    players: tuple[str, ...]
    cells: dict[tuple[str, str], PairScore]

    def cell(self, player: str, opponent: str) -> PairScore | None:
        """`player`'s score against `opponent`, or None when they have not played."""
        return self.cells.get((player, opponent))


def crosstable(
    games: Results, players: Sequence[str] | None = None, scheme: ScoringScheme = STANDARD
) -> Crosstable:
    grouped = counted(games)
    order = tuple(standing.player for standing in standings(dict(grouped), players, scheme))
    records: dict[tuple[str, str], Tally] = {}
    points: dict[tuple[str, str], float] = {}
    for game, count in grouped:
        for player in game.players:
            key = (player, game.opponent_of(player))
            records[key] = records.get(key, Tally()).with_fraction(game.fraction_for(player), count)
            points[key] = points.get(key, 0.0) + scheme.points_for(game, player) * count
    cells = {
        key: PairScore(player=key[0], opponent=key[1], points=points[key], record=record)
        for key, record in records.items()
    }
    return Crosstable(players=order, cells=cells)


@dataclass(frozen=True)
class ColourRecord:
    """A player's results with each colour."""

    as_white: Tally
    as_black: Tally


@dataclass(frozen=True)
class OpeningResult:
    """How one pair of players fared on one opening, each by colour.

    `players` is in order of first appearance; `games` in the order given.
    """

    opening_id: str
    players: tuple[str, str]
    games: tuple[FinishedGame, ...]
    by_player: dict[str, ColourRecord]


def opening_results(games: Sequence[FinishedGame]) -> list[OpeningResult]:
    """Per opening and pair of players: which side won with which colour.

    Games without an opening are left out. Results come in order of first appearance.
    """
    grouped: dict[tuple[str, frozenset[str]], list[FinishedGame]] = {}
    for game in games:
        if game.opening_id is not None:
            grouped.setdefault((game.opening_id, frozenset(game.players)), []).append(game)
    results: list[OpeningResult] = []
    for (opening_id, _), group in grouped.items():
        first = group[0]
        by_player: dict[str, ColourRecord] = {}
        for player in first.players:
            as_white = tally((g for g in group if g.white == player), player)
            as_black = tally((g for g in group if g.black == player), player)
            by_player[player] = ColourRecord(as_white=as_white, as_black=as_black)
        results.append(
            OpeningResult(
                opening_id=opening_id, players=first.players, games=tuple(group), by_player=by_player
            )
        )
    return results


def _player_list(
    games: Sequence[tuple[FinishedGame, int]],
    players: Sequence[str] | None,
    where: Callable[[FinishedGame], str],
) -> list[str]:
    if players is None:
        found: dict[str, None] = {}
        for game, _ in games:
            found.setdefault(game.white)
            found.setdefault(game.black)
        return list(found)
    names = list(players)
    if len(set(names)) != len(names):
        raise ValueError("a player is listed twice")
    known = set(names)
    for game, _ in games:
        for player in game.players:
            if player not in known:
                raise ValueError(f"{where(game)} ({game.white} - {game.black}): {player!r} is not a player")
    return names


def _game_number(games: Results, game: FinishedGame) -> str:
    """``game 12``: where `game` first appears among `games` (for an error message)."""
    if isinstance(games, Sequence):
        return f"game {games.index(game) + 1}"
    return "a game"
