"""Game results and the points they are worth."""

from __future__ import annotations

import pytest

from arbiter.tournament.scoring import (
    STANDARD,
    TWO_ONE_ZERO,
    FinishedGame,
    Outcome,
    ScoringScheme,
    scheme_named,
)


def test_winner_takes_the_whole_game_and_a_draw_is_shared() -> None:
    white_wins = FinishedGame("A", "B", Outcome.WHITE_WINS)
    black_wins = FinishedGame("A", "B", Outcome.BLACK_WINS)
    draw = FinishedGame("A", "B", Outcome.DRAW)
    assert (white_wins.fraction_for("A"), white_wins.fraction_for("B")) == (1.0, 0.0)
    assert (black_wins.fraction_for("A"), black_wins.fraction_for("B")) == (0.0, 1.0)
    assert (draw.fraction_for("A"), draw.fraction_for("B")) == (0.5, 0.5)


def test_standard_scoring_is_one_half_zero() -> None:
    game = FinishedGame("A", "B", Outcome.BLACK_WINS)
    assert STANDARD.points_for(game, "B") == 1.0
    assert STANDARD.points_for(game, "A") == 0.0
    assert STANDARD.points_for(FinishedGame("A", "B", Outcome.DRAW), "A") == 0.5


def test_two_one_zero_scoring_gives_two_for_a_win_and_one_for_a_draw() -> None:
    assert TWO_ONE_ZERO.points_for(FinishedGame("A", "B", Outcome.WHITE_WINS), "A") == 2.0
    assert TWO_ONE_ZERO.points_for(FinishedGame("A", "B", Outcome.DRAW), "B") == 1.0
    assert TWO_ONE_ZERO.points_for(FinishedGame("A", "B", Outcome.WHITE_WINS), "B") == 0.0


def test_schemes_are_found_by_name() -> None:
    assert scheme_named("2-1-0") is TWO_ONE_ZERO
    assert scheme_named(" Standard ") is STANDARD
    assert scheme_named("1-1/2-0") is STANDARD
    assert scheme_named("1-0.5-0") is STANDARD


def test_unknown_scheme_lists_the_known_ones() -> None:
    with pytest.raises(
        ValueError,
        match=r"unknown scoring scheme '3-1-0'; known schemes: 1-0.5-0, 1-1/2-0, 2-1-0, pieces, standard",
    ):
        scheme_named("3-1-0")


def test_a_scheme_must_value_a_win_above_a_draw_above_a_loss() -> None:
    with pytest.raises(ValueError, match="must value a win above a draw"):
        ScoringScheme(name="odd", win=1.0, draw=1.0, loss=0.0)


def test_a_player_cannot_play_itself() -> None:
    with pytest.raises(ValueError, match="two different players"):
        FinishedGame("A", "A", Outcome.DRAW)


def test_asking_about_a_player_not_in_the_game_is_an_error() -> None:
    with pytest.raises(ValueError, match="'C' did not play in A - B"):
        FinishedGame("A", "B", Outcome.DRAW).fraction_for("C")


def test_piece_scoring_gives_the_winner_its_pieces_left_and_nothing_for_a_draw_or_a_loss() -> None:
    pieces = scheme_named("pieces")
    won = FinishedGame("A", "B", Outcome.BLACK_WINS, pieces=4)
    drawn = FinishedGame("A", "B", Outcome.DRAW)
    assert (pieces.points_for(won, "B"), pieces.points_for(won, "A")) == (4.0, 0.0)
    assert (pieces.points_for(drawn, "A"), pieces.points_for(drawn, "B")) == (0.0, 0.0)
