"""A game record replayed through the rules core: the board before the first move and after each one.

The viewer shows these boards as they are; it knows no rules. A record whose moves stop replaying
(a damaged database, a variant this version does not know) keeps the boards up to the last move that
replays, and says which move failed and why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from arbiter.notation.movetext import MoveTextError, format_pdn, parse_hub, parse_pdn
from arbiter.referee.record import GameRecord
from arbiter.rules import Move, Position, UnknownVariantError, Variant, get_variant
from arbiter.rules.fen import FenError
from arbiter.rules.geometry import Geometry

EMPTY = "e"
HUB_TEXTS_KEPT = 100_000


@dataclass(frozen=True)
class Replay:
    """`boards[n]` is the board after `n` plies, one letter per square (``w W b B e``, as Hub writes
    them); `moves[n]` is the legal move of ply n + 1. `fault` says why the replay stopped early.
    `mules[n]` lists the squares of the mules on board n (Hub has no letter for them); it is empty
    for games of variants without mules."""

    variant: Variant | None
    boards: tuple[str, ...]
    moves: tuple[Move, ...]
    first_turn_is_first_mover: bool
    fault: str | None = None
    mules: tuple[tuple[int, ...], ...] = ()
    positions: tuple[Position, ...] = ()
    """The position before each replayed move (for reading an engine's principal variation there)."""

    @property
    def steps(self) -> list[tuple[int, int]]:
        """Where each replayed move starts and ends."""
        return [(move.start, move.end) for move in self.moves]


def board_letters(position: Position) -> str:
    """One letter per square, square 1 first."""
    white, black, kings = position.white, position.black, position.kings
    return "".join(
        [
            ("W" if kings & bit else "w")
            if white & bit
            else (("B" if kings & bit else "b") if black & bit else EMPTY)
            for bit in _square_masks(position.variant.geometry)
        ]
    )


@cache
def _square_masks(geometry: Geometry) -> tuple[int, ...]:
    """Each square's bit, square 1 first (a game page reads a board after every ply)."""
    return tuple(1 << geometry.square_bits[square] for square in range(1, geometry.square_count + 1))


@cache
def variant_of(variant_id: str) -> Variant | None:
    """The rules-core variant, or None when this version does not know it."""
    try:
        return get_variant(variant_id)
    except UnknownVariantError:
        return None


def replay(record: GameRecord) -> Replay:
    """The boards of `record`, replayed from its start position."""
    variant = variant_of(record.variant)
    if variant is None:
        return Replay(
            None, (), (), True, fault=f"the variant {record.variant!r} is not known to this version"
        )
    try:
        position = Position.from_fen(variant, record.start_fen)
    except (FenError, ValueError) as error:
        return Replay(variant, (), (), True, fault=f"start position {record.start_fen!r}: {error}")
    first = position.turn is variant.first_to_move
    letters = board_letters(position)
    boards = [letters]
    mules = [tuple(position.mule_squares()) if position.mules else ()]
    moves: list[Move] = []
    positions = [position]
    fault = None
    named = _hub_squares(variant)
    for move in record.moves:
        squares = named.get(move.hub) or _read_hub(named, variant, move.hub)
        played = None if squares is None else position.find_move(squares[0], squares[1], squares[2:])
        if played is None:  # not Hub text of a legal move: read as PDN, or say why not
            try:
                played = _resolve(position, move.hub, move.text)
            except MoveTextError as error:
                fault = f"ply {move.ply} ({move.text}) does not replay: {error}"
                break
        position = position.play(played)
        positions.append(position)
        letters = _letters_after(letters, position, played)
        boards.append(letters)
        mules.append(tuple(position.mule_squares()) if position.mules else ())
        moves.append(played)
    has_mules = any(mules)
    return Replay(
        variant,
        tuple(boards),
        tuple(moves),
        first,
        fault=fault,
        mules=tuple(mules) if has_mules else (),
        positions=tuple(positions),
    )


_HUB = re.compile(r"\d+(?:[-x]\d+)+")


@cache
def _hub_squares(variant: Variant) -> dict[str, tuple[int, ...]]:
    """The squares of each Hub move text met so far in games of `variant`: a game page replays every
    ply, and an event's games repeat a few hundred texts (reading one again cost a third of the
    replay). Only what `parse_hub` would read the same way is kept."""
    return {}


def _read_hub(known: dict[str, tuple[int, ...]], variant: Variant, text: str) -> tuple[int, ...] | None:
    """The squares of Hub move `text` (start, end, captured), kept in `known`; None for text that is
    not numbers on the board joined by ``-`` or ``x`` (`parse_hub` then says what is wrong)."""
    if _HUB.fullmatch(text) is None or len(known) >= HUB_TEXTS_KEPT:
        return None
    squares = tuple(int(number) for number in re.split("[-x]", text))
    if not all(1 <= square <= variant.square_count for square in squares):
        return None
    known[text] = squares
    return squares


def _letters_after(letters: str, position: Position, move: Move) -> str:
    """The board's letters after `move`, from those before it: only its start, its end and the
    captured squares change (what `board_letters(position)` gives, a square at a time less)."""
    squares = list(letters)
    squares[move.start - 1] = EMPTY
    for square in move.captured:
        squares[square - 1] = EMPTY
    bit = 1 << position.variant.geometry.square_bits[move.end]
    king = position.kings & bit
    squares[move.end - 1] = ("W" if king else "w") if position.white & bit else ("B" if king else "b")
    return "".join(squares)


def pv_text(position: Position, pv: list[str]) -> str:
    """An engine's principal variation in the variant's own move notation (``11-15 23-19 9x18``),
    read move by move from `position`; from the first move that does not read, the rest as sent."""
    shown = []
    for index, text in enumerate(pv):
        try:
            move = parse_hub(position, text)
        except MoveTextError:
            shown.extend(pv[index:])
            break
        shown.append(format_pdn(position, move))
        position = position.play(move)
    return " ".join(shown)


def _resolve(position: Position, hub: str, text: str) -> Move:
    """The move by its Hub text (which names every captured piece), else by its PDN text."""
    try:
        return parse_hub(position, hub)
    except MoveTextError:
        return parse_pdn(position, text)
