"""Which variant a PDN game is: from a `Variant` tag naming a rules-core variant (what the writer uses
for variants without a PDN number), its `GameType` tag, the variant the user gave, or else a guess
from the variant of the game before it in the file, the size of the board its squares need (numbers
or coordinates) and its first move. A guess says so, and lists the variants alike (same board,
notation and first mover) for the reader to try when the guess does not replay.

The table below names every PDN game type, supported or not. A game of a type the rules core does not
know yet is reported as "not supported yet"; once the rules core adds that variant under the id given
here, the same files read without any change in this module.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from arbiter.rules import Color, UnknownVariantError, Variant, get_variant
from arbiter.rules.geometry import Geometry


class SquareNotation(StrEnum):
    NUMERIC = "numeric"  # squares numbered 1..N
    ALGEBRAIC = "algebraic"  # file letter and rank number, a1 at White's bottom left


@dataclass(frozen=True)
class GameType:
    """One PDN game type: its number, the rules-core id it maps to, and its board and start."""

    number: int
    variant_id: str
    title: str
    width: int
    height: int
    first_to_move: Color
    rows_of_men: int
    notation: SquareNotation
    guessable: bool = False  # common enough to be guessed for a file without a GameType tag

    @property
    def square_count(self) -> int:
        return self.width * self.height // 2


_W, _B = Color.WHITE, Color.BLACK
_N, _A = SquareNotation.NUMERIC, SquareNotation.ALGEBRAIC

# PDN 3.0 game types. Ordered by preference when a guess fits several (English before pool, the
# supported international game before Frisian on the same board).
GAME_TYPES: tuple[GameType, ...] = (
    GameType(21, "english", "English draughts", 8, 8, _B, 3, _N, guessable=True),
    GameType(20, "international", "International draughts", 10, 10, _W, 4, _N, guessable=True),
    GameType(25, "russian", "Russian draughts", 8, 8, _W, 3, _A, guessable=True),
    GameType(26, "brazilian", "Brazilian draughts", 8, 8, _W, 3, _A, guessable=True),
    GameType(29, "czech", "Czech draughts", 8, 8, _W, 3, _A, guessable=True),
    GameType(22, "italian", "Italian draughts", 8, 8, _W, 3, _N, guessable=True),
    GameType(23, "pool", "Pool checkers", 8, 8, _B, 3, _N),
    GameType(24, "spanish", "Spanish draughts", 8, 8, _W, 3, _N),
    GameType(28, "portuguese", "Portuguese draughts", 8, 8, _W, 3, _N),
    GameType(27, "canadian", "Canadian draughts", 12, 12, _W, 5, _N, guessable=True),
    GameType(40, "frisian", "Frisian draughts", 10, 10, _W, 4, _N),
    GameType(30, "turkish", "Turkish draughts", 8, 8, _W, 2, _A),
    GameType(31, "thai", "Thai draughts", 8, 8, _W, 2, _A),
    GameType(41, "spantsiretti", "Spantsiretti", 10, 8, _W, 3, _N),
)
GAME_TYPES_BY_NUMBER = {g.number: g for g in GAME_TYPES}
GAME_TYPES_BY_ID = {g.variant_id: g for g in GAME_TYPES}


def game_type_of(variant: Variant) -> GameType | None:
    """The PDN game type of a rules-core variant (by its `pdn_gametype`, else by its id)."""
    if variant.pdn_gametype is not None and variant.pdn_gametype in GAME_TYPES_BY_NUMBER:
        return GAME_TYPES_BY_NUMBER[variant.pdn_gametype]
    return GAME_TYPES_BY_ID.get(variant.id)


@dataclass(frozen=True)
class VariantFinding:
    """What the reader decided about a game's variant."""

    variant_id: str | None  # None when nothing fits
    title: str
    guessed: bool
    how: str  # a sentence for the user: where the answer came from
    problem: str | None = None  # a broken GameType tag, for the reader to report
    alternatives: tuple[GameType, ...] = ()  # other guesses that fit as well, best first

    @property
    def variant(self) -> Variant | None:
        return _known_variant(self.variant_id) if self.variant_id else None


_GAMETYPE = re.compile(r"^\s*(\d+)\s*(?:,(.*))?$")
_ALGEBRAIC_SQUARE = re.compile(r"^([a-lA-L])(1[0-2]|[1-9])$")
_SQUARE_TEXT = re.compile(r"[a-lA-L](?:1[0-2]|[1-9])|\d+")


def parse_game_type(value: str) -> tuple[GameType | None, str | None]:
    """The game type a `GameType` tag names, or None and why not.

    Short form `21`, or the long form `21,B,8,8,N1,0` (first mover, width, height, notation, inversion).
    """
    match = _GAMETYPE.match(value)
    if not match:
        return None, f"GameType {value!r} does not start with a game type number"
    number = int(match.group(1))
    game_type = GAME_TYPES_BY_NUMBER.get(number)
    if game_type is None:
        known = ", ".join(f"{g.number} {g.title}" for g in sorted(GAME_TYPES, key=lambda g: g.number))
        return None, f"GameType {number} is not a PDN game type this reader knows ({known})"
    return game_type, None


@dataclass(frozen=True)
class BoardExtent:
    """How much board a game's squares need: the highest square number, or for coordinates the
    furthest file and rank."""

    highest: int = 0
    algebraic: bool = False
    files: int = 0
    ranks: int = 0

    def fits(self, game_type: GameType) -> bool:
        if self.algebraic:
            return self.files <= game_type.width and self.ranks <= game_type.height
        return self.highest <= game_type.square_count

    def describe(self) -> str:
        if self.algebraic:
            return f"coordinates up to file {chr(ord('a') + self.files - 1)} and rank {self.ranks}"
        return f"squares up to {self.highest}" if self.highest else "no squares"


def board_extent(fen: str | None, move_texts: Sequence[str]) -> BoardExtent:
    """The board that the squares of a game's FEN and moves (as written) need."""
    highest = files = ranks = 0
    algebraic = False
    texts = list(move_texts)
    if fen:
        # Each field after the side to move is a colour letter, then squares (K marks a king).
        for piece_field in fen.strip().strip('"').split(":")[1:]:
            texts.extend(item.strip().lstrip("Kk") for item in piece_field.strip()[1:].split(","))
    for text in texts:
        for square in _SQUARE_TEXT.findall(text):
            if square[0].isdigit():
                highest = max(highest, int(square))
            else:
                algebraic = True
                files = max(files, ord(square[0].lower()) - ord("a") + 1)
                ranks = max(ranks, int(square[1:]))
    return BoardExtent(highest, algebraic, files, ranks)


def _square_row(geometry: Geometry, text: str) -> int | None:
    """The row (0 at the top, as drawn from White's side) of a square written as a number or a
    coordinate; None when it is not a playable square of the board."""
    if text[0].isdigit():
        number = int(text)
        if not 1 <= number <= geometry.square_count:
            return None
        return geometry.row_col(number)[0]
    match = _ALGEBRAIC_SQUARE.match(text)
    if not match:
        return None
    row = geometry.height - int(match.group(2))
    if geometry.square_at(row, ord(match.group(1).lower()) - ord("a")) is None:
        return None
    return row


@cache
def _geometry(width: int, height: int) -> Geometry:
    return Geometry(width, height)


def could_open(game_type: GameType, move_text: str) -> bool:
    """Whether ``move_text`` could be the first move of a game of this type from its start position:
    it starts on a man of the side that moves first and ends on an empty square."""
    squares = _SQUARE_TEXT.findall(move_text)
    if len(squares) < 2:
        return False
    geometry = _geometry(game_type.width, game_type.height)
    start, end = _square_row(geometry, squares[0]), _square_row(geometry, squares[-1])
    if start is None or end is None:
        return False
    rows = game_type.rows_of_men
    white_rows = range(geometry.height - rows, geometry.height)
    black_rows = range(rows)
    own = white_rows if game_type.first_to_move is Color.WHITE else black_rows
    return start in own and end not in white_rows and end not in black_rows


def find_variant(
    tags: dict[str, str],
    fen: str | None,
    move_texts: Sequence[str],
    default: str | None = None,
    before: VariantFinding | None = None,
) -> VariantFinding:
    """The variant of a game from its tags, its FEN and its moves (as written).

    Order: the GameType tag; the variant the user gave; the variant of the game before it in the same
    file, where this game fits it (a file rarely mixes variants, and a short problem fits many boards);
    then a guess from the board its squares need and its first move.
    """
    problem: str | None = None
    named = tag_value(tags, "Variant")
    if named is not None:
        # The rules-core id, as this project writes for variants that have no PDN game type.
        known = _known_variant(named)
        if known is not None:
            return VariantFinding(known.id, known.title, False, f"Variant {named}")
    game_type_tag = tag_value(tags, "GameType")
    if game_type_tag is not None:
        game_type, problem = parse_game_type(game_type_tag)
        if game_type is not None:
            return VariantFinding(game_type.variant_id, game_type.title, False, f"GameType {game_type_tag}")
    if default is not None:
        known = _known_variant(default)
        listed = GAME_TYPES_BY_ID.get(default)
        title = known.title if known else listed.title if listed else default
        return VariantFinding(default, title, False, "the variant given by the user", problem)
    extent = board_extent(fen, move_texts)
    notation = SquareNotation.ALGEBRAIC if extent.algebraic else SquareNotation.NUMERIC
    first = move_texts[0] if move_texts and not fen else None  # from a FEN, either side may move first
    squareless = not extent.algebraic and extent.highest == 0  # no FEN, no moves: any board will do
    fits = [
        g for g in GAME_TYPES if g.guessable and (squareless or g.notation is notation) and extent.fits(g)
    ]
    if not fits:
        return VariantFinding(None, "unknown", True, f"no PDN board has {extent.describe()}", problem)
    # The smallest board that holds every square, among those where the first move could open a game
    # (32-28 fits an 8x8 board but is White's first move in international).
    openers = [g for g in fits if first is None or could_open(g, first)] or fits
    smallest = min(g.square_count for g in openers)
    ranked = [g for g in openers if g.square_count == smallest] + [
        g for g in openers if g.square_count != smallest
    ]
    evidence = [extent.describe()]
    if first is not None and openers is not fits:
        evidence.append(f"first move {first} by {ranked[0].first_to_move.name.lower()}")
    best = ranked[0]
    how = f"guessed {best.title} from the game ({', '.join(evidence)})"
    if before is not None and before.variant_id in GAME_TYPES_BY_ID:
        previous = GAME_TYPES_BY_ID[before.variant_id]
        if previous in fits and (first is None or could_open(previous, first)):
            best = previous
            how = f"guessed {previous.title} as for the game before it in the file ({extent.describe()})"
    # Boards alike in size, notation and first mover: the reader tries these in turn when the guess does
    # not replay (Russian and Brazilian files look the same).
    alike = [
        g
        for g in ranked
        if g is not best
        and (g.width, g.height, g.first_to_move, g.notation)
        == (best.width, best.height, best.first_to_move, best.notation)
    ]
    return VariantFinding(
        best.variant_id, best.title, True, how + "; add a GameType tag to be sure", problem, tuple(alike)
    )


def _known_variant(name: str) -> Variant | None:
    try:
        return get_variant(name.strip().lower())
    except UnknownVariantError:
        return None


def tag_value(tags: dict[str, str], name: str) -> str | None:
    """A tag's value whatever the case of its name (files write both SetUp and Setup)."""
    if name in tags:
        return tags[name]
    lowered = name.lower()
    for key, value in tags.items():
        if key.lower() == lowered:
            return value
    return None
