"""PDN FEN: ``B:W21-32:B1-12`` (side to move, then each colour's squares; ``K`` marks a king).

Accepted forms: either colour first, ranges (``21-32``), kings as ``K5`` (a range of kings as ``K1-5`` or
``K1-K5``), an optional trailing ``.``,
surrounding quotes and spaces. Written form: side to move, White, then Black, with ranges.
Mule checkers adds a third kind of piece, written like a king with ``M``: ``B:W21-28,M29,M30:BM1,M2,5-12``
(an extension of the arbiter's; FENs without mules are read and written exactly as before).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


class FenError(ValueError):
    """A FEN that cannot be read; the message says what is wrong and where."""


@dataclass(frozen=True)
class FenSetup:
    turn: str  # "W" or "B"
    white_men: frozenset[int]
    white_kings: frozenset[int]
    black_men: frozenset[int]
    black_kings: frozenset[int]
    # The men that are mules (Mule checkers): a subset of the men, so a reader that knows no mules
    # still sees every piece.
    white_mules: frozenset[int] = frozenset()
    black_mules: frozenset[int] = frozenset()


SquareReader = Callable[[str], int | None]
SquareWriter = Callable[[int], str]


def parse_fen(text: str, square_count: int, read_square: SquareReader | None = None) -> FenSetup:
    """Read a FEN for a board with ``square_count`` playable squares.

    ``read_square`` names squares written algebraically (``c3``); numbers and ranges always work.
    """
    original = text
    body = text.strip().strip('"').strip()
    if body.endswith("."):
        body = body[:-1]
    fields = [f.strip() for f in body.split(":")]
    if len(fields) < 1 or fields[0].upper() not in ("W", "B"):
        raise FenError(f"FEN {original!r}: must start with the side to move, W or B")
    turn = fields[0].upper()
    pieces: dict[str, tuple[set[int], set[int]]] = {"W": (set(), set()), "B": (set(), set())}
    mules: dict[str, set[int]] = {"W": set(), "B": set()}
    seen_colours: set[str] = set()
    for field_text in fields[1:]:
        if not field_text:
            continue
        colour = field_text[0].upper()
        if colour not in pieces:
            raise FenError(f"FEN {original!r}: field {field_text!r} must start with W or B")
        if colour in seen_colours:
            raise FenError(f"FEN {original!r}: colour {colour} is listed twice")
        seen_colours.add(colour)
        men, kings = pieces[colour]
        for item in field_text[1:].split(","):
            token = item.strip()
            if not token:
                continue
            prefix = token[0].upper()
            is_king, is_mule = prefix == "K", prefix == "M"
            if is_king or is_mule:
                token = token[1:]
                if not token:
                    raise FenError(f"FEN {original!r}: {item.strip()!r} names no square")
                # A range may mark both ends (``K31-K50``, as dctl's test positions write it).
                first, dash, last = token.partition("-")
                if dash and last[:1].upper() == prefix:
                    token = f"{first}-{last[1:]}"
            for square in _squares(token, original, square_count, read_square):
                if square in pieces["W"][0] | pieces["W"][1] | pieces["B"][0] | pieces["B"][1]:
                    raise FenError(f"FEN {original!r}: square {square} is given twice")
                (kings if is_king else men).add(square)
                if is_mule:
                    mules[colour].add(square)
    return FenSetup(
        turn=turn,
        white_men=frozenset(pieces["W"][0]),
        white_kings=frozenset(pieces["W"][1]),
        black_men=frozenset(pieces["B"][0]),
        black_kings=frozenset(pieces["B"][1]),
        white_mules=frozenset(mules["W"]),
        black_mules=frozenset(mules["B"]),
    )


def _squares(token: str, original: str, square_count: int, read_square: SquareReader | None) -> range:
    if token[:1].isalpha():
        square = read_square(token) if read_square is not None else None
        if square is None:
            raise FenError(f"FEN {original!r}: {token!r} is not a square of this board")
        return range(square, square + 1)
    parts = token.split("-")
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        raise FenError(f"FEN {original!r}: {token!r} is not a square number or range") from None
    if len(numbers) == 1:
        first = last = numbers[0]
    elif len(numbers) == 2:
        first, last = numbers
    else:
        raise FenError(f"FEN {original!r}: {token!r} is not a square number or range")
    for n in (first, last):
        if not 1 <= n <= square_count:
            raise FenError(f"FEN {original!r}: square {n} is off the board (1-{square_count})")
    if last < first:
        raise FenError(f"FEN {original!r}: range {token!r} runs backwards")
    return range(first, last + 1)


def format_fen(setup: FenSetup, square_name: SquareWriter | None = None) -> str:
    """Write a FEN: numbers with ranges, or (given ``square_name``) each square by name.

    Kings (``K``) and mules (``M``) are written one by one; runs of plain men become ranges.
    """

    def side(letter: str, men: frozenset[int], kings: frozenset[int], mules: frozenset[int]) -> str:
        items = [(n, "M" if n in mules else "") for n in men] + [(n, "K") for n in kings]
        items.sort()
        if square_name is not None:
            return letter + ",".join(prefix + square_name(n) for n, prefix in items)
        parts: list[str] = []
        i = 0
        while i < len(items):
            n, prefix = items[i]
            if prefix:
                parts.append(f"{prefix}{n}")
                i += 1
                continue
            j = i
            while j + 1 < len(items) and not items[j + 1][1] and items[j + 1][0] == items[j][0] + 1:
                j += 1
            parts.append(f"{n}-{items[j][0]}" if j > i else str(n))
            i = j + 1
        return letter + ",".join(parts)

    return ":".join(
        [
            setup.turn,
            side("W", setup.white_men, setup.white_kings, setup.white_mules),
            side("B", setup.black_men, setup.black_kings, setup.black_mules),
        ]
    )
