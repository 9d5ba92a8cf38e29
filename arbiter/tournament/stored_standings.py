"""The standings and crosstable of a stored tournament, scored from the store's records."""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.referee.record import Winner
from arbiter.store import RunStore, StoreError, TournamentInfo
from arbiter.store.records import FinishedGame, Outcome, ScoringScheme
from arbiter.tournament.piece_scoring import PieceScoringError, winner_pieces
from arbiter.tournament.standings import Crosstable, Standing, crosstable, standings

_OUTCOMES = {
    Winner.WHITE: Outcome.WHITE_WINS,
    Winner.BLACK: Outcome.BLACK_WINS,
    Winner.DRAW: Outcome.DRAW,
}


@dataclass(frozen=True)
class TournamentStandings:
    """The table and crosstable of a tournament's finished games, with the scheme that scored them."""

    tournament: TournamentInfo
    players: tuple[str, ...]
    """Every player, in the configuration's order."""
    scheme: ScoringScheme
    games: int
    table: list[Standing]
    crosstable: Crosstable
    results: list[FinishedGame]
    """One entry per finished game; games of the same players and result may share one object."""


def stored_standings(
    store: RunStore, tournament_id: int, scheme: ScoringScheme | None = None
) -> TournamentStandings:
    """The standings and crosstable of a tournament, scored by `scheme` (default: the tournament's).

    The store counts the games by players and result; the standings functions then see one result
    object per game, shared between games of the same players and result.
    """
    counted = store.result_counts(tournament_id)
    scheme = scheme or counted.tournament.scoring
    results: list[FinishedGame] = []
    if scheme.by_pieces:
        results = _piece_results(store, tournament_id)
    else:
        for white, black, outcome, count in counted.counts:
            results.extend([FinishedGame(white, black, outcome)] * count)
    players = list(counted.players)
    players.extend(sorted({name for game in results for name in game.players} - set(players)))
    return TournamentStandings(
        tournament=counted.tournament,
        players=tuple(players),
        scheme=scheme,
        games=len(results),
        table=standings(results, players, scheme),
        crosstable=crosstable(results, players, scheme),
        results=results,
    )


def _piece_results(store: RunStore, tournament_id: int) -> list[FinishedGame]:
    """The finished games with the winner's pieces left, replayed from their moves (piece-count
    scoring needs the final position, which the game table does not hold)."""
    results: list[FinishedGame] = []
    for game in store.games(tournament_id, finished_only=True):
        record = game.record
        try:
            pieces = winner_pieces(record)
        except PieceScoringError as error:
            raise StoreError(f"{store.path}: piece-count scoring: {error}") from None
        outcome = _OUTCOMES[record.winner]
        results.append(FinishedGame(record.white.name, record.black.name, outcome, pieces=pieces))
    return results
