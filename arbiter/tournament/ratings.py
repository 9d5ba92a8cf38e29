"""A rating list: one Elo rating per player from all their games, by maximum likelihood.

The model is Bradley-Terry on the logistic Elo scale, as Ordo uses it: a player rated d points above
its opponent is expected to score E(d) = 1 / (1 + 10^(-d / 400)), and a game in which it scored s
(1, 1/2 or 0) adds s log E + (1 - s) log(1 - E) to the log-likelihood, a draw counting as half a win
and half a loss. The ratings that maximize the likelihood are found by Newton's method; only their
differences are determined, so one player (the anchor) or the average of all is set to a given value.

The intervals come from the sandwich (robust) variance H^-1 J H^-1, H the information and J the sum of
the squared score contributions of independent units: a game, or both games of an opening pair. Taking
the games of a pair together is what the pentanomial model does for a match (the two games of a pair
are correlated through their opening), and it counts the draws for what they are, not as a coin toss.
For two players it gives exactly the trinomial or pentanomial interval of their score, turned into Elo.

A player who won (or lost) every game against the rest has no finite maximum-likelihood rating. Then,
as BayesElo does, each pair of players who met counts `prior` virtual draws more, and the intervals
are BayesElo's too: from the posterior's covariance H^-1, H the information of the likelihood with the
virtual draws in it. The sandwich would not do there: its J counts the real games only, which after a
perfect score the fit nearly predicts, so it would give an interval of almost no width however few
the games. The model's H^-1 takes every game as independent, a draw as half a win and half a loss.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

_C = math.log(10.0) / 400.0  # d log-odds / d Elo
_MAX_ITERATIONS = 200
_LIKELIHOOD_ROUNDING = 1e-12  # relative: what a sum of a few hundred log terms cannot tell apart


class RatingError(ValueError):
    """Games from which no rating list can be made (the message says why)."""


@dataclass(frozen=True)
class RatedGame:
    """One game: `first` scored `score` (1, 1/2, 0) against `second`. Games with the same `unit` (the
    two games of an opening pair) are taken together for the intervals; None makes a game its own."""

    first: str
    second: str
    score: float
    unit: Hashable | None = None


@dataclass(frozen=True)
class Rating:
    player: str
    rating: float
    error: float
    """The standard error of the rating against the anchor (or the average)."""
    lower: float
    upper: float
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2.0

    @property
    def margin(self) -> float:
        return (self.upper - self.lower) / 2.0


@dataclass(frozen=True)
class RatingList:
    ratings: list[Rating]
    """Best first."""
    anchor: str | None
    """The player whose rating is `anchor_rating`; None: the average rating is."""
    anchor_rating: float
    prior: float
    """Virtual draws counted per pair of players who met (0 unless a rating would be infinite)."""
    confidence: float
    games: int


def fit_ratings(
    games: Sequence[RatedGame],
    *,
    anchor: str | None = None,
    anchor_rating: float = 0.0,
    prior: float | None = None,
    confidence: float = 0.95,
) -> RatingList:
    """The rating list of the players of `games`.

    `prior` None counts no virtual draw unless some rating would be infinite, and then one per pair
    of players who met. Raises `RatingError` for no games, an unknown anchor, or players in groups
    that never met (their ratings have nothing in common).
    """
    if not games:
        raise RatingError("no finished games to rate")
    if not 0.0 < confidence < 1.0:
        raise RatingError(f"confidence must be between 0 and 1, got {confidence}")
    players = sorted({g.first for g in games} | {g.second for g in games})
    index = {name: i for i, name in enumerate(players)}
    if anchor is not None and anchor not in index:
        raise RatingError(f"the anchor {anchor!r} played no game here; players: {', '.join(players)}")
    _check_connected(players, games)
    if prior is None:
        prior = 0.0 if _finite(players, games) else 1.0
    elif prior < 0.0:
        raise RatingError(f"the prior counts virtual draws, so it cannot be negative, got {prior}")
    elif prior == 0.0 and not _finite(players, games):
        raise RatingError(
            "a player won or lost every game against the others, so its rating would be infinite; "
            "count some virtual draws per pairing (a prior above 0)"
        )
    pairs = _met(games, index)
    ratings = _maximize(len(players), games, index, pairs, prior)
    covariance = _covariance(len(players), games, index, pairs, prior, ratings)
    # Ratings relative to the anchor or the average, and their covariance after that shift.
    n = len(players)
    if anchor is not None:
        a = index[anchor]
        shift = [[(1.0 if i == j else 0.0) - (1.0 if j == a else 0.0) for j in range(n)] for i in range(n)]
    else:
        shift = [[(1.0 if i == j else 0.0) - 1.0 / n for j in range(n)] for i in range(n)]
    relative = [sum(shift[i][j] * ratings[j] for j in range(n)) + anchor_rating for i in range(n)]
    z = NormalDist().inv_cdf((1.0 + confidence) / 2.0)
    rows = []
    for i, name in enumerate(players):
        variance = sum(shift[i][j] * covariance[j][k] * shift[i][k] for j in range(n) for k in range(n))
        error = math.sqrt(max(variance, 0.0))
        mine = [g for g in games if name in (g.first, g.second)]
        scores = [g.score if g.first == name else 1.0 - g.score for g in mine]
        rows.append(
            Rating(
                player=name,
                rating=relative[i],
                error=error,
                lower=relative[i] - z * error,
                upper=relative[i] + z * error,
                games=len(mine),
                wins=sum(1 for s in scores if s == 1.0),
                draws=sum(1 for s in scores if s == 0.5),
                losses=sum(1 for s in scores if s == 0.0),
            )
        )
    rows.sort(key=lambda r: (-r.rating, r.player))
    return RatingList(
        ratings=rows,
        anchor=anchor,
        anchor_rating=anchor_rating,
        prior=prior,
        confidence=confidence,
        games=len(games),
    )


def expected_score(difference: float) -> float:
    return 1.0 / (1.0 + math.exp(-_C * difference))


def _met(games: Sequence[RatedGame], index: dict[str, int]) -> list[tuple[int, int]]:
    """Every pair of players who played each other, each once."""
    pairs = set()
    for game in games:
        i, j = index[game.first], index[game.second]
        pairs.add((min(i, j), max(i, j)))
    return sorted(pairs)


def _terms(
    games: Sequence[RatedGame], index: dict[str, int], pairs: list[tuple[int, int]], prior: float
) -> list[tuple[int, int, float, float]]:
    """(first, second, score, weight) of every game, and the virtual draws of each pair that met."""
    terms = [(index[g.first], index[g.second], g.score, 1.0) for g in games]
    if prior > 0.0:
        terms.extend((i, j, 0.5, prior) for i, j in pairs)
    return terms


def _log_likelihood(terms: list[tuple[int, int, float, float]], ratings: list[float]) -> float:
    total = 0.0
    for i, j, score, weight in terms:
        x = _C * (ratings[i] - ratings[j])
        # log E = -log(1 + e^-x), log(1 - E) = -log(1 + e^x), written to stay finite for large |x|.
        total -= weight * (score * _softplus(-x) + (1.0 - score) * _softplus(x))
    return total


def _softplus(x: float) -> float:
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def _gradient_and_information(
    n: int, terms: list[tuple[int, int, float, float]], ratings: list[float]
) -> tuple[list[float], list[list[float]]]:
    gradient = [0.0] * n
    information = [[0.0] * n for _ in range(n)]
    for i, j, score, weight in terms:
        e = expected_score(ratings[i] - ratings[j])
        g = weight * _C * (score - e)
        gradient[i] += g
        gradient[j] -= g
        h = weight * _C * _C * e * (1.0 - e)
        information[i][i] += h
        information[j][j] += h
        information[i][j] -= h
        information[j][i] -= h
    return gradient, information


def _maximize(
    n: int,
    games: Sequence[RatedGame],
    index: dict[str, int],
    pairs: list[tuple[int, int]],
    prior: float,
) -> list[float]:
    """Newton's method with player 0 held at 0 (the likelihood only sees differences), halving a step
    that would lower the likelihood."""
    terms = _terms(games, index, pairs, prior)
    ratings = [0.0] * n
    current = _log_likelihood(terms, ratings)
    for _ in range(_MAX_ITERATIONS):
        gradient, information = _gradient_and_information(n, terms, ratings)
        step = [0.0, *_solve([row[1:] for row in information[1:]], gradient[1:])]
        # Near the maximum a full step changes the likelihood by less than its rounding: such a step is
        # taken, not halved away, or the fit would stop short of the maximum (by some 1e-5 Elo).
        rounding = _LIKELIHOOD_ROUNDING * max(1.0, abs(current))
        scale = 1.0
        while True:
            trial = [r + scale * s for r, s in zip(ratings, step, strict=True)]
            value = _log_likelihood(terms, trial)
            if value >= current - rounding or scale < 1e-12:
                break
            scale /= 2.0
        ratings, current = trial, value
        if max(abs(scale * s) for s in step) < 1e-9:
            break
    return ratings


def _covariance(
    n: int,
    games: Sequence[RatedGame],
    index: dict[str, int],
    pairs: list[tuple[int, int]],
    prior: float,
    ratings: list[float],
) -> list[list[float]]:
    """The covariance of the ratings with player 0 held at 0, as an n x n matrix: with virtual draws
    the posterior's H^-1, as BayesElo has it; without, the sandwich H^-1 J H^-1."""
    _, information = _gradient_and_information(n, _terms(games, index, pairs, prior), ratings)
    inverse = _inverse([row[1:] for row in information[1:]])
    if prior > 0.0:
        # Not the sandwich: J would count the real games only, and after a perfect score their
        # contributions are all but 0, so would the interval be, while H holds the virtual draws.
        reduced = inverse
    else:
        reduced = _product(_product(inverse, _spread(n, games, index, ratings)), inverse)
    full = [[0.0] * n for _ in range(n)]
    for a in range(n - 1):
        for b in range(n - 1):
            full[a + 1][b + 1] = reduced[a][b]
    return full


def _spread(
    n: int, games: Sequence[RatedGame], index: dict[str, int], ratings: list[float]
) -> list[list[float]]:
    """J of the sandwich: the sum over units (a game, or both games of a pair) of the outer product of
    their score contributions, without player 0 (held at 0)."""
    # Each unit's score contribution touches only its players: kept sparse, {player: value}.
    units: dict[Hashable, dict[int, float]] = {}
    for number, game in enumerate(games):
        key = ("game", number) if game.unit is None else ("unit", game.unit)
        contribution = units.setdefault(key, {})
        i, j = index[game.first], index[game.second]
        g = _C * (game.score - expected_score(ratings[i] - ratings[j]))
        contribution[i] = contribution.get(i, 0.0) + g
        contribution[j] = contribution.get(j, 0.0) - g
    spread = [[0.0] * (n - 1) for _ in range(n - 1)]
    for contribution in units.values():
        for a, ua in contribution.items():
            for b, ub in contribution.items():
                if a and b:  # player 0 is held at 0
                    spread[a - 1][b - 1] += ua * ub
    return spread


def _check_connected(players: list[str], games: Sequence[RatedGame]) -> None:
    groups = _components(players, [(g.first, g.second) for g in games])
    if len(groups) > 1:
        described = "; ".join(", ".join(group) for group in groups)
        raise RatingError(
            f"the players fall into {len(groups)} groups that never met, directly or through others, so "
            f"their ratings cannot be compared: {described}"
        )


def _finite(players: list[str], games: Sequence[RatedGame]) -> bool:
    """Whether every rating is finite: each group of players scored against the rest, and the rest
    against it (the graph "scored at least a draw against" is strongly connected)."""
    edges = {(g.first, g.second) for g in games if g.score > 0.0}
    edges |= {(g.second, g.first) for g in games if g.score < 1.0}
    start = players[0]
    forward = _reach(start, edges)
    backward = _reach(start, {(b, a) for a, b in edges})
    return len(forward) == len(players) and len(backward) == len(players)


def _reach(start: str, edges: set[tuple[str, str]]) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        here = todo.pop()
        for a, b in edges:
            if a == here and b not in seen:
                seen.add(b)
                todo.append(b)
    return seen


def _components(players: list[str], links: list[tuple[str, str]]) -> list[list[str]]:
    both = {(a, b) for a, b in links} | {(b, a) for a, b in links}
    left = set(players)
    groups = []
    for player in players:
        if player in left:
            group = _reach(player, both)
            left -= group
            groups.append(sorted(group))
    return groups


# --- small dense linear algebra (a rating list has tens of players, not thousands) -----------------


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix x = vector, by Gaussian elimination with partial pivoting."""
    size = len(vector)
    rows = [list(row) + [value] for row, value in zip(matrix, vector, strict=True)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        if rows[pivot][column] == 0.0:
            raise RatingError("the ratings are not determined by these games")
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for r in range(column + 1, size):
            factor = rows[r][column] / rows[column][column]
            for c in range(column, size + 1):
                rows[r][c] -= factor * rows[column][c]
    solution = [0.0] * size
    for r in range(size - 1, -1, -1):
        known = sum(rows[r][c] * solution[c] for c in range(r + 1, size))
        solution[r] = (rows[r][size] - known) / rows[r][r]
    return solution


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    size = len(matrix)
    columns = [_solve(matrix, [1.0 if r == c else 0.0 for r in range(size)]) for c in range(size)]
    return [[columns[c][r] for c in range(size)] for r in range(size)]


def _product(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]
