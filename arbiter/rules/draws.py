"""Draw rules as data: repetition, no-progress counters, and material-based endgame counters.

A game keeps one counter per rule (see ``arbiter.rules.game``); these classes say when each counter
runs, resets and fires, so a referee can report exactly which rule ended a game and at which ply.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Material:
    white_men: int
    white_kings: int
    black_men: int
    black_kings: int


@dataclass(frozen=True)
class Repetition:
    """The same position (occupants and side to move) for the ``times``-th time is a draw."""

    times: int = 3
    name: str = "threefold repetition"


@dataclass(frozen=True)
class NoProgressRule:
    """A draw after ``plies`` plies in a row with no man move and no capture.

    This is the English 40-move rule (80 plies) and the international 25-move rule (50 plies).
    """

    name: str
    plies: int


@dataclass(frozen=True)
class MaterialRule:
    """A draw ``plies`` plies after a material situation arises, unless the game is decided first.

    The count starts when ``applies`` first holds; a later man move does not reset it; a capture that
    makes a new situation restarts it.
    """

    name: str
    plies: int
    applies: Callable[[Material], bool]


DrawRule = Repetition | NoProgressRule | MaterialRule


def lone_king_against(material: Material, pieces: int) -> bool:
    """One side has a single king and nothing else; the other has ``pieces`` pieces, a king among them."""

    def lone(men: int, kings: int) -> bool:
        return men == 0 and kings == 1

    def strong(men: int, kings: int) -> bool:
        return kings >= 1 and men + kings == pieces

    m = material
    return (lone(m.white_men, m.white_kings) and strong(m.black_men, m.black_kings)) or (
        lone(m.black_men, m.black_kings) and strong(m.white_men, m.white_kings)
    )


def international_sixteen_move(material: Material) -> bool:
    # a lone king against three kings, two kings and a man, or a king and two men
    return lone_king_against(material, 3)


def international_five_move(material: Material) -> bool:
    # a lone king against two kings, a king and a man, or a single king
    return lone_king_against(material, 2) or lone_king_against(material, 1)
