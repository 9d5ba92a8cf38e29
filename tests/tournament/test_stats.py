"""Elo, likelihood of superiority and pentanomial counts, against values worked out by hand (the SPRT:
test_sprt.py; normalized Elo: test_normalized_elo.py)."""

from __future__ import annotations

import math
from statistics import NormalDist

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.tournament.scoring import FinishedGame, Outcome
from arbiter.tournament.stats import (
    EloModel,
    Pentanomial,
    elo_for,
    elo_from_pentanomial,
    elo_from_wdl,
    elo_to_score,
    los_from_wdl,
    pentanomial,
    score_to_elo,
)

W, B, D = Outcome.WHITE_WINS, Outcome.BLACK_WINS, Outcome.DRAW
Z95 = 1.959963984540054  # the normal quantile for a two-sided 95 % interval


def test_score_and_elo_convert_both_ways() -> None:
    assert score_to_elo(0.5) == 0.0
    assert score_to_elo(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert elo_to_score(400 * math.log10(3)) == pytest.approx(0.75)
    assert elo_to_score(0.0) == 0.5
    assert score_to_elo(1.0) == math.inf
    assert score_to_elo(0.0) == -math.inf


def test_elo_of_60_wins_20_draws_20_losses() -> None:
    # Score 70 / 100 = 0.7, Elo = 400 * log10(0.7 / 0.3) = 147.19.
    # Per-game variance: 0.6 * 0.3^2 + 0.2 * 0.2^2 + 0.2 * 0.7^2 = 0.16, so the standard error of the
    # mean is sqrt(0.16 / 100) = 0.04 and the 95 % interval of the score is 0.7 -/+ 0.0784 =
    # 0.6216 .. 0.7784, i.e. Elo 400 * log10(0.6216 / 0.3784) = 86.2 .. 400 * log10(0.7784 / 0.2216) = 218.3.
    estimate = elo_from_wdl(60, 20, 20)
    assert estimate.score == pytest.approx(0.7)
    assert estimate.count == 100
    assert estimate.elo == pytest.approx(147.19, abs=0.01)
    low, high = 0.7 - Z95 * 0.04, 0.7 + Z95 * 0.04
    assert estimate.lower == pytest.approx(400 * math.log10(low / (1 - low)))
    assert estimate.upper == pytest.approx(400 * math.log10(high / (1 - high)))
    assert estimate.lower == pytest.approx(86.23, abs=0.01)
    assert estimate.upper == pytest.approx(218.25, abs=0.01)
    assert estimate.margin == pytest.approx(66.01, abs=0.01)
    # LOS = 1/2 (1 + erf(40 / sqrt(2 * 80))) = 1/2 (1 + erf(3.1623))
    assert estimate.los == pytest.approx(0.9999961, abs=1e-7)


def test_a_score_of_65_percent_is_about_107_elo() -> None:
    # 60 wins, 10 draws, 30 losses: score 0.65, Elo = 400 * log10(0.65 / 0.35) = 107.54.
    assert elo_from_wdl(60, 10, 30).elo == pytest.approx(107.54, abs=0.01)


def test_los_from_wins_and_losses() -> None:
    # (30 - 20) / sqrt(2 * 50) = 1, LOS = 1/2 (1 + erf(1)) = 0.92135.
    assert los_from_wdl(30, 20) == pytest.approx(0.9213504, abs=1e-7)
    assert los_from_wdl(20, 30) == pytest.approx(1 - 0.9213504, abs=1e-7)
    assert los_from_wdl(0, 0) == 0.5
    assert elo_from_wdl(30, 500, 20).los == los_from_wdl(30, 20)  # draws do not count


@given(st.integers(0, 200), st.integers(0, 200), st.integers(0, 200))
def test_elo_is_antisymmetric_between_the_two_sides(wins: int, draws: int, losses: int) -> None:
    if wins + draws + losses == 0:
        return
    mine, theirs = elo_from_wdl(wins, draws, losses), elo_from_wdl(losses, draws, wins)
    assert mine.elo == pytest.approx(-theirs.elo)
    assert mine.lower == pytest.approx(-theirs.upper)
    assert mine.los + theirs.los == pytest.approx(1.0)
    assert mine.lower <= mine.elo <= mine.upper


def test_all_wins_is_an_unbounded_elo() -> None:
    estimate = elo_from_wdl(10, 0, 0)
    assert estimate.elo == math.inf
    assert estimate.los > 0.999


def test_only_a_sample_with_spread_has_an_interval() -> None:
    # Every game (pair) the same: the interval has no width, or runs from +inf to +inf.
    assert elo_from_wdl(0, 10, 0).no_interval_reason == "every game drawn"
    assert elo_from_wdl(3, 0, 0).no_interval_reason == "every game won"
    assert elo_from_wdl(0, 0, 2).no_interval_reason == "every game lost"
    assert elo_from_wdl(3, 0, 0, model=EloModel.NORMALIZED).no_interval_reason == "every game won"
    assert elo_from_pentanomial(Pentanomial(wl=2, dd=3)).no_interval_reason == "every pair scored 1 point"
    assert elo_from_pentanomial(Pentanomial(ld=4)).no_interval_reason == "every pair scored ½ point"
    assert elo_from_pentanomial(Pentanomial(wd=4)).no_interval_reason == "every pair scored 1½ points"
    assert elo_from_pentanomial(Pentanomial(ww=1)).no_interval_reason == "every pair scored 2 points"
    # One end infinite is still an interval; so is normalized Elo's for draws only (its width does
    # not depend on the sample).
    assert elo_from_wdl(9, 0, 1).no_interval_reason is None
    assert elo_from_wdl(0, 10, 0, model=EloModel.NORMALIZED).no_interval_reason is None
    assert elo_from_pentanomial(PENTA).no_interval_reason is None


def test_elo_for_a_player_against_one_opponent_or_the_field() -> None:
    games = [
        FinishedGame("X", "Y", W),
        FinishedGame("Y", "X", D),
        FinishedGame("X", "Z", B),
        FinishedGame("Z", "Y", W),
    ]
    against_y = elo_for(games, "X", "Y")
    assert against_y is not None and against_y == elo_from_wdl(1, 1, 0)
    field = elo_for(games, "X")
    assert field is not None and field == elo_from_wdl(1, 1, 1)
    assert elo_for(games, "Y", "Q") is None


def test_elo_needs_games_and_counts_cannot_be_negative() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        elo_from_wdl(0, 0, 0)
    with pytest.raises(ValueError, match="draws cannot be negative"):
        elo_from_wdl(1, -1, 0)


def test_pairs_that_all_scored_alike_claim_no_certainty_in_the_likelihood_of_superiority() -> None:
    # With no spread the normal approximation would say 100 % after one won pair. Counted as single
    # games count wins and losses instead: one pair of a win and a draw reads as those two games do.
    assert elo_from_pentanomial(Pentanomial(wd=1)).los == pytest.approx(los_from_wdl(1, 0))
    assert elo_from_pentanomial(Pentanomial(wd=1)).los == pytest.approx(0.8413, abs=1e-4)
    assert elo_from_pentanomial(Pentanomial(ww=4)).los == pytest.approx(los_from_wdl(4, 0))
    assert elo_from_pentanomial(Pentanomial(ld=3)).los == pytest.approx(los_from_wdl(0, 3))
    assert elo_from_pentanomial(Pentanomial(dd=10)).los == 0.5
    assert elo_from_pentanomial(Pentanomial(wl=2, dd=3)).los == 0.5
    # A sample with spread keeps the normal approximation: pair scores 0.5 (three) and 0.75 (one),
    # mean 0.5625, variance (3 * 0.0625^2 + 0.1875^2) / 4 = 0.01171875.
    spread = elo_from_pentanomial(Pentanomial(dd=3, wd=1))
    assert spread.los == pytest.approx(1 - NormalDist(0.5625, math.sqrt(0.01171875 / 4)).cdf(0.5))


# 20 pairs: LL 1, LD 3, WL 2, DD 8, WD 5, WW 1.
PENTA = Pentanomial(ll=1, ld=3, wl=2, dd=8, wd=5, ww=1)


def test_elo_from_pentanomial_counts() -> None:
    # Mean pair score: (3 * 0.25 + 10 * 0.5 + 5 * 0.75 + 1 * 1) / 20 = 10.5 / 20 = 0.525 -> Elo 17.39.
    # Pair variance: (1 * 0.525^2 + 3 * 0.275^2 + 10 * 0.025^2 + 5 * 0.225^2 + 1 * 0.475^2) / 20
    #              = 0.9875 / 20 = 0.049375; standard error sqrt(0.049375 / 20) = 0.049687.
    # Interval 0.525 -/+ 0.097384 = 0.427616 .. 0.622384, i.e. Elo -50.65 .. 86.80.
    # LOS = P(N(0.525, 0.049687^2) > 0.5) = Phi(0.50315) = 0.6926.
    assert PENTA.pairs == 20
    assert PENTA.bins == (1, 3, 10, 5, 1)
    estimate = elo_from_pentanomial(PENTA)
    assert estimate.count == 20
    assert estimate.score == pytest.approx(0.525)
    assert estimate.elo == pytest.approx(17.386, abs=0.001)
    error = math.sqrt(0.049375 / 20)
    assert estimate.lower == pytest.approx(score_to_elo(0.525 - Z95 * error))
    assert estimate.upper == pytest.approx(score_to_elo(0.525 + Z95 * error))
    assert estimate.lower == pytest.approx(-50.65, abs=0.01)
    assert estimate.upper == pytest.approx(86.80, abs=0.01)
    assert estimate.los == pytest.approx(NormalDist().cdf(0.025 / error))
    assert estimate.los == pytest.approx(0.6926, abs=1e-4)


def test_paired_openings_cancel_a_one_sided_opening_bias() -> None:
    # Every opening is won by whoever has the first move: 50 pairs split 1-1. Counted as single games
    # the result (50 wins, 50 losses) looks very uncertain; counted as pairs it is exactly even.
    single = elo_from_wdl(50, 0, 50)
    paired = elo_from_pentanomial(Pentanomial(wl=50))
    assert single.elo == paired.elo == 0.0
    assert single.margin > 60
    assert paired.margin == 0.0
    assert paired.los == 0.5


def test_pentanomial_needs_a_complete_pair() -> None:
    with pytest.raises(ValueError, match="at least one complete pair"):
        elo_from_pentanomial(Pentanomial())


def ballot(pair: int, first: Outcome, second: Outcome, opening: str = "acf-1") -> list[FinishedGame]:
    """A game pair between X and Y: X white in the first game, Y white in the second."""
    return [
        FinishedGame("X", "Y", first, opening_id=opening, pair_index=pair),
        FinishedGame("Y", "X", second, opening_id=opening, pair_index=pair),
    ]


def test_pentanomial_counts_from_game_pairs() -> None:
    games = (
        ballot(1, W, B)  # X wins both: WW
        + ballot(2, W, W)  # each wins with white: WL
        + ballot(3, D, D)  # DD
        + ballot(4, D, B)  # X draws, then wins: WD
        + ballot(5, B, D)  # X loses, then draws: LD
        + ballot(6, B, W)  # X loses both: LL
        + ballot(7, D, W)  # X draws, then loses: LD
        + [FinishedGame("X", "Y", W, pair_index=8)]  # the second game is not played yet
        + [FinishedGame("X", "Y", W)]  # not part of a pair
        + [FinishedGame("X", "Z", W, pair_index=9), FinishedGame("Z", "X", W, pair_index=9)]
    )
    against_y = pentanomial(games, "X", "Y")
    assert against_y.counts == Pentanomial(ll=1, ld=2, wl=1, dd=1, wd=1, ww=1)
    assert against_y.incomplete_pairs == (8,)
    assert pentanomial(games, "Y", "X").counts == Pentanomial(ll=1, ld=1, wl=1, dd=1, wd=2, ww=1)
    assert pentanomial(games, "X").counts == Pentanomial(ll=1, ld=2, wl=2, dd=1, wd=1, ww=1)


def test_a_pair_without_swapped_colours_is_an_error() -> None:
    games = [
        FinishedGame("X", "Y", W, pair_index=3),
        FinishedGame("X", "Y", W, pair_index=3),
    ]
    with pytest.raises(ValueError, match="game pair 3: X - Y and X - Y are not the same two players"):
        pentanomial(games, "X")


def test_a_pair_of_three_games_is_an_error() -> None:
    games = ballot(4, W, W) + [FinishedGame("X", "Y", D, pair_index=4)]
    with pytest.raises(ValueError, match="game pair 4 holds 3 games"):
        pentanomial(games, "X")
