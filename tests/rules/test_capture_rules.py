"""Each capture rule of English and international draughts, pinned by a position that shows it."""

from __future__ import annotations

from arbiter.rules import Move, Position, get_variant

ENGLISH = get_variant("english")
INTERNATIONAL = get_variant("international")


def moves_of(variant_id: str, fen: str) -> list[Move]:
    return Position.from_fen(get_variant(variant_id), fen).legal_moves()


def summary(moves: list[Move]) -> set[tuple[int, int, frozenset[int]]]:
    return {m.key for m in moves}


def test_capture_is_compulsory_in_english() -> None:
    # Black's man on 10 can take 15; the quiet moves of the man on 1 are then not allowed.
    moves = moves_of("english", "B:W15:B1,10")
    assert summary(moves) == {(10, 19, frozenset({15}))}


def test_multi_jump_must_be_completed_in_english() -> None:
    # 1x10 over 6, then on over 15 to 19: stopping at 10 is not a move.
    moves = moves_of("english", "B:W6,15:B1")
    assert summary(moves) == {(1, 19, frozenset({6, 15}))}


def test_crowning_ends_the_move_in_english() -> None:
    # Black's man 22x31 reaches the king row; a king on 31 could go on over 27, but the move ends.
    man = moves_of("english", "B:W26,27:B22")
    assert summary(man) == {(22, 31, frozenset({26}))}
    assert man[0].crowns
    king = moves_of("english", "B:W26,27:BK22")
    assert summary(king) == {(22, 24, frozenset({26, 27}))}


def test_men_capture_forward_only_in_english() -> None:
    # Black's man on 22 stands behind White's man on 18 (White moves up): no capture backward.
    moves = moves_of("english", "W:W18:B22")
    assert not any(m.is_capture for m in moves)


def test_short_king_moves_one_square_in_english() -> None:
    moves = moves_of("english", "W:WK18:B1")
    assert {m.end for m in moves} == {14, 15, 22, 23}


def test_free_choice_between_short_and_long_captures_in_english() -> None:
    # One capture takes a single man, another takes two: both are legal in English.
    moves = moves_of("english", "B:W6,15,16:B1,12")
    assert summary(moves) == {(1, 19, frozenset({6, 15})), (12, 19, frozenset({16}))}


def test_a_piece_is_jumped_at_most_once() -> None:
    # The king's loop 24x15x22x31x24 and the same loop the other way round take the same pieces:
    # one move, and no path jumps a piece twice.
    moves = moves_of("english", "W:WK24:B14,18,19,21,26,27,K29")
    assert len(moves) == 1
    assert moves[0].start == moves[0].end == 24
    assert moves[0].captured == frozenset({19, 18, 26, 27})


def test_two_paths_with_the_same_captures_are_one_move() -> None:
    # Two paths of the flying king (45x34x7x16 and 45x29x7x16) take the same pieces: one move.
    moves = moves_of("international", "W:WK45:B6,11,23,40")
    assert len(moves) == 1


def test_majority_capture_is_forced_in_international() -> None:
    # The man on 33 can take one piece (28); the man on 36 can take two (31, then 22): only that one.
    moves = moves_of("international", "W:W33,36:B28,31,22")
    assert all(len(m.captured) == 2 for m in moves)
    assert {m.start for m in moves} == {36}


def test_king_counts_as_one_piece_in_the_majority_rule() -> None:
    # Taking one king is worth no more than taking one man: both single captures stay legal,
    # while a double capture of two men beats a single capture of a king.
    single = moves_of("international", "W:W33,49:BK28,43")
    assert summary(single) == {(33, 22, frozenset({28})), (49, 38, frozenset({43}))}
    double = moves_of("international", "W:W33,49:BK28,43,32")
    assert summary(double) == {(49, 27, frozenset({43, 32}))}


def test_man_captures_backward_in_international() -> None:
    moves = moves_of("international", "W:W23:B28")
    assert summary(moves) == {(23, 32, frozenset({28}))}


def test_man_passes_through_the_back_row_in_international() -> None:
    # 13x4 lands on the king row, then goes on 4x15 as a man: it ends on 15, uncrowned.
    through = moves_of("international", "W:W13:B9,10")
    assert summary(through) == {(13, 15, frozenset({9, 10}))}
    assert not through[0].crowns
    ends_there = moves_of("international", "W:W13:B9")
    assert summary(ends_there) == {(13, 4, frozenset({9}))}
    assert ends_there[0].crowns


def test_flying_king_moves_any_distance_in_international() -> None:
    moves = moves_of("international", "W:WK46:B5")
    assert {m.end for m in moves} == {41, 37, 32, 28, 23, 19, 14, 10}


def test_flying_king_captures_from_a_distance_and_lands_anywhere_beyond() -> None:
    moves = moves_of("international", "W:WK46:B28")
    assert summary(moves) == {(46, end, frozenset({28})) for end in (23, 19, 14, 10, 5)}


def test_captured_pieces_stay_on_the_board_until_the_move_ends() -> None:
    # The king takes 29 (landing on 24, 20 or 15), but the taken man still stands on 29, so the king
    # cannot fly back over it to take 42 and 41: the most it can take is 42 and 41 by 33x47x36. Were
    # pieces removed as they are jumped, 33x24x47x36 would take all three.
    moves = moves_of("international", "W:WK33:B29,41,42")
    assert summary(moves) == {(33, 36, frozenset({41, 42}))}
