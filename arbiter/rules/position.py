"""Positions (immutable, hashable) and moves in square numbers."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from arbiter.rules.draws import Material
from arbiter.rules.fen import FenError, FenSetup, format_fen, parse_fen
from arbiter.rules.geometry import Color
from arbiter.rules.movegen import MoveGenerator, RawMove, apply_raw, generator_for, mules_after
from arbiter.rules.variant import Notation, Variant


class Piece(StrEnum):
    """Pieces, spelled as in Hub position strings.

    A mule (Mule checkers) is a man here: Hub strings have no letter for it, and it moves like a man.
    ``Position.is_mule`` tells them apart.
    """

    WHITE_MAN = "w"
    WHITE_KING = "W"
    BLACK_MAN = "b"
    BLACK_KING = "B"

    @property
    def color(self) -> Color:
        return Color.WHITE if self in (Piece.WHITE_MAN, Piece.WHITE_KING) else Color.BLACK

    @property
    def is_king(self) -> bool:
        return self in (Piece.WHITE_KING, Piece.BLACK_KING)


class HubPositionError(ValueError):
    """A Hub position string that cannot be read."""


@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """One whole turn. Identity is (start, end, captured set): equal sequences are one move.

    A variant's moves are made once and kept (``Position``), so each carries its texts, written then:
    ``hub``, the Hub text (start, end, then the captured squares ascending: ``28x19x23``), and ``pdn``,
    the short PDN text in the variant's square names (``11-15``, ``15x24``, ``c3xe5``).
    """

    start: int
    end: int
    captured: frozenset[int]
    path: tuple[int, ...]  # squares visited, start first, end last
    crowns: bool
    raw: RawMove = field(repr=False)
    hub: str = field(repr=False)
    pdn: str = field(repr=False)

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    @property
    def key(self) -> tuple[int, int, frozenset[int]]:
        return (self.start, self.end, self.captured)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


@dataclass(frozen=True)
class _Tables:
    generator: MoveGenerator
    zobrist: tuple[
        tuple[int, int, int, int], ...
    ]  # per bit index: white man, white king, black man, black king
    zobrist_black_to_move: int
    # per bit index: white mule, black mule; a mule's key is its man key xor this one
    zobrist_mules: tuple[tuple[int, int], ...]
    # per square: its single-bit mask (0 at index 0, which names no square)
    square_masks: tuple[int, ...]
    # per square (index 0 unused): its name in notation, as ``Variant.square_name`` writes it
    square_names: tuple[str, ...]
    # The moves made so far from raw moves: a raw move names the whole move whatever the position, and
    # a game repeats a few hundred of them, so each is made once (up to MOVES_KEPT of them).
    moves: dict[RawMove, Move] = field(default_factory=dict)


MOVES_KEPT = 100_000
_TABLES: dict[str, tuple[Variant, _Tables]] = {}
_STARTS: dict[str, tuple[Variant, Position]] = {}


def tables(variant: Variant) -> _Tables:
    """The move generator and hash keys of a variant, built once.

    Looked up by id and object identity first: hashing the whole frozen description on every call
    would cost more than the lookup it saves.
    """
    entry = _TABLES.get(variant.id)
    if entry is not None and (entry[0] is variant or entry[0] == variant):
        return entry[1]
    built = _build_tables(variant)
    _TABLES[variant.id] = (variant, built)
    return built


def _build_tables(variant: Variant) -> _Tables:
    rng = random.Random(f"arbiter-zobrist-{variant.id}")
    size = variant.geometry.stride * variant.geometry.height
    keys = tuple(tuple(rng.getrandbits(64) for _ in range(4)) for _ in range(size))
    black_to_move = rng.getrandbits(64)
    # Drawn after the others, so the keys of variants without mules are what they always were.
    mule_keys = tuple((rng.getrandbits(64), rng.getrandbits(64)) for _ in range(size))
    masks = (0, *(1 << bit for bit in variant.geometry.square_bits[1:]))
    names = variant.square_names()
    return _Tables(generator_for(variant), keys, black_to_move, mule_keys, masks, names)  # type: ignore[arg-type]


def _zobrist(t: _Tables, white: int, black: int, kings: int, turn: Color, mules: int = 0) -> int:
    h = t.zobrist_black_to_move if turn is Color.BLACK else 0
    for bb, base in ((white, 0), (black, 2)):
        while bb:
            low = bb & -bb
            bb ^= low
            i = low.bit_length() - 1
            h ^= t.zobrist[i][base + (1 if low & kings else 0)]
    for bb, colour in ((mules & white, 0), (mules & black, 1)):
        while bb:
            low = bb & -bb
            bb ^= low
            h ^= t.zobrist_mules[low.bit_length() - 1][colour]
    return h


class Position:
    """A position of one variant: the pieces and the side to move. Immutable and hashable.

    The hash is a Zobrist key kept incrementally by ``play``, so repetition checks cost nothing extra.
    ``mules`` (Mule checkers) marks the men of either colour that are mules; they move and are moved
    exactly like men, so move generation ignores the mark and only the game-end rules read it.
    """

    __slots__ = (
        "variant",
        "white",
        "black",
        "kings",
        "mules",
        "turn",
        "zobrist",
        "_tables",
        "_split",
        "_count",
        "_raws",
        "_moves",
        "_hub",
        "_found",
    )

    variant: Variant
    white: int
    black: int
    kings: int
    mules: int
    turn: Color
    zobrist: int
    _tables: _Tables  # the variant's, kept here: looked up once per game, not on every question
    # What a referee asks of each position, built once and only as far as asked: the legal captures
    # and whether quiet moves are legal too (they are counted and matched, not listed), the number of
    # legal moves (-1 until asked), all the raw legal moves, and the same as Move objects.
    _split: tuple[list[RawMove], bool] | None
    _count: int
    _raws: list[RawMove] | None
    _moves: list[Move] | None
    # The Hub string once written; a position played from one whose string is known gets its own by
    # changing the few letters the move changed (a referee sends nearly every position it reaches).
    _hub: str | None
    _found: RawMove | None  # the raw move of the last move ``find_move`` found: known to be legal here

    def __init__(
        self,
        variant: Variant,
        white: int,
        black: int,
        kings: int,
        turn: Color,
        zobrist: int | None = None,
        *,
        mules: int = 0,
    ) -> None:
        if mules and mules & ~((white | black) & ~kings):
            raise ValueError("a mule must be a man: the mules bitboard holds a square with no man")
        t = tables(variant)
        if zobrist is None:
            zobrist = _zobrist(t, white, black, kings, turn, mules)
        if type(self) is not Position:  # a subclass's own slots: set one at a time
            values = (variant, white, black, kings, mules, turn, zobrist, t, None, -1, None, None, None, None)
            for name, value in zip(Position.__slots__, values, strict=True):
                object.__setattr__(self, name, value)
            return
        # Filled in as ``_position`` fills a new one (a game page builds one for every ply it shows).
        object.__setattr__(self, "__class__", _Building)
        self.variant, self.white, self.black, self.kings, self.mules = variant, white, black, kings, mules
        self.turn, self.zobrist, self._tables, self._hub = turn, zobrist, t, None
        self._split, self._count, self._raws, self._moves, self._found = None, -1, None, None, None
        object.__setattr__(self, "__class__", Position)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    # ------------------------------------------------------------------ construction

    @classmethod
    def start(cls, variant: Variant) -> Position:
        # Made once per variant (a position never changes): writers compare every game's start with it.
        entry = _STARTS.get(variant.id)
        if entry is not None and (entry[0] is variant or entry[0] == variant):
            return entry[1]
        position = cls.from_fen(variant, variant.start_fen())
        _STARTS[variant.id] = (variant, position)
        return position

    @classmethod
    def from_fen(cls, variant: Variant, text: str) -> Position:
        setup = parse_fen(text, variant.square_count, variant.geometry.square_from_algebraic)
        if (setup.white_mules or setup.black_mules) and not variant.has_mules:
            raise FenError(f"FEN {text!r}: {variant.id} has no mules (M), only Mule checkers does")
        crowned = _men_on_crowning_row(variant, setup)
        if crowned:
            color, square = crowned[0]
            name = variant.square_name(square)
            others = [f"{other.name.lower()} {variant.square_name(at)}" for other, at in crowned[1:]]
            raise FenError(
                f"FEN {text!r}: the {color.name.lower()} man on {name} stands on the row where "
                f"{color.name.capitalize()}'s men are crowned: a man there is a king (K{name})"
                + (f"; so do {', '.join(others)}" if others else "")
            )
        return cls._from_setup(variant, setup)

    @classmethod
    def _from_setup(cls, variant: Variant, setup: FenSetup) -> Position:
        g = variant.geometry
        white = g.bits_of(sorted(setup.white_men | setup.white_kings))
        black = g.bits_of(sorted(setup.black_men | setup.black_kings))
        kings = g.bits_of(sorted(setup.white_kings | setup.black_kings))
        mules = g.bits_of(sorted(setup.white_mules | setup.black_mules))
        return cls(variant, white, black, kings, Color.from_letter(setup.turn), mules=mules)

    @classmethod
    def from_hub(cls, variant: Variant, text: str) -> Position:
        """Read a Hub position: the side to move, then one letter per square (w b W B e).

        Hub has no letter for a mule, so a position read from Hub has none.
        """
        s = text.strip()
        n = variant.square_count
        if len(s) != n + 1:
            raise HubPositionError(
                f"Hub position {text!r} has {len(s)} letters; {variant.id} needs {n + 1} (side to move + {n})"
            )
        if s[0] not in "WB":
            raise HubPositionError(f"Hub position {text!r}: first letter must be W or B, not {s[0]!r}")
        sets: dict[str, set[int]] = {"w": set(), "W": set(), "b": set(), "B": set()}
        for square, letter in enumerate(s[1:], start=1):
            if letter == "e":
                continue
            if letter not in sets:
                raise HubPositionError(
                    f"Hub position {text!r}: letter {letter!r} at square {square} is not one of w b W B e"
                )
            sets[letter].add(square)
        setup = FenSetup(
            s[0], frozenset(sets["w"]), frozenset(sets["W"]), frozenset(sets["b"]), frozenset(sets["B"])
        )
        return cls._from_setup(variant, setup)

    # ------------------------------------------------------------------ reading

    def piece_at(self, square: int) -> Piece | None:
        bit = 1 << self.variant.geometry.square_bits[square]
        if self.white & bit:
            return Piece.WHITE_KING if self.kings & bit else Piece.WHITE_MAN
        if self.black & bit:
            return Piece.BLACK_KING if self.kings & bit else Piece.BLACK_MAN
        return None

    def is_mule(self, square: int) -> bool:
        """Whether the piece on ``square`` is a mule (``piece_at`` reports a mule as a man)."""
        return bool(self.mules >> self.variant.geometry.square_bits[square] & 1)

    def with_mules(self, squares: Iterable[int]) -> Position:
        """This position with the men on ``squares`` marked as mules (the Hub ``mules=`` key).

        Raises ValueError for a square off the board or one that holds no man."""
        g = self.variant.geometry
        mules = 0
        for square in squares:
            if not 1 <= square <= self.variant.square_count:
                raise ValueError(f"square {square} is not on the {self.variant.id} board")
            bit = 1 << g.square_bits[square]
            if not (self.white | self.black) & ~self.kings & bit:
                raise ValueError(f"square {square} holds no man, so it cannot hold a mule")
            mules |= bit
        return Position(self.variant, self.white, self.black, self.kings, self.turn, mules=mules)

    def mule_squares(self, color: Color | None = None) -> list[int]:
        """The squares of ``color``'s mules (of both sides' without one), ascending."""
        own = self.white | self.black if color is None else self.white if color is Color.WHITE else self.black
        return self.variant.geometry.squares_of(own & self.mules)

    def squares(self, piece: Piece) -> list[int]:
        own = self.white if piece.color is Color.WHITE else self.black
        bb = own & self.kings if piece.is_king else own & ~self.kings
        return self.variant.geometry.squares_of(bb)

    def material(self) -> Material:
        k = self.kings
        return Material(
            white_men=(self.white & ~k).bit_count(),
            white_kings=(self.white & k).bit_count(),
            black_men=(self.black & ~k).bit_count(),
            black_kings=(self.black & k).bit_count(),
        )

    def setup(self) -> FenSetup:
        g = self.variant.geometry
        k = self.kings
        return FenSetup(
            turn=self.turn.letter,
            white_men=frozenset(g.squares_of(self.white & ~k)),
            white_kings=frozenset(g.squares_of(self.white & k)),
            black_men=frozenset(g.squares_of(self.black & ~k)),
            black_kings=frozenset(g.squares_of(self.black & k)),
            white_mules=frozenset(g.squares_of(self.white & self.mules)),
            black_mules=frozenset(g.squares_of(self.black & self.mules)),
        )

    def fen(self) -> str:
        algebraic = self.variant.notation is Notation.ALGEBRAIC
        return format_fen(self.setup(), self.variant.square_name if algebraic else None)

    def hub(self) -> str:
        """The Hub position string. Hub has no mule letter: a mule is written as a man (``w``/``b``)."""
        text = self._hub
        if text is None:
            text = self._write_hub()
            object.__setattr__(self, "_hub", text)
        return text

    def _write_hub(self) -> str:
        white, black, kings = self.white, self.black, self.kings
        letters = ["B" if self.turn else "W"]
        append = letters.append
        # Straight off the bitboards, square by square (a played position's is its parent's, changed).
        for bit in self._tables.square_masks[1:]:
            if white & bit:
                append("W" if kings & bit else "w")
            elif black & bit:
                append("B" if kings & bit else "b")
            else:
                append("e")
        return "".join(letters)

    # ------------------------------------------------------------------ moves

    def _captures_and_quiet(self) -> tuple[list[RawMove], bool]:
        split = self._split
        if split is None:
            split = self._tables.generator.captures_and_quiet(self.white, self.black, self.kings, self.turn)
            object.__setattr__(self, "_split", split)
        return split

    def _raw_moves(self) -> list[RawMove]:
        raws = self._raws
        if raws is None:
            gen = self._tables.generator
            split = self._split
            if split is None:
                raws = gen.legal_moves(self.white, self.black, self.kings, self.turn)
            else:  # the captures are known: the quiet moves follow them where they are legal
                caps, quiet = split
                raws = caps
                if quiet:
                    raws = caps + gen.quiet_moves(self.white, self.black, self.kings, self.turn)
            object.__setattr__(self, "_raws", raws)
        return raws

    def legal_moves(self) -> list[Move]:
        if self._moves is None:
            object.__setattr__(self, "_moves", [self._move_of(raw) for raw in self._raw_moves()])
        assert self._moves is not None
        return list(self._moves)

    # What a referee asks of every position, answered without listing the quiet moves or building a
    # Move for each: how many there are, whether they capture, and the one an engine named.

    def legal_move_count(self) -> int:
        count = self._count
        if count < 0:
            if self._raws is not None:
                count = len(self._raws)
            else:
                caps, quiet = self._captures_and_quiet()
                count = len(caps)
                if quiet:
                    gen = self._tables.generator
                    count += gen.count_quiet_moves(self.white, self.black, self.kings, self.turn)
            object.__setattr__(self, "_count", count)
        return count

    def has_capture(self) -> bool:
        """Whether the legal moves capture (where capturing is optional: whether some move does)."""
        split = self._split  # known by now in a referee's game (it counted the moves): no call
        return bool((split if split is not None else self._captures_and_quiet())[0])

    def find_move(self, start: int, end: int, captured: Iterable[int] = ()) -> Move | None:
        """The legal move from ``start`` to ``end`` that captures exactly the squares ``captured``
        (in any order), or None when no legal move does. Squares must be on the board."""
        masks = self._tables.square_masks
        taken = 0
        for square in captured:
            taken |= masks[square]
        raw = self._legal_raw(masks[start], masks[end], taken)
        if raw is None:
            return None
        move = self._tables.moves.get(raw)  # made before, nearly always: ``_move_of`` without the call
        if move is None:
            move = self._move_of(raw)
        object.__setattr__(self, "_found", move.raw)  # playing it next need not check it again
        return move

    def _legal_raw(self, from_bit: int, to_bit: int, taken: int) -> RawMove | None:
        """The legal raw move with this start, end and captured mask, or None."""
        split = self._split  # known by now in a referee's game (it counted the moves): no call
        caps, quiet = split if split is not None else self._captures_and_quiet()
        if taken:
            for raw in caps:
                if raw[0] == from_bit and raw[1] == to_bit and raw[2] == taken:
                    return raw
            return None
        if not quiet:
            return None
        gen = self._tables.generator
        return gen.quiet_move(self.white, self.black, self.kings, self.turn, from_bit, to_bit)

    def _move_of(self, raw: RawMove) -> Move:
        """The move named by ``raw``, made once per variant and kept (up to MOVES_KEPT of them)."""
        known = self._tables.moves
        move = known.get(raw)
        if move is None:
            move = self._to_move(raw)
            if len(known) < MOVES_KEPT:
                known[raw] = move
        return move

    def shares_start_and_end(self, move: Move) -> bool:
        """Whether another legal move has ``move``'s start and end (PDN must then spell its path)."""
        raws = self._raw_moves()
        if len(raws) < 2:  # most often a capture is forced and alone
            return False
        from_bit, to_bit = move.raw[0], move.raw[1]
        return sum(1 for raw in raws if raw[0] == from_bit and raw[1] == to_bit) > 1

    def _is_legal(self, raw: RawMove) -> bool:
        raws = self._raws
        if raws is None:
            caps = self._captures_and_quiet()[0]
            # A capture found in this position carries one of these very tuples: the C-level look-up
            # finds it at once; anything else is matched on its start, end and captures.
            return raw in caps or self._legal_raw(raw[0], raw[1], raw[2]) is not None
        return raw in raws or any(r[0] == raw[0] and r[1] == raw[1] and r[2] == raw[2] for r in raws)

    def capture_paths(self, move: Move) -> list[tuple[int, ...]]:
        """Every path (squares visited) by which ``move`` can be played; a capture may have several."""
        if not move.is_capture:
            return [move.path]
        g = self.variant.geometry
        gen = self._tables.generator
        found = gen.capture_paths(
            self.white, self.black, self.kings, int(self.turn), g.square_bits[move.start]
        )
        paths = []
        for path, _, taken, _ in found:
            squares = tuple(g.bit_squares[i] for i in path)
            if squares[-1] == move.end and frozenset(g.squares_of(taken)) == move.captured:
                paths.append(squares)
        return paths or [move.path]

    def _to_move(self, raw: RawMove) -> Move:
        squares = self.variant.geometry.bit_squares
        fb, tb, cm, crowns, path = raw
        captured: set[int] = set()
        while cm:
            low = cm & -cm
            cm ^= low
            captured.add(squares[low.bit_length() - 1])
        start, end = squares[fb.bit_length() - 1], squares[tb.bit_length() - 1]
        names = self._tables.square_names
        if captured:
            hub = "x".join(str(square) for square in (start, end, *sorted(captured)))
            pdn = f"{names[start]}x{names[end]}"
        else:
            hub = f"{start}-{end}"
            pdn = f"{names[start]}-{names[end]}"
        return Move(
            start=start,
            end=end,
            captured=frozenset(captured),
            path=tuple(squares[i] for i in path),
            crowns=crowns,
            raw=raw,
            hub=hub,
            pdn=pdn,
        )

    def play(self, move: Move) -> Position:
        """The position after ``move``, which must be one of ``legal_moves()``."""
        raw = move.raw
        if raw is not self._found and not self._is_legal(raw):
            raise ValueError(f"{move.path} is not a legal move in {self.fen()}")
        t = self._tables
        turn = self.turn
        fb, tb, cm, _, path = raw
        white, black, kings = apply_raw(self.white, self.black, self.kings, turn, raw)
        # Incremental hash: only the moved piece, the captured pieces and the side to move change.
        z = t.zobrist
        mover = 2 if turn else 0
        h = self.zobrist ^ t.zobrist_black_to_move
        h ^= z[path[0]][mover + (1 if self.kings & fb else 0)]  # the path's ends: the bits of fb and tb
        h ^= z[path[-1]][mover + (1 if kings & tb else 0)]
        victim = 2 - mover
        mules = self.mules
        if mules:
            # The hash changes with each square a mule's mark left or reached, keyed by the mule's colour.
            mules = mules_after(mules, raw)
            changed = self.mules ^ mules
            zm = t.zobrist_mules
            while changed:
                low = changed & -changed
                changed ^= low
                h ^= zm[low.bit_length() - 1][0 if low & (self.white | white) else 1]
        while cm:
            low = cm & -cm
            cm ^= low
            h ^= z[low.bit_length() - 1][victim + (1 if self.kings & low else 0)]
        text = self._hub
        if text is not None:
            text = _hub_after(text, move, turn, bool(kings & tb))
        return _position(self.variant, white, black, kings, mules, _OPPONENT[turn], h, t, text)

    # ------------------------------------------------------------------ identity

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.variant.id == other.variant.id
            and self.white == other.white
            and self.black == other.black
            and self.kings == other.kings
            and self.mules == other.mules
            and self.turn == other.turn
        )

    def __hash__(self) -> int:
        return self.zobrist

    def __repr__(self) -> str:
        return f"Position({self.variant.id!r}, {self.fen()!r})"


_OPPONENT = (Color.BLACK, Color.WHITE)


class _Building(Position):
    """A position while ``_position`` fills it in: its slots may be set. Setting them through the
    immutable class, one ``object.__setattr__`` call each, cost more than the rest of ``play``."""

    __slots__ = ()
    # object's own, in C: mypy reads it as bound to object, not as this class's method.
    __setattr__ = object.__setattr__  # type: ignore[assignment]


def _men_on_crowning_row(variant: Variant, setup: FenSetup) -> list[tuple[Color, int]]:
    """The men of a set-up on the row where their side is crowned. No position holds one: in every
    variant a man whose move ends on that row is crowned there (passing through it in a capture, as
    international and pool men may, it ends elsewhere)."""
    g = variant.geometry
    found: list[tuple[Color, int]] = []
    for color, men in ((Color.WHITE, setup.white_men), (Color.BLACK, setup.black_men)):
        row = g.crowning_row(color)
        found += [(color, square) for square in sorted(men) if g.row_col(square)[0] == row]
    return found


def _position(
    variant: Variant,
    white: int,
    black: int,
    kings: int,
    mules: int,
    turn: Color,
    zobrist: int,
    t: _Tables,
    hub: str | None,
) -> Position:
    """A new position, its caches empty but for its Hub string if known."""
    p = object.__new__(_Building)
    p.variant, p.white, p.black, p.kings, p.mules = variant, white, black, kings, mules
    p.turn, p.zobrist, p._tables, p._hub = turn, zobrist, t, hub
    p._split, p._count, p._raws, p._moves, p._found = None, -1, None, None, None
    object.__setattr__(p, "__class__", Position)  # the same slots: from here on it refuses any change
    return p


_LETTERS = (ord("w"), ord("W"), ord("b"), ord("B"))


def _hub_after(text: str, move: Move, turn: Color, king: bool) -> str:
    """The Hub string after ``move`` from the position written ``text`` (square n is letter n)."""
    letters = bytearray(text, "ascii")
    letters[0] = 87 if turn else 66  # W, B: the other side moves next (``turn`` is 1 for Black)
    letters[move.start] = 101  # e
    for square in move.captured:
        letters[square] = 101
    # After the captured squares: a Turkish king may end its move where it took a piece.
    letters[move.end] = _LETTERS[2 * turn + king]
    return letters.decode("ascii")


__all__ = ["FenError", "HubPositionError", "Move", "Piece", "Position", "tables"]
