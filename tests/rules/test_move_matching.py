"""The referee matches the one move an engine named against the rules without listing every legal move:
what it finds must be exactly what the full list says, and a move the list lacks is never found."""

from __future__ import annotations

import random

import pytest

from arbiter.notation.movetext import MoveTextError, format_hub, parse_hub
from arbiter.rules import Position, get_variant
from arbiter.rules.position import tables
from arbiter.rules.variants import VARIANTS


def positions_of_random_games(variant_id: str, games: int = 6, plies: int = 70) -> list[Position]:
    rng = random.Random(f"matching-{variant_id}")
    variant = get_variant(variant_id)
    seen = []
    for _ in range(games):
        position = Position.start(variant)
        for _ in range(plies):
            moves = position.legal_moves()
            if not moves:
                break
            seen.append(position)
            position = position.play(rng.choice(moves))
    return seen


def hub_by_pieces(position: Position) -> str:
    """The Hub string as a square-by-square reading of the pieces spells it."""
    letters = [position.turn.letter]
    for square in range(1, position.variant.square_count + 1):
        piece = position.piece_at(square)
        letters.append(piece.value if piece else "e")
    return "".join(letters)


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_find_move_finds_every_legal_move_and_nothing_else(variant_id: str) -> None:
    for position in positions_of_random_games(variant_id):
        # A fresh copy of the position: nothing of the full list is cached when matching.
        fresh = Position(position.variant, position.white, position.black, position.kings, position.turn)
        moves = position.legal_moves()
        assert fresh.legal_move_count() == len(moves)
        assert fresh.has_capture() == (bool(moves) and moves[0].is_capture)
        for move in moves:
            found = fresh.find_move(move.start, move.end, sorted(move.captured, reverse=True))
            assert found == move and found.raw[:3] == move.raw[:3]
            assert fresh.shares_start_and_end(move) == (
                sum(1 for m in moves if (m.start, m.end) == (move.start, move.end)) > 1
            )
        keys = {move.key for move in moves}
        squares = range(1, position.variant.square_count + 1)
        for start in squares:
            for end in squares:
                if (start, end, frozenset()) not in keys:
                    assert fresh.find_move(start, end) is None


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_hub_string_spells_every_square(variant_id: str) -> None:
    for position in positions_of_random_games(variant_id, games=2):
        assert position.hub() == hub_by_pieces(position)


def test_a_move_the_rules_refuse_is_refused_with_the_legal_moves_listed() -> None:
    position = Position.start(get_variant("english"))
    listed = "legal moves: 10-14, 10-15, 11-15, 11-16, 12-16, 9-13, 9-14$"
    for text in ("9-18", "11-14x7", "22-17", "12x19"):
        with pytest.raises(MoveTextError, match=listed):
            parse_hub(position, text)
    assert format_hub(parse_hub(position, "11-15")) == "11-15"


def test_a_capture_named_with_the_wrong_captured_squares_is_refused() -> None:
    variant = get_variant("english")
    position = Position.from_hub(variant, "B" + "e" * 8 + "b" + "e" * 4 + "w" + "e" * 18)
    assert format_hub(parse_hub(position, "9x18x14")) == "9x18x14"
    for text in ("9x18", "9x18x13", "9x18x14x15", "9-18"):
        with pytest.raises(MoveTextError, match="not a legal move"):
            parse_hub(position, text)


def test_a_quiet_move_is_matched_only_from_one_own_piece_to_one_empty_square() -> None:
    variant = get_variant("english")
    position = Position.start(variant)  # Black to move, its men on 1-12
    generator = tables(variant).generator
    board = (position.white, position.black, position.kings, position.turn)
    move, other = position.find_move(11, 15), position.find_move(10, 14)
    assert move is not None and other is not None
    fb, tb = move.raw[0], move.raw[1]
    assert generator.quiet_move(*board, fb, tb) == move.raw
    bits = variant.geometry.square_bits
    white_man, white_target = 1 << bits[22], 1 << bits[18]
    not_moves = [
        (0, tb), (-fb, tb), (-1, tb), (fb | other.raw[0], tb),  # no square, or more than one
        (fb, 0), (fb, -tb), (fb, -1), (fb, tb | other.raw[1]),
        (tb, fb), (fb, other.raw[0]), (white_man, white_target),  # from no own piece, onto a piece
    ]  # fmt: skip
    for start, end in not_moves:
        assert generator.quiet_move(*board, start, end) is None, (start, end)
