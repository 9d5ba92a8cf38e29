"""Each variant's draw rules (VARIANTS.md, the rule matrix), each ending a scripted game at exactly its ply.

Every game is played with king moves that allow no capture, so only the rule under test can end it; each
test checks that the game is still on one ply before.
"""

from __future__ import annotations

import pytest
from rules_scripted import counter, game_from, play, play_quiet_king_moves, play_quiet_man_move

from arbiter.rules import Color, EndReason, Game


def assert_drawn_by(game: Game, rule: str, ply: int) -> None:
    end = game.end
    assert end is not None, f"the game goes on at ply {game.ply} in {game.position.fen()}"
    assert (end.winner, end.reason, end.rule, end.ply) == (None, EndReason.MOVE_COUNT_RULE, rule, ply)


def end_with_quiet_king_moves(game: Game, plies: int, rule: str, ply: int) -> None:
    """Play ``plies`` quiet king moves, the game still on before the last, which ends it by ``rule``."""
    play_quiet_king_moves(game, plies - 1)
    assert game.end is None
    play_quiet_king_moves(game, 1)
    assert_drawn_by(game, rule, ply)


def test_russian_fifteen_move_rule_draws_after_thirty_plies_of_king_moves() -> None:
    # Two kings each: no endgame count applies, only the 15 king-only moves each.
    game = game_from("russian", "W:WKa1,Kc1:BKh8,Kf8")
    end_with_quiet_king_moves(game, 30, "15-move rule", 30)


def test_russian_three_kings_against_one_draw_after_fifteen_moves_from_the_capture() -> None:
    # White's king takes Black's last man at ply 1: three kings against a lone king from there.
    game = game_from("russian", "W:WKh8,Ke5,Kd4:BKe7,b6")
    assert not counter(game, "15-move rule, three kings against one").running
    play(game, "d4:a7")
    end_with_quiet_king_moves(game, 30, "15-move rule, three kings against one", 31)


def test_russian_five_move_rule_two_kings_against_one() -> None:
    game = game_from("russian", "W:WKa7,Kb6:BKb4")
    end_with_quiet_king_moves(game, 10, "5-move rule", 10)


def test_russian_five_move_rule_king_and_man_against_king_runs_through_man_moves() -> None:
    # A man move resets the 15-move count, not the 5-move count, which started with the position.
    game = game_from("russian", "W:WKh2,d2:BKa1")
    play(game, "d2-e3")
    play_quiet_king_moves(game, 3)
    play(game, "e3-f4")
    assert counter(game, "15-move rule").count == 0
    assert counter(game, "5-move rule").count == 5
    end_with_quiet_king_moves(game, 5, "5-move rule", 10)


def test_russian_five_move_rule_king_against_king() -> None:
    game = game_from("russian", "W:WKc1:BKf8")
    end_with_quiet_king_moves(game, 10, "5-move rule", 10)


def test_russian_five_move_rule_restarts_when_a_man_is_crowned() -> None:
    # King and man against king: the man crowns at ply 5 and the balance of forces changes.
    game = game_from("russian", "W:WKh2,c7:BKa1")
    play_quiet_king_moves(game, 4)
    assert counter(game, "5-move rule").count == 4
    play(game, "c7-d8")
    assert counter(game, "5-move rule").count == 0
    end_with_quiet_king_moves(game, 10, "5-move rule", 15)


def test_russian_main_road_rule_lone_king_on_the_long_diagonal_against_three_pieces() -> None:
    # Black's lone king keeps to a1-h8 (h8, g7); White has a king and two men: a draw after 5 moves each.
    game = game_from("russian", "B:WKa5,c1,e1:BKh8")
    play(game, "h8-g7", "e1-f2", "g7-h8", "f2-e3", "h8-g7", "e3-f4", "g7-h8", "c1-d2", "h8-g7")
    assert game.end is None
    play(game, "d2-e3")
    assert_drawn_by(game, "main road rule", 10)


def test_russian_main_road_rule_does_not_count_off_the_main_road() -> None:
    game = game_from("russian", "B:WKa5,c1,e1:BKh6")
    assert not counter(game, "main road rule").running
    play(game, "h6-g7")
    assert counter(game, "main road rule").count == 0 and counter(game, "main road rule").running


def test_russian_thirty_move_rule_four_or_five_pieces_with_kings_on_both_sides() -> None:
    # Man moves keep the 15-move king-only count short; neither a capture nor a crowning happens.
    game = game_from("russian", "W:WKe1,g3,c3:BKd8,a7")
    play_quiet_king_moves(game, 20)
    play_quiet_man_move(game)
    play_quiet_man_move(game)
    play_quiet_king_moves(game, 20)
    play_quiet_man_move(game)
    play_quiet_man_move(game)
    end_with_quiet_king_moves(game, 16, "30-move rule", 60)


def test_russian_thirty_move_rule_counts_moves_of_each_player_not_fifteen_each() -> None:
    # The other reading (30 moves in all: 30 plies) would end the game here; 30 moves each go on.
    game = game_from("russian", "W:WKe1,g3,c3:BKd8,a7")
    play_quiet_king_moves(game, 20)
    play_quiet_man_move(game)
    play_quiet_man_move(game)
    play_quiet_king_moves(game, 8)
    assert game.ply == 30 and game.end is None
    assert counter(game, "30-move rule").count == 30


def test_russian_sixty_move_rule_six_or_seven_pieces_with_kings_on_both_sides() -> None:
    game = game_from("russian", "W:WKd2,h2,f2:BKc7,a7,c5,e7")
    for kings in (24, 26, 26, 26):
        play_quiet_king_moves(game, kings)
        play_quiet_man_move(game)
        play_quiet_man_move(game)
    end_with_quiet_king_moves(game, 10, "60-move rule", 120)


def test_brazilian_uses_the_russian_endgame_counts_and_the_option_turns_them_off() -> None:
    game = game_from("brazilian", "W:WKa7,Kb6,Kb4:BKg7")
    end_with_quiet_king_moves(game, 30, "15-move rule, three kings against one", 30)
    plain = game_from("brazilian+no-endgame-rules", "W:WKa7,Kb6,Kb4:BKg7")
    play_quiet_king_moves(plain, 40)
    assert plain.end is None


def test_canadian_three_kings_against_one_draw_after_sixteen_moves() -> None:
    game = game_from("canadian", "W:WK67,K69,K71:BK2")
    end_with_quiet_king_moves(game, 32, "16-move rule", 32)


def test_pool_thirteen_move_rule_and_the_option_that_turns_it_off() -> None:
    game = game_from("pool", "B:WK5,K9,K17:BK8")
    end_with_quiet_king_moves(game, 26, "13-move rule", 26)
    played_out = game_from("pool+no-13-move-rule", "B:WK5,K9,K17:BK8")
    play_quiet_king_moves(played_out, 40)
    assert played_out.end is None


def test_frisian_seven_move_rule_two_kings_against_one() -> None:
    game = game_from("frisian", "W:WK9,K37:BK49")
    end_with_quiet_king_moves(game, 14, "7-move rule", 14)


def test_iyt_fifty_move_rule_draws_at_ply_100_and_man_moves_do_not_reset_it() -> None:
    # Only a capture or a crowning resets the It's Your Turn count: Black's man steps forward twice.
    game = game_from("english+iyt-draws", "B:WK12,K16:BK18,K31,6")
    play_quiet_king_moves(game, 40)
    play(game, "6-10")
    play_quiet_king_moves(game, 19)
    play(game, "10-15")
    assert counter(game, "50-move rule").count == 61
    end_with_quiet_king_moves(game, 39, "50-move rule", 100)


def test_frisian_one_king_against_one_is_a_draw_at_once() -> None:
    assert_drawn_by(game_from("frisian", "W:WK1:BK50"), "one king against one", 0)
    # A capture that leaves one king each ends the game there.
    game = game_from("frisian", "W:WK46:BK6,41")
    assert game.end is None
    play(game, "46x37")
    assert_drawn_by(game, "one king against one", 1)


@pytest.mark.parametrize(
    ("fen", "moves", "winner"),
    [
        ("W:WK5:BK35", ["5x45"], Color.WHITE),  # the side to move takes the other king at once
        ("B:WK15:BK5", ["5x25"], Color.BLACK),
        ("W:WK5:BK46", ["5-10", "46x5"], Color.BLACK),  # its every move puts its king in the other's line
        ("W:WK46:BK5,41", ["46x37", "5x41"], Color.BLACK),  # the capture leaving one king each gives it away
    ],
)
def test_frisian_one_king_against_one_is_played_on_when_a_king_falls_by_force(
    fen: str, moves: list[str], winner: Color
) -> None:
    game = game_from("frisian", fen)
    play(game, *moves)
    assert game.end is not None
    assert (game.end.reason, game.end.winner) == (EndReason.NO_PIECES, winner)
