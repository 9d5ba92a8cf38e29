"""The variants the rules core knows, by id."""

from __future__ import annotations

from arbiter.rules.draws import (
    MaterialRule,
    NoProgressRule,
    Repetition,
    international_five_move,
    international_sixteen_move,
)
from arbiter.rules.geometry import DIAGONALS, FORWARD_DIAGONALS, Color, Geometry
from arbiter.rules.variant import CaptureChoice, CrowningInCapture, Variant


class UnknownVariantError(ValueError):
    pass


ENGLISH = Variant(
    id="english",
    title="American checkers / English draughts",
    summary="8x8, short kings, men capture forward only, free choice of capture, crowning ends the move",
    geometry=Geometry(8, 8),
    first_to_move=Color.BLACK,
    rows_of_men=3,
    man_steps=FORWARD_DIAGONALS,
    man_captures=FORWARD_DIAGONALS,
    king_steps=DIAGONALS,
    king_captures=DIAGONALS,
    flying_kings=False,
    capture_choice=CaptureChoice.FREE,
    crowning_in_capture=CrowningInCapture.ENDS_MOVE,
    draw_rules=(Repetition(), NoProgressRule("40-move rule", 80)),
    pdn_gametype=21,
    hub_name="english",
)

INTERNATIONAL = Variant(
    id="international",
    title="International draughts",
    summary="10x10, flying kings, men capture backward, the majority capture is compulsory",
    geometry=Geometry(10, 10),
    first_to_move=Color.WHITE,
    rows_of_men=4,
    man_steps=FORWARD_DIAGONALS,
    man_captures=DIAGONALS,
    king_steps=DIAGONALS,
    king_captures=DIAGONALS,
    flying_kings=True,
    capture_choice=CaptureChoice.MAJORITY,
    crowning_in_capture=CrowningInCapture.PASSES_THROUGH,
    draw_rules=(
        Repetition(),
        NoProgressRule("25-move rule", 50),
        MaterialRule("16-move rule", 32, international_sixteen_move),
        MaterialRule("5-move rule", 10, international_five_move),
    ),
    pdn_gametype=20,
    hub_name="normal",
)

VARIANTS: dict[str, Variant] = {v.id: v for v in (ENGLISH, INTERNATIONAL)}


def get_variant(name: str) -> Variant:
    """The variant with this id (case-insensitive); a clear error lists the known ones."""
    key = name.strip().lower()
    try:
        return VARIANTS[key]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise UnknownVariantError(f"unknown variant {name!r}; known variants: {known}") from None
