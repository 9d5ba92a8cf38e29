"""The generalized SPRT's log-likelihood ratio, by maximum likelihood, as fishtest computes it.

A sample is a list of outcome counts whose scores are evenly spaced from 0 to 1: three classes for
single games (loss, draw, win), five for game pairs (pair totals 0, 1/2, 1, 3/2, 2, as mean scores 0,
1/4, 1/2, 3/4, 1). Under each hypothesis the outcome distribution is unknown; the generalized SPRT
takes, for each, the distribution of largest likelihood that satisfies it, and compares the two:

    LLR = N * sum_i p_i * log(q1_i / q0_i)

where p is the observed (empirical) distribution, N the number of observations and q0, q1 the
maximum-likelihood distributions under H0 and H1 (Van den Bergh, "A generalized SPRT for engine
testing"; fishtest's ``LLRcalc``).

* Hypotheses on the expected score s (logistic Elo): the maximum-likelihood distribution with mean s
  is q_i = p_i / (1 + x * (a_i - s)), x the root of sum_i p_i (a_i - s) / (1 + x (a_i - s)) = 0
  (a Lagrange multiplier; the "secular equation").
* Hypotheses on the t-value (mu - 1/2) / sigma (normalized Elo): the same form with a_i - s replaced by
  a_i - 1/2 - t sigma (1 + ((mu - a_i) / sigma)^2) / 2, mu and sigma those of q itself, solved by
  iterating from the uniform distribution.

An outcome class nobody has scored yet would make these distributions degenerate (a sample of draws
only has no variance at all), so an empty class counts as 1/1000 of an observation, as in fishtest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

EMPTY_CLASS = 1e-3
"""What an outcome class with no observation counts as (fishtest's regularization)."""

_T_ITERATIONS = 100
_T_TOLERANCE = 1e-12


def regularize(counts: Sequence[float]) -> list[float]:
    """The counts with each empty class counted as `EMPTY_CLASS`."""
    return [float(c) if c > 0 else EMPTY_CLASS for c in counts]


def empirical(counts: Sequence[float]) -> tuple[float, list[float], list[float]]:
    """The regularized sample as (N, scores, probabilities); scores are evenly spaced over 0..1."""
    if len(counts) < 2:
        raise ValueError(f"a sample needs at least two outcome classes, got {len(counts)}")
    if any(c < 0 for c in counts):
        raise ValueError(f"outcome counts cannot be negative, got {list(counts)}")
    regular = regularize(counts)
    total = sum(regular)
    last = len(regular) - 1
    return total, [i / last for i in range(len(regular))], [c / total for c in regular]


def mean_and_variance(scores: Sequence[float], probabilities: Sequence[float]) -> tuple[float, float]:
    mean = sum(p * a for a, p in zip(scores, probabilities, strict=True))
    variance = sum(p * (a - mean) ** 2 for a, p in zip(scores, probabilities, strict=True))
    return mean, variance


def _secular_root(shifted: Sequence[float], probabilities: Sequence[float]) -> float:
    """The x with sum_i p_i a_i / (1 + x a_i) = 0, for shifted scores a of both signs.

    The left side falls strictly from +inf to -inf between -1/max(a) and -1/min(a), so bisection
    finds the root, here to 1e-15 (relative, or absolute near 0): far below what the LLR shows.
    """
    low_end, high_end = min(shifted), max(shifted)
    if not low_end < 0.0 < high_end:
        raise ValueError("the hypothesis lies outside the range of the scores")
    low, high = -1.0 / high_end, -1.0 / low_end

    def slope(x: float) -> float:
        return sum(p * a / (1.0 + x * a) for a, p in zip(shifted, probabilities, strict=True))

    for _ in range(2000):
        middle = (low + high) / 2.0
        if middle in (low, high) or high - low <= 1e-15 * max(1.0, abs(middle)):
            break
        if slope(middle) > 0.0:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


def _tilted(shifted: Sequence[float], probabilities: Sequence[float]) -> list[float]:
    x = _secular_root(shifted, probabilities)
    return [p / (1.0 + x * a) for a, p in zip(shifted, probabilities, strict=True)]


def mle_with_mean(scores: Sequence[float], probabilities: Sequence[float], mean: float) -> list[float]:
    """The distribution of largest likelihood for the observed `probabilities` whose mean is `mean`."""
    return _tilted([a - mean for a in scores], probabilities)


def mle_with_t_value(
    scores: Sequence[float], probabilities: Sequence[float], reference: float, t: float
) -> list[float]:
    """The distribution of largest likelihood whose t-value (mean - reference) / sigma is `t`."""
    current = [1.0 / len(scores)] * len(scores)
    for _ in range(_T_ITERATIONS):
        mean, variance = mean_and_variance(scores, current)
        sigma = math.sqrt(variance)
        shifted = [a - reference - t * sigma * (1.0 + ((mean - a) / sigma) ** 2) / 2.0 for a in scores]
        following = _tilted(shifted, probabilities)
        change = max(abs(a - b) for a, b in zip(current, following, strict=True))
        current = following
        if change < _T_TOLERANCE:
            break
    return current


def _llr(probabilities: Sequence[float], q0: Sequence[float], q1: Sequence[float]) -> float:
    return sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probabilities, q0, q1, strict=True))


def llr_mean(counts: Sequence[float], s0: float, s1: float) -> float:
    """The generalized LLR of H1 (expected score `s1`) against H0 (`s0`) for the outcome `counts`."""
    if sum(counts) == 0:
        return 0.0
    total, scores, probabilities = empirical(counts)
    q0 = mle_with_mean(scores, probabilities, s0)
    q1 = mle_with_mean(scores, probabilities, s1)
    return total * _llr(probabilities, q0, q1)


def llr_t_value(counts: Sequence[float], t0: float, t1: float, reference: float = 0.5) -> float:
    """The generalized LLR of H1 (t-value `t1`) against H0 (`t0`) for the outcome `counts`."""
    if sum(counts) == 0:
        return 0.0
    total, scores, probabilities = empirical(counts)
    q0 = mle_with_t_value(scores, probabilities, reference, t0)
    q1 = mle_with_t_value(scores, probabilities, reference, t1)
    return total * _llr(probabilities, q0, q1)
