"""The rules that make each variant different, each pinned by a position or a short game."""

from __future__ import annotations

import pytest

from arbiter.notation.movetext import format_pdn, parse_pdn
from arbiter.rules import Color, EndReason, Game, Move, Position, get_variant
from arbiter.rules.variants import OPTIONS, UnknownVariantError, engine_variant


def moves_of(variant_id: str, fen: str) -> list[Move]:
    return Position.from_fen(get_variant(variant_id), fen).legal_moves()


def named(variant_id: str, fen: str) -> set[tuple[str, ...]]:
    """Each legal move as the squares it visits, by name, plus its captured squares."""
    position = Position.from_fen(get_variant(variant_id), fen)
    name = position.variant.square_name
    return {
        tuple(name(s) for s in m.path) + ("x",) + tuple(sorted(name(c) for c in m.captured))
        for m in position.legal_moves()
    }


def game_from(variant_id: str, fen: str) -> Game:
    variant = get_variant(variant_id)
    return Game(variant, Position.from_fen(variant, fen))


# ---------------------------------------------------------------------------------------- Russian


def test_russian_man_crowned_mid_capture_continues_as_king() -> None:
    # b6:d8 crowns; the new king flies on over f6 and lands on g5 or h4.
    assert named("russian", "W:Wb6:Bc7,f6") == {
        ("b6", "d8", "g5", "x", "c7", "f6"),
        ("b6", "d8", "h4", "x", "c7", "f6"),
    }
    assert all(m.crowns for m in moves_of("russian", "W:Wb6:Bc7,f6"))


def test_brazilian_man_reaching_the_back_row_mid_capture_stays_a_man() -> None:
    # The same position under Brazilian (international) rules: the man stops on d8 and is crowned there.
    assert named("brazilian", "W:Wb6:Bc7,f6") == {("b6", "d8", "x", "c7")}


def test_russian_has_free_choice_of_capture() -> None:
    # White can take one piece with the man on a3 or two with the man on e3: both are legal.
    moves = moves_of("russian", "W:Wa3,e3:Bb4,f4,f6")
    assert sorted(len(m.captured) for m in moves) == [1, 2]


def test_brazilian_majority_capture_is_forced() -> None:
    moves = moves_of("brazilian", "W:Wa3,e3:Bb4,f4,f6")
    assert [len(m.captured) for m in moves] == [2]


def test_russian_captured_pieces_stay_on_the_board_as_blockers_until_the_move_ends() -> None:
    # g1xc5 takes d4; from c5 the king takes d6 (landing on e7 or f8) or b4 (landing on a3). After d6
    # it cannot come back down over d6 to take b4 too, nor after b4 go up over b4 again: the taken men
    # still stand there. Were they removed as jumped, g1:c5:e7:a3 would take all three.
    assert named("russian", "W:WKg1:Bd4,d6,b4") == {
        ("g1", "c5", "e7", "x", "d4", "d6"),
        ("g1", "c5", "f8", "x", "d4", "d6"),
        ("g1", "c5", "a3", "x", "b4", "d4"),
    }


def test_russian_king_must_land_where_it_can_capture_again() -> None:
    # Black's king on e3 takes d4; of the squares beyond, only b6 lets it go on (over c7 to d8).
    assert named("russian", "B:Wc7,d4,g3,h2,a1:Bf8,h8,g7,Ke3") == {("e3", "b6", "d8", "x", "c7", "d4")}


def test_russian_squares_are_written_algebraically_and_read_with_either_capture_sign() -> None:
    # Written with ``x``, which every PDN reader takes; the ``:`` of Russian archives reads as well.
    position = Position.from_fen(get_variant("russian"), "W:Wa3,e3:Bb4,f4,f6")
    texts = {format_pdn(position, m) for m in position.legal_moves()}
    assert texts == {"a3xc5", "e3xe7"}
    assert parse_pdn(position, "e3xg5xe7") == parse_pdn(position, "e3:e7")


# ---------------------------------------------------------------------------------------- Italian


def test_italian_man_cannot_capture_king() -> None:
    assert {(m.start, m.end, m.captured) for m in moves_of("italian", "W:W22:BK18")} == {
        (22, 19, frozenset())
    }


def test_italian_man_captures_a_man() -> None:
    assert {(m.start, m.end) for m in moves_of("italian", "W:W22:B18")} == {(22, 13)}


def test_italian_most_pieces_captured_comes_first() -> None:
    # The man on 26 can take two men (22, then 15); the king on 7 only one (11). Taking more pieces
    # comes before capturing with a king, so only the man's capture is legal.
    moves = moves_of("italian", "W:W26,K7:B22,15,11")
    assert {(m.start, m.end, m.captured) for m in moves} == {(26, 12, frozenset({22, 15}))}


def test_italian_capture_with_a_king_comes_before_capture_with_a_man() -> None:
    # The king on 30 and the man on 22 can each take one man: only the king may.
    moves = moves_of("italian", "W:W22,K30:B18,26")
    assert {m.start for m in moves} == {30}


def test_italian_most_kings_captured_comes_next() -> None:
    # The white king can take a man (26) or a king (27): it must take the king.
    moves = moves_of("italian", "W:WK30:B26,K27")
    assert [m.captured for m in moves] == [frozenset({27})]


def test_italian_king_captured_earliest_comes_last() -> None:
    # 15x6x13 takes the man on 11, then the king on 10; 15x24x31 takes the king on 20 first, then 28.
    # Both take two pieces, one a king, with the king: meeting the king first decides.
    moves = moves_of("italian", "W:WK15:B26,K10,11,K20,3,28")
    assert [(m.path, m.captured) for m in moves] == [((15, 24, 31), frozenset({20, 28}))]


def test_italian_kings_captured_earliest_compares_every_king_not_just_the_first() -> None:
    # Both captures take three pieces, two of them kings, with a king, and both meet a king first:
    # 3x10 (kings 7 and 15, man 14) meets the kings 1st and 2nd, 4x9 (king 7, man 14, king 13) 1st
    # and 3rd. Only 3x10 is legal.
    moves = moves_of("italian", "W:WK3,K4,5,17,20,K27,K28:BK7,K13,14,K15,21,24")
    assert [(m.start, m.end) for m in moves] == [(3, 10)]


# ---------------------------------------------------------------------------------------- Turkish


def test_turkish_men_move_forward_and_sideways() -> None:
    assert named("turkish", "W:Wd4:Ba8") == {("d4", "d5", "x"), ("d4", "c4", "x"), ("d4", "e4", "x")}


def test_turkish_piece_removed_as_jumped() -> None:
    # The king crosses c3 again after taking it: the piece left the board as it was jumped.
    assert named("turkish", "W:WKc1:Bc3,e5,f4,b3") == {
        ("c1", "c5", "f5", "f3", "a3", "x", "b3", "c3", "e5", "f4")
    }


def test_turkish_capture_may_not_turn_back_180_degrees() -> None:
    # After taking d4 to the right, the king may not turn back to take b4 (and the other way round).
    moves = moves_of("turkish", "W:WKc4:Bd4,b4")
    assert max(len(m.captured) for m in moves) == 1


def test_turkish_majority_counts_a_king_as_a_man() -> None:
    moves = moves_of("turkish", "W:Wd4,h2:BKd5,h3,h5")
    assert [len(m.captured) for m in moves] == [2]


def test_turkish_man_reaching_the_back_row_mid_capture_is_crowned_when_the_move_ends() -> None:
    # d6xd8 reaches the back row; as a man it cannot take g8 from there, so the move ends and crowns.
    assert named("turkish", "W:Wd6:Bd7,g8") == {("d6", "d8", "x", "d7")}


def test_turkish_crown_continues_option_goes_on_capturing_as_a_king() -> None:
    # With the option the man is crowned on d8 at once and, as a flying king, goes on over g8 to h8.
    assert named("turkish+crown-continues", "W:Wd6:Bd7,g8") == {("d6", "d8", "h8", "x", "d7", "g8")}


@pytest.mark.parametrize("variant_id", ["turkish", "turkish+crown-continues"])
def test_turkish_king_ending_its_capture_where_it_took_a_piece_stays_a_king(variant_id: str) -> None:
    # c8 takes c7 first (it leaves the board at once), goes round by c5, g5, g7 and e7, and ends on c7.
    position = Position.from_fen(get_variant(variant_id), "W:WKc8:Bc7,d7,f7,g6,f5,Ka1")
    move = parse_pdn(position, "c8xc5xg5xg7xe7xc7")
    after = position.play(move)
    assert after.fen() == "B:WKc7:BKa1"
    assert after.zobrist == Position.from_fen(position.variant, "B:WKc7:BKa1").zobrist


def test_turkish_one_piece_against_one_is_a_draw_by_default() -> None:
    game = game_from("turkish", "W:Wd4:Bd8")
    assert game.end is not None and game.end.rule == "one piece against one"
    assert game_from("turkish+no-one-against-one-draw", "W:Wd4:Bd8").end is None


# ---------------------------------------------------------------------------------------- Frisian


def test_frisian_man_captures_orthogonally() -> None:
    assert {(m.start, m.end, m.captured) for m in moves_of("frisian", "W:W33:B23")} == {
        (33, 13, frozenset({23}))
    }


def test_frisian_two_men_outweigh_a_king() -> None:
    # The man on 30 can take the king on 20, or the men on 34 and 38: two men are worth more.
    moves = moves_of("frisian", "W:W30,32:B34,4,K20,38")
    assert [m.captured for m in moves] == [frozenset({34, 38})]


def test_frisian_a_king_and_a_man_outweigh_two_men() -> None:
    # Man 32 can take 19 and the king on 28 (worth 2.5 men); man 34 only 19 and 29 (2 men).
    moves = moves_of("frisian", "W:W32,34:BK28,29,19")
    assert [(m.start, m.captured) for m in moves] == [(32, frozenset({19, 28}))]


def test_frisian_two_kings_outweigh_three_men() -> None:
    # The man on 32 can take the men 28, 18 and 8 (32x3) or the kings 37 and 42 (32x43). A king is
    # worth just under two men, so two kings (just under four) outweigh three men.
    moves = moves_of("frisian", "W:W32:B28,18,8,K37,K42")
    assert {(m.end, m.captured) for m in moves} == {(43, frozenset({37, 42}))}


def test_frisian_king_one_and_a_half_option_makes_two_kings_tie_with_three_men() -> None:
    # Counting a king as a man and a half, both captures are worth three men: both are legal.
    moves = moves_of("frisian+king-one-and-a-half", "W:W32:B28,18,8,K37,K42")
    assert {(m.end, m.captured) for m in moves} == {
        (43, frozenset({37, 42})),
        (3, frozenset({28, 18, 8})),
    }


def test_frisian_a_king_outweighs_a_man() -> None:
    moves = moves_of("frisian", "W:W32,34:BK27,30")
    assert {m.captured for m in moves} == {frozenset({27})}


def test_frisian_king_must_capture_at_equal_value() -> None:
    # The king on 15 and the man on 48 can each take one man: the king must.
    moves = moves_of("frisian", "W:WK15,48:B42,30")
    assert [(m.start, m.captured) for m in moves] == [(15, frozenset({42}))]


def test_frisian_king_may_not_make_a_fourth_quiet_move_in_a_row() -> None:
    # White's king goes 1-6-1-6; with a man still on the board it may not move a fourth time.
    game = game_from("frisian", "W:WK1,9:BK35,22")
    for text in ["1-6", "22-27", "6-1", "27-32", "1-6", "32-38"]:
        game.play(parse_pdn(game.position, text))
    assert {(m.start, m.end) for m in game.legal_moves()} == {(9, 3), (9, 4)}
    with pytest.raises(ValueError, match="king-move limit"):
        game.play(parse_pdn(game.position, "6-1"))


def test_frisian_king_limit_gives_way_when_no_other_piece_can_move() -> None:
    # White's king goes 3-9-3-9; its man on 46 is blocked by 41 and 37. The limit would leave White no
    # move at all, a loss the rules do not describe: the king may move a fourth time.
    game = game_from("frisian", "W:WK3,46:B41,37,K45")
    for text in ["3-9", "45-50", "9-3", "50-45", "3-9", "45-50"]:
        game.play(parse_pdn(game.position, text))
    assert game.end is None
    moves = game.legal_moves()
    assert moves and {m.start for m in moves} == {9}
    game.play(parse_pdn(game.position, "9-3"))
    assert game.end is None


def test_frisian_king_limit_does_not_apply_with_only_kings() -> None:
    game = game_from("frisian", "W:WK1:BK35,22")
    for text in ["1-6", "22-27", "6-1", "27-32", "1-6", "32-38"]:
        game.play(parse_pdn(game.position, text))
    assert any(m.start == 6 for m in game.legal_moves())


# ---------------------------------------------------------------------------------------- losing games


def test_antidraughts_player_who_cannot_move_wins() -> None:
    game = game_from("antidraughts", "W:W46:B41,37")  # White's man on 46 is blocked
    assert game.end is not None
    assert game.end.reason is EndReason.NO_LEGAL_MOVES
    assert game.end.winner is Color.WHITE


def test_anti_losing_all_pieces_wins() -> None:
    game = game_from("anti", "B:W14:B10")
    game.play(parse_pdn(game.position, "10x17"))
    assert game.end is not None and game.end.reason is EndReason.NO_PIECES
    assert game.end.winner is Color.WHITE


# ---------------------------------------------------------------------------------------- pool and boards


def test_pool_kings_fly() -> None:
    # The king on 1 moves any distance along its diagonal, and takes 19 from afar, landing anywhere beyond.
    assert {m.end for m in moves_of("pool", "B:W32:BK1")} == {5, 6, 10, 15, 19, 24, 28}
    assert {(m.end, m.captured) for m in moves_of("pool", "B:W19:BK1")} == {
        (24, frozenset({19})),
        (28, frozenset({19})),
    }


def test_pool_men_capture_backward() -> None:
    # Black's man on 22 takes White's man on 18 behind it (English men could only step forward here).
    assert {(m.start, m.end, m.captured) for m in moves_of("pool", "B:W18:B22")} == {
        (22, 15, frozenset({18}))
    }


def test_pool_has_free_choice_among_captures_of_different_sizes() -> None:
    # The man on 21 can take one man, the man on 23 two: both are legal (Brazilian forces the two).
    expected = {(21, 14, frozenset({17})), (23, 7, frozenset({19, 11}))}
    assert {(m.start, m.end, m.captured) for m in moves_of("pool", "W:W21,23:B17,19,11")} == expected
    brazilian = moves_of("brazilian", "W:W21,23:B17,19,11")
    assert {(m.start, m.end, m.captured) for m in brazilian} == {(23, 7, frozenset({19, 11}))}


def test_pool_man_is_crowned_only_where_the_move_ends() -> None:
    # 22x31 reaches the king row; with 27 to take it must jump back out (31x24) and stays a man.
    through = moves_of("pool", "B:W26,27:B22")
    assert {(m.start, m.end, m.crowns) for m in through} == {(22, 24, False)}
    # With nothing more to take, the move ends on the king row and the man is crowned.
    ends_there = moves_of("pool", "B:W26:B22")
    assert {(m.start, m.end, m.crowns) for m in ends_there} == {(22, 31, True)}
    # Russian rules crown it on 31 at once and let it go on as a king, to 24 or on to 20.
    assert {(m.end, m.crowns) for m in moves_of("russian", "B:W26,27:B22")} == {(24, True), (20, True)}


def test_boards_and_men_of_every_variant() -> None:
    counts = {
        "english": (32, 12),
        "international": (50, 20),
        "russian": (32, 12),
        "brazilian": (32, 12),
        "italian": (32, 12),
        "canadian": (72, 30),
        "turkish": (64, 16),
        "pool": (32, 12),
        "frisian": (50, 20),
        "antidraughts": (50, 20),
        "anti": (32, 12),
        "sparse": (50, 15),
        "crowded": (50, 20),
    }
    for variant_id, (squares, men) in counts.items():
        start = Position.start(get_variant(variant_id))
        material = start.material()
        assert start.variant.square_count == squares, variant_id
        assert material.white_men == material.black_men == men, variant_id
        assert start.turn is start.variant.first_to_move


def test_iyt_house_draw_rule_is_an_option_for_english_rules_games() -> None:
    game = game_from("english+iyt-draws", "B:WK29,K32:BK1,K4")
    assert [c.rule for c in game.counters()] == ["threefold repetition", "50-move rule"]
    assert get_variant("sparse+iyt-draws").draw_rules == get_variant("english+iyt-draws").draw_rules


def test_unknown_variant_or_option_lists_the_choices() -> None:
    with pytest.raises(UnknownVariantError, match="known variants: english, international"):
        get_variant("checkers")
    with pytest.raises(UnknownVariantError, match="options: crown-continues, no-one-against-one-draw"):
        get_variant("turkish+flying-men")
    assert set(OPTIONS) >= {
        "iyt-draws",
        "crown-continues",
        "no-endgame-rules",
        "no-13-move-rule",
        "king-one-and-a-half",
    }


def test_engines_are_told_the_base_variant_for_options_that_change_only_draw_rules() -> None:
    assert engine_variant("english+iyt-draws") == "english"
    assert engine_variant("brazilian+no-endgame-rules") == "brazilian"
    assert engine_variant("turkish+crown-continues") == "turkish+crown-continues"
    assert engine_variant("turkish+no-one-against-one-draw+crown-continues") == "turkish+crown-continues"
    assert engine_variant("international") == "international"


def test_optional_capture_option_lets_a_player_make_a_quiet_move_instead_of_a_capture() -> None:
    # The man on 32 may take 27 or step to 28; the man on 40 may step too.
    plain = {(m.start, m.end) for m in moves_of("international", "W:W32,40:B27")}
    optional = {(m.start, m.end) for m in moves_of("international+optional-capture", "W:W32,40:B27")}
    assert plain == {(32, 21)}
    assert optional == {(32, 21), (32, 28), (40, 34), (40, 35)}
    # A capture, once chosen, still follows the variant's capture rule (here: the most pieces).
    assert {
        len(m.captured) for m in moves_of("international+optional-capture", "W:W32:B27,17,28") if m.captured
    } == {2}


@pytest.mark.parametrize("variant_id", ["anti", "antidraughts"])
def test_optional_capture_is_refused_for_losing_games_with_the_reason(variant_id: str) -> None:
    with pytest.raises(
        UnknownVariantError, match=f"option 'optional-capture' makes no sense for {variant_id}: "
    ):
        get_variant(f"{variant_id}+optional-capture")


def test_optional_capture_changes_the_moves_so_engines_are_told_it() -> None:
    assert engine_variant("english+optional-capture") == "english+optional-capture"
