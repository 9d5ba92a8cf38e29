"""Random legal games in every variant never crash, and every move's text reads back as the same move."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.notation.movetext import format_hub, format_pdn, parse_hub, parse_pdn
from arbiter.rules import VARIANTS, Game, Position, get_variant


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_never_crash_and_move_text_round_trips(variant_id: str, seed: int) -> None:
    variant = get_variant(variant_id)
    rng = random.Random(seed)
    game = Game(variant)
    while game.end is None and game.ply < 300:
        position = game.position
        moves = game.legal_moves()
        assert moves, f"no legal move but no game end in {position.fen()}"
        move = rng.choice(moves)
        assert parse_pdn(position, format_pdn(position, move)) == move
        assert parse_pdn(position, format_pdn(position, move, full_path=True)) == move
        assert parse_hub(position, format_hub(move)) == move
        game.play(move)
        after = game.position
        assert Position.from_fen(variant, after.fen()) == after
        fresh = Position(variant, after.white, after.black, after.kings, after.turn, mules=after.mules)
        assert fresh.zobrist == after.zobrist
