"""Mule checkers (It's Your Turn): mules move like men; they decide the game in their own ways.

Board reminder (English numbering): Black's men start on 1-12 and move towards 32; a Black piece is
crowned on 29-32, a White piece on 1-4. The mules start on each side's back row.
"""

from __future__ import annotations

import random

import pytest

from arbiter.notation.movetext import parse_pdn
from arbiter.rules import Color, EndReason, Game, Position, get_variant
from arbiter.rules.fen import FenError, format_fen, parse_fen
from arbiter.rules.mule import (
    ALL_MULES_LOST,
    CROWNED_MULE,
    EVERY_PIECE,
    FORCED_TO_CROWN,
    NO_REGULAR_PIECES,
)

MULE = get_variant("mule")
ENGLISH = get_variant("english")
START_FEN = "B:W21-28,M29,M30,M31,M32:BM1,M2,M3,M4,5-12"


def game_from(fen: str) -> Game:
    return Game(MULE, Position.from_fen(MULE, fen))


def play(game: Game, *texts: str) -> None:
    for text in texts:
        assert game.end is None, f"game ended early at ply {game.ply}: {game.end}"
        game.play(parse_pdn(game.position, text))


def assert_variant_end(game: Game, winner: Color, rule: str, ply: int) -> None:
    end = game.end
    assert end is not None, f"the game goes on in {game.position.fen()}"
    assert (end.winner, end.reason, end.rule, end.ply) == (winner, EndReason.VARIANT_RULE, rule, ply)


def random_mule_games(seed: int, games: int, max_plies: int) -> list[Game]:
    rng = random.Random(seed)
    played = []
    for _ in range(games):
        game = Game(MULE)
        while game.end is None and game.ply < max_plies:
            game.play(rng.choice(game.legal_moves()))
        played.append(game)
    return played


# ------------------------------------------------------------------------------------ start position


def test_start_position_has_eight_men_and_four_mules_on_the_back_row_each() -> None:
    start = Position.start(MULE)
    assert MULE.start_fen() == START_FEN
    assert start.fen() == START_FEN
    assert start.turn is Color.BLACK
    assert start.mule_squares(Color.BLACK) == [1, 2, 3, 4]
    assert start.mule_squares(Color.WHITE) == [29, 30, 31, 32]
    material = start.material()
    assert (material.black_men, material.white_men) == (12, 12)  # mules are men
    for color in (Color.WHITE, Color.BLACK):
        own = start.white if color is Color.WHITE else start.black
        assert (own & ~start.mules).bit_count() == 8
        assert (own & start.mules).bit_count() == 4


def test_a_fen_start_with_the_mules_elsewhere_plays_by_the_mule_rules_with_those_mules() -> None:
    # The source shows the setup only as a picture; another placement is played from a FEN start. Here
    # the mules stand on the front rows (9-12 and 21-24) instead of the back rows.
    front = "B:WM21,M22,M23,M24,25-32:B1-8,M9,M10,M11,M12"
    game = game_from(front)
    assert game.position.mule_squares(Color.BLACK) == [9, 10, 11, 12]
    assert game.position.mule_squares(Color.WHITE) == [21, 22, 23, 24]
    opening = ("10-15", "22-18", "15x22", "26x17", "9-13", "31-26")
    play(game, *opening)
    # Black's only move, 13x22x31, crowns the piece that started on 9: a mule here, so Black loses.
    assert {m.path for m in game.legal_moves()} == {(13, 22, 31)}
    assert_variant_end(game, Color.WHITE, FORCED_TO_CROWN, 6)
    # From the usual start the piece on 13 is a regular man, and the game goes on.
    usual = Game(MULE)
    play(usual, *opening)
    assert usual.end is None


def test_other_variants_have_no_mules_and_keep_their_start_fen() -> None:
    assert ENGLISH.start_fen() == "B:W21-32:B1-12"
    assert Position.start(ENGLISH).mules == 0
    assert not ENGLISH.has_mules and MULE.has_mules


def test_the_iyt_draw_option_keeps_the_mule_rules() -> None:
    variant = get_variant("mule+iyt-draws")
    assert variant.end_rule is MULE.end_rule and variant.mule_rows == 1
    assert [rule.name for rule in variant.draw_rules] == ["threefold repetition", "50-move rule"]


# ------------------------------------------------------------------------------------ moving


def test_mules_move_and_capture_like_men() -> None:
    # The same pieces, with and without mules, have the same legal moves, everywhere in real games.
    for game in random_mule_games(seed=11, games=20, max_plies=120):
        for position in game.positions:
            plain = Position(ENGLISH, position.white, position.black, position.kings, position.turn)
            assert {m.key for m in position.legal_moves()} == {m.key for m in plain.legal_moves()}
    # A mule keeps its mark as it moves; a captured mule leaves the board with it.
    position = Position.from_fen(MULE, "B:WM14,M27,32:BM1,10,11")
    after = position.play(parse_pdn(position, "10x17"))
    assert after.fen() == "W:WM27,32:BM1,11,17"
    moved = after.play(parse_pdn(after, "27-23"))
    assert moved.is_mule(23) and not moved.is_mule(27)


def test_a_crowned_mule_becomes_a_king_and_is_no_longer_a_mule() -> None:
    position = Position.from_fen(MULE, "B:W5,12:BM26,3")
    after = position.play(parse_pdn(position, "26-30"))
    assert after.fen() == "W:W5,12:B3,K30"
    assert after.mules == 0


# ------------------------------------------------------------------------------------ game end


def test_mule_player_wins_by_losing_all_mules() -> None:
    # Losing one mule of two does not end the game...
    game = game_from("B:WM14,M27,32:BM1,10,11")
    play(game, "10x17")
    assert game.end is None
    # ...losing the last one wins it, for the side that lost it.
    game = game_from("B:WM14,30:BM1,10")
    play(game, "10x17")
    assert_variant_end(game, Color.WHITE, ALL_MULES_LOST, 1)
    assert game.end is not None
    assert game.end.describe() == "Black captured White's last mule (White wins)"


def test_capturing_all_opposing_mules_loses() -> None:
    # One double jump takes both White mules; White still has a man on 32, so Black loses.
    game = game_from("B:WM14,M22,32:BM1,10")
    play(game, "10x26")
    assert_variant_end(game, Color.WHITE, ALL_MULES_LOST, 1)


def test_crowning_own_mule_loses() -> None:
    game = game_from("B:W5,12:BM26,3")
    play(game, "26-30")
    assert_variant_end(game, Color.WHITE, CROWNED_MULE, 1)
    # Crowning a regular man is an ordinary crowning.
    game = game_from("B:W5,12:BM3,26")
    play(game, "26-30")
    assert game.end is None


def test_crowning_own_mule_loses_even_when_it_captures_the_last_regular_piece() -> None:
    # 23x32 takes White's only regular piece, but the mule that did it is crowned: crowning decides.
    game = game_from("B:W27,M14,M21:BM1,M23,10")
    play(game, "23x32")
    assert_variant_end(game, Color.WHITE, CROWNED_MULE, 1)


def test_forced_to_crown_a_mule_loses() -> None:
    # After 18-22 White's man on 29 is blocked, and its mule on 6 can only go to 1 or 2 and crown.
    game = game_from("B:WM6,29:B18,25,M12")
    play(game, "18-22")
    assert {m.end for m in game.legal_moves()} == {1, 2}
    assert_variant_end(game, Color.BLACK, FORCED_TO_CROWN, 1)
    # After 18-23 White's man must capture 29x22 instead: it is not forced to crown.
    game = game_from("B:WM6,29:B18,25,M12")
    play(game, "18-23")
    assert game.end is None


def test_forced_to_crown_a_mule_is_judged_at_the_start_of_a_set_up_game() -> None:
    # Black's only legal move is the mule's capture 23x32, which crowns it.
    game = game_from("B:W27,30:BM1,M23,3")
    assert_variant_end(game, Color.WHITE, FORCED_TO_CROWN, 0)


def test_capturing_all_regular_pieces_wins() -> None:
    game = game_from("B:W14,M30:B1,M10")
    play(game, "10x17")
    assert_variant_end(game, Color.BLACK, NO_REGULAR_PIECES, 1)
    # A king is a regular piece: White keeps one, so the game goes on.
    game = game_from("B:W14,K19,M30:B1,M10")
    play(game, "10x17")
    assert game.end is None


def test_capturing_every_piece_in_one_turn_wins() -> None:
    # The double jump takes White's last regular piece and last mule together: Black wins.
    game = game_from("B:W14,M22:BM1,10")
    play(game, "10x26")
    assert_variant_end(game, Color.BLACK, EVERY_PIECE, 1)
    # Even when White had only mules left (capturing the last mules alone would lose).
    game = game_from("B:WM14,M22:B1,M10")
    play(game, "10x26")
    assert_variant_end(game, Color.BLACK, EVERY_PIECE, 1)


def test_no_legal_move_loses_in_mule_checkers() -> None:
    # 14-10 shuts in Black's mule on 1; Black's man on 21 is blocked by White's men on 25 and 30.
    game = game_from("W:W5,6,9,14,25,30,M32:BM1,21")
    play(game, "14-10")
    assert game.end is not None
    assert (game.end.winner, game.end.reason, game.end.ply) == (Color.WHITE, EndReason.NO_LEGAL_MOVES, 1)


def test_a_game_set_up_without_mules_is_not_decided_by_the_mule_rules() -> None:
    game = game_from("B:W21-32:B1-12")
    assert game.end is None
    play(game, "11-15", "22-18", "15x22", "25x18")
    assert game.end is None


# ------------------------------------------------------------------------------------ notation


@pytest.mark.parametrize(
    "fen",
    [
        START_FEN,
        "W:WK3,M18,20-22:BM1,9,K30",
        "B:WM5,M6,M7:BK1,M20",
    ],
)
def test_fen_with_mules_round_trips(fen: str) -> None:
    position = Position.from_fen(MULE, fen)
    assert position.fen() == fen
    assert Position.from_fen(MULE, position.fen()) == position
    setup = parse_fen(fen, 32)
    assert format_fen(setup) == fen
    assert setup.white_mules <= setup.white_men and setup.black_mules <= setup.black_men


def test_fen_reads_mules_in_either_case_and_with_ranges() -> None:
    position = Position.from_fen(MULE, "B:Wm29-30,21:BM1-2,5")
    assert position.fen() == "B:W21,M29,M30:BM1,M2,5"


def test_a_mule_in_a_variant_without_mules_is_refused() -> None:
    with pytest.raises(FenError, match="english has no mules"):
        Position.from_fen(ENGLISH, "B:W21-28,M29:B1-12")


def test_a_mule_mark_without_a_square_is_refused() -> None:
    with pytest.raises(FenError, match="names no square"):
        parse_fen("B:W21,M:B1", 32)


def test_hub_strings_write_mules_as_men_and_read_back_without_mules() -> None:
    start = Position.start(MULE)
    assert start.hub() == "B" + "b" * 12 + "e" * 8 + "w" * 12
    assert start.hub() == Position.start(ENGLISH).hub()
    back = Position.from_hub(MULE, start.hub())
    assert back.mules == 0
    assert back.white == start.white and back.black == start.black
    assert back != start  # a position is its pieces, mules included


def test_a_mule_must_be_a_man() -> None:
    start = Position.start(MULE)
    with pytest.raises(ValueError, match="a mule must be a man"):
        Position(MULE, start.white, start.black, start.kings, start.turn, mules=start.mules | 1 << 40)


# ------------------------------------------------------------------------------------ hashing, robustness


def test_zobrist_kept_incrementally_equals_the_fresh_key_with_mules() -> None:
    seen_mule_captures = 0
    for game in random_mule_games(seed=5, games=30, max_plies=200):
        for before, move, after in zip(game.positions, game.moves, game.positions[1:], strict=False):
            fresh = Position(MULE, after.white, after.black, after.kings, after.turn, mules=after.mules)
            assert after.zobrist == fresh.zobrist, f"after {move.path} from {before.fen()}"
            reread = Position.from_fen(MULE, after.fen())
            assert reread == after and reread.zobrist == after.zobrist
            seen_mule_captures += bool(move.raw[2] & before.mules)
    assert seen_mule_captures > 0  # the games did capture mules, so that path of ``play`` was checked


def test_the_mule_mark_changes_the_hash() -> None:
    start = Position.start(MULE)
    plain = Position(MULE, start.white, start.black, start.kings, start.turn)
    assert plain.zobrist != start.zobrist
    assert plain != start


def test_random_mule_games_never_crash_and_end_by_the_rules() -> None:
    rules_seen: set[str] = set()
    for game in random_mule_games(seed=2024, games=150, max_plies=300):
        for before, after in zip(game.positions, game.positions[1:], strict=False):
            assert not after.mules & ~((after.white | after.black) & ~after.kings)  # mules are men
            for color in (Color.WHITE, Color.BLACK):
                assert len(after.mule_squares(color)) <= len(before.mule_squares(color))  # never gained
        end = game.end
        if end is None or end.reason is not EndReason.VARIANT_RULE:
            continue
        rules_seen.add(end.rule)
        assert end.winner is not None
        loser = end.winner.opponent
        last, before = game.positions[-1], game.positions[-2]
        loser_pieces = last.white if loser is Color.WHITE else last.black
        if end.rule == ALL_MULES_LOST:
            assert last.mule_squares(end.winner) == [] and before.mule_squares(end.winner) != []
        elif end.rule == CROWNED_MULE:
            assert before.turn is loser and before.is_mule(game.moves[-1].start) and game.moves[-1].crowns
        elif end.rule == NO_REGULAR_PIECES:
            assert loser_pieces and not loser_pieces & ~last.mules
        elif end.rule == FORCED_TO_CROWN:
            assert last.turn is loser
            assert all(m.crowns and last.is_mule(m.start) for m in last.legal_moves())
        elif end.rule == EVERY_PIECE:
            assert not loser_pieces
    assert rules_seen == {ALL_MULES_LOST, CROWNED_MULE, NO_REGULAR_PIECES, FORCED_TO_CROWN, EVERY_PIECE}
