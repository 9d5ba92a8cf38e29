"""The generalized SPRT, against a second implementation written from the published formulas
(sprt_reference.py) and against values worked out by hand."""

from __future__ import annotations

import math
import re

import pytest
import sprt_reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.tournament import gsprt
from arbiter.tournament.stats import (
    NELO_PER_T,
    EloModel,
    Pentanomial,
    SprtDecision,
    SprtSettings,
    parse_sprt,
    sprt_pentanomial,
    sprt_wdl,
)

SETTINGS = SprtSettings(elo0=0.0, elo1=10.0, alpha=0.05, beta=0.05)
NORMALIZED = SprtSettings(elo0=0.0, elo1=5.0, model=EloModel.NORMALIZED)


def test_sprt_bounds() -> None:
    assert SETTINGS.lower_bound == pytest.approx(-math.log(19))  # log(0.05 / 0.95) = -2.944
    assert SETTINGS.upper_bound == pytest.approx(math.log(19))
    other = SprtSettings(elo0=0.0, elo1=5.0, alpha=0.05, beta=0.1)
    assert other.lower_bound == pytest.approx(math.log(0.1 / 0.95))
    assert other.upper_bound == pytest.approx(math.log(0.9 / 0.05))


def test_with_two_outcomes_the_llr_is_the_binomial_one() -> None:
    # Only losses and wins: the one distribution with mean s is (1 - s, s), so the LLR is the classic
    # 7 * log(s1 / s0) + 3 * log((1 - s1) / (1 - s0)); with s0 = 0.5, s1 = 0.6: 0.60682.
    expected = 7 * math.log(0.6 / 0.5) + 3 * math.log(0.4 / 0.5)
    assert expected == pytest.approx(0.60682, abs=1e-5)
    assert gsprt.llr_mean([3, 7], 0.5, 0.6) == pytest.approx(expected, rel=1e-12)


def test_the_trinomial_maximum_likelihood_distribution_by_hand() -> None:
    # 20 losses, 50 draws, 30 wins under mean 0.5: q_i = p_i / (1 + x (a_i - 1/2)) with
    # 0.2 * (-1/2) / (1 - x/2) + 0.3 * (1/2) / (1 + x/2) = 0, i.e. 0.3 (1 - x/2) = 0.2 (1 + x/2): x = 0.4.
    # So q = (0.2 / 0.8, 0.5, 0.3 / 1.2) = (0.25, 0.5, 0.25).
    total, scores, p = gsprt.empirical([20, 50, 30])
    assert total == 100
    assert gsprt.mle_with_mean(scores, p, 0.5) == pytest.approx([0.25, 0.5, 0.25], rel=1e-12)
    # LLR of mean 0.55 (the sample's own, so q1 = p) against 0.5: 100 * sum p log(p / q0)
    # = 100 * (0.2 log 0.8 + 0.3 log 1.2) = 1.0068.
    expected = 100 * (0.2 * math.log(0.8) + 0.3 * math.log(1.2))
    assert gsprt.llr_mean([20, 50, 30], 0.5, 0.55) == pytest.approx(expected, rel=1e-12)
    assert expected == pytest.approx(1.0068, abs=1e-4)


def test_the_figures_of_the_report_that_found_the_old_approximation_wrong() -> None:
    # Ten draws and two draws under [0, 10]: about -0.29 and -0.05 (fishtest's method), where the normal
    # approximation with collapsed variance gave -20.7 and -0.83.
    assert sprt_wdl(SETTINGS, 0, 10, 0).llr == pytest.approx(-0.286, abs=1e-3)
    assert sprt_wdl(SETTINGS, 0, 2, 0).llr == pytest.approx(-0.054, abs=1e-3)
    # One win and one loss under [0, 50] is no evidence either way (it gave -4.10 and accepted H0).
    one_each = sprt_wdl(SprtSettings(elo0=0.0, elo1=50.0), 1, 0, 1)
    assert one_each.llr == pytest.approx(ref.dual_llr([1, 0, 1], ref.logistic(0), ref.logistic(50)), rel=1e-6)
    assert abs(one_each.llr) < 0.1
    assert one_each.decision is SprtDecision.CONTINUE


@pytest.mark.parametrize("draws", [10, 100])
def test_a_sample_of_draws_only_does_not_reach_a_bound_early(draws: int) -> None:
    assert sprt_wdl(SETTINGS, 0, draws, 0).decision is SprtDecision.CONTINUE
    assert sprt_pentanomial(SETTINGS, Pentanomial(dd=draws)).decision is SprtDecision.CONTINUE
    assert sprt_wdl(NORMALIZED, 0, draws, 0).decision is SprtDecision.CONTINUE
    assert sprt_pentanomial(NORMALIZED, Pentanomial(dd=draws)).decision is SprtDecision.CONTINUE


@pytest.mark.parametrize("games", [10, 100])
def test_a_sample_of_one_outcome_only_does_not_reach_a_bound_early(games: int) -> None:
    # Wins only, losses only, pairs split 1-1 only: nothing decides after 10 or 100 of them either.
    for counts in ((games, 0, 0), (0, 0, games)):
        assert sprt_wdl(SETTINGS, *counts).decision is SprtDecision.CONTINUE
    for pairs in (Pentanomial(wl=games), Pentanomial(ww=games // 10), Pentanomial(ll=games // 10)):
        assert sprt_pentanomial(SETTINGS, pairs).decision is SprtDecision.CONTINUE


def test_draws_only_do_decide_once_there_are_many() -> None:
    # The regularization makes a long run of draws evidence for equality: H0 after 102 draws.
    assert sprt_wdl(SETTINGS, 0, 101, 0).decision is SprtDecision.CONTINUE
    assert sprt_wdl(SETTINGS, 0, 102, 0).decision is SprtDecision.ACCEPT_H0


# Samples of 100 games and more: (losses, draws, wins) and pentanomial bins (0, 1/2, 1, 3/2, 2).
TRINOMIAL_SAMPLES = [
    (20, 60, 20),
    (30, 40, 30),
    (10, 80, 15),
    (0, 100, 0),
    (3, 190, 7),
    (1000, 2000, 1200),
    (13624, 34333, 13543),
    (0, 150, 5),
]
PENTANOMIAL_SAMPLES = [
    (1, 3, 10, 5, 1),
    (0, 10, 40, 12, 0),
    (0, 0, 60, 0, 0),
    (5, 20, 50, 20, 5),
    (1187, 7410, 13475, 7378, 1164),
    (39, 2226, 31451, 2412, 40),
]


@pytest.mark.parametrize("sample", TRINOMIAL_SAMPLES)
@pytest.mark.parametrize(("elo0", "elo1"), [(0.0, 10.0), (-3.0, 1.0), (0.0, 50.0)])
def test_trinomial_llr_agrees_with_the_reference(
    sample: tuple[int, int, int], elo0: float, elo1: float
) -> None:
    losses, draws, wins = sample
    ours = sprt_wdl(SprtSettings(elo0=elo0, elo1=elo1), wins, draws, losses).llr
    s0, s1 = ref.logistic(elo0), ref.logistic(elo1)
    assert ours == pytest.approx(
        ref.trinomial_llr_on_the_line(losses, draws, wins, s0, s1), rel=1e-6, abs=1e-9
    )
    assert ours == pytest.approx(ref.dual_llr(sample, s0, s1), rel=1e-6, abs=1e-9)


@pytest.mark.parametrize("sample", PENTANOMIAL_SAMPLES)
@pytest.mark.parametrize(("elo0", "elo1"), [(0.0, 10.0), (-3.0, 1.0), (0.2, 0.9)])
def test_pentanomial_llr_agrees_with_the_reference(
    sample: tuple[int, int, int, int, int], elo0: float, elo1: float
) -> None:
    ll, ld, even, wd, ww = sample
    ours = sprt_pentanomial(
        SprtSettings(elo0=elo0, elo1=elo1), Pentanomial(ll=ll, ld=ld, dd=even, wd=wd, ww=ww)
    )
    expected = ref.dual_llr(sample, ref.logistic(elo0), ref.logistic(elo1))
    assert ours.llr == pytest.approx(expected, rel=1e-6, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 400), min_size=3, max_size=3).filter(lambda c: sum(c) >= 100),
    st.floats(-20, 20),
    st.floats(1, 30),
)
def test_llr_agrees_with_the_reference_within_two_percent_from_100_games(
    counts: list[int], elo0: float, width: float
) -> None:
    losses, draws, wins = counts
    ours = sprt_wdl(SprtSettings(elo0=elo0, elo1=elo0 + width), wins, draws, losses).llr
    expected = ref.dual_llr(counts, ref.logistic(elo0), ref.logistic(elo0 + width))
    assert abs(ours - expected) <= 0.02 * abs(expected) + 1e-9


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, 200), min_size=5, max_size=5).filter(lambda c: sum(c) >= 50),
    st.floats(-20, 20),
    st.floats(1, 30),
)
def test_pentanomial_llr_agrees_with_the_reference_from_100_games(
    bins: list[int], elo0: float, width: float
) -> None:
    counts = Pentanomial(ll=bins[0], ld=bins[1], dd=bins[2], wd=bins[3], ww=bins[4])
    ours = sprt_pentanomial(SprtSettings(elo0=elo0, elo1=elo0 + width), counts).llr
    expected = ref.dual_llr(bins, ref.logistic(elo0), ref.logistic(elo0 + width))
    assert abs(ours - expected) <= 0.02 * abs(expected) + 1e-9


@pytest.mark.parametrize("sample", TRINOMIAL_SAMPLES + [(0, 10, 0), (1, 0, 1), (5, 3, 2)])
@pytest.mark.parametrize(("nelo0", "nelo1"), [(0.0, 5.0), (0.764, 3.439), (-10.0, 20.0)])
def test_normalized_trinomial_llr_agrees_with_the_reference(
    sample: tuple[int, int, int], nelo0: float, nelo1: float
) -> None:
    losses, draws, wins = sample
    ours = sprt_wdl(SprtSettings(elo0=nelo0, elo1=nelo1, model=EloModel.NORMALIZED), wins, draws, losses)
    expected = ref.trinomial_llr_t_value(losses, draws, wins, nelo0 / NELO_PER_T, nelo1 / NELO_PER_T)
    assert ours.llr == pytest.approx(expected, rel=1e-5, abs=1e-7)


def _t_of(probabilities: list[float]) -> float:
    mean = sum(p * i / 4 for i, p in enumerate(probabilities))
    variance = sum(p * (i / 4 - mean) ** 2 for i, p in enumerate(probabilities))
    return (mean - 0.5) / math.sqrt(variance)


@pytest.mark.parametrize("sample", PENTANOMIAL_SAMPLES + [(0, 0, 8, 0, 0), (2, 1, 0, 3, 1)])
@pytest.mark.parametrize("t", [-0.1, 0.0, 0.05, 0.3])
def test_normalized_pentanomial_distribution_is_a_constrained_maximum(
    sample: tuple[int, ...], t: float
) -> None:
    # The Lagrange conditions, checked from their definition: the distribution has t-value t, and the
    # likelihood's gradient p_i / q_i is a combination of the constraints' gradients (1 and dt/dq_i).
    _, scores, p = gsprt.empirical(sample)
    q = gsprt.mle_with_t_value(scores, p, 0.5, t)
    assert sum(q) == pytest.approx(1.0, abs=1e-12)
    assert _t_of(q) == pytest.approx(t, abs=1e-9)
    step = 1e-7
    gradient_t = []
    for i in range(5):
        up = list(q)
        up[i] += step
        down = list(q)
        down[i] -= step
        gradient_t.append((_t_of(up) - _t_of(down)) / (2 * step))
    ratios = [pi / qi for pi, qi in zip(p, q, strict=True)]
    # Least squares for ratio_i = c0 + c1 * gradient_t_i; the residual must vanish.
    n = 5
    mean_g, mean_r = sum(gradient_t) / n, sum(ratios) / n
    sxx = sum((g - mean_g) ** 2 for g in gradient_t)
    c1 = sum((g - mean_g) * (r - mean_r) for g, r in zip(gradient_t, ratios, strict=True)) / sxx
    c0 = mean_r - c1 * mean_g
    for g, r in zip(gradient_t, ratios, strict=True):
        assert r == pytest.approx(c0 + c1 * g, rel=1e-5, abs=1e-6)


def test_normalized_pentanomial_bounds_are_sqrt2_times_the_per_game_t_value() -> None:
    # Fishtest's own example: pentanomial [39, 2226, 31451, 2412, 40] under nElo [0.764, 3.439].
    bins = [39, 2226, 31451, 2412, 40]
    counts = Pentanomial(ll=39, ld=2226, dd=31451, wd=2412, ww=40)
    ours = sprt_pentanomial(SprtSettings(elo0=0.764, elo1=3.439, model=EloModel.NORMALIZED), counts)
    t0, t1 = (math.sqrt(2) * nelo / NELO_PER_T for nelo in (0.764, 3.439))
    assert ours.llr == pytest.approx(gsprt.llr_t_value(bins, t0, t1), rel=1e-12)
    # The pairs' mean 0.50235, per-pair sigma 0.0864: a positive but small normalized Elo, so H1 leads.
    assert 0 < ours.llr < ours.upper_bound


def test_sprt_accepts_h0_for_an_even_match() -> None:
    result = sprt_wdl(SETTINGS, 2000, 2000, 2000)
    assert result.decision is SprtDecision.ACCEPT_H0


def test_sprt_accepts_h1_for_a_clearly_stronger_engine() -> None:
    result = sprt_wdl(SETTINGS, 1200, 1800, 1000)
    assert result.llr > SETTINGS.upper_bound
    assert result.decision is SprtDecision.ACCEPT_H1


def test_sprt_with_no_games_continues() -> None:
    result = sprt_wdl(SETTINGS, 0, 0, 0)
    assert result.llr == 0.0
    assert result.decision is SprtDecision.CONTINUE
    assert sprt_pentanomial(SETTINGS, Pentanomial()).llr == 0.0
    assert sprt_wdl(NORMALIZED, 0, 0, 0).llr == 0.0


@given(st.integers(0, 300), st.integers(0, 300), st.integers(0, 300))
@settings(deadline=None)
def test_sprt_mirrors_when_the_sides_swap(wins: int, draws: int, losses: int) -> None:
    # Testing [0, 10] for one side is testing [-10, 0] for the other with the hypotheses swapped.
    mine = sprt_wdl(SETTINGS, wins, draws, losses)
    theirs = sprt_wdl(SprtSettings(elo0=-10.0, elo1=0.0), losses, draws, wins)
    assert mine.llr == pytest.approx(-theirs.llr, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"elo0": 5.0, "elo1": 0.0}, "elo0 must be below elo1"),
        ({"elo0": 0.0, "elo1": 5.0, "alpha": 0.0}, "alpha must be between 0 and 1"),
        ({"elo0": 0.0, "elo1": 5.0, "beta": 1.5}, "beta must be between 0 and 1"),
        ({"elo0": 0.0, "elo1": 5.0, "alpha": 0.6, "beta": 0.5}, "alpha \\+ beta must be below 1"),
        (
            {"elo0": 0.0, "elo1": 5.0, "model": "bayes"},
            "unknown Elo model 'bayes'; models: logistic, normalized",
        ),
        ({"elo0": 0.0, "elo1": 500.0, "model": "normalized"}, "normalized Elo must lie within ±200"),
        ({"elo0": 0.0, "elo1": math.inf}, "elo1 must be a finite number"),
    ],
)
def test_sprt_settings_are_checked(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SprtSettings(**settings)  # type: ignore[arg-type]


@pytest.mark.parametrize(("elo0", "elo1"), [(0.0, 7000.0), (-1e6, 0.0), (0.0, 4000.5)])
def test_logistic_bounds_beyond_4000_elo_are_refused(elo0: float, elo1: float) -> None:
    # `arbiter match --sprt elo0=0 elo1=7000` stopped with a traceback after its first game: the
    # expected score of 7000 Elo rounds to 1, which no distribution of the sample can have; and
    # elo0=-1e6 overflowed in the expected score.
    message = f"SPRT bounds in logistic Elo must lie within ±4000, got elo0={elo0:g} elo1={elo1:g}"
    with pytest.raises(ValueError, match=re.escape(message)):
        SprtSettings(elo0, elo1)


@pytest.mark.parametrize(("elo0", "elo1"), [(0.0, 4000.0), (-4000.0, 0.0), (-4000.0, 4000.0)])
@pytest.mark.parametrize("counts", [(5, 90, 5), (0, 10, 0), (1, 0, 0), (0, 0, 3)])
def test_the_widest_logistic_bounds_give_the_reference_llr(
    elo0: float, elo1: float, counts: tuple[int, int, int]
) -> None:
    losses, draws, wins = counts
    result = sprt_wdl(SprtSettings(elo0, elo1), wins, draws, losses)
    expected = ref.dual_llr(counts, ref.logistic(elo0), ref.logistic(elo1))
    assert result.llr == pytest.approx(expected, rel=1e-9, abs=1e-9)


def test_a_run_of_wins_accepts_h1_only_after_as_many_wins_as_the_bounds_ask() -> None:
    # docs/statistics.md: each win makes H1 only s1 / s0 times likelier, so under [0, 5] 200 straight
    # wins still continue, and the 207th accepts H1 (as the reference computation says).
    bounds = SprtSettings(0.0, 5.0)
    s0, s1 = ref.logistic(0.0), ref.logistic(5.0)
    expected = {200: SprtDecision.CONTINUE, 206: SprtDecision.CONTINUE, 207: SprtDecision.ACCEPT_H1}
    for wins, decision in expected.items():
        result = sprt_wdl(bounds, wins, 0, 0)
        assert result.llr == pytest.approx(ref.dual_llr((0, 0, wins), s0, s1), rel=1e-9)
        assert result.decision is decision
    assert round(sprt_wdl(bounds, 200, 0, 0).llr, 2) == 2.86


def test_an_unknown_sprt_model_is_refused_naming_the_sprt_setting() -> None:
    # fastchess's -sprt ... model=bayesian: the message said "unknown Elo model" without naming --sprt.
    with pytest.raises(ValueError, match=r"^--sprt model=bayesian: unknown Elo model 'bayesian'; models: "):
        parse_sprt("elo0=0 elo1=5 model=bayesian")


def test_sprt_settings_read_from_text() -> None:
    assert parse_sprt("elo0=0 elo1=5") == SprtSettings(0.0, 5.0)
    read = parse_sprt("elo0=-1,elo1=3 alpha=0.1 beta=0.2 model=normalized")
    assert read == SprtSettings(-1.0, 3.0, 0.1, 0.2, EloModel.NORMALIZED)
    assert parse_sprt(str(read)) == read
    with pytest.raises(ValueError, match="'gamma=1' is not one of elo0= elo1= alpha= beta= model="):
        parse_sprt("elo0=0 elo1=5 gamma=1")
    with pytest.raises(ValueError, match="alpha=x is not a number"):
        parse_sprt("elo0=0 elo1=5 alpha=x")
    with pytest.raises(ValueError, match="needs elo0= and elo1="):
        parse_sprt("elo1=5")


# Values printed by fishtest's own LLRcalc (LLR_logistic and LLR_normalized, root finding by scipy's
# brentq), run on these samples: counts in fishtest's order, losses first.
FISHTEST = [
    ("logistic", (0, 10, 0), 0, 10, -0.28602310882444654),
    ("logistic", (0, 2, 0), 0, 10, -0.05405346245262061),
    ("logistic", (1, 0, 1), 0, 50, -0.020660088651617132),
    ("logistic", (0, 100, 0), 0, 10, -2.9114042321699793),
    ("logistic", (1000, 1800, 1200), 0, 10, 7.460092080425924),
    ("logistic", (13624, 34333, 13543), -3, 1, 2.5021004266482283),
    ("logistic", (1187, 7410, 13475, 7378, 1164), -3, 1, 2.86152718059463),
    ("logistic", (39, 2226, 31451, 2412, 40), 0.2, 0.9, 2.1625425800483593),
    ("logistic", (0, 0, 60, 0, 0), 0, 5, -0.8623705481017778),
    ("logistic", (3, 40, 300, 45, 2), 0, 5, -0.2792134716290134),
    ("normalized", (39, 2226, 31451, 2412, 40), 0.764, 3.439, 2.162940869584568),
    ("normalized", (110, 700, 120), 0, 5, 0.19311343890975516),
    ("normalized", (0, 10, 0), 0, 5, -0.0012765113055541917),
    ("normalized", (20, 60, 20), 0, 5, -0.010355001649491394),
    ("normalized", (3, 40, 300, 45, 2), -2, 3, 0.10142018192319803),
]


@pytest.mark.parametrize(("model", "counts", "elo0", "elo1", "expected"), FISHTEST)
def test_llr_is_the_one_fishtest_computes(
    model: str, counts: tuple[int, ...], elo0: float, elo1: float, expected: float
) -> None:
    settings = SprtSettings(elo0=elo0, elo1=elo1, model=EloModel(model))
    if len(counts) == 3:
        losses, draws, wins = counts
        llr = sprt_wdl(settings, wins, draws, losses).llr
    else:
        ll, ld, even, wd, ww = counts
        llr = sprt_pentanomial(settings, Pentanomial(ll=ll, ld=ld, dd=even, wd=wd, ww=ww)).llr
    assert llr == pytest.approx(expected, rel=1e-9, abs=1e-12)
