"""Finished game results and the points they are worth.

A result names the players of each colour and which colour won. Colours are the game's own (white and
black); which of them moved first is the variant's business and does not change the score.
"""

from __future__ import annotations

# The result and scheme types are records the store keeps; they live there and are named here too.
from arbiter.store.records import PIECES as PIECES
from arbiter.store.records import STANDARD as STANDARD
from arbiter.store.records import FinishedGame as FinishedGame
from arbiter.store.records import Outcome as Outcome
from arbiter.store.records import ScoringScheme as ScoringScheme

# Two points for a win and one for a draw, as in the scoring advice of the checkers rules card.
TWO_ONE_ZERO = ScoringScheme(name="2-1-0", win=2.0, draw=1.0, loss=0.0)


SCHEMES: dict[str, ScoringScheme] = {
    STANDARD.name: STANDARD,
    "1-0.5-0": STANDARD,
    "standard": STANDARD,
    TWO_ONE_ZERO.name: TWO_ONE_ZERO,
    PIECES.name: PIECES,
}


def scheme_named(name: str) -> ScoringScheme:
    """The scoring scheme called `name` ("1-1/2-0", "1-0.5-0" or "standard"; "2-1-0"; "pieces")."""
    try:
        return SCHEMES[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(SCHEMES))
        raise ValueError(f"unknown scoring scheme {name!r}; known schemes: {known}") from None
