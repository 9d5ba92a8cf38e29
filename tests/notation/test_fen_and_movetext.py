"""FEN, Hub position strings and move text: reading, writing, and the errors for bad input."""

from __future__ import annotations

import pytest

from arbiter.notation.movetext import MoveTextError, format_hub, format_pdn, parse_hub, parse_pdn
from arbiter.rules import VARIANTS, Color, HubPositionError, Piece, Position, get_variant
from arbiter.rules.fen import FenError

ENGLISH = get_variant("english")
INTERNATIONAL = get_variant("international")


def test_start_positions_as_fen() -> None:
    assert Position.start(ENGLISH).fen() == "B:W21-32:B1-12"
    assert Position.start(INTERNATIONAL).fen() == "W:W31-50:B1-20"


def test_fen_reads_kings_ranges_either_colour_first_and_a_trailing_period() -> None:
    a = Position.from_fen(ENGLISH, "W:BK3,10-12:W21,K30.")
    assert a.piece_at(3) is Piece.BLACK_KING
    assert a.piece_at(11) is Piece.BLACK_MAN
    assert a.piece_at(30) is Piece.WHITE_KING
    assert a.piece_at(21) is Piece.WHITE_MAN
    assert a.fen() == "W:W21,K30:BK3,10-12"
    assert Position.from_fen(ENGLISH, a.fen()) == a


def test_fen_range_of_kings_may_mark_both_ends() -> None:
    # dctl's published test positions write a range of kings as K31-K50; it reads as K31-50.
    both = Position.from_fen(INTERNATIONAL, "W:WK31-K50:BK1-K20")
    assert both == Position.from_fen(INTERNATIONAL, "W:WK31-50:BK1-20")
    assert both.squares(Piece.WHITE_KING) == list(range(31, 51))
    assert both.squares(Piece.BLACK_KING) == list(range(1, 21))


def test_fen_range_with_a_king_at_one_end_and_a_mule_at_the_other_is_refused() -> None:
    with pytest.raises(FenError, match="not a square number or range"):
        Position.from_fen(get_variant("mule"), "B:WK21-M24:B1")


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        ("X:W21:B1", "side to move"),
        ("B:W21:B33", "square 33 is off the board"),
        ("B:W21:B1,1", "given twice"),
        ("B:W21:Bq", "not a square"),
        ("B:W21:B5x", "not a square number or range"),
        ("B:W21:W22", "listed twice"),
        ("B:W12-3:B1", "runs backwards"),
    ],
)
def test_malformed_fen_is_rejected_with_the_reason(fen: str, message: str) -> None:
    with pytest.raises(FenError, match=message):
        Position.from_fen(ENGLISH, fen)


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_a_fen_with_a_man_on_the_row_where_its_side_is_crowned_is_refused_naming_the_square(
    variant_id: str,
) -> None:
    # In every variant a man whose move ends on that row is crowned there: no position holds one.
    variant = get_variant(variant_id)
    g = variant.geometry
    # A man of each side a row short of the row where it is crowned, the two far apart.
    white = next(n for n in range(1, variant.square_count + 1) if g.row_col(n)[0] == 1)
    black = next(n for n in range(variant.square_count, 0, -1) if g.row_col(n)[0] == g.height - 2)
    for color, man, crowning in ((Color.WHITE, white, 0), (Color.BLACK, black, g.height - 1)):
        before = Position.from_fen(variant, f"{color.letter}:W{white}:B{black}")
        onto = [m for m in before.legal_moves() if m.start == man and g.row_col(m.end)[0] == crowning]
        assert onto, before.fen()
        square = onto[0].end
        piece = before.play(onto[0]).piece_at(square)
        assert piece is not None and piece.is_king
        name = variant.square_name(square)
        mine, theirs = color.letter, color.opponent.letter
        opponent = black if color is Color.WHITE else white
        with pytest.raises(
            FenError, match=rf"the {color.name.lower()} man on {name} stands on the row where"
        ):
            Position.from_fen(variant, f"{mine}:{mine}{square}:{theirs}{opponent}")
        king = Position.from_fen(variant, f"{mine}:{mine}K{square}:{theirs}{opponent}")
        assert king.piece_at(square) is piece


def test_hub_position_strings() -> None:
    start = Position.start(ENGLISH)
    assert start.hub() == "B" + "b" * 12 + "e" * 8 + "w" * 12
    assert Position.from_hub(ENGLISH, start.hub()) == start
    intl = Position.start(INTERNATIONAL)
    assert len(intl.hub()) == 51
    assert Position.from_hub(INTERNATIONAL, intl.hub()) == intl


@pytest.mark.parametrize(
    ("text", "message"),
    [("B" + "e" * 31, "needs 33"), ("X" + "e" * 32, "W or B"), ("B" + "e" * 31 + "x", "not one of")],
)
def test_malformed_hub_position_is_rejected(text: str, message: str) -> None:
    with pytest.raises(HubPositionError, match=message):
        Position.from_hub(ENGLISH, text)


def test_pdn_move_text_round_trips_for_quiet_moves_and_captures() -> None:
    start = Position.start(ENGLISH)
    move = parse_pdn(start, "11-15")
    assert (move.start, move.end) == (11, 15)
    assert format_pdn(start, move) == "11-15"
    capture_position = Position.from_fen(ENGLISH, "B:W6,15:B1")
    jump = parse_pdn(capture_position, "1x19")
    assert format_pdn(capture_position, jump) == "1x19"
    assert parse_pdn(capture_position, "1x10x19") == jump
    assert parse_pdn(capture_position, "1:19") == jump


def test_full_path_is_written_only_where_start_and_end_are_shared() -> None:
    # The king on 49 can reach 30 over two different sets of pieces.
    position = Position.from_fen(INTERNATIONAL, "W:WK49:B11,23,24,26,29,38,K50")
    twins = [m for m in position.legal_moves() if m.start == 49 and m.end == 30]
    assert len(twins) == 2
    texts = {format_pdn(position, m) for m in twins}
    assert texts == {"49x32x19x30", "49x16x2x30"}
    for m in twins:
        assert parse_pdn(position, format_pdn(position, m)) == m
    with pytest.raises(MoveTextError, match="ambiguous"):
        parse_pdn(position, "49x30")


def test_move_text_that_is_not_legal_lists_the_legal_moves() -> None:
    with pytest.raises(MoveTextError, match="legal moves: 10-14, 10-15"):
        parse_pdn(Position.from_fen(ENGLISH, "B:W30:B10"), "10-19")


def test_move_text_off_the_board_or_garbled_is_an_error() -> None:
    start = Position.start(ENGLISH)
    with pytest.raises(MoveTextError, match="off the board"):
        parse_pdn(start, "11-45")
    with pytest.raises(MoveTextError, match="'eleven' is not a square of the english board"):
        parse_pdn(start, "eleven-fifteen")
    with pytest.raises(MoveTextError, match="not move text"):
        parse_pdn(start, "11-15!")


def test_hub_move_text_lists_captured_squares() -> None:
    position = Position.from_fen(ENGLISH, "B:W6,15:B1")
    move = position.legal_moves()[0]
    assert format_hub(move) == "1x19x6x15"
    assert parse_hub(position, "1x19x15x6") == move
    with pytest.raises(MoveTextError):
        parse_hub(position, "1x19x6")
