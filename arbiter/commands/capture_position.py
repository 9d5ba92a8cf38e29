"""The position `engine check` searches for a capture: where an engine's move text most often goes wrong
(a capture written as PDN writes it, without its captured squares, or one piece short of the maximum).

It is reached by random play from the variant's start, with a generator seeded by the variant's id, so
every check of a variant searches the same position.
"""

from __future__ import annotations

import random

from arbiter.rules import Position, Variant

_GAMES = 40
_PLIES = 150


def capture_position(variant: Variant) -> tuple[Position, int] | None:
    """A position where the side to move must capture, and the most pieces a capture of it takes: the
    first found taking two or more, else the first with any capture (None when random play found none)."""
    chooser = random.Random(f"{variant.id}:capture")
    fallback: tuple[Position, int] | None = None
    for _ in range(_GAMES):
        position = Position.start(variant)
        for _ in range(_PLIES):
            moves = position.legal_moves()
            if not moves:
                break
            most = max(len(move.captured) for move in moves)
            if most >= 2:
                return position, most
            if most and fallback is None:
                fallback = position, most
            position = position.play(chooser.choice(moves))
    return fallback
