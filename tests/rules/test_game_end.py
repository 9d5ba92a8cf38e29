"""Game end and the draw rules, each ending a scripted game at exactly the right ply."""

from __future__ import annotations

import pytest
from rules_scripted import game_from, play, play_quiet_king_moves

from arbiter.rules import Color, EndReason, Game


def assert_drawn_by_count_at(game: Game, rule: str, ply: int) -> None:
    """Quiet king moves up to ``ply``: the game goes on until then, and ``rule`` ends it there."""
    play_quiet_king_moves(game, ply - 1 - game.ply)
    assert game.end is None
    play_quiet_king_moves(game, 1)
    assert game.end is not None
    assert game.end.rule == rule
    assert game.end.ply == ply


def test_no_legal_move_loses() -> None:
    # Black's only man on 21 is blocked by White's men on 25 and 30.
    game = game_from("english", "B:W25,30:B21")
    assert game.end is not None
    assert game.end.reason is EndReason.NO_LEGAL_MOVES
    assert game.end.winner is Color.WHITE


def test_losing_the_last_piece_loses() -> None:
    game = game_from("english", "B:W14:B10")
    play(game, "10x17")
    assert game.end is not None
    assert game.end.reason is EndReason.NO_PIECES
    assert game.end.winner is Color.BLACK
    assert game.end.ply == 1


def test_threefold_repetition_is_a_draw_at_the_third_occurrence() -> None:
    game = game_from("english", "B:WK32:BK1")
    play(game, "1-6", "32-27", "6-1", "27-32", "1-6", "32-27", "6-1")
    assert game.end is None
    play(game, "27-32")
    assert game.end is not None
    assert game.end.reason is EndReason.REPETITION
    assert game.end.winner is None
    assert game.end.ply == 8


def test_repetition_counts_need_not_be_consecutive() -> None:
    game = game_from("english", "B:WK32:BK1")
    play(game, "1-6", "32-27", "6-1", "27-32")  # start position, second time
    play(game, "1-5", "32-28", "5-1", "28-32")  # start position, third time
    assert game.end is not None and game.end.reason is EndReason.REPETITION
    assert game.end.ply == 8


def test_a_turkish_man_stepping_sideways_and_back_repeats_the_position() -> None:
    # Turkish men also step sideways, so a man move does not make earlier positions unreachable: the
    # men shuffle c3-d3-c3 and f6-e6-f6, and the start position comes back a third time at ply 8.
    game = game_from("turkish", "W:Wc3,f3:Bc6,f6")
    play(game, "c3-d3", "f6-e6", "d3-c3", "e6-f6", "c3-d3", "f6-e6", "d3-c3")
    assert game.end is None
    play(game, "e6-f6")
    assert game.end is not None
    assert (game.end.reason, game.end.rule, game.end.ply) == (EndReason.REPETITION, "threefold repetition", 8)


def test_forty_move_rule_draws_after_eighty_plies_without_man_move_or_capture() -> None:
    game = game_from("english", "B:WK29,K32:BK1,K4")
    play_quiet_king_moves(game, 79)
    assert game.end is None
    assert [c for c in game.counters() if c.rule == "40-move rule"][0].count == 79
    play_quiet_king_moves(game, 1)
    assert game.end is not None
    assert game.end.reason is EndReason.MOVE_COUNT_RULE
    assert game.end.rule == "40-move rule"
    assert game.end.ply == 80


def test_a_man_move_resets_the_forty_move_count() -> None:
    game = game_from("english", "B:WK29,K32,21:BK1,K4")
    play_quiet_king_moves(game, 41)
    assert [c for c in game.counters() if c.rule == "40-move rule"][0].count == 41
    play(game, "21-17")
    counter = [c for c in game.counters() if c.rule == "40-move rule"][0]
    assert counter.count == 0


def test_international_twenty_five_move_rule_draws_after_fifty_king_plies() -> None:
    game = game_from("international", "W:WK46,K50:BK1,K5")
    assert_drawn_by_count_at(game, "25-move rule", 50)


def test_international_sixteen_move_rule_three_kings_against_one() -> None:
    game = game_from("international", "W:WK42,K4,K11:BK8")
    assert_drawn_by_count_at(game, "16-move rule", 32)


def test_international_five_move_rule_two_kings_against_one() -> None:
    game = game_from("international", "W:WK24,K31:BK16")
    assert_drawn_by_count_at(game, "5-move rule", 10)


@pytest.mark.parametrize(
    ("fen", "international_rule", "plies"),
    [("W:WK24,K31:BK16", "5-move rule", 10), ("W:WK42,K4,K11:BK8", "16-move rule", 32)],
)
def test_killer_plays_out_the_endgames_international_draws_by_count(
    fen: str, international_rule: str, plies: int
) -> None:
    # Killer's rule exists so that two kings can catch a lone king: the endings the international 5- and
    # 16-move rules draw are won there, so only the 25-move rule and repetition end them.
    international = game_from("international", fen)
    play_quiet_king_moves(international, plies)
    assert international.end is not None and international.end.rule == international_rule
    game = game_from("killer", fen)
    assert {c.rule for c in game.counters()} == {"threefold repetition", "25-move rule"}
    assert_drawn_by_count_at(game, "25-move rule", 50)


def test_material_count_starts_when_the_situation_arises() -> None:
    # Two white kings against a black king and man: no endgame rule yet. Black's man is captured at
    # ply 1, making two kings against one: the 5-move count starts there and draws at ply 11.
    game = game_from("international", "W:WK1,K14:BK50,20")
    assert [c for c in game.counters() if c.rule == "5-move rule"][0].count == 0
    play(game, "14x25")
    assert [c for c in game.counters() if c.rule == "5-move rule"][0].count == 0
    play_quiet_king_moves(game, 9)
    assert game.end is None
    play_quiet_king_moves(game, 1)
    assert game.end is not None and game.end.rule == "5-move rule"
    assert game.end.ply == 11


def test_a_man_move_does_not_reset_the_sixteen_move_count() -> None:
    # King and two men against a lone king: the 16-move count runs through man moves.
    game = game_from("international", "W:WK42,36,38:BK8")
    play(game, "36-31")
    play_quiet_king_moves(game, 1)
    play(game, "38-33")
    counter = [c for c in game.counters() if c.rule == "16-move rule"][0]
    assert counter.count == 3


def test_playing_after_the_end_is_refused() -> None:
    game = game_from("english", "B:WK32:BK1")
    play(game, "1-6", "32-27", "6-1", "27-32", "1-6", "32-27", "6-1", "27-32")
    assert game.end is not None
    with pytest.raises(ValueError, match="game is over"):
        game.play(game.position.legal_moves()[0])
