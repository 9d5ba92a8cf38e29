"""Reading PDN files: every game replayed through the rules core, faults reported exactly.

    for game in read_pdn("games.pdn"):
        if game.faults: print(*(game.describe_fault(f) for f in game.faults), sep="\\n")

The file is streamed: one game is held at a time. Each game's variant comes from its `GameType` tag
or is guessed (and the guess said); its start from `[FEN]` or the variant's start position. A fault
(unknown square, illegal move with the legal ones listed, ambiguous capture, broken tag, bad FEN,
text that is no PDN) is kept with the game, with its line, column and ply; reading goes on with the
next game. See `pdn_writer` for writing and `pdn_openings` for opening decks cut from PDN games.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO

from arbiter.notation.pdn_lexer import CLOCK_COMMAND, Annotations, DecodingReport, Lexer, read_lines
from arbiter.notation.pdn_model import (
    DOUBLE_LOSS,
    RESULTS,
    FaultKind,
    PdnFault,
    PdnGame,
    PdnMove,
    end_at_last_move,
    result_scores,
    result_text,
    result_winner,
)
from arbiter.notation.pdn_moves import MoveFault, resolve_played
from arbiter.notation.pdn_parser import GameAssembler, RawGame, RawLine, RawMove, RawStop
from arbiter.notation.pdn_variant import VariantFinding, find_variant, tag_value
from arbiter.rules import VARIANTS, Color, Game, Move, Position, Variant, get_variant
from arbiter.rules.fen import FenError

__all__ = [
    "FaultKind",
    "PdnError",
    "PdnFault",
    "PdnGame",
    "PdnMove",
    "PdnReader",
    "ReadOptions",
    "parse_clock",
    "read_pdn",
    "read_pdn_text",
    "result_scores",
    "result_text",
    "result_winner",
]


class PdnError(Exception):
    """A PDN file that cannot be read at all (missing, unreadable); faults inside games are not errors."""


@dataclass(frozen=True)
class ReadOptions:
    """How to read: keep variations (replayed too) or skip them; the variant to assume where a game
    has no GameType tag (None: guess it); whether to replay at all (False: tags and text only);
    whether a result no stored game can hold (0-0, a loss for both sides) is a fault, as `pdn import`
    cannot store such a game and `pdn check` says so first."""

    variations: bool = False
    default_variant: str | None = None
    replay: bool = True
    max_plies: int | None = None  # replay only this many plies of each game (openings need few)
    storable_results: bool = False


@dataclass
class PdnReader:
    """The games of one PDN file, read as they are iterated. Once the file has been read,
    ``decoding`` says how its text was decoded and ``annotations`` counts its comments, side lines,
    marks and escape lines."""

    path: Path
    options: ReadOptions = field(default_factory=ReadOptions)
    name: str | None = None  # how the file is named in messages (default: the path as given)
    decoding: DecodingReport = field(default_factory=DecodingReport)
    annotations: Annotations = field(default_factory=Annotations)

    def __iter__(self) -> Iterator[PdnGame]:
        try:
            stream = self.path.open("rb")
        except OSError as error:
            raise PdnError(f"{self.path}: cannot read: {error.strerror or error}") from None
        with stream:
            name = self.name or str(self.path)
            yield from read_stream(stream, name, self.options, self.decoding, self.annotations)


def read_pdn(path: str | Path, options: ReadOptions | None = None) -> Iterator[PdnGame]:
    """The games of a PDN file, one at a time."""
    return iter(PdnReader(Path(path), options or ReadOptions()))


def read_pdn_text(text: str, options: ReadOptions | None = None, source: str = "<text>") -> list[PdnGame]:
    """The games of PDN text."""
    stream = io.BytesIO(text.encode("utf-8"))
    return list(read_stream(stream, source, options or ReadOptions(), DecodingReport()))


def read_stream(
    stream: BinaryIO,
    source: str,
    options: ReadOptions,
    decoding: DecodingReport,
    annotations: Annotations | None = None,
) -> Iterator[PdnGame]:
    tokens = Lexer(read_lines(stream, decoding), annotations).tokens()
    before: VariantFinding | None = None
    for raw in GameAssembler(tokens).games():
        replay = _Replay(raw, source, options, before)
        game = replay.game()
        yield game
        # A game that replayed is evidence for the next one's variant; one that failed is not.
        if game.moves and not any(fault.kind in _MOVE_FAULTS for fault in game.faults):
            before = replay.finding


_MOVE_FAULTS = frozenset(
    {FaultKind.ILLEGAL_MOVE, FaultKind.AMBIGUOUS_MOVE, FaultKind.UNKNOWN_SQUARE, FaultKind.BAD_FEN}
)
# Side lines nested deeper than this are not replayed: each level costs the replay two stack frames,
# and real annotations nest a few levels, not hundreds.
MAX_VARIATION_DEPTH = 100

# --- clocks -----------------------------------------------------------------------------------------

_CLOCK_READING = re.compile(r"([wWbB]?)\s*(\d+(?::\d+){0,2}(?:\.\d+)?)")
# A reading of more than this (some 30,000 years) is no clock: it is left out, as an unreadable one is,
# rather than stored as a number no clock shows (or one too large to divide into seconds).
MAX_CLOCK_MILLIS = 10**15


def parse_clock(text: str) -> dict[str, int]:
    """Clock readings of a `[%clock ...]` body in milliseconds, by colour letter (`w`, `b`, or `""`
    when no colour is named): `w0:59:12` is White with 59 minutes 12 seconds left."""
    readings: dict[str, int] = {}
    for letter, value in _CLOCK_READING.findall(text):
        seconds_text, _, fraction = value.partition(".")
        parts = seconds_text.split(":")
        if any(len(part) > 15 for part in parts):
            continue  # more digits than any clock (Python would not even read some as a number)
        total = 0
        for part in parts:
            total = total * 60 + int(part)
        millis = total * 1000 + (int((fraction + "000")[:3]) if fraction else 0)
        if millis <= MAX_CLOCK_MILLIS:
            readings[letter.lower()] = millis
    return readings


def _comments_and_clock(comments: list[str], mover: Color) -> tuple[tuple[str, ...], float | None]:
    """Comments with their `[%clock]` commands taken out, and the mover's clock reading."""
    clock: float | None = None
    kept: list[str] = []
    letter = "w" if mover is Color.WHITE else "b"
    for comment in comments:
        if "[%clock" in comment:
            for command in CLOCK_COMMAND.findall(comment):
                readings = parse_clock(command)
                millis = readings.get(letter, readings.get(""))
                if millis is not None:
                    clock = millis / 1000
            comment = CLOCK_COMMAND.sub("", comment).strip()
            if not comment:
                continue
        kept.append(comment)
    return tuple(kept), clock


# --- replay -------------------------------------------------------------------------------------------


@dataclass
class _Attempt:
    """One replay of a game under one variant."""

    start_fen: str
    moves: list[PdnMove] = field(default_factory=list)
    rest: list[str] = field(default_factory=list)
    faults: list[PdnFault] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    start: Position | None = None  # the start position, once the FEN (if any) has been read
    end: Position | None = None  # the last position of a main line replayed to its end
    too_deep: bool = False  # side lines nest deeper than MAX_VARIATION_DEPTH (said once)

    @property
    def refused(self) -> bool:
        """Whether the rules refused the main line or the start (an illegal or ambiguous move, a square
        off the board, a bad FEN): another variant might accept them. Broken text is no such sign."""
        return any(not fault.in_variation and fault.kind in _MOVE_FAULTS for fault in self.faults)


class _Replay:
    """Builds one `PdnGame` from a raw game: the variant, the start position, the moves replayed."""

    def __init__(
        self, raw: RawGame, source: str, options: ReadOptions, before: VariantFinding | None
    ) -> None:
        self.raw = raw
        self.before = before
        self.finding: VariantFinding | None = None  # the variant used, once the game is built
        self.source = source
        self.options = options
        self.faults: list[PdnFault] = list(raw.faults)
        self.notes: list[str] = list(raw.notes)
        self.warnings: list[str] = []
        self._attempt: _Attempt = _Attempt("")

    def game(self) -> PdnGame:
        raw = self.raw
        fen_tag = tag_value(raw.tags, "FEN")
        fen_text = fen_tag.strip() if fen_tag and fen_tag.strip() else None
        finding = find_variant(
            raw.tags, fen_text, raw.move_texts(), self.options.default_variant, self.before
        )
        if finding.problem:
            self._tag_fault("GameType", FaultKind.BROKEN_TAG, finding.problem)
        attempt = _Attempt(fen_text or "", rest=raw.move_texts())
        variant = finding.variant
        if finding.variant_id is None:
            self._game_fault(FaultKind.UNKNOWN_VARIANT, f"the variant cannot be told: {finding.how}")
        elif variant is None:
            supported = ", ".join(sorted(VARIANTS))
            self._game_fault(
                FaultKind.UNSUPPORTED_VARIANT,
                f"{finding.title} ({finding.how}) is not supported yet; supported: {supported}",
            )
        else:
            attempt = self._replay(variant, fen_text)
            if finding.guessed and attempt.refused and finding.alternatives:
                finding, attempt = self._try_alternatives(finding, attempt, fen_text)
        if finding.guessed:
            self.notes.append(f"variant {finding.how}")
        self._check_ply_count(attempt)
        self.finding = finding
        result = self._result()
        replayed = finding.variant
        if self.options.storable_results and result == DOUBLE_LOSS:
            self._unstorable_result(result)
        elif replayed is not None and not attempt.faults and not attempt.rest:
            self._check_result_fits(replayed, attempt, result)
        return PdnGame(
            tags=raw.tags,
            variant_id=finding.variant_id,
            start_fen=attempt.start_fen,
            moves=tuple(attempt.moves),
            result=result,
            comments=tuple(raw.main.comments),
            rest=tuple(attempt.rest),
            faults=tuple(self.faults + attempt.faults),
            notes=tuple(self.notes + attempt.notes),
            warnings=tuple(self.warnings),
            variant_guessed=finding.guessed,
            variant_how=finding.how,
            source=self.source,
            number=raw.number,
            line=raw.line,
        )

    def _check_ply_count(self, attempt: _Attempt) -> None:
        declared = tag_value(self.raw.tags, "PlyCount")
        if declared is None or not declared.strip().isdigit() or attempt.rest or not self.options.replay:
            return
        if int(declared) != len(attempt.moves) and not attempt.faults:
            self.notes.append(
                f"the PlyCount tag says {int(declared)} but the game has {len(attempt.moves)} plies"
            )

    def _replay(self, variant: Variant, fen_text: str | None) -> _Attempt:
        self._attempt = attempt = _Attempt(fen_text or "", rest=self.raw.move_texts())
        start = self._start_position(variant, fen_text)
        if start is not None:
            attempt.start = start
            attempt.start_fen = start.fen()
            attempt.rest = []
            if self.options.replay:
                attempt.moves, attempt.rest = self._replay_line(start, self.raw.main, in_variation=False)
        return attempt

    def _try_alternatives(
        self, finding: VariantFinding, failed: _Attempt, fen_text: str | None
    ) -> tuple[VariantFinding, _Attempt]:
        """A guessed variant whose replay failed: the first other guess that replays the whole game, or
        the first guess's faults with a word on what else was tried."""
        tried = [finding.title]
        unsupported: list[str] = []
        for game_type in finding.alternatives:
            variant = VARIANTS.get(game_type.variant_id)
            if variant is None:
                unsupported.append(f"{game_type.title} (GameType {game_type.number})")
                continue
            attempt = self._replay(variant, fen_text)
            if not attempt.refused:
                how = (
                    f"guessed {game_type.title}: the moves are legal there, not in {' or '.join(tried)} "
                    "(no GameType tag)"
                )
                return replace(
                    finding, variant_id=game_type.variant_id, title=game_type.title, how=how
                ), attempt
            tried.append(game_type.title)
        tried_text = " or ".join(tried)
        why = f"the variant is a guess ({finding.how}); the game does not replay as {tried_text} either"
        if unsupported:
            why += f"; it may be {' or '.join(unsupported)}, not supported yet"
        failed.faults = [
            replace(fault, reason=f"{fault.reason} [{why}]") if not fault.in_variation else fault
            for fault in failed.faults
        ]
        return finding, failed

    # -- faults

    def _tag_place(self, name: str) -> tuple[int, int]:
        for key, place in self.raw.tag_places.items():
            if key.lower() == name.lower():
                return place
        return (self.raw.line, 1)

    def _tag_fault(self, name: str, kind: FaultKind, reason: str) -> None:
        line, column = self._tag_place(name)
        self.faults.append(PdnFault(kind, reason, line, column))

    def _game_fault(self, kind: FaultKind, reason: str) -> None:
        self.faults.append(PdnFault(kind, reason, self.raw.line, 1))

    # -- start position

    def _start_position(self, variant: Variant, fen_text: str | None) -> Position | None:
        if fen_text is None:
            return _start_position(variant.id)
        text = fen_text.strip().strip('"')
        if text.startswith("?"):
            turn = self._unknown_turn(variant, text)
            text = turn.letter + text[1:]
        try:
            return Position.from_fen(variant, text)
        except (FenError, ValueError) as error:
            line, column = self._tag_place("FEN")
            self._attempt.faults.append(PdnFault(FaultKind.BAD_FEN, str(error), line, column))
            return None

    def _unknown_turn(self, variant: Variant, fen: str) -> Color:
        """The side to move of a FEN that writes `?`: the owner of the piece the first move starts from,
        else the side that moves first in the variant."""
        texts = self.raw.move_texts()
        if texts:
            first = re.split(r"[-xX:×]", texts[0])[0]
            square = variant.parse_square(first)
            for letter in ("W", "B"):
                try:
                    probe = Position.from_fen(variant, letter + fen[1:])
                except (FenError, ValueError):
                    break
                piece = probe.piece_at(square) if square is not None else None
                if piece is not None:
                    self._attempt.notes.append(
                        f"FEN side to move '?': taken as {piece.color.name.lower()}, who moves first"
                    )
                    return piece.color
        self._attempt.notes.append(
            f"FEN side to move '?': taken as {variant.first_to_move.name.lower()}, who starts a game"
        )
        return variant.first_to_move

    # -- moves

    def _replay_line(
        self,
        start: Position,
        line: RawLine,
        in_variation: bool,
        first_ply: int = 1,
        earlier: tuple[list[Position], list[Move]] = ([], []),
        depth: int = 0,
    ) -> tuple[list[PdnMove], list[str]]:
        """Replay a line of moves from ``start``; returns the moves that replayed and the texts left.

        ``earlier`` holds the positions before ``start`` and the moves from each, for the rules on
        earlier moves (a variation starts in the middle of the game); ``depth`` counts the side lines
        the line is nested in."""
        position = start
        positions, moves = [*earlier[0], start], list(earlier[1])
        played: list[PdnMove] = []
        limit = self.options.max_plies if not in_variation else None
        items = line.items
        for index, item in enumerate(items):
            ply = first_ply + index
            if limit is not None and index >= limit:
                return played, _texts(items[index:])
            if isinstance(item, RawStop):
                token = item.token
                self._move_fault(
                    FaultKind.SYNTAX,
                    f"{token.text!r} is {token.value}",
                    token.line,
                    token.column,
                    ply,
                    in_variation,
                )
                return played, _texts(items[index:])
            try:
                move, note = resolve_played(positions, moves, item.text, _move_texts(items[index + 1 :]))
            except MoveFault as fault:
                self._move_fault(fault.kind, fault.reason, item.line, item.column, ply, in_variation)
                return played, _texts(items[index:])
            if note is not None:
                where = "in a variation, " if in_variation else ""
                self._attempt.notes.append(f"{where}ply {ply}: {note}")
            variations: tuple[tuple[PdnMove, ...], ...] = ()
            if self.options.variations:
                variations = self._variations(position, item, ply, (positions[:-1], moves), depth + 1)
            comments, clock = _comments_and_clock(item.comments, position.turn)
            played.append(
                PdnMove(
                    text=item.text,
                    move=move,
                    comments=comments,
                    clock=clock,
                    marks=tuple(item.marks),
                    variations=variations,
                    line=item.line,
                    column=item.column,
                )
            )
            position = position.play(move)
            positions.append(position)
            moves.append(move)
        if not in_variation:
            self._attempt.end = position
        return played, []

    def _variations(
        self,
        before: Position,
        item: RawMove,
        ply: int,
        earlier: tuple[list[Position], list[Move]],
        depth: int,
    ) -> tuple[tuple[PdnMove, ...], ...]:
        """The side lines of ``item``, replayed; those at ``depth`` past the limit are left out."""
        if not item.variations:
            return ()
        if depth > MAX_VARIATION_DEPTH:
            self._too_deep(item, ply)
            return ()
        lines: list[tuple[PdnMove, ...]] = []
        for variation in item.variations:
            moves, _ = self._replay_line(
                before, variation, in_variation=True, first_ply=ply, earlier=earlier, depth=depth
            )
            lines.append(tuple(moves))
        return tuple(lines)

    def _too_deep(self, item: RawMove, ply: int) -> None:
        """Say once a game that its side lines nest too deep, at the move the deeper ones hang on."""
        if self._attempt.too_deep:
            return
        self._attempt.too_deep = True
        reason = (
            f"side lines nest deeper than {MAX_VARIATION_DEPTH} levels after this move; "
            "the deeper ones are not replayed"
        )
        self._move_fault(FaultKind.SYNTAX, reason, item.line, item.column, ply, in_variation=True)

    def _move_fault(
        self, kind: FaultKind, reason: str, line: int, column: int, ply: int, in_variation: bool
    ) -> None:
        if in_variation:
            reason = f"in a variation: {reason}"
        self._attempt.faults.append(PdnFault(kind, reason, line, column, ply, in_variation))

    # -- result

    def _check_result_fits(self, variant: Variant, attempt: _Attempt, result: str) -> None:
        """A result the rules rule out is a fault: where the game's last move ends it with a winner, the
        file may not name another (nor a draw). Such a game contradicts itself: no record holds both its
        moves and its result, so `pdn import` cannot store it either."""
        if result_scores(result) is None or attempt.start is None or attempt.end is None:
            return
        if variant.end_rule is None and variant.history_filter is None:
            # Only a last position that is decided by itself can end such a game with a winner: most
            # games are left here without being played again through the rules.
            alone = Game(variant, attempt.end).end
            if alone is None or alone.winner is None:
                return
        end = end_at_last_move(Game(variant, attempt.start), (pdn_move.move for pdn_move in attempt.moves))
        if end is None or end.winner is None or result_winner(result, variant) is end.winner:
            return
        line, column = self.raw.result_place or self._tag_place("Result")
        self.faults.append(
            PdnFault(
                FaultKind.BAD_RESULT,
                f"the result {result} does not fit the move text, whose last position is decided: "
                f"{end.describe()} ({result_text(variant, end.winner)})",
                line,
                column,
            )
        )

    def _unstorable_result(self, result: str) -> None:
        line, column = self.raw.result_place or self._tag_place("Result")
        reason = f"{result} (lost for both sides): a stored game has one winner, a draw, or no result"
        self.faults.append(PdnFault(FaultKind.UNSTORABLE_RESULT, reason, line, column))

    def _result(self) -> str:
        raw = self.raw
        declared = tag_value(raw.tags, "Result")
        declared = declared.strip() if declared is not None else None
        if raw.result is not None:
            result = raw.result
            line, column = raw.result_place or (raw.line, 1)
            if result not in RESULTS:
                self.faults.append(
                    PdnFault(
                        FaultKind.BAD_RESULT,
                        f"{result!r} is not a PDN result (1-0, 0-1, 1/2-1/2, 2-0, 0-2, 1-1, 0-0, *)",
                        line,
                        column,
                    )
                )
            elif declared and declared in RESULTS and declared != result:
                self.warnings.append(
                    f"the Result tag says {declared} but the move text ends {result} (line {line})"
                )
            return result
        if declared and declared in RESULTS:
            self.notes.append(f"no game terminator; the result {declared} is taken from the Result tag")
            return declared
        if declared and declared not in ("?", ""):
            self._tag_fault(
                "Result",
                FaultKind.BAD_RESULT,
                f"Result {declared!r} is not a PDN result (1-0, 0-1, 1/2-1/2, 2-0, 0-2, 1-1, 0-0, *)",
            )
        return "*"


@lru_cache(maxsize=32)
def _start_position(variant_id: str) -> Position:
    """The start position of a variant, built once (positions are immutable)."""
    return Position.start(get_variant(variant_id))


def _move_texts(items: list[RawMove | RawStop]) -> list[str]:
    """The texts of the moves up to the first stop (broken text)."""
    texts: list[str] = []
    for item in items:
        if isinstance(item, RawStop):
            break
        texts.append(item.text)
    return texts


def _texts(items: list[RawMove | RawStop]) -> list[str]:
    return [item.text if isinstance(item, RawMove) else item.token.text for item in items]
