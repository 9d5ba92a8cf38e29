"""The position `engine check` searches for a capture: one for every variant, the same every time."""

from __future__ import annotations

import pytest

from arbiter.commands.capture_position import capture_position
from arbiter.rules import VARIANTS, get_variant


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_every_variant_has_a_position_where_a_capture_of_two_pieces_is_due(variant_id: str) -> None:
    variant = get_variant(variant_id)
    found = capture_position(variant)
    assert found is not None
    position, most = found
    moves = position.legal_moves()
    assert moves and all(move.is_capture for move in moves)
    assert most == max(len(move.captured) for move in moves) >= 2
    assert capture_position(variant) == found, "the same position at every check"
