"""Elo differences, likelihood of superiority, pentanomial counts and the SPRT, as engine testers use them.

All in plain Python. The conventions are those of fishtest, fastchess and cutechess-cli, so figures
can be compared with theirs (docs/statistics.md explains them):

* Two Elo models. Logistic Elo from a mean score s (1 per win, 1/2 per draw): -400 * log10(1 / s - 1).
  Normalized Elo: (s - 1/2) / sigma * 800 / ln(10), sigma the standard deviation of one game's score
  (for game pairs, sqrt(2) times that of a pair's mean score): the difference measured in units of
  the noise, which is what decides how many games a test needs, however many draws there are.
* 95 % interval: the mean score plus or minus z * sqrt(variance / n), each end turned into Elo. For
  single games n counts games and the variance is that of one game's score; for games played in
  opening pairs n counts pairs and the variance is that of a pair's mean score, which takes the
  correlation between the two games of a pair into account. Normalized Elo keeps sigma fixed at the
  sample's, so its interval is the estimate plus or minus z * 800 / ln(10) / sqrt(games). A sample in
  which every game (pair) had the same result gives no interval: one of no width says nothing.
* Likelihood of superiority for single games: 1/2 * (1 + erf((wins - losses) / sqrt(2 * (wins + losses)))),
  draws carrying no information; for pairs: the normal probability that the mean pair score is above 1/2.
* SPRT: the generalized SPRT, by maximum likelihood under each hypothesis (`arbiter.tournament.gsprt`),
  trinomial over games, pentanomial over pairs. Its log-likelihood ratio is tested against the bounds
  log(beta / (1 - alpha)) (accept H0: the difference is elo0) and log((1 - beta) / alpha) (accept H1).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from statistics import NormalDist

from arbiter.tournament.scoring import FinishedGame
from arbiter.tournament.standings import Tally, tally

NELO_PER_T = 800.0 / math.log(10.0)
"""Normalized Elo per unit of t-value ((score - 1/2) / sigma): 347.44, chosen so that near equal
strength and without draws one normalized Elo is one logistic Elo."""


class EloModel(StrEnum):
    """How a score becomes an Elo figure: `logistic` Elo or `normalized` Elo (fastchess, fishtest)."""

    LOGISTIC = "logistic"
    NORMALIZED = "normalized"

    @property
    def unit(self) -> str:
        """The figure's name in tables: Elo or nElo."""
        return "Elo" if self is EloModel.LOGISTIC else "nElo"


def elo_model_named(name: str | EloModel) -> EloModel:
    try:
        return EloModel(name)
    except ValueError:
        choices = ", ".join(m.value for m in EloModel)
        raise ValueError(f"unknown Elo model {name!r}; models: {choices}") from None


def score_to_elo(score: float) -> float:
    """The Elo difference that gives expected score `score`; infinite at 0 and 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_to_score(elo: float) -> float:
    """The expected score of a player `elo` points stronger (logistic model)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def _z(confidence: float) -> float:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    return NormalDist().inv_cdf((1.0 + confidence) / 2.0)


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its confidence interval (`lower`, `upper`) and likelihood of superiority.

    `score` is the mean score (0..1) it comes from and `count` the number of games, or of game pairs
    when `paired`; `model` says whether the figures are logistic or normalized Elo.
    """

    elo: float
    lower: float
    upper: float
    los: float
    score: float
    count: int
    model: EloModel = EloModel.LOGISTIC
    paired: bool = False

    @property
    def margin(self) -> float:
        """Half the width of the interval, the "+/-" figure testers print."""
        return (self.upper - self.lower) / 2.0

    @property
    def no_interval_reason(self) -> str | None:
        """Why the sample gives no interval yet (``every game drawn``); None when it gives one.

        When every game (pair) has the same result the sample has no spread: the interval has no width
        (or runs from +inf to +inf), which would claim a certainty that a few draws or wins do not give.
        """
        if self.lower < self.upper:
            return None
        # No spread: every observation scored the mean (the fallbacks: a spread lost to rounding).
        if not self.paired:
            return f"every game {_GAME_RESULTS.get(self.score, 'had the same result')}"
        return f"every pair scored {_PAIR_POINTS.get(2.0 * self.score, 'the same')}"


_GAME_RESULTS = {1.0: "won", 0.5: "drawn", 0.0: "lost"}
_PAIR_POINTS = {0.0: "0 points", 0.5: "½ point", 1.0: "1 point", 1.5: "1½ points", 2.0: "2 points"}


def _mean_and_variance(scores: Sequence[float], weights: Sequence[float]) -> tuple[float, float]:
    """Mean and variance of one observation's score, observations weighted by how often they occurred."""
    total = sum(weights)
    mean = sum(s * w for s, w in zip(scores, weights, strict=True)) / total
    variance = sum(w * (s - mean) ** 2 for s, w in zip(scores, weights, strict=True)) / total
    return mean, variance


def _estimate(
    scores: Sequence[float],
    counts: Sequence[int],
    confidence: float,
    los: float | None,
    model: EloModel = EloModel.LOGISTIC,
) -> EloEstimate:
    """The estimate from observation counts; `los` None means the normal LOS of the mean score."""
    count = sum(counts)
    paired = len(scores) == len(_PAIR_SCORES)
    mean, variance = _mean_and_variance(scores, counts)
    spread = _z(confidence) * math.sqrt(variance / count)
    if model is EloModel.LOGISTIC:
        elo, lower, upper = score_to_elo(mean), score_to_elo(mean - spread), score_to_elo(mean + spread)
    else:
        # One game's standard deviation: a pair's mean score varies half as much as two free games.
        games = 2 * count if paired else count
        per_game = math.sqrt(variance * games / count)
        elo = _normalized(mean, per_game)
        margin = _z(confidence) * NELO_PER_T / math.sqrt(games)
        lower, upper = elo - margin, elo + margin
    return EloEstimate(
        elo=elo,
        lower=lower,
        upper=upper,
        los=(_normal_los(mean, variance / count) if variance > 0.0 else _no_spread_los(mean, count))
        if los is None
        else los,
        score=mean,
        count=count,
        model=model,
        paired=paired,
    )


def _normalized(mean: float, sigma: float) -> float:
    """Normalized Elo of mean score `mean` whose games have standard deviation `sigma`."""
    if sigma == 0.0:  # every game (pair) the same: no noise to measure the difference against
        return 0.0 if mean == 0.5 else math.copysign(math.inf, mean - 0.5)
    return (mean - 0.5) / sigma * NELO_PER_T


def _normal_los(mean: float, variance_of_mean: float) -> float:
    """The probability, under a normal approximation, that the true mean score is above 1/2."""
    if variance_of_mean == 0.0:
        return 1.0 if mean > 0.5 else 0.0 if mean < 0.5 else 0.5
    return 1.0 - NormalDist(mean, math.sqrt(variance_of_mean)).cdf(0.5)


def _no_spread_los(mean: float, count: int) -> float:
    """The LOS of `count` observations (pairs) that all scored `mean`: the normal approximation has no
    spread there and would claim certainty (one won pair: 100 %). Counted instead as the LOS of single
    games counts wins and losses, each observation above 1/2 a win and below a loss, so one pair of a
    win and a draw reads as those two games do (84 %)."""
    return los_from_wdl(count if mean > 0.5 else 0, count if mean < 0.5 else 0)


def los_from_wdl(wins: int, losses: int) -> float:
    """Likelihood of superiority from wins and losses (draws tell nothing about who is stronger)."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def elo_from_wdl(
    wins: int, draws: int, losses: int, confidence: float = 0.95, model: EloModel = EloModel.LOGISTIC
) -> EloEstimate:
    """Elo difference of the player who scored `wins`, `draws`, `losses` over single games."""
    _check_counts(wins=wins, draws=draws, losses=losses)
    if wins + draws + losses == 0:
        raise ValueError("an Elo estimate needs at least one game")
    return _estimate((1.0, 0.5, 0.0), (wins, draws, losses), confidence, los_from_wdl(wins, losses), model)


def elo_for(
    games: Iterable[FinishedGame], player: str, opponent: str | None = None, confidence: float = 0.95
) -> EloEstimate | None:
    """`player`'s Elo difference over single games against `opponent`, or against the field when none
    is named; None when there are no such games."""
    record = tally(games, player, opponent)
    if record.games == 0:
        return None
    return elo_from_wdl(record.wins, record.draws, record.losses, confidence)


# --- pentanomial ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pentanomial:
    """Game pairs by the player's total over the two games: LL (0), LD (1/2), WL and DD (1), WD (3/2), WW (2).

    WL and DD are kept apart for the report and counted together in the statistics.
    """

    ll: int = 0
    ld: int = 0
    wl: int = 0
    dd: int = 0
    wd: int = 0
    ww: int = 0

    def __post_init__(self) -> None:
        _check_counts(ll=self.ll, ld=self.ld, wl=self.wl, dd=self.dd, wd=self.wd, ww=self.ww)

    @property
    def pairs(self) -> int:
        return self.ll + self.ld + self.wl + self.dd + self.wd + self.ww

    @property
    def bins(self) -> tuple[int, int, int, int, int]:
        """Counts of pair totals 0, 1/2, 1, 3/2, 2."""
        return (self.ll, self.ld, self.wl + self.dd, self.wd, self.ww)

    def __add__(self, other: Pentanomial) -> Pentanomial:
        return Pentanomial(
            self.ll + other.ll,
            self.ld + other.ld,
            self.wl + other.wl,
            self.dd + other.dd,
            self.wd + other.wd,
            self.ww + other.ww,
        )


# The five pair totals as mean scores per game.
_PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)

PAIR_KINDS = ("ll", "ld", "wl", "dd", "wd", "ww")
"""The fields of `Pentanomial`, what a complete pair can be for a player."""


@dataclass(frozen=True)
class PairedGames:
    """A player's pentanomial counts, and the pairs still missing a game (left out of the counts)."""

    counts: Pentanomial
    incomplete_pairs: tuple[int, ...]

    @property
    def games(self) -> int:
        """The games played in pairs, complete or not."""
        return 2 * self.counts.pairs + len(self.incomplete_pairs)


def pentanomial(games: Iterable[FinishedGame], player: str, opponent: str | None = None) -> PairedGames:
    """`player`'s pentanomial counts over the game pairs it played (against `opponent` only, if named).

    Games are paired by `pair_index`; games without one are not counted. A pair must be two games
    between the same two players with colours swapped.
    """
    pairs: dict[int, list[FinishedGame]] = {}
    for game in games:
        if game.pair_index is None or not game.involves(player):
            continue
        if opponent is not None and game.opponent_of(player) != opponent:
            continue
        pairs.setdefault(game.pair_index, []).append(game)
    tally = dict.fromkeys(PAIR_KINDS, 0)  # one Pentanomial at the end: fast
    incomplete: list[int] = []
    for index in sorted(pairs):
        pair = pairs[index]
        if len(pair) == 1:
            incomplete.append(index)
            continue
        tally[pair_kind(index, pair, player)] += 1
    return PairedGames(counts=Pentanomial(**tally), incomplete_pairs=tuple(incomplete))


def pair_kind(index: int, pair: Sequence[FinishedGame], player: str) -> str:
    """What the two games of pair `index` are for `player`, one of `PAIR_KINDS`. Raises ValueError when
    they are not two games between the same two players with colours swapped."""
    if len(pair) != 2:
        raise ValueError(f"game pair {index} holds {len(pair)} games for {player!r}; a pair holds 2")
    first, second = pair
    if (first.white, first.black) != (second.black, second.white):
        raise ValueError(
            f"game pair {index}: {first.white} - {first.black} and {second.white} - {second.black} "
            "are not the same two players with colours swapped"
        )
    fractions = sorted((first.fraction_for(player), second.fraction_for(player)))
    return _pair_category(fractions[0], fractions[1])


def _pair_category(low: float, high: float) -> str:
    if high == 0.0:
        return "ll"
    if high == 0.5:
        return "ld" if low == 0.0 else "dd"
    if low == 0.0:
        return "wl"
    return "wd" if low == 0.5 else "ww"


def elo_from_pentanomial(
    counts: Pentanomial, confidence: float = 0.95, model: EloModel = EloModel.LOGISTIC
) -> EloEstimate:
    """Elo difference and interval from game pairs; `count` of the estimate is the number of pairs."""
    if counts.pairs == 0:
        raise ValueError("an Elo estimate from game pairs needs at least one complete pair")
    return _estimate(_PAIR_SCORES, counts.bins, confidence, los=None, model=model)


def elo_by_pairs_or_games(
    record: Tally, pairs: Pentanomial, paired_games: int, model: EloModel = EloModel.LOGISTIC
) -> EloEstimate | None:
    """A player's Elo difference from its `record` of wins, draws and losses: from its complete game
    `pairs` when it played in pairs (`paired_games` of its games belong to a pair), as the pentanomial
    model counts them; from its single games otherwise. None without a game, or, in pairs, before the
    first pair is complete: a game whose pair is not complete is left out, as the SPRT leaves it out."""
    if paired_games:
        return elo_from_pentanomial(pairs, model=model) if pairs.pairs else None
    if record.games == 0:
        return None
    return elo_from_wdl(record.wins, record.draws, record.losses, model=model)


# --- SPRT -----------------------------------------------------------------------------------------


class SprtDecision(StrEnum):
    ACCEPT_H0 = "H0"
    ACCEPT_H1 = "H1"
    CONTINUE = "continue"


# Beyond this the maximum-likelihood distribution under a normalized-Elo hypothesis cannot be found
# by fishtest's iteration for every sample (see gsprt.mle_with_t_value); real tests use a few nElo.
NORMALIZED_BOUND_LIMIT = 200.0

# Beyond about 6400 Elo the expected score rounds to exactly 1 (and far below, 10**(-elo/400)
# overflows), so the maximum-likelihood distribution has no solution; 4000 Elo is an expected score
# of 1 - 1e-10, where the LLR still agrees with an independent computation, and far past any real test.
LOGISTIC_BOUND_LIMIT = 4000.0


@dataclass(frozen=True)
class SprtSettings:
    """H0: the Elo difference is `elo0`; H1: it is `elo1`; `alpha`, `beta` are the error rates.

    `model` says which Elo `elo0` and `elo1` are in: logistic or normalized.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: EloModel = EloModel.LOGISTIC

    def __post_init__(self) -> None:
        object.__setattr__(self, "model", elo_model_named(self.model))
        for name, value in (("elo0", self.elo0), ("elo1", self.elo1)):
            if not math.isfinite(value):
                raise ValueError(f"SPRT {name} must be a finite number, got {value}")
        limit = NORMALIZED_BOUND_LIMIT if self.model is EloModel.NORMALIZED else LOGISTIC_BOUND_LIMIT
        if max(abs(self.elo0), abs(self.elo1)) > limit:
            raise ValueError(
                f"SPRT bounds in {self.model.value} Elo must lie within ±{limit:.0f}, "
                f"got elo0={self.elo0:g} elo1={self.elo1:g}"
            )
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT elo0 must be below elo1, got elo0={self.elo0} elo1={self.elo1}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 1.0:
                raise ValueError(f"SPRT {name} must be between 0 and 1, got {value}")
        if self.alpha + self.beta >= 1.0:
            raise ValueError(f"SPRT alpha + beta must be below 1, got {self.alpha} + {self.beta}")

    @property
    def lower_bound(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper_bound(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def __str__(self) -> str:
        """As `--sprt` takes them: ``elo0=0 elo1=10 alpha=0.05 beta=0.05 model=logistic``."""
        return (
            f"elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g} "
            f"model={self.model.value}"
        )


SPRT_KEYS = ("elo0", "elo1", "alpha", "beta", "model")


def parse_sprt(text: str) -> SprtSettings:
    """SPRT settings from ``elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized`` (commas allowed);
    elo0 and elo1 are needed, the others have defaults. Raises ValueError naming the bad word."""
    values: dict[str, str] = {}
    for part in text.replace(",", " ").split():
        key, _, value = part.partition("=")
        if key not in SPRT_KEYS or not value:
            raise ValueError(f"--sprt: {part!r} is not one of {' '.join(k + '=' for k in SPRT_KEYS)}")
        values[key] = value
    if "elo0" not in values or "elo1" not in values:
        raise ValueError("--sprt needs elo0= and elo1=")
    numbers: dict[str, float] = {}
    for key in ("elo0", "elo1", "alpha", "beta"):
        if key in values:
            try:
                numbers[key] = float(values[key])
            except ValueError:
                raise ValueError(f"--sprt: {key}={values[key]} is not a number") from None
    try:
        model = elo_model_named(values.get("model", "logistic"))
    except ValueError as error:
        raise ValueError(f"--sprt model={values['model']}: {error}") from None
    return SprtSettings(**numbers, model=model)


@dataclass(frozen=True)
class SprtResult:
    """The log-likelihood ratio of an SPRT, its bounds and what they decide."""

    llr: float
    lower_bound: float
    upper_bound: float
    decision: SprtDecision


def _sprt(settings: SprtSettings, ascending: Sequence[int]) -> SprtResult:
    """The test over outcome counts ordered by score, lowest first (3 classes: games; 5: pairs)."""
    from arbiter.tournament.gsprt import llr_mean, llr_t_value  # only a match with --sprt tests

    if settings.model is EloModel.LOGISTIC:
        llr = llr_mean(ascending, elo_to_score(settings.elo0), elo_to_score(settings.elo1))
    else:
        # The t-value of a pair's mean score is sqrt(2) times that of one game (half the variance).
        scale = 1.0 if len(ascending) == 3 else math.sqrt(2.0)
        t0, t1 = (scale * elo / NELO_PER_T for elo in (settings.elo0, settings.elo1))
        llr = llr_t_value(ascending, t0, t1)
    if llr >= settings.upper_bound:
        decision = SprtDecision.ACCEPT_H1
    elif llr <= settings.lower_bound:
        decision = SprtDecision.ACCEPT_H0
    else:
        decision = SprtDecision.CONTINUE
    return SprtResult(
        llr=llr, lower_bound=settings.lower_bound, upper_bound=settings.upper_bound, decision=decision
    )


def sprt_wdl(settings: SprtSettings, wins: int, draws: int, losses: int) -> SprtResult:
    """The SPRT over single games (trinomial model)."""
    _check_counts(wins=wins, draws=draws, losses=losses)
    return _sprt(settings, (losses, draws, wins))


def sprt_pentanomial(settings: SprtSettings, counts: Pentanomial) -> SprtResult:
    """The SPRT over game pairs (pentanomial model)."""
    return _sprt(settings, counts.bins)


def _check_counts(**counts: int) -> None:
    for name, value in counts.items():
        if value < 0:
            raise ValueError(f"{name} cannot be negative, got {value}")
