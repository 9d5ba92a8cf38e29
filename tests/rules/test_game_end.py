"""Game end and the draw rules, each ending a scripted game at exactly the right ply."""

from __future__ import annotations

import pytest

from arbiter.notation.movetext import parse_pdn
from arbiter.rules import Color, EndReason, Game, Move, Position, get_variant


def game_from(variant_id: str, fen: str) -> Game:
    variant = get_variant(variant_id)
    return Game(variant, Position.from_fen(variant, fen))


def play(game: Game, *texts: str) -> None:
    for text in texts:
        assert game.end is None, f"game ended early at ply {game.ply}: {game.end}"
        game.play(parse_pdn(game.position, text))


def is_safe(position: Position) -> bool:
    """No capture for the side to move, and it has a king move after which there is still none."""
    if position.has_capture():
        return False
    return any(
        not position.play(m).has_capture() for m in position.legal_moves() if is_king_move(position, m)
    )


def is_king_move(position: Position, move: Move) -> bool:
    piece = position.piece_at(move.start)
    return piece is not None and piece.is_king


def play_quiet_king_moves(game: Game, plies: int) -> None:
    """Play ``plies`` king moves chosen so that no capture arises and no position is seen three times."""
    for _ in range(plies):
        assert game.end is None, f"game ended early at ply {game.ply}: {game.end}"
        position = game.position
        choice = next(
            (
                m
                for m in position.legal_moves()
                if is_king_move(position, m)
                and game.positions.count(position.play(m)) < 2
                and is_safe(position.play(m))
            ),
            None,
        )
        assert choice is not None, f"no quiet king move at ply {game.ply} in {position.fen()}"
        game.play(choice)


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


def test_a_man_move_clears_the_repetition_history() -> None:
    game = game_from("english", "B:WK32,21:BK1")
    play(game, "1-6", "32-27", "6-1", "27-32")  # second occurrence
    play(game, "1-6", "21-17", "6-1", "27-32"[:0] + "32-27", "1-6", "27-32")
    assert game.end is None


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
    play_quiet_king_moves(game, 49)
    assert game.end is None
    play_quiet_king_moves(game, 1)
    assert game.end is not None
    assert game.end.rule == "25-move rule"
    assert game.end.ply == 50


def test_international_sixteen_move_rule_three_kings_against_one() -> None:
    game = game_from("international", "W:WK42,K4,K11:BK8")
    play_quiet_king_moves(game, 31)
    assert game.end is None
    play_quiet_king_moves(game, 1)
    assert game.end is not None
    assert game.end.rule == "16-move rule"
    assert game.end.ply == 32


def test_international_five_move_rule_two_kings_against_one() -> None:
    game = game_from("international", "W:WK24,K31:BK16")
    play_quiet_king_moves(game, 9)
    assert game.end is None
    play_quiet_king_moves(game, 1)
    assert game.end is not None
    assert game.end.rule == "5-move rule"
    assert game.end.ply == 10


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
