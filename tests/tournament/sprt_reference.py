"""A second implementation of the generalized SPRT, written for the tests from the published formulas.

It shares no code with `arbiter.tournament.gsprt` and finds the maximum-likelihood distributions by
other routes:

* trinomial, hypothesis on the mean: the distributions with mean s form a line, (l, d, w) =
  (1 - s - d/2, d, s - d/2); the likelihood is maximized along it by golden-section search;
* any number of classes, hypothesis on the mean: the dual of the Lagrange problem, the concave
  h(x) = sum_i p_i log(1 + x (a_i - s)), is maximized by golden-section search (Van den Bergh,
  "Maximum likelihood estimates of multinomial distributions with given expectation value",
  Proposition 1.1: the maximum-likelihood distribution is p_i / (1 + x (a_i - s)) and the
  log-likelihood ratio per observation is h0(x0) - h1(x1));
* trinomial, hypothesis on the t-value (mu - 1/2) / sigma: for each draw rate d, the win rate that gives
  the t-value is found by bisection (t grows with it), and the likelihood is maximized over d.

Empty classes count as 1/1000 of an observation, as fishtest regularizes them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

EMPTY = 1e-3
GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


def regular(counts: Sequence[float]) -> list[float]:
    return [c if c > 0 else EMPTY for c in counts]


def logistic(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def golden_max(f: Callable[[float], float], low: float, high: float) -> float:
    """The maximum of a unimodal `f` over (low, high)."""
    a, b = low, high
    c, d = b - GOLDEN * (b - a), a + GOLDEN * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(300):
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - GOLDEN * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + GOLDEN * (b - a)
            fd = f(d)
    return max(fc, fd)


def _loglik(counts: Sequence[float], probabilities: Sequence[float]) -> float:
    return sum(n * math.log(p) for n, p in zip(counts, probabilities, strict=True))


def trinomial_llr_on_the_line(losses: int, draws: int, wins: int, s0: float, s1: float) -> float:
    """LLR of mean s1 against s0 by direct maximization along the line of distributions with that mean."""
    n = regular([losses, draws, wins])

    def best(s: float) -> float:
        def along(d: float) -> float:
            return _loglik(n, (1.0 - s - d / 2.0, d, s - d / 2.0))

        tiny = 1e-15
        return golden_max(along, tiny, min(2.0 * s, 2.0 * (1.0 - s)) - tiny)

    return best(s1) - best(s0)


def dual_llr(counts: Sequence[int], s0: float, s1: float) -> float:
    """LLR of mean s1 against s0 from the dual problem: N * (max h0 - max h1)."""
    n = regular(counts)
    total = sum(n)
    p = [c / total for c in n]
    scores = [i / (len(n) - 1) for i in range(len(n))]

    def dual_max(s: float) -> float:
        a = [x - s for x in scores]

        def h(x: float) -> float:
            return sum(pi * math.log(1.0 + x * ai) for pi, ai in zip(p, a, strict=True))

        room = 1e-12
        return golden_max(h, -1.0 / max(a) + room, -1.0 / min(a) - room)

    return total * (dual_max(s0) - dual_max(s1))


def _t_value(loss: float, d: float, w: float) -> float:
    mean = w + d / 2.0
    variance = w + d / 4.0 - mean * mean
    return (mean - 0.5) / math.sqrt(variance)


def trinomial_llr_t_value(losses: int, draws: int, wins: int, t0: float, t1: float) -> float:
    """LLR of t-value t1 against t0 by direct maximization: for each draw rate, bisect the win rate."""
    n = regular([losses, draws, wins])

    def best(t: float) -> float:
        def at_draw_rate(d: float) -> float:
            rest = 1.0 - d
            low, high = 0.0, rest
            for _ in range(200):  # t grows with the win rate when the draw rate is fixed
                middle = (low + high) / 2.0
                if _t_value(rest - middle, d, middle) < t:
                    low = middle
                else:
                    high = middle
            w = (low + high) / 2.0
            if not 0.0 < w < rest:
                return -math.inf
            return _loglik(n, (rest - w, d, w))

        return golden_max(at_draw_rate, 1e-12, 1.0 - 1e-12)

    return best(t1) - best(t0)
