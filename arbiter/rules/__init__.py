"""The rules core: variants, positions, legal moves, game end and draw rules. Pure, no I/O."""

from arbiter.rules.game import EndReason, Game, GameEnd, History, RuleCounter
from arbiter.rules.geometry import Color
from arbiter.rules.perft import divide, perft
from arbiter.rules.position import HubPositionError, Move, Piece, Position
from arbiter.rules.variant import Variant
from arbiter.rules.variants import VARIANTS, UnknownVariantError, get_variant

__all__ = [
    "VARIANTS",
    "Color",
    "EndReason",
    "Game",
    "GameEnd",
    "History",
    "HubPositionError",
    "Move",
    "Piece",
    "Position",
    "RuleCounter",
    "UnknownVariantError",
    "Variant",
    "divide",
    "get_variant",
    "perft",
]
