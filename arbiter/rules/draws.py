"""Draw rules as data: repetition, no-progress counters, and material-based endgame counters.

A game keeps one counter per rule (see ``arbiter.rules.game``); these classes say when each counter
runs, resets and fires, so a referee can report exactly which rule ended a game and at which ply.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arbiter.rules.position import Position


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


class Progress(StrEnum):
    """What resets a no-progress count."""

    MAN_MOVE_OR_CAPTURE = "man-move-or-capture"
    CAPTURE_OR_CROWNING = "capture-or-crowning"  # It's Your Turn house rule


@dataclass(frozen=True)
class NoProgressRule:
    """A draw after ``plies`` plies in a row without progress (by default: no man move, no capture).

    This is the English 40-move rule (80 plies), the international 25-move rule (50 plies), the Russian
    15-move rule (30 plies) and It's Your Turn's 50-move rule (100 plies without capture or crowning).
    """

    name: str
    plies: int
    progress: Progress = Progress.MAN_MOVE_OR_CAPTURE


@dataclass(frozen=True)
class MaterialRule:
    """A draw ``plies`` plies after a material situation arises, unless the game is decided first.

    The count starts when ``applies`` first holds; a later man move does not reset it; a capture that
    makes a new situation restarts it, and so does a crowning with ``restart_on_crowning`` (the Russian
    counts run while "the balance of forces" stands: no capture, no man crowned). ``where``, if given,
    is a further condition on the position (the Russian main-road rule: where the lone king stands).
    """

    name: str
    plies: int
    applies: Callable[[Material], bool]
    restart_on_crowning: bool = False
    where: Callable[[Position], bool] | None = None

    def holds(self, position: Position, material: Material) -> bool:
        return self.applies(material) and (self.where is None or self.where(position))


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


def lone_king_against_kings(material: Material, kings: int, at_least: bool = False) -> bool:
    """One side has a single king and nothing else; the other has exactly (or at least) ``kings`` kings."""

    def strong(men: int, count: int) -> bool:
        return men == 0 and (count >= kings if at_least else count == kings)

    m = material
    white_lone = m.white_men == 0 and m.white_kings == 1
    black_lone = m.black_men == 0 and m.black_kings == 1
    return (white_lone and strong(m.black_men, m.black_kings)) or (
        black_lone and strong(m.white_men, m.white_kings)
    )


def one_piece_each(material: Material) -> bool:
    m = material
    return m.white_men + m.white_kings == 1 and m.black_men + m.black_kings == 1


def kings_on_both_sides(material: Material, fewest: int, most: int) -> bool:
    """Both sides have a king, and between ``fewest`` and ``most`` pieces are on the board in all."""
    m = material
    pieces = m.white_men + m.white_kings + m.black_men + m.black_kings
    return m.white_kings > 0 and m.black_kings > 0 and fewest <= pieces <= most


def one_king_each(material: Material) -> bool:
    m = material
    return m.white_men == m.black_men == 0 and m.white_kings == m.black_kings == 1
