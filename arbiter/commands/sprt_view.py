"""The SPRT's state in one line, as the live view, the final summary and `arbiter standings` print it."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from arbiter.store import RunStore
from arbiter.tournament.config import TournamentConfig
from arbiter.tournament.figures import llr_figures
from arbiter.tournament.stats import EloEstimate, SprtDecision

if TYPE_CHECKING:
    from arbiter.tournament.sprt_status import SprtStatus

_DECISIONS = {
    SprtDecision.ACCEPT_H0: "H0 accepted",
    SprtDecision.ACCEPT_H1: "H1 accepted",
    SprtDecision.CONTINUE: "continue",
}


def signed(value: float, digits: int = 1) -> str:
    """An Elo figure with its sign; an infinite one (every game won or lost) as such."""
    if math.isfinite(value):
        text = f"{value:+.{digits}f}"
        return "+" + text[1:] if float(text) == 0 else text  # no "-0.0" for an even score
    return "+∞" if value > 0 else "-∞"


def interval_ends(estimate: EloEstimate, digits: int = 1) -> str:
    """``[-12.0, +35.5]``: the 95% interval by its ends, an infinite one as such."""
    return f"[{signed(estimate.lower, digits)}, {signed(estimate.upper, digits)}]"


def estimate_figures(estimate: EloEstimate) -> str:
    """``+12.3 ± 8.1``: the estimate and its 95% interval, both ends where one is infinite
    (``+381.7 [+159.0, +∞]``), or why there is no interval yet (``+0.0, no interval yet: every game
    drawn``)."""
    figure = signed(estimate.elo)
    reason = estimate.no_interval_reason
    if reason is not None:
        return f"{figure}, no interval yet: {reason}"
    if math.isfinite(estimate.margin):
        return f"{figure} ± {estimate.margin:.1f}"
    return f"{figure} {interval_ends(estimate)}"


def estimate_text(estimate: EloEstimate) -> str:
    """``Elo +12.3 ± 8.1 (95%)`` (or ``nElo``): the figures named, and the interval's confidence where
    there is one."""
    text = f"{estimate.model.unit} {estimate_figures(estimate)}"
    return text if estimate.no_interval_reason is not None else f"{text} (95%)"


def count_text(number: int, noun: str, plural: str | None = None) -> str:
    """``1 game``, ``2 games`` (``1 loss``, ``2 losses`` given the plural)."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def sprt_line(status: SprtStatus) -> str:
    """``SPRT: continue · LLR -0.29 (bounds -2.94, 2.94) · 10 games · a against b: Elo +0.0, no interval
    yet: every game drawn · elo0=0 elo1=10 alpha=0.05 beta=0.05 model=logistic``."""
    result = status.result
    counted = count_text(status.games, "game")
    if status.pairs is not None:
        counted += f", {count_text(status.pairs, 'pair')}"
        waiting = status.games - 2 * status.pairs
        if waiting > 0:  # a pair counts once both its games are played
            counted += f" ({count_text(waiting, 'game')} of a pair not complete yet, not counted)"
    if status.after_decision:
        counted += f" ({count_text(status.after_decision, 'game')} finished after the decision, not counted)"
    parts = [
        f"SPRT: {_DECISIONS[result.decision]}",
        "LLR {} (bounds {}, {})".format(*llr_figures(result.llr, result.lower_bound, result.upper_bound)),
        counted,
    ]
    if status.estimate is not None:
        parts.append(f"{status.player} against {status.opponent}: {estimate_text(status.estimate)}")
    parts.append(str(status.settings))
    return " · ".join(parts)


def stored_sprt_status(store: RunStore, tournament_id: int) -> SprtStatus | None:
    """The SPRT of a stored match, from its configuration and finished games (up to its decision, once
    it has decided); None when it has none (or its configuration cannot be read any more)."""
    info = store.tournament(tournament_id)
    try:
        config = TournamentConfig.model_validate(info.config(), strict=False)
    except ValueError:  # a pydantic ValidationError is one
        return None
    if config.sprt is None or config.format != "match":
        return None
    from arbiter.tournament.sprt_status import match_sprt_status  # only a match with --sprt has one

    first, second = (engine.name for engine in config.engines)
    try:
        return match_sprt_status(store, tournament_id, config.sprt, first, second, paired=config.repeat)
    except ValueError:  # stored pairs that do not fit together: nothing sound to show
        return None
