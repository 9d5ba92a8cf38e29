"""A game record replayed through the rules core: the board before the first move and after each one.

The viewer shows these boards as they are; it knows no rules. A record whose moves stop replaying
(a damaged database, a variant this version does not know) keeps the boards up to the last move that
replays, and says which move failed and why.

The publisher of a running event is handed the positions the referee went through (`PLAYED_FIELDS`
numbers a position, see `played_values`); a game's page is then made from them, checked against its
record square by square, without working out any position's legal moves again (most of a replay's
cost).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from arbiter.notation.movetext import MoveTextError, format_pdn, parse_hub, parse_pdn
from arbiter.referee.record import GameRecord, Side
from arbiter.rules import Color, Move, Position, UnknownVariantError, Variant, get_variant
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
    steps: tuple[tuple[int, int], ...] = ()
    """Where each replayed move starts and ends."""
    written: bool = False
    """Made from the referee's own positions: `moves` is empty, and each move's text in the record is
    the variant's notation of it (the referee wrote it from the move), to be written as it is."""


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


def replay(record: GameRecord, played: Sequence[int] | None = None) -> Replay:
    """The boards of `record`, replayed from its start position; from `played`, the positions the
    referee went through (`played_values`), when they fit the record."""
    variant = variant_of(record.variant)
    if variant is None:
        return Replay(
            None, (), (), True, fault=f"the variant {record.variant!r} is not known to this version"
        )
    try:
        position = _start_of(variant, record.start_fen)
    except (FenError, ValueError) as error:
        return Replay(variant, (), (), True, fault=f"start position {record.start_fen!r}: {error}")
    if played is not None:
        known = _from_played(record, position, played)
        if known is not None:
            return known
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
        found = None if squares is None else position.find_move(squares[0], squares[1], squares[2:])
        if found is None:  # not Hub text of a legal move: read as PDN, or say why not
            try:
                found = _resolve(position, move.hub, move.text)
            except MoveTextError as error:
                fault = f"ply {move.ply} ({move.text}) does not replay: {error}"
                break
        position = position.play(found)
        positions.append(position)
        letters = _letters_after(letters, position, found.start, found.end, found.captured)
        boards.append(letters)
        mules.append(tuple(position.mule_squares()) if position.mules else ())
        moves.append(found)
    has_mules = any(mules)
    return Replay(
        variant,
        tuple(boards),
        tuple(moves),
        first,
        fault=fault,
        mules=tuple(mules) if has_mules else (),
        positions=tuple(positions),
        steps=tuple((move.start, move.end) for move in moves),
    )


@lru_cache(maxsize=1024)
def _start_of(variant: Variant, fen: str) -> Position:
    """The position of `fen`, read once: an event's games start from a few positions (a position never
    changes, so one can serve every game that starts there)."""
    return Position.from_fen(variant, fen)


PLAYED_FIELDS = 6


def played_values(position: Position) -> tuple[int, int, int, int, bool, int]:
    """A position as the referee's positions are handed to the publisher: its bitboards (white, black,
    kings, mules), whether White is to move, and its hash."""
    return (
        position.white,
        position.black,
        position.kings,
        position.mules,
        position.turn is Color.WHITE,
        position.zobrist,
    )


def played_positions(positions: Iterable[Position]) -> tuple[int, ...]:
    """`played_values` of each position, one after the other (made at the end of every game by the
    process that times the engines: written out rather than through a call a position)."""
    white = Color.WHITE
    values: list[int] = []
    for each in positions:
        values += (each.white, each.black, each.kings, each.mules, each.turn is white, each.zobrist)
    return tuple(values)


def _from_played(record: GameRecord, start: Position, played: Sequence[int]) -> Replay | None:
    """The replay of `record` from the positions the referee went through (its start, then the one
    after each move), or None when they do not fit it: each move's squares (its Hub text) must be
    the only ones that changed, the mover's piece gone from its start and on its end, what it took
    gone, and the side to move changed."""
    moves = record.moves
    if len(played) != PLAYED_FIELDS * (len(moves) + 1):
        return None
    if tuple(played[:PLAYED_FIELDS]) != played_values(start):
        return None
    variant = start.variant
    named = _hub_squares(variant)
    bits = variant.geometry.square_bits
    letters = board_letters(start)
    boards, positions, steps = [letters], [start], []
    mules = [tuple(start.mule_squares()) if start.mules else ()]
    before = start
    for index, move in enumerate(moves):
        squares = named.get(move.hub) or _read_hub(named, variant, move.hub)
        if squares is None:
            return None
        at = PLAYED_FIELDS * (index + 1)
        white, black, kings, mule_bits, white_to_move, zobrist = played[at : at + PLAYED_FIELDS]
        mover_is_white = before.turn is Color.WHITE
        from_bit, to_bit = 1 << bits[squares[0]], 1 << bits[squares[1]]
        taken = 0
        for square in squares[2:]:
            taken |= 1 << bits[square]
        changed = (before.white ^ white) | (before.black ^ black) | (before.kings ^ kings)
        own = white if mover_is_white else black
        if (
            bool(white_to_move) is mover_is_white
            or move.side is not (Side.WHITE if mover_is_white else Side.BLACK)
            or not (before.white if mover_is_white else before.black) & from_bit
            or not own & to_bit
            or changed & ~(from_bit | to_bit | taken)
            or (white | black) & taken
            or (from_bit != to_bit and (white | black) & from_bit)
        ):
            return None
        turn = Color.WHITE if white_to_move else Color.BLACK
        position = Position(variant, white, black, kings, turn, zobrist, mules=mule_bits)
        letters = _letters_after(letters, position, squares[0], squares[1], squares[2:])
        boards.append(letters)
        positions.append(position)
        mules.append(tuple(position.mule_squares()) if position.mules else ())
        steps.append((squares[0], squares[1]))
        before = position
    return Replay(
        variant,
        tuple(boards),
        (),
        start.turn is variant.first_to_move,
        mules=tuple(mules) if any(mules) else (),
        positions=tuple(positions),
        steps=tuple(steps),
        written=True,
    )


_HUB = re.compile(r"[0-9]+(?:[-x][0-9]+)+")


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


def _letters_after(letters: str, position: Position, start: int, end: int, captured: Iterable[int]) -> str:
    """The board's letters after a move from `start` to `end` taking `captured`, from those before
    it: only those squares change (what `board_letters(position)` gives, a square at a time less)."""
    squares = list(letters)
    squares[start - 1] = EMPTY
    for square in captured:
        squares[square - 1] = EMPTY
    bit = 1 << position.variant.geometry.square_bits[end]
    king = position.kings & bit
    squares[end - 1] = ("W" if king else "w") if position.white & bit else ("B" if king else "b")
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
