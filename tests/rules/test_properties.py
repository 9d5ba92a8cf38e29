"""Properties that hold in every position: games play out, text and position strings round-trip, hashes agree.

Hypothesis draws the random choices: a seed picks the moves of a random game, and set-ups are drawn square
by square, so a failure shrinks to a short game or a small position and is printed with its seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter.notation.movetext import format_hub, format_pdn, parse_hub, parse_pdn
from arbiter.rules import Color, EndReason, Game, Piece, Position, Variant, get_variant

VARIANT_IDS = ["english", "international"]
GAME_PLY_LIMIT = 400
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**32 - 1)


@st.composite
def setups(draw: st.DrawFn, variant: Variant) -> Position:
    """Any position of men and kings; men never stand on the row where they would already be crowned."""
    g = variant.geometry
    squares = draw(
        st.lists(
            st.integers(1, variant.square_count), unique=True, min_size=2, max_size=variant.square_count // 2
        )
    )
    white: list[int] = []
    black: list[int] = []
    kings: list[int] = []
    for square in squares:
        row = g.row_col(square)[0]
        choices = [p for p in Piece if not (p is Piece.WHITE_MAN and row == 0)]
        choices = [p for p in choices if not (p is Piece.BLACK_MAN and row == g.height - 1)]
        piece = draw(st.sampled_from(choices))
        (white if piece.color is Color.WHITE else black).append(square)
        if piece.is_king:
            kings.append(square)
    turn = draw(st.sampled_from([Color.WHITE, Color.BLACK]))
    return Position(variant, g.bits_of(white), g.bits_of(black), g.bits_of(kings), turn)


def random_positions(start: Position, seed: int, plies: int) -> Iterator[Position]:
    """The positions of a random legal game from ``start``, start included."""
    rng = random.Random(seed)
    position = start
    yield position
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            return
        position = position.play(rng.choice(moves))
        yield position


# ---------------------------------------------------------------------------------------- whole games


def sides(position: Position, color: Color) -> tuple[int, int]:
    """Bitboards of ``color``'s pieces and of its opponent's."""
    if color is Color.WHITE:
        return position.white, position.black
    return position.black, position.white


def check_game(variant: Variant, start: Position | None, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(variant, start)
    while game.end is None and game.ply < GAME_PLY_LIMIT:
        before = game.position
        moves = before.legal_moves()
        assert moves, f"{before.fen()}: the game goes on but there is no legal move"
        move = rng.choice(moves)
        ended = game.play(move)
        after = game.position
        assert ended is game.end
        assert game.ply == len(game.moves) and game.moves[-1] == move
        assert after == before.play(move)
        assert after.turn is before.turn.opponent
        # The moved piece stands on the end square; captured pieces are gone; nobody gains pieces.
        landed = after.piece_at(move.end)
        started_as_king = before.piece_at(move.start) in (Piece.WHITE_KING, Piece.BLACK_KING)
        assert landed is not None and landed.color is before.turn
        assert landed.is_king == (move.crowns or started_as_king)
        assert all(after.piece_at(s) is None for s in move.captured)
        own_before, opp_before = sides(before, before.turn)
        own_after, opp_after = sides(after, before.turn)
        assert own_after.bit_count() == own_before.bit_count()
        assert opp_after.bit_count() == opp_before.bit_count() - len(move.captured)
        assert not after.white & after.black and not after.kings & ~(after.white | after.black)
    end = game.end
    if end is None:
        assert game.ply == GAME_PLY_LIMIT
        return
    assert end.ply == game.ply and end.describe()
    last = game.position
    if end.reason is EndReason.NO_LEGAL_MOVES:
        assert not last.legal_moves() and end.winner is last.turn.opponent
    elif end.reason is EndReason.NO_PIECES:
        assert not sides(last, last.turn)[0] and end.winner is last.turn.opponent
    else:
        assert end.winner is None and last.legal_moves()
        assert any(c.count >= c.limit for c in game.counters())
    # A finished game takes no more moves, not even one that would be legal on the board.
    extra = last.legal_moves()[:1] or game.moves[-1:]
    for move in extra:
        with pytest.raises(ValueError):
            game.play(move)


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
@SETTINGS
@given(seed=seeds)
def test_random_games_from_the_start_play_to_a_rule_or_the_ply_limit(variant_id: str, seed: int) -> None:
    check_game(get_variant(variant_id), None, seed)


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
@SETTINGS
@given(data=st.data(), seed=seeds)
def test_random_games_from_any_setup_play_to_a_rule_or_the_ply_limit(
    variant_id: str, data: st.DataObject, seed: int
) -> None:
    variant = get_variant(variant_id)
    check_game(variant, data.draw(setups(variant), label="start"), seed)


# ---------------------------------------------------------------------------------------- move text


def check_move_text(position: Position) -> None:
    for move in position.legal_moves():
        short = format_pdn(position, move)
        assert parse_pdn(position, short) == move, f"{position.fen()}: PDN {short!r} does not read back"
        full = format_pdn(position, move, full_path=True)
        back = parse_pdn(position, full)
        assert back == move and back.path == move.path, f"{position.fen()}: PDN {full!r} does not read back"
        hub = format_hub(move)
        assert parse_hub(position, hub) == move, f"{position.fen()}: Hub {hub!r} does not read back"


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
@SETTINGS
@given(seed=seeds)
def test_every_move_text_reads_back_as_the_same_move_in_random_games(variant_id: str, seed: int) -> None:
    for position in random_positions(Position.start(get_variant(variant_id)), seed, plies=250):
        check_move_text(position)


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
@SETTINGS
@given(data=st.data(), seed=seeds)
def test_every_move_text_reads_back_as_the_same_move_from_any_setup(
    variant_id: str, data: st.DataObject, seed: int
) -> None:
    start = data.draw(setups(get_variant(variant_id)), label="start")
    for position in random_positions(start, seed, plies=30):
        check_move_text(position)


@pytest.mark.parametrize(
    "fen",
    [
        # 15x8 takes 11; 15x22x31x24x15x8 loops round and takes 11, 18, 19, 26 and 27, landing on 8 too.
        "W:WK15:BK11,18-19,26-27",
        # 5x14x21 takes 9 and 17; 5x14x7x16x23x14x21 passes 14 twice and lands on 21 as well.
        "W:WK5:B9,K10,11,K17,18-19",
    ],
)
def test_move_text_reads_back_when_an_english_king_loop_ends_where_a_shorter_capture_ends(fen: str) -> None:
    # The shorter capture's whole path lies inside the loop's path, so its text must still name it alone.
    check_move_text(Position.from_fen(get_variant("english"), fen))


@pytest.mark.parametrize(
    ("fen", "text", "captured"),
    [
        # The king takes 12, may stop on 18 or 23, then takes 29: both landings are the same move.
        pytest.param("W:WK1:B12,29", "1x23x34", frozenset({12, 29}), id="1x23x34"),
        # After taking 18 the king may land on 22 or 27 before taking 31.
        pytest.param("W:WK15:B18-20,31", "15x24x13x27x36", frozenset({18, 19, 20, 31}), id="15x24x13x27x36"),
    ],
)
def test_a_full_capture_path_may_name_any_landing_square_of_a_flying_king(
    fen: str, text: str, captured: frozenset[int]
) -> None:
    # Game records write the squares the king really stopped on; the arbiter keeps one path per move.
    position = Position.from_fen(get_variant("international"), fen)
    move = parse_pdn(position, text)
    assert (move.start, move.end, move.captured) == (
        int(text.split("x")[0]),
        int(text.split("x")[-1]),
        captured,
    )


# ---------------------------------------------------------------------------------------- positions


def check_position_strings_and_hash(position: Position) -> None:
    variant = position.variant
    fen = position.fen()
    from_fen = Position.from_fen(variant, fen)
    assert from_fen == position and from_fen.zobrist == position.zobrist, fen
    assert from_fen.fen() == fen
    hub = position.hub()
    from_hub = Position.from_hub(variant, hub)
    assert from_hub == position and from_hub.zobrist == position.zobrist, hub
    assert from_hub.hub() == hub
    fresh = Position(variant, position.white, position.black, position.kings, position.turn)
    assert fresh.zobrist == position.zobrist, f"{fen}: incremental hash differs from a fresh one"
    assert hash(fresh) == hash(position)


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
@SETTINGS
@given(seed=seeds)
def test_fen_hub_and_hash_round_trip_in_random_games(variant_id: str, seed: int) -> None:
    for position in random_positions(Position.start(get_variant(variant_id)), seed, plies=300):
        check_position_strings_and_hash(position)


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
@SETTINGS
@given(data=st.data(), seed=seeds)
def test_fen_hub_and_hash_round_trip_from_any_setup(variant_id: str, data: st.DataObject, seed: int) -> None:
    start = data.draw(setups(get_variant(variant_id)), label="start")
    for position in random_positions(start, seed, plies=30):
        check_position_strings_and_hash(position)
        # Every move's incremental hash, not only the one played.
        for move in position.legal_moves():
            after = position.play(move)
            fresh = Position(after.variant, after.white, after.black, after.kings, after.turn)
            assert fresh.zobrist == after.zobrist, f"{position.fen()} then {format_hub(move)}: hash differs"
