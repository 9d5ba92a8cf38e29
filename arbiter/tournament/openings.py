"""Opening decks: the ACF three-move ballots, the Pro Checkers rule, and openings read from a file.

An opening is kept as text (PDN move text such as `11-15 23-19 8-11`, or a FEN such as
`B:W21-32:B1-12`); an opening cut from a PDN game holds both, the game's start position and its first
moves. Only the shape of a text file's openings is checked here; whether they can be played is checked
against the rules when the tournament is planned (see `plan`).
"""

from __future__ import annotations

import dataclasses
import random
import re
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

# The project's copy of the ACF deck; see data/acf_3move_deck.tsv for its columns and sources.
DEFAULT_ACF_DECK_PATH = Path(__file__).resolve().parents[2] / "data" / "acf_3move_deck.tsv"

# Deck tags used in the ACF file.
CROSSBOARD = "crossboard"
MAILPLAY = "mailplay"
BARRED = "barred"
COMPUTER_TOUGH = "ctd"
_KNOWN_TAGS = frozenset({CROSSBOARD, MAILPLAY, BARRED, COMPUTER_TOUGH})

# Named ACF decks and the tags whose openings they hold (in ACF order).
ACF_DECKS: dict[str, frozenset[str]] = {
    "acf-144": frozenset({CROSSBOARD}),
    "acf-156": frozenset({CROSSBOARD, MAILPLAY}),
    "acf-174": frozenset({CROSSBOARD, MAILPLAY, BARRED}),
    "acf-ctd": frozenset({COMPUTER_TOUGH}),
}
ACF_DECK_SIZES = {"acf-144": 144, "acf-156": 156, "acf-174": 174, "acf-ctd": 50}


class OpeningError(ValueError):
    """A deck or opening file that cannot be used, with the place where the fault is."""


class OpeningKind(StrEnum):
    MOVES = "moves"
    FEN = "fen"


class OpeningOrder(StrEnum):
    SEQUENTIAL = "sequential"
    RANDOM = "random"


@dataclass(frozen=True)
class Opening:
    """One opening. `id` is stable across runs (`acf-5`, `openings.txt:12`) so results can name it.

    `text` is the moves (kind MOVES) or the start position (kind FEN). Moves may start from a set
    position, `start_fen`, as openings cut from PDN games do. `source` says where the opening was read
    (`file:line`), for messages about it.
    """

    id: str
    kind: OpeningKind
    text: str
    name: str = ""
    tags: frozenset[str] = field(default_factory=frozenset)
    start_fen: str | None = None
    source: str = field(default="", compare=False)

    @property
    def fen(self) -> str | None:
        """The position the game starts from, or None for the variant's start position."""
        return self.text if self.kind is OpeningKind.FEN else self.start_fen

    @property
    def moves(self) -> list[str]:
        """The opening's moves, without move numbers or strength marks."""
        if self.kind is OpeningKind.FEN:
            return []
        moves = []
        for token in self.text.replace(".", ". ").split():
            if token.endswith(".") and token[:-1].isdigit():
                continue
            moves.append(token.rstrip("!?"))
        return [move for move in moves if move]

    @property
    def where(self) -> str:
        """The place to name in a message about this opening."""
        return self.source or self.id


# --- the ACF deck ---------------------------------------------------------------------------------


def read_acf_table(path: Path = DEFAULT_ACF_DECK_PATH) -> list[Opening]:
    """Every opening of the ACF three-move table, in ACF order, with its deck tags."""
    text = _read_text(path)
    openings: list[Opening] = []
    for line_number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.startswith("#"):
            continue
        where = f"{path}:{line_number}"
        columns = raw.split("\t")
        if len(columns) not in (3, 4):
            raise OpeningError(
                f"{where}: expected 4 tab-separated columns (number, moves, decks, name), got {len(columns)}"
            )
        number_text, moves, tags_text = columns[0].strip(), columns[1].strip(), columns[2].strip()
        name = columns[3].strip() if len(columns) == 4 else ""
        if not number_text.isdigit():
            raise OpeningError(f"{where}: the ACF number must be a whole number, got {number_text!r}")
        number = int(number_text)
        if number != len(openings) + 1:
            raise OpeningError(f"{where}: expected ACF number {len(openings) + 1}, got {number}")
        tags = frozenset(tag.strip() for tag in tags_text.split(",") if tag.strip())
        unknown = tags - _KNOWN_TAGS
        if not tags or unknown:
            raise OpeningError(
                f"{where}: unknown deck tags {sorted(unknown) or tags_text!r}; "
                f"known tags: {', '.join(sorted(_KNOWN_TAGS))}"
            )
        fault = _move_text_fault(moves)
        if fault is None and len(moves.split()) != 3:
            fault = f"a three-move opening needs exactly 3 moves, got {len(moves.split())}"
        if fault is not None:
            raise OpeningError(f"{where}: {fault}")
        openings.append(
            Opening(
                id=f"acf-{number}", kind=OpeningKind.MOVES, text=moves, name=name, tags=tags, source=where
            )
        )
    if not openings:
        raise OpeningError(f"{path}: holds no openings")
    return openings


def acf_deck(deck: str, path: Path = DEFAULT_ACF_DECK_PATH) -> list[Opening]:
    """The named ACF deck (`acf-144`, `acf-156`, `acf-174` with the barred openings, `acf-ctd`)."""
    key = deck.strip().lower()
    if key not in ACF_DECKS:
        raise OpeningError(f"unknown ACF deck {deck!r}; known decks: {', '.join(ACF_DECKS)}")
    wanted = ACF_DECKS[key]
    chosen = [opening for opening in read_acf_table(path) if opening.tags & wanted]
    if len(chosen) != ACF_DECK_SIZES[key]:
        raise OpeningError(
            f"{path}: deck {key} should hold {ACF_DECK_SIZES[key]} openings, found {len(chosen)}"
        )
    return chosen


# --- the Pro Checkers rule ------------------------------------------------------------------------


@dataclass(frozen=True)
class BallotRule:
    """How a named ballot rule deals openings: which deck, in which order, whether each opening is
    played twice with colours swapped (`paired`), and the variant whose moves the deck holds.

    A tournament naming the rule's deck plays by it (see `config.TournamentConfig`)."""

    name: str
    title: str  # how people call it, e.g. on the published site
    deck: str
    order: OpeningOrder
    paired: bool
    variant: str


# It's Your Turn's Pro Checkers: the first three moves come from the 144 over-the-board openings plus
# those approved for play by mail (the 156 deck), chosen at random; two players meeting play the same
# opening twice, each with each colour.
PRO_CHECKERS = BallotRule(
    name="pro-checkers",
    title="Pro Checkers",
    deck="acf-156",
    order=OpeningOrder.RANDOM,
    paired=True,
    variant="english",
)
BALLOT_RULES = {PRO_CHECKERS.name: PRO_CHECKERS}
DECK_NAMES = (*ACF_DECKS, *BALLOT_RULES)
"""Every name a tournament file may give as `deck`."""


def deck_named(name: str) -> str | None:
    """The deck ``name`` names, as DECK_NAMES spells it (any case, spaces around), or None."""
    key = name.strip().lower()
    return key if key in DECK_NAMES else None


def ballot_rule(deck: str) -> BallotRule | None:
    """The ballot rule a deck name stands for, or None for a plain deck."""
    return BALLOT_RULES.get(deck.strip().lower())


def named_deck(name: str, path: Path = DEFAULT_ACF_DECK_PATH) -> list[Opening]:
    """A deck by name: an ACF deck or a ballot rule's deck (`pro-checkers`)."""
    rule = ballot_rule(name)
    return acf_deck(rule.deck if rule is not None else name, path)


# --- opening files --------------------------------------------------------------------------------

# A square is a number (11) or, in files that use them, a coordinate (c3).
_SQUARE = r"(?:\d{1,3}|[a-l](?:1[0-2]|[1-9]))"
_MOVE = re.compile(rf"^{_SQUARE}(?:[-x:]{_SQUARE})+[!?]*$", re.IGNORECASE)
_MOVE_NUMBER = re.compile(r"^\d+\.(?:\.\.)?$")
_NUMBERED_MOVE = re.compile(r"^(\d+\.(?:\.\.)?)(.+)$")
_FEN_SQUARES = re.compile(rf"^K?{_SQUARE}(?:-{_SQUARE})?$", re.IGNORECASE)


def _move_text_fault(text: str) -> str | None:
    """Why `text` is not PDN move text, or None when it looks like moves."""
    moves = 0
    for token in text.split():
        numbered = _NUMBERED_MOVE.match(token)
        if numbered and not _MOVE_NUMBER.match(token):
            token = numbered.group(2)  # "1.11-15" written without a space
        if _MOVE_NUMBER.match(token):
            continue
        if not _MOVE.match(token):
            return f"{token!r} is not a move (expected moves such as 11-15 or 15x24)"
        moves += 1
    if moves == 0:
        return "no moves found"
    return None


def _fen_fault(text: str) -> str | None:
    """Why `text` is not a FEN of the form `B:W21-32:B1-12`, or None when it looks like one."""
    fields = text.removesuffix(".").split(":")  # some PDN files end a FEN with a full stop
    if fields[0] not in ("B", "W"):
        return f"a FEN starts with the side to move, B or W, got {fields[0]!r}"
    colours = [f[0] for f in fields[1:] if f[:1] in ("B", "W")]
    if sorted(colours) != ["B", "W"]:
        return "a FEN needs one W field and one B field, such as B:W21-32:B1-12"
    for piece_field in fields[1:]:
        if piece_field[:1] not in ("B", "W"):
            continue
        for item in filter(None, (part.strip() for part in piece_field[1:].split(","))):
            if not _FEN_SQUARES.match(item):
                return f"{item!r} in the {piece_field[0]} field is not a square, king (K12) or range (1-12)"
    return None


def parse_opening_line(text: str, opening_id: str) -> Opening:
    """One opening from its text: a FEN when it starts with the side to move and a colon, else moves."""
    stripped = text.strip()
    if len(stripped) >= 2 and stripped[0] == stripped[-1] == '"':
        stripped = stripped[1:-1].strip()
    if re.match(r"^[BW]:", stripped):
        fault = _fen_fault(stripped)
        kind = OpeningKind.FEN
    else:
        fault = _move_text_fault(stripped)
        kind = OpeningKind.MOVES
    if fault is not None:
        raise OpeningError(fault)
    return Opening(id=opening_id, kind=kind, text=stripped)


def read_opening_file(path: Path) -> list[Opening]:
    """Openings from a text file, one per line: PDN move text or a FEN.

    Blank lines and lines starting with `#` are skipped. Each opening's id is `<file name>:<line>`.
    """
    text = _read_text(path)
    openings: list[Opening] = []
    for line_number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        try:
            opening = parse_opening_line(raw, f"{path.name}:{line_number}")
        except OpeningError as error:
            raise OpeningError(f"{path}:{line_number}: {error}") from None
        openings.append(dataclasses.replace(opening, source=f"{path}:{line_number}"))
    if not openings:
        raise OpeningError(
            f"{path}: holds no openings (one per line: moves such as 11-15 23-19 8-11, or a FEN)"
        )
    return openings


def is_pdn_file(path: Path) -> bool:
    """Whether an opening file holds PDN games (to cut openings from) rather than one opening a line."""
    return path.suffix.lower() == ".pdn"


def read_pdn_openings(path: Path, plies: int, variant: str) -> list[Opening]:
    """Openings cut from the games of a PDN file: each game's start position and its first `plies`
    plies (fewer where the game is shorter); repeats of an earlier opening are left out.

    Games without a GameType tag are read as `variant`; a game of another variant is refused, as is a
    game whose start or first plies do not replay. Each opening's id is `<file name>#<game number>`.
    """
    # The PDN reader is imported here: an event without a .pdn opening file never loads it.
    from arbiter.notation.pdn import PdnError
    from arbiter.notation.pdn_openings import openings_from_pdn

    if not path.is_file():
        raise OpeningError(f"{path}: no such opening file")
    try:
        cut = openings_from_pdn(path, plies, default_variant=variant)
    except PdnError as error:
        raise OpeningError(str(error)) from None
    except OSError as error:
        raise OpeningError(f"{path}: cannot read: {error.strerror or error}") from None
    openings: list[Opening] = []
    for game in cut:
        where = f"{path}:{game.line}"
        if game.variant_id != variant:
            raise OpeningError(
                f"{where}: game {game.source} is {game.variant_id}, the tournament plays {variant}"
            )
        if game.moves:
            opening = Opening(
                id=game.source,
                kind=OpeningKind.MOVES,
                text=game.moves,
                name=game.name,
                start_fen=game.fen,
                source=where,
            )
        else:
            opening = Opening(
                id=game.source, kind=OpeningKind.FEN, text=game.fen, name=game.name, source=where
            )
        openings.append(opening)
    return openings


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise OpeningError(f"{path}: no such opening file") from None
    except UnicodeDecodeError as error:
        raw = error.object
        line = raw[: error.start].count(b"\n") + 1
        hint = " (it looks like UTF-16)" if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else ""
        raise OpeningError(
            f"{path}:{line}: not UTF-8 text{hint} ({error.reason} at byte {error.start}); save it as UTF-8"
        ) from None
    except OSError as error:
        raise OpeningError(f"{path}: cannot read: {error.strerror or error}") from None


# --- dealing openings -----------------------------------------------------------------------------


@dataclass(frozen=True)
class OpeningSequence:
    """The order in which a deck's openings are dealt, without end.

    Sequential order runs through the deck and starts again. Random order shuffles the deck with the
    seed, deals it out, and shuffles again for the next pass, so no opening comes back before every
    other one has been used. The same deck, order and seed always deal the same sequence, and a longer
    tournament deals the same openings to its first games as a shorter one.
    """

    openings: tuple[Opening, ...]
    order: OpeningOrder = OpeningOrder.SEQUENTIAL
    seed: int | None = None

    def __post_init__(self) -> None:
        if not self.openings:
            raise OpeningError("an opening sequence needs at least one opening")
        if self.order is OpeningOrder.RANDOM and self.seed is None:
            raise OpeningError("random opening order needs a seed, so that the schedule can be rebuilt")
        ids = [opening.id for opening in self.openings]
        if len(set(ids)) != len(ids):
            duplicate = next(i for i in ids if ids.count(i) > 1)
            raise OpeningError(f"opening id {duplicate!r} appears twice in the deck")

    def take(self, count: int) -> list[Opening]:
        """The first `count` openings dealt."""
        if count < 0:
            raise ValueError(f"cannot deal {count} openings")
        if self.order is OpeningOrder.SEQUENTIAL:
            return [self.openings[i % len(self.openings)] for i in range(count)]
        rng = random.Random(self.seed)
        dealt: list[Opening] = []
        while len(dealt) < count:
            deck = list(self.openings)
            rng.shuffle(deck)
            dealt.extend(deck)
        return dealt[:count]
