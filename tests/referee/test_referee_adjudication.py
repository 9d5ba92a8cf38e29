"""Score adjudication as a pure tally: per-engine runs of scores, reset by a score that breaks them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from arbiter.referee.adjudication import ScoreAdjudicator
from arbiter.referee.settings import DrawAdjudication, RefereeRules, WinAdjudication
from arbiter.rules import Color

W, B = Color.WHITE, Color.BLACK


def feed(adjudicator: ScoreAdjudicator, scores: list[tuple[Color, float | None]]) -> list[int]:
    """The indexes of the scores after which a verdict came."""
    return [ply for ply, (mover, score) in enumerate(scores, start=1) if adjudicator.add(mover, score, ply)]


def test_a_draw_needs_the_last_n_scores_of_both_engines_within_the_margin() -> None:
    tally = ScoreAdjudicator(DrawAdjudication(margin=0.2, moves=2), None)
    assert feed(tally, [(W, 0.1), (B, -0.2), (W, 0.0), (B, 0.15)]) == [4]


def test_a_score_outside_the_margin_restarts_that_engines_run() -> None:
    tally = ScoreAdjudicator(DrawAdjudication(margin=0.2, moves=2), None)
    assert feed(tally, [(W, 0.1), (B, 0.1), (W, 0.5), (B, 0.1), (W, 0.1), (B, 0.1), (W, 0.1)]) == [7]


def test_a_move_without_a_score_breaks_the_run() -> None:
    tally = ScoreAdjudicator(DrawAdjudication(margin=0.2, moves=2), None)
    assert feed(tally, [(W, 0.0), (B, 0.0), (W, None), (B, 0.0), (W, 0.0), (B, 0.0)]) == []


def test_no_draw_before_the_minimum_number_of_plies() -> None:
    tally = ScoreAdjudicator(DrawAdjudication(margin=0.2, moves=1, min_plies=5), None)
    assert feed(tally, [(W, 0.0), (B, 0.0), (W, 0.0), (B, 0.0), (W, 0.0)]) == [5]


def test_a_win_needs_both_engines_to_see_the_same_side_ahead() -> None:
    tally = ScoreAdjudicator(None, WinAdjudication(margin=3, moves=2))
    # White thinks it leads by 5; Black agrees (-5 from its own side) from its second move on.
    verdicts = [
        tally.add(mover, score, ply)
        for ply, (mover, score) in enumerate([(W, 5), (B, 1), (W, 5), (B, -5), (W, 5), (B, -5)], start=1)
    ]
    assert verdicts[:5] == [None] * 5
    final = verdicts[5]
    assert final is not None and final.winner is Color.WHITE
    assert final.reason == "both engines' last 2 scores gave White a lead of at least 3"


def test_engines_that_each_think_they_win_are_never_adjudicated() -> None:
    tally = ScoreAdjudicator(DrawAdjudication(margin=0.5, moves=1), WinAdjudication(margin=3, moves=1))
    assert feed(tally, [(W, 9), (B, 9)] * 5) == []


def test_a_black_lead_is_adjudicated_for_black() -> None:
    tally = ScoreAdjudicator(None, WinAdjudication(margin=1, moves=1))
    verdict = tally.add(B, 2.5, 1) or tally.add(W, -2.5, 2)
    assert verdict is not None and verdict.winner is Color.BLACK


def test_one_sided_the_losing_engine_s_own_run_of_scores_decides() -> None:
    tally = ScoreAdjudicator(None, WinAdjudication(margin=3, moves=2, two_sided=False))
    # Black sees itself 5 behind twice; White's scores (optimistic or not) play no part.
    verdicts = [
        tally.add(mover, score, ply)
        for ply, (mover, score) in enumerate([(W, 0), (B, -5), (W, 0), (B, -5)], start=1)
    ]
    assert verdicts[:3] == [None] * 3
    final = verdicts[3]
    assert final is not None and final.winner is Color.WHITE
    assert final.reason == "Black's engine resigned: its last 2 scores put it behind by at least 3"


def test_a_lead_of_exactly_the_margin_counts_as_in_cutechess_and_fastchess() -> None:
    # cutechess-cli and fastchess resign an engine whose score is -SCORE or lower, not only below it:
    # engines that score by material alone report the margin itself, game after game.
    two_sided = ScoreAdjudicator(None, WinAdjudication(margin=3, moves=1))
    assert feed(two_sided, [(W, 3), (B, -3)]) == [2]
    one_sided = ScoreAdjudicator(None, WinAdjudication(margin=3, moves=2, two_sided=False))
    assert feed(one_sided, [(B, -3), (W, 0), (B, -3)]) == [3]


def test_a_lead_just_short_of_the_margin_is_not_adjudicated() -> None:
    two_sided = ScoreAdjudicator(None, WinAdjudication(margin=3, moves=1))
    assert feed(two_sided, [(W, 2.99), (B, -2.99)] * 3) == []
    one_sided = ScoreAdjudicator(None, WinAdjudication(margin=3, moves=1, two_sided=False))
    assert feed(one_sided, [(B, -2.99), (W, 0)] * 3) == []


def test_one_sided_an_engine_s_own_optimism_wins_nothing() -> None:
    tally = ScoreAdjudicator(None, WinAdjudication(margin=3, moves=1, two_sided=False))
    assert feed(tally, [(W, 9), (B, 9)] * 5) == []


def test_one_sided_a_better_score_or_a_missing_one_restarts_the_run() -> None:
    tally = ScoreAdjudicator(None, WinAdjudication(margin=3, moves=2, two_sided=False))
    assert feed(tally, [(W, -5), (W, -2), (W, -5), (W, None), (W, -5), (W, -5)]) == [6]


def test_one_sided_a_draw_is_still_adjudicated_when_no_one_resigns() -> None:
    tally = ScoreAdjudicator(
        DrawAdjudication(margin=0.5, moves=2), WinAdjudication(margin=3, moves=2, two_sided=False)
    )
    assert feed(tally, [(W, 0.1), (B, 0.1), (W, 0.1), (B, 0.1)]) == [4]


def test_adjudication_settings_are_checked() -> None:
    with pytest.raises(ValidationError):
        WinAdjudication(margin=0, moves=2)
    with pytest.raises(ValidationError):
        DrawAdjudication(margin=0.1, moves=0)
    with pytest.raises(ValidationError):
        RefereeRules.model_validate({"max_plies": 0})
    with pytest.raises(ValidationError):
        RefereeRules.model_validate({"adjudicate": True})
    assert not ScoreAdjudicator(None, None).active
