"""Reading PDN: the grammar as files use it, every game replayed, faults said exactly and where."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.notation.pdn import (
    MAX_VARIATION_DEPTH,
    PdnError,
    PdnReader,
    ReadOptions,
    parse_clock,
    read_pdn,
    read_pdn_text,
    read_stream,
)
from arbiter.notation.pdn_lexer import DecodingReport, Lexer, TokenKind, read_lines
from arbiter.notation.pdn_model import FaultKind, PdnGame, result_scores, result_winner
from arbiter.rules import Color, get_variant

ENGLISH_OPENING = '[Event "e"]\n[GameType "21"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n'


def one(text: str, options: ReadOptions | None = None) -> PdnGame:
    games = read_pdn_text(text, options)
    assert len(games) == 1, [g.tags for g in games]
    return games[0]


def texts(game: PdnGame) -> list[str]:
    return [m.text for m in game.moves]


# --- the grammar ----------------------------------------------------------------------------------------


def test_tags_are_read_with_escaped_quotes_and_backslashes() -> None:
    game = one('[Event "a \\"quoted\\" name"]\n[Site "C:\\\\games"]\n[GameType "21"]\n1. 11-15 *\n')
    assert game.tags["Event"] == 'a "quoted" name'
    assert game.tags["Site"] == "C:\\games"


# Reads a PDN file in a process whose address space is bounded (256 MiB, some five times what reading
# a small file takes), and prints its first game's Event tag's length and quotes, and its first move.
READ_IN_BOUNDED_MEMORY = """
import resource, sys
from arbiter.notation.pdn import read_pdn
resource.setrlimit(resource.RLIMIT_AS, (256 * 2**20, resource.RLIM_INFINITY))
(game,) = read_pdn(sys.argv[1])
print(len(game.tags["Event"]), game.tags["Event"].count('"'), game.moves[0].text)
"""


def test_a_tag_value_of_megabytes_is_read_whole(tmp_path: Path) -> None:
    # 8 MB of value with an escaped quote every thousand characters; its pattern once kept about
    # 170 bytes of backtracking state a character, which no longer fits the bound.
    path = tmp_path / "long-tag.pdn"
    path.write_text('[Event "' + ("x" * 999 + '\\"') * 8000 + '"]\n[GameType "21"]\n1. 11-15 *\n')
    run = subprocess.run(
        [sys.executable, "-c", READ_IN_BOUNDED_MEMORY, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["8000000", "8000", "11-15"]


def test_move_numbers_with_and_without_dots_are_skipped() -> None:
    written = '[GameType "21"]\n1. 11-15 23-19 2 8-11 22-17 3...9-13 4.17-14 *\n'
    assert texts(one(written)) == ["11-15", "23-19", "8-11", "22-17", "9-13", "17-14"]


def test_a_game_from_a_set_up_position_may_open_with_the_second_movers_number() -> None:
    game = one('[GameType "20"]\n[FEN "B:W31-50:B1-20"]\n1... 20-25 2. 32-28 *\n')
    assert texts(game) == ["20-25", "32-28"]
    assert game.moves[0].move.start == 20


def test_brace_comments_and_line_comments_stay_with_the_move_before_them() -> None:
    game = one('[GameType "21"]\n{before}\n1. 11-15 {a good\nstart} 23-19 ; to the end of the line\n8-11 *\n')
    assert game.comments == ("before",)
    assert game.moves[0].comments == ("a good\nstart",)
    assert game.moves[1].comments == ("to the end of the line",)
    assert texts(game) == ["11-15", "23-19", "8-11"]


def test_a_line_starting_with_percent_is_an_escape_line_and_ignored() -> None:
    game = one('% written by some program\n[GameType "21"]\n1. 11-15 23-19 *\n')
    assert texts(game) == ["11-15", "23-19"]


def test_variations_are_skipped_by_default() -> None:
    game = one('[GameType "21"]\n1. 11-15 (9-13 22-18 (24-20)) 23-19 *\n')
    assert texts(game) == ["11-15", "23-19"]
    assert game.moves[0].variations == ()


def test_variations_when_kept_replay_from_the_position_before_the_move_they_replace() -> None:
    game = one('[GameType "21"]\n1. 11-15 (9-13 22-18 (24-20)) 23-19 *\n', ReadOptions(variations=True))
    (line,) = game.moves[0].variations
    assert [m.text for m in line] == ["9-13", "22-18"]
    assert [m.text for m in line[1].variations[0]] == ["24-20"]
    assert line[0].move.start == 9


def nested_side_lines(depth: int) -> str:
    """A game whose second ply has a side line holding a side line, `depth` levels down."""
    return '[GameType "21"]\n1. 11-15 23-19 ' + "(1... 22-18 " * depth + ")" * depth + " 2. 8-11 *\n"


def test_side_lines_nested_past_the_limit_are_one_fault_and_the_levels_above_it_replay() -> None:
    game = one(nested_side_lines(500), ReadOptions(variations=True))
    assert texts(game) == ["11-15", "23-19", "8-11"]
    (fault,) = game.faults
    assert (fault.kind, fault.in_variation, fault.ply, fault.line) == (FaultKind.SYNTAX, True, 2, 2)
    assert fault.reason == (
        f"in a variation: side lines nest deeper than {MAX_VARIATION_DEPTH} levels after this move; "
        "the deeper ones are not replayed"
    )
    levels, move = 0, game.moves[1]
    while move.variations:
        levels += 1
        (line,) = move.variations
        move = line[0]
    assert levels == MAX_VARIATION_DEPTH
    assert one(nested_side_lines(MAX_VARIATION_DEPTH), ReadOptions(variations=True)).faults == ()


def test_a_broken_variation_is_a_fault_of_the_variation_only() -> None:
    game = one('[GameType "21"]\n1. 11-15 (9-14 22-40) 23-19 *\n', ReadOptions(variations=True))
    assert texts(game) == ["11-15", "23-19"]
    (fault,) = game.faults
    assert fault.in_variation and fault.kind is FaultKind.UNKNOWN_SQUARE
    assert fault.reason.startswith("in a variation: 22-40: square 40 is not on the 8x8 board")


def test_strength_marks_and_numeric_glyphs_go_with_their_move() -> None:
    game = one("1.32-28!? 19-23(!?) 2.28x19 $4 *\n")
    assert texts(game) == ["32-28", "19-23", "28x19"]
    assert [m.marks for m in game.moves] == [("!?",), ("!?",), ("$4",)]


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"])
def test_every_pdn_result_ends_a_game(result: str) -> None:
    games = read_pdn_text(f'[GameType "20"]\n1. 32-28 {result}\n[GameType "20"]\n1. 33-28 *\n')
    assert [g.result for g in games] == [result, "*"]
    assert [texts(g) for g in games] == [["32-28"], ["33-28"]]


def test_in_english_the_first_score_is_blacks_because_black_moves_first() -> None:
    english, international = get_variant("english"), get_variant("international")
    assert result_winner("1-0", english) is Color.BLACK
    assert result_winner("0-1", english) is Color.WHITE
    assert result_winner("1-0", international) is Color.WHITE
    assert result_winner("0-2", international) is Color.BLACK
    assert result_winner("1/2-1/2", english) is None
    assert result_scores("1-1") == (0.5, 0.5)
    assert result_scores("*") is None
    assert one('[GameType "21"]\n1. 11-15 1-0\n').winner is Color.BLACK


def test_a_game_without_a_terminator_ends_at_the_next_tag_and_takes_its_result_from_the_tag() -> None:
    games = read_pdn_text(
        '[Result "1-0"]\n[GameType "21"]\n1. 11-15\n[Event "next"]\n[GameType "21"]\n1. 9-13 *\n'
    )
    assert [g.result for g in games] == ["1-0", "*"]
    assert any("no game terminator" in note for note in games[0].notes)
    assert games[1].tags["Event"] == "next"


def test_fen_set_up_starts_the_game_there() -> None:
    game = one('[GameType "21"]\n[FEN "W:W31,29,K15:B14,13,12,9."]\n1... 15-10 *\n')
    assert game.start_fen == "W:WK15,29,31:B9,12-14"
    assert game.moves[0].move.start == 15


def test_a_fen_with_an_unknown_side_to_move_takes_the_side_of_the_first_moving_piece() -> None:
    game = one('[GameType "21"]\n[FEN "?:W29,13,11:B22,4,2"]\n22-26 *\n')
    assert game.start_fen.startswith("B:")
    assert any("taken as black" in note for note in game.notes)


def test_gametype_long_form_names_the_variant() -> None:
    game = one('[GameType "20,W,10,10,N1,0"]\n1. 32-28 *\n')
    assert game.variant_id == "international" and not game.variant_guessed


def test_short_and_full_capture_paths_and_the_colon_sign_name_the_same_move() -> None:
    fen = "B:W18,27:B14"  # Black's man on 14 takes 18 and then 27, ending on 32
    moves = [
        one(f'[GameType "21"]\n[FEN "{fen}"]\n{text} *\n').moves[0] for text in ("14x32", "14:32", "14x23x32")
    ]
    assert {m.move.path for m in moves} == {(14, 23, 32)}
    assert [m.text for m in moves] == ["14x32", "14:32", "14x23x32"]


def test_a_short_capture_that_fits_two_sequences_is_ambiguous_and_the_full_path_decides() -> None:
    # From "Tricks, traps and shots" game 57: Black's 10 takes two men to 26 by two routes.
    fen = "B:W14-15,18,21-23,30:B6-8,10,12-13"
    ambiguous = one(f'[GameType "21"]\n[FEN "{fen}"]\n10x26 *\n')
    (fault,) = ambiguous.faults
    assert fault.kind is FaultKind.AMBIGUOUS_MOVE
    assert fault.reason == (
        f"10x26 fits 2 capture sequences in {fen} (10x17x26, 10x19x26); each of them lets the rest of "
        "the game replay, so the full path is needed"
    )
    for path in ("10x17x26", "10x19x26"):
        exact = one(f'[GameType "21"]\n[FEN "{fen}"]\n{path} *\n')
        assert exact.ok and "x".join(map(str, exact.moves[0].move.path)) == path


def test_an_ambiguous_short_capture_is_the_one_after_which_the_rest_of_the_game_replays() -> None:
    # 10x26 by 17 takes 14 and 22; by 19 it takes 15 and 23, after which White must capture 30x23.
    # White's answer 15-10 is legal only after 10x17x26, so that is the move.
    fen = "B:W14-15,18,21-23,30:B6-8,10,12-13"
    game = one(f'[GameType "21"]\n[FEN "{fen}"]\n10x26 15-10 *\n')
    assert game.ok, game.faults
    assert game.moves[0].move.path == (10, 17, 26)
    assert game.notes == (
        "ply 1: 10x26 fits 2 capture sequences (10x17x26, 10x19x26); 10x17x26 is the one after which "
        "the rest of the game replays",
    )


def test_an_ambiguous_short_capture_after_which_no_sequence_replays_is_reported_with_both() -> None:
    fen = "B:W14-15,18,21-23,30:B6-8,10,12-13"
    game = one(f'[GameType "21"]\n[FEN "{fen}"]\n10x26 1-5 *\n')
    (fault,) = game.faults
    assert fault.kind is FaultKind.AMBIGUOUS_MOVE
    assert "(10x17x26, 10x19x26); none of them lets the rest of the game replay" in fault.reason


def test_a_king_ring_capture_may_be_written_going_round_either_way() -> None:
    # White's king on 11 takes 15, 14, 6 and 7 and comes back to 11; the ring runs both ways.
    fen = "W:WK11:B6,7,14,15"
    for path in ("11x18x9x2x11", "11x2x9x18x11"):
        game = one(f'[GameType "21"]\n[FEN "{fen}"]\n{path} *\n')
        assert game.ok, game.faults
        assert game.moves[0].move.captured == frozenset({6, 7, 14, 15})


def test_a_flying_king_capture_may_name_any_square_it_can_land_on_between_captures() -> None:
    # White's king on 46 takes 37, may land on 32, 28 or 23, then takes 19 and lands on 10.
    fen = "W:WK46:B19,37"
    for landing in (32, 28, 23):
        game = one(f'[GameType "20"]\n[FEN "{fen}"]\n46x{landing}x10 *\n')
        assert game.ok, game.faults
        assert (game.moves[0].move.end, game.moves[0].move.captured) == (10, frozenset({19, 37}))
    wrong = one(f'[GameType "20"]\n[FEN "{fen}"]\n46x41x10 *\n')
    assert [f.kind for f in wrong.faults] == [FaultKind.ILLEGAL_MOVE]


def test_a_quiet_move_written_with_x_is_still_read() -> None:
    assert texts(one('[GameType "21"]\n1. 10x14 *\n')) == ["10x14"]


def test_spaces_after_the_separator_and_leading_zeros_are_allowed() -> None:
    game = one('[GameType "20"]\n01. 32-28 19- 23 02. 28x 19 14x23 *\n')
    assert [m.move.path for m in game.moves] == [(32, 28), (19, 23), (28, 19), (14, 23)]


def test_coordinates_without_separator_are_read_as_a_move() -> None:
    game = one('[GameType "25"]\n1.c3d4 *\n')
    assert game.ok, game.faults
    assert game.moves[0].text == "c3-d4"


def test_clock_comments_give_the_movers_time_left_in_seconds() -> None:
    game = one('[GameType "21"]\n1. 11-15 {[%clock b0:59:12]} 23-19 {[%clock w1:00:00.5] fine} *\n')
    assert [m.clock for m in game.moves] == [3552.0, 3600.5]
    assert game.moves[0].comments == ()
    assert game.moves[1].comments == ("fine",)
    assert parse_clock("w0:03:00 B0:02:59") == {"w": 180_000, "b": 179_000}
    assert parse_clock("12.25") == {"": 12_250}


# --- faults ---------------------------------------------------------------------------------------------


def test_an_unknown_square_is_reported_with_its_line_column_and_ply() -> None:
    game = one('[Event "x"]\n[GameType "21"]\n1. 11-15 23-19\n2. 8-11 22-37 *\n', ReadOptions())
    (fault,) = game.faults
    assert (fault.kind, fault.line, fault.column, fault.ply) == (FaultKind.UNKNOWN_SQUARE, 4, 9, 4)
    assert fault.reason == "22-37: square 37 is not on the 8x8 board (1-32)"
    assert texts(game) == ["11-15", "23-19", "8-11"]
    assert game.rest == ("22-37",)


def test_an_illegal_move_lists_the_legal_ones() -> None:
    game = one('[GameType "21"]\n1. 11-15 24-19 2. 15-18 *\n')
    (fault,) = game.faults
    assert fault.kind is FaultKind.ILLEGAL_MOVE and fault.ply == 3
    assert fault.reason == (
        "15-18 is not legal for Black in B:W19,21-23,25-32:B1-10,12,15; legal moves: 15x24"
    )


def test_a_broken_tag_is_reported_and_the_game_still_read() -> None:
    game = one('[Event "no end]\n[Site no quotes]\n[GameType "21"]\n1. 11-15 *\n')
    kinds = [(f.kind, f.line) for f in game.faults]
    assert kinds == [(FaultKind.BROKEN_TAG, 1), (FaultKind.BROKEN_TAG, 2)]
    assert "has no closing quote" in game.faults[0].reason
    assert "has no quoted value" in game.faults[1].reason
    assert texts(game) == ["11-15"]


def test_a_bad_fen_is_reported_at_its_tag() -> None:
    game = one('[Event "x"]\n[GameType "21"]\n[FEN "W:W33:B1"]\n1. 11-15 *\n')
    (fault,) = game.faults
    assert (fault.kind, fault.line) == (FaultKind.BAD_FEN, 3)
    assert "off the board" in fault.reason
    assert game.rest == ("11-15",)


def test_a_fen_with_men_on_their_crowning_row_is_a_bad_fen_naming_each_square() -> None:
    game = one('[GameType "21"]\n[FEN "B:W1,2:B30"]\n1. 30-26 *\n')
    (fault,) = game.faults
    assert (fault.kind, fault.line) == (FaultKind.BAD_FEN, 2)
    assert fault.reason == (
        "FEN 'B:W1,2:B30': the white man on 1 stands on the row where White's men are crowned: "
        "a man there is a king (K1); so do white 2, black 30"
    )
    assert game.rest == ("30-26",)


def test_text_that_is_no_pdn_stops_the_game_there() -> None:
    game = one('[GameType "21"]\n1. 11-15 23-19Whiteresigned. 2. 8-11 *\n')
    (fault,) = game.faults
    assert fault.kind is FaultKind.SYNTAX and fault.ply == 2
    assert fault.reason == "'23-19Whiteresigned.' is not a PDN move, move number or result"
    assert game.rest == ("23-19Whiteresigned.", "8-11")


def test_a_nested_comment_is_a_fault_but_the_comment_is_read_to_its_matching_brace() -> None:
    game = one('[GameType "20"]\n1. 33-29 19-23 2. 35-30 { nested { comment } } 23-28 *\n')
    (fault,) = game.faults
    assert (fault.kind, fault.line, fault.column) == (FaultKind.SYNTAX, 2, 34)
    assert "comments do not nest in PDN" in fault.reason
    assert game.moves[2].comments == ("nested { comment }",)
    assert texts(game)[-1] == "23-28"


def test_an_unclosed_comment_is_reported_where_it_opens() -> None:
    game = one('[GameType "21"]\n1. 11-15 {never closed\n23-19 *\n')
    assert [(f.kind, f.line, f.column) for f in game.faults] == [(FaultKind.SYNTAX, 2, 10)]
    assert "never closed" in game.faults[0].reason


def test_stray_braces_and_parentheses_and_unclosed_variations_are_reported() -> None:
    game = one('[GameType "21"]\n1. 11-15 } 23-19 ) 8-11 (9-13 *\n')
    reasons = [f.reason for f in game.faults]
    assert "'}' closes no comment" in reasons
    assert "')' closes no variation" in reasons
    assert texts(game) == ["11-15", "23-19", "8-11"]


def test_an_unsupported_game_type_says_so_and_reading_goes_on() -> None:
    text = '[GameType "31"]\n1. a3-b4 *\n' + ENGLISH_OPENING
    first, second = read_pdn_text(text)
    (fault,) = first.faults
    assert fault.kind is FaultKind.UNSUPPORTED_VARIANT
    assert fault.reason.startswith("Thai draughts (GameType 31) is not supported yet")
    assert first.rest == ("a3-b4",)
    assert second.ok and texts(second) == ["11-15", "23-19", "8-11", "22-17"]


def test_an_unknown_game_type_number_is_a_broken_tag_and_the_variant_is_guessed() -> None:
    game = one('[GameType "99"]\n1. 11-15 *\n')
    assert game.faults[0].kind is FaultKind.BROKEN_TAG
    assert "GameType 99 is not a PDN game type" in game.faults[0].reason
    assert game.variant_id == "english" and game.variant_guessed


def test_a_result_that_is_no_pdn_result_is_a_fault_and_not_taken_for_a_move() -> None:
    game = one('[Result "4-6"]\n[GameType "20"]\n1. 32-28 19-23 4-6\n')
    assert texts(game) == ["32-28", "19-23"]
    assert game.result == "4-6"
    (fault,) = game.faults
    assert fault.kind is FaultKind.BAD_RESULT and fault.column == 16


def test_a_fault_in_one_game_does_not_stop_the_next() -> None:
    games = read_pdn_text('[GameType "21"]\n1. 11-15 11-15 *\n\n' + ENGLISH_OPENING)
    assert [len(g.faults) for g in games] == [1, 0]
    assert games[0].faults[0].ply == 2
    assert [g.number for g in games] == [1, 2]


def test_fault_messages_name_the_file_line_column_game_and_ply() -> None:
    game = one('[Event "Club"]\n[White "Ann"]\n[Black "Bob"]\n[GameType "21"]\n1. 11-15 23-19 2. 8-12 *\n')
    message = game.describe_fault(game.faults[0])
    assert message.startswith(
        "<text>:5:19: game 1 (Club; White Ann; Black Bob), ply 3: illegal move: 8-12 is"
    )


def test_a_comment_before_the_tags_belongs_to_the_game_that_follows() -> None:
    games = read_pdn_text('{about the next game}\n[Event "e"]\n[GameType "21"]\n1. 11-15 *\n')
    assert len(games) == 1
    assert games[0].comments == ("about the next game",)


def test_the_plycount_tag_is_checked_against_the_moves() -> None:
    game = one('[PlyCount "1"]\n[GameType "21"]\n1. 1-0\n')
    assert any("PlyCount tag says 1 but the game has 0 plies" in note for note in game.notes)


# --- files, encodings, streaming ------------------------------------------------------------------------


def test_a_missing_file_is_a_pdn_error(tmp_path: Path) -> None:
    with pytest.raises(PdnError, match="cannot read"):
        list(read_pdn(tmp_path / "none.pdn"))


def test_cp1252_text_is_read_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "old.pdn"
    path.write_bytes(
        '[Event "Coupe de Fran\u00e7ais \u2013 1998"]\n[GameType "21"]\n1. 11-15 *\n'.encode("cp1252")
    )
    reader = PdnReader(path)
    (game,) = list(reader)
    assert game.tags["Event"] == "Coupe de Fran\u00e7ais \u2013 1998"
    assert (
        reader.decoding.describe() == "1 line(s) are not UTF-8 and were read as cp1252 (the first is line 1)"
    )


def test_utf8_with_a_byte_order_mark_and_utf16_are_read(tmp_path: Path) -> None:
    text = '[White "\u0421\u0435\u0440\u0433\u0435\u0439"]\n[GameType "21"]\n1. 11-15 *\n'
    for name, data in (("bom.pdn", b"\xef\xbb\xbf" + text.encode()), ("wide.pdn", text.encode("utf-16"))):
        path = tmp_path / name
        path.write_bytes(data)
        (game,) = list(read_pdn(path))
        assert game.tags["White"] == "\u0421\u0435\u0440\u0433\u0435\u0439" and texts(game) == ["11-15"]


@pytest.mark.parametrize("chunk_size", [1, 2, 3, 7, 64])
def test_lines_split_the_same_whatever_the_chunk_size(chunk_size: int) -> None:
    data = b"a\r\nb\rc\n\nd\r\n\r\ne"
    lines = list(read_lines(io.BytesIO(data), DecodingReport(), chunk_size))
    assert lines == [(1, "a"), (2, "b"), (3, "c"), (4, ""), (5, "d"), (6, ""), (7, "e")]


@given(
    st.lists(st.sampled_from([b"a", b"xyz" * 40, b"\r", b"\n", b"\r\n"]), max_size=60),
    st.integers(min_value=1, max_value=50),
)
def test_lines_longer_than_a_chunk_split_as_the_line_breaks_say(pieces: list[bytes], chunk_size: int) -> None:
    data = b"".join(pieces)
    lines = [text for _, text in read_lines(io.BytesIO(data), DecodingReport(), chunk_size)]
    expected = re.split(r"\r\n|\n|\r", data.decode())
    if expected[-1] == "":  # a break at the very end ends the last line; it starts none
        expected.pop()
    assert lines == expected


def test_the_lexer_gives_tokens_with_their_places() -> None:
    tokens = list(Lexer(iter([(1, '[Event "x"] 1. 11-15 {c}'), (2, "23-19 *")])).tokens())
    assert [(t.kind, t.text, t.line, t.column) for t in tokens] == [
        (TokenKind.TAG, "Event", 1, 1),
        (TokenKind.MOVE_NUMBER, "1.", 1, 13),
        (TokenKind.MOVE, "11-15", 1, 16),
        (TokenKind.COMMENT, "c", 1, 22),
        (TokenKind.MOVE, "23-19", 2, 1),
        (TokenKind.RESULT, "*", 2, 7),
    ]


def test_memory_does_not_grow_with_the_file(tmp_path: Path) -> None:
    import tracemalloc

    # An annotated game of about 40 KB (a long note after the first move), so that files of tens of
    # megabytes hold a few hundred games and read in seconds.
    note = "a long note on the opening " * 1500
    game = f'[Event "e"]\n[GameType "21"]\n1. 11-15 ;{note}\n23-19 2. 8-11 22-17 {{a comment}} 1/2-1/2\n\n'

    def peak_reading(megabytes: int) -> tuple[int, int, int]:
        path = tmp_path / f"big{megabytes}.pdn"
        copies = megabytes * 1_000_000 // len(game)
        with path.open("w") as out:
            for _ in range(copies):
                out.write(game)
        tracemalloc.start()
        count = sum(1 for g in read_pdn(path) if g.ok and len(g.moves[0].comments[0]) == len(note.strip()))
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        path.unlink()
        return copies, count, peak

    small_games, small_count, small_peak = peak_reading(10)
    big_games, big_count, big_peak = peak_reading(40)
    assert (small_count, big_count) == (small_games, big_games)
    # A reader that held the file, or its games, would need tens of megabytes more for the bigger one.
    assert big_peak < small_peak + 1_000_000, (small_peak, big_peak)
    assert small_peak < 5_000_000, small_peak  # half the smaller file: far less than the file itself


def test_a_bracket_that_closes_no_tag_is_a_syntax_fault_naming_its_place() -> None:
    (game,) = read_pdn_text('[GameType "21"]\n1. 11-15 ] 23-19 *\n')
    (fault,) = game.faults
    assert fault.kind is FaultKind.SYNTAX
    assert (fault.line, fault.column) == (2, 10)
    assert fault.reason == "']' is a bracket that closes no tag"


_PDN_PIECES = st.sampled_from(
    ['[GameType "21"]', '[Event "x"]', "[", "]", "{", "}", "(", ")", ";", "%", "1.", "11-15", "23x14",
     "1-0", "*", "$3", "!?", "\n", " ", "\\", '"', "…", "½"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_PDN_PIECES, st.text(max_size=5)), max_size=40))
def test_any_text_is_read_as_games_and_faults_never_an_exception(pieces: list[str]) -> None:
    for game in read_pdn_text("".join(pieces)):
        assert all(fault.line >= 1 for fault in game.faults)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_in_a_file_are_read_as_games_and_faults_or_a_pdn_error(data: bytes) -> None:
    try:
        games = list(read_stream(io.BytesIO(data), "fuzz.pdn", ReadOptions(), DecodingReport()))
    except PdnError as error:
        assert "fuzz.pdn" in str(error)
    else:
        assert all(isinstance(game, PdnGame) for game in games)
