"""Where a match's SPRT stands: the test's result, what it counted, and the Elo estimate beside it.

The runner works it out after every game, and the live view, the final summary, ``arbiter standings``
and the site show it, all from the same finished games, so they always agree. Once the test has
decided, the decision stands: the runner stores it with the game stored last, and every view counts
the games stored up to it, not those that were still running then and finished after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from arbiter.store import SPRT_DECIDED, RunStore
from arbiter.tournament.figures import llr_figures
from arbiter.tournament.scoring import FinishedGame
from arbiter.tournament.stats import (
    EloEstimate,
    Pentanomial,
    SprtDecision,
    SprtResult,
    SprtSettings,
    elo_from_pentanomial,
    elo_from_wdl,
    pentanomial,
    sprt_pentanomial,
    sprt_wdl,
)


@dataclass(frozen=True)
class SprtStatus:
    """The SPRT of `player` against `opponent`.

    `pairs` is the number of complete game pairs when the test counts pairs (pentanomial), None when it
    counts single games (trinomial). `estimate` is the Elo difference in the test's model, from the
    same counts as the test; None before the first game (or pair). `decision_stored` when the test had
    decided and said so in the store before: it counts the games up to its decision, and
    `after_decision` more games between the two finished after it (they were running then).
    """

    settings: SprtSettings
    result: SprtResult
    player: str
    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    pairs: int | None
    pentanomial: Pentanomial | None
    estimate: EloEstimate | None
    decision_stored: bool = False
    after_decision: int = 0

    @property
    def decision(self) -> SprtDecision:
        return self.result.decision

    @property
    def llr(self) -> float:
        return self.result.llr

    @property
    def decided(self) -> bool:
        return self.result.decision is not SprtDecision.CONTINUE


def match_sprt_status(
    store: RunStore,
    tournament_id: int,
    settings: SprtSettings,
    player: str,
    opponent: str,
    *,
    paired: bool,
) -> SprtStatus:
    """The stored match's test: over its finished games, or, once it has decided, over the games it
    counted then (see `decision_note`), the games finished after its decision told apart.

    Raises ValueError when `paired` and the games do not make up pairs of the two players.
    """
    decided_at = store.sprt_decision_revision(tournament_id)
    counted = store.finished_results(tournament_id, up_to_revision=decided_at)
    status = sprt_status(settings, counted, player, opponent, paired=paired)
    if decided_at is None:
        return status
    finished = len(_between(store.finished_results(tournament_id), player, opponent))
    return replace(status, decision_stored=True, after_decision=finished - status.games)


def decision_note(status: SprtStatus) -> str:
    """``SPRT decided H0 (LLR -3.66, bounds [-3.40, 2.96]): no more games are started``: what the
    runner says and stores (beginning with `SPRT_DECIDED`) when the test decides."""
    llr, lower, upper = llr_figures(status.llr, status.result.lower_bound, status.result.upper_bound)
    figures = f"(LLR {llr}, bounds [{lower}, {upper}])"
    return f"{SPRT_DECIDED} {status.decision.value} {figures}: no more games are started"


def _between(games: Sequence[FinishedGame], player: str, opponent: str) -> list[FinishedGame]:
    return [g for g in games if g.involves(player) and g.opponent_of(player) == opponent]


def sprt_status(
    settings: SprtSettings, games: Sequence[FinishedGame], player: str, opponent: str, *, paired: bool
) -> SprtStatus:
    """The test over the finished `games` between `player` and `opponent`: over game pairs when
    `paired` (each opening played twice, colours swapped), over single games otherwise.

    Raises ValueError when `paired` and the games do not make up pairs of the two players.
    """
    between = _between(games, player, opponent)
    wins = sum(1 for g in between if g.fraction_for(player) == 1.0)
    losses = sum(1 for g in between if g.fraction_for(player) == 0.0)
    draws = len(between) - wins - losses
    counts: Pentanomial | None = None
    estimate: EloEstimate | None = None
    if paired:
        counts = pentanomial(between, player, opponent).counts
        result = sprt_pentanomial(settings, counts)
        if counts.pairs:
            estimate = elo_from_pentanomial(counts, model=settings.model)
    else:
        result = sprt_wdl(settings, wins, draws, losses)
        if between:
            estimate = elo_from_wdl(wins, draws, losses, model=settings.model)
    return SprtStatus(
        settings=settings,
        result=result,
        player=player,
        opponent=opponent,
        games=len(between),
        wins=wins,
        draws=draws,
        losses=losses,
        pairs=None if counts is None else counts.pairs,
        pentanomial=counts,
        estimate=estimate,
    )
