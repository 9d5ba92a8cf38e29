"""Move text: PDN moves (``11-15``, ``15x24``, ``15x24x31``) and Hub moves (``28x19x23``).

PDN lists the squares a piece visits; the full path is written only where two legal moves share a
start and an end. Hub writes start, end, then every captured square. Parsing always resolves the text
against the legal moves of a position, so the result is a legal move or an error that says why.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from arbiter.rules.position import Move, Position
from arbiter.rules.variant import Variant


class MoveTextError(ValueError):
    """Text that matches no legal move, or several."""


_SEPARATORS = re.compile(r"[-x:X×]")


def _listed(texts: Iterable[str]) -> str:
    """Move texts for a refusal's list of what was legal, sorted ("none" for no move)."""
    return ", ".join(sorted(texts)) or "none"


@dataclass(frozen=True)
class _Notation:
    """A variant's square names, and the move texts read so far with their squares: a referee reads
    the same few hundred texts game after game, so each is split and checked once."""

    names: tuple[str, ...]  # index 0 unused; square n -> its name
    read: dict[str, tuple[int, ...]] = field(default_factory=dict)


TEXTS_KEPT = 20_000  # move texts remembered per variant; past that, texts are read every time
_NOTATION: dict[str, tuple[Variant, _Notation]] = {}


def _notation(variant: Variant) -> _Notation:
    # Looked up by id and object identity first, as ``rules.position.tables`` does.
    entry = _NOTATION.get(variant.id)
    if entry is not None and (entry[0] is variant or entry[0] == variant):
        return entry[1]
    built = _Notation(variant.square_names())
    _NOTATION[variant.id] = (variant, built)
    return built


def _squares(text: str, position: Position) -> tuple[int, ...]:
    """The squares of move text, each on the board; a MoveTextError says what is wrong."""
    known = _notation(position.variant).read
    squares = known.get(text)
    if squares is None:
        squares = _read_squares(text, position.variant)
        if len(known) < TEXTS_KEPT:
            known[text] = squares
    return squares


def _read_squares(text: str, variant: Variant) -> tuple[int, ...]:
    body = text.strip()
    parts = _SEPARATORS.split(body)
    if len(parts) < 2 or any(not p.isalnum() for p in parts):
        raise MoveTextError(f"{text!r} is not move text (expected squares joined by '-' or 'x', like 11-15)")
    squares: list[int] = []
    for part in parts:
        square = variant.parse_square(part)
        if square is None:
            if part.isdecimal():
                raise MoveTextError(f"{text!r}: square {part} is off the board (1-{variant.square_count})")
            raise MoveTextError(f"{text!r}: {part!r} is not a square of the {variant.id} board")
        squares.append(square)
    return tuple(squares)


def _is_subsequence(wanted: Sequence[int], path: tuple[int, ...]) -> bool:
    it = iter(path)
    return all(any(p == w for p in it) for w in wanted)


def moves_named(position: Position, squares: Sequence[int]) -> list[Move]:
    """The legal moves that PDN squares name: from the first square to the last, by a path through
    the squares between (in order), if any. One entry means the text names a single move."""
    matches = [m for m in position.legal_moves() if m.start == squares[0] and m.end == squares[-1]]
    if len(squares) > 2:
        # The squares between may follow any of the paths that make up a move, not just the one kept.
        matches = [
            m
            for m in matches
            if any(_is_subsequence(squares[1:-1], path[1:-1]) for path in position.capture_paths(m))
        ]
    if len(matches) > 1:
        # A text that spells one move's whole path names that move (15x8 beside 15x22x31x24x15x8).
        exact = [m for m in matches if tuple(squares) in position.capture_paths(m)]
        if len(exact) == 1:
            return exact
    return matches


def parse_pdn(position: Position, text: str) -> Move:
    """The legal move that PDN text names. Intermediate squares, where given, must lie on its path."""
    matches = moves_named(position, _squares(text, position))
    if not matches:
        legal = _listed(format_pdn(position, m) for m in position.legal_moves())
        raise MoveTextError(f"{text!r} is not a legal move in {position.fen()}; legal moves: {legal}")
    if len(matches) > 1:
        options = ", ".join(sorted(format_pdn(position, m, full_path=True) for m in matches))
        raise MoveTextError(f"{text!r} is ambiguous in {position.fen()}: it matches {options}")
    return matches[0]


def format_pdn(position: Position, move: Move, full_path: bool = False) -> str:
    """PDN text of a legal move, with the full path only where the short form would be ambiguous."""
    # 'x' on every board, algebraic ones too: other programs read it there, while ':' breaks some.
    if move.captured and (full_path or position.shares_start_and_end(move)):
        names = _notation(position.variant).names
        return "x".join(names[s] for s in move.path)
    return move.pdn  # the short form, written once with the move


def parse_hub(position: Position, text: str, allowed: list[Move] | None = None) -> Move:
    """The legal move that Hub text names: start, end, then the captured squares in any order.

    ``allowed`` narrows the position's legal moves by the rules on earlier moves (Frisian's king-move
    limit, from ``Game.legal_moves``); a move they refuse is an error that says so.
    """
    squares = _squares(text, position)
    # The one move the text names is looked for; the others are listed only to explain a refusal.
    m = position.find_move(squares[0], squares[1], squares[2:])
    if m is None:
        moves = position.legal_moves()
        raise MoveTextError(
            f"{text!r} is not a legal move in {position.fen()}{_hub_hint(position, squares)}; "
            # In Hub text, what the engine could have sent: its PDN `13x22` beside a PDN list holding
            # `13x22` would read as a legal move refused.
            f"legal moves: {_listed(m.hub for m in moves)}"
        )
    if allowed is not None and m not in allowed:
        rule = position.variant.history_rule
        raise MoveTextError(
            f"{text!r} is not allowed in {position.fen()}: it breaks {rule}; "
            f"allowed moves: {_listed(m.hub for m in allowed)}"
        )
    return m


def _hub_hint(position: Position, squares: tuple[int, ...]) -> str:
    """For Hub text that names legal captures another way: as PDN (`30x6`, the path `30x13x22x6`) or
    with only some of the captured squares (`30x6x18`, as Scan's own notation tells apart two captures
    with one start and end), what Hub writes for them. Empty when it names no legal move either way."""
    named = moves_named(position, squares)
    how = "as PDN it names"
    if not named and len(squares) > 2:
        some = frozenset(squares[2:])
        named = [
            m
            for m in position.legal_moves()
            if m.start == squares[0] and m.end == squares[1] and some < m.captured
        ]
        how = "with only some of the captured squares it names"
    if not named:
        return ""
    what = f"ambiguous: {how}" if len(named) > 1 else how
    hub = " or ".join(sorted(m.hub for m in named))
    return f" ({what} {hub}; Hub writes a capture as start x end x every captured square)"


def format_hub(move: Move) -> str:
    """Hub text of a move: start, end, then the captured squares ascending (written once with it)."""
    return move.hub
