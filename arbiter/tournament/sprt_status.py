"""Where a match's SPRT stands: the test's result, what it counted, and the Elo estimate beside it.

The runner works it out after every game, and the live view, the final summary, ``arbiter standings``
and the site show it, all from the same finished games, so they always agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
    same counts as the test; None before the first game (or pair).
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

    @property
    def decision(self) -> SprtDecision:
        return self.result.decision

    @property
    def llr(self) -> float:
        return self.result.llr

    @property
    def decided(self) -> bool:
        return self.result.decision is not SprtDecision.CONTINUE


def sprt_status(
    settings: SprtSettings, games: Sequence[FinishedGame], player: str, opponent: str, *, paired: bool
) -> SprtStatus:
    """The test over the finished `games` between `player` and `opponent`: over game pairs when
    `paired` (each opening played twice, colours swapped), over single games otherwise.

    Raises ValueError when `paired` and the games do not make up pairs of the two players.
    """
    between = [g for g in games if g.involves(player) and g.opponent_of(player) == opponent]
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
