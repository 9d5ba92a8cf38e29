"""Writing PDN: games as other programs (CheckerBoard, Lidraughts, pydraughts) read them.

Tags come first in a fixed order: Event, Site, Date, Round, White, Black, Result, GameType, FEN (only
where the game does not start from the initial position), TimeControl, Termination, PlyCount, then
any other tags the game has. Moves are numbered from 1 (`1.` before each move of the side that moves
first; `1...` when a set-up position has the other side to move), written in the variant's notation
with the full capture path only where the short form would be ambiguous.

Clocks are written as a comment after the move: `{[%clock w0:59:12]}` is the mover's time left
(`w` White, `b` Black) in hours, minutes and seconds, with milliseconds after a dot where they are not
zero (`b0:00:09.250`). Comments may not hold braces in PDN, so `{` and `}` in a comment are written as
`(` and `)`.

A game's closing comments (how it ended, what went wrong on the way) come after its last move, just
before the result.

Move text is broken into lines of at most 79 characters, between tokens; a comment longer than a line
is broken at its spaces (a line break in a comment is whitespace, as in PGN), so only a single word
longer than a line can make one longer, or a word starting with `%`, never put first on a line (where
it would make an escape line). Our reader keeps such a break as a line break in the comment.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple, TextIO

from arbiter.notation.controls import visible_controls
from arbiter.notation.movetext import format_pdn
from arbiter.notation.pdn_model import PdnGame, PdnMove
from arbiter.notation.pdn_variant import game_type_of
from arbiter.rules import Color, Move, Position, Variant

LINE_LENGTH = 79
_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black")
_ROSTER_DEFAULTS = {"Date": "????.??.??"}
# Tags the writer sets itself (compared without case: files write both SetUp and Setup).
_MANAGED = {
    name.lower() for name in (*_ROSTER, "Result", "GameType", "FEN", "TimeControl", "Termination", "PlyCount")
}


def format_clock(seconds: float, mover: Color) -> str:
    """`w0:59:12`: the mover's letter and the time as hours:minutes:seconds (milliseconds if any)."""
    millis = max(0, round(seconds * 1000))
    whole, fraction = divmod(millis, 1000)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    letter = "w" if mover is Color.WHITE else "b"
    text = f"{letter}{hours}:{minutes:02d}:{secs:02d}"
    return text + (f".{fraction:03d}" if fraction else "")


def _tag_line(name: str, value: str) -> str:
    return f'[{name} "{written_tag_value(value)}"]'


def written_tag_value(value: str) -> str:
    """A tag's value as it stands between the quotes of its tag line."""
    # Line breaks and tabs become spaces; other control characters are shown as \xNN (then escaped).
    return " ".join(visible_controls(value).replace("\\", "\\\\").replace('"', '\\"').split())


def _comment(text: str) -> str:
    return "{" + visible_controls(text).replace("{", "(").replace("}", ")") + "}"


def game_tags(
    game: PdnGame, start: Position | None = None, plies: int | None = None
) -> list[tuple[str, str]]:
    """The tags as the writer puts them, in order; `start` is the game's start position when known,
    `plies` its number of moves when they are not the game's own."""
    tags = game.tags
    lowered = {name.lower(): value for name, value in tags.items()}
    out: list[tuple[str, str]] = [
        (name, lowered.get(name.lower(), _ROSTER_DEFAULTS.get(name, "?"))) for name in _ROSTER
    ]
    out.append(("Result", game.result))
    variant = game.variant
    game_type = game_type_of(variant) if variant is not None else None
    if game_type is not None:
        out.append(("GameType", str(game_type.number)))
    elif "gametype" in lowered:
        out.append(("GameType", lowered["gametype"]))
    if game.start_fen and (variant is None or _start(game, start) != Position.start(variant)):
        out.append(("FEN", game.start_fen))
    for name in ("TimeControl", "Termination"):
        if name.lower() in lowered:
            out.append((name, lowered[name.lower()]))
    out.append(("PlyCount", str(len(game.moves) if plies is None else plies)))
    if variant is not None and (game_type is None or game_type.variant_id != variant.id):
        # No PDN game type says it all (antidraughts, a rule option such as english+iyt-draws): name the
        # rules-core variant too, which this project's reader prefers to GameType.
        out.append(("Variant", variant.id))
    written = {name.lower() for name, _ in out}
    out.extend((name, value) for name, value in tags.items() if name.lower() not in _MANAGED | written)
    return out


def _start(game: PdnGame, start: Position | None) -> Position | None:
    """The game's start position: `start` when known, else read from its FEN; None when that does not
    read (a stored game edited by hand), for the game to be written as it is stored."""
    if start is not None:
        return start
    try:
        return game.start_position()
    except ValueError:
        return None


class _Lines:
    """Move text broken into lines of at most LINE_LENGTH characters, between tokens."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.current = ""

    def add(self, token: str, glue: bool = False) -> None:
        if glue or not self.current:
            self.current += token
        elif len(self.current) + 1 + len(token) > LINE_LENGTH:
            self.lines.append(self.current)
            self.current = token
        else:
            self.current += " " + token
        if "\n" in self.current:
            *done, self.current = self.current.split("\n")
            self.lines.extend(done)

    def add_comment(self, text: str) -> None:
        """A comment: one token where it is one line that fits, else its words over as many lines as it
        needs, broken at spaces (a line break inside braces is a space to a PDN reader) and at its own
        line breaks. The same comment read back is written the same way."""
        comment = _comment(text)
        if "\n" not in comment and len(comment) <= LINE_LENGTH:
            self.add(comment)
            return
        for index, paragraph in enumerate(comment.split("\n")):
            first, *words = paragraph.split(" ")
            if index == 0:
                self.add(first)
            else:  # the comment's own line break, kept
                self.lines.append(self.current)
                self.current = first
            for word in words:
                # A line starting with `%` is an escape line to a PGN-minded reader: such a word stays on
                # the line before, whatever its length.
                if len(self.current) + 1 + len(word) > LINE_LENGTH and self.current and word[:1] != "%":
                    self.lines.append(self.current)
                    self.current = word
                else:
                    self.current += " " + word

    def text(self) -> str:
        return "\n".join([*self.lines, self.current] if self.current else self.lines)


def _number(position: Position, ply: int, first_in_line: bool) -> str | None:
    """The move number before a move, if one is written there. ``ply`` counts from 0 at the start."""
    variant = position.variant
    if position.turn is variant.first_to_move:
        return f"{ply // 2 + 1}."
    if first_in_line:
        return f"{ply // 2 + 1}..."
    return None


def _write_line(
    out: _Lines,
    start: Position,
    moves: Sequence[PdnMove],
    first_ply: int,
    positions: Sequence[Position] = (),
) -> None:
    """Write a line of moves; ``first_ply`` counts plies from the game's start as if the side that
    moves first in the variant had started (so numbers stay right in set-up positions). `positions`,
    when given, are the line's positions already played (`start`, then the one after each move)."""
    position = start
    for index, pdn_move in enumerate(moves):
        ply = first_ply + index
        _write_move(out, position, ply, index == 0, format_pdn(position, pdn_move.move), pdn_move)
        for variation in pdn_move.variations:
            out.add("(")
            _write_line(out, position, variation, ply)
            out.add(")", glue=True)
        position = positions[index + 1] if index + 1 < len(positions) else position.play(pdn_move.move)


def _write_move(
    out: _Lines, position: Position, ply: int, first_in_line: bool, text: str, move: PdnMove | WrittenMove
) -> None:
    """One move: its number where one is written, its text, marks, clock and comments."""
    number = _number(position, ply, first_in_line)
    if number:
        out.add(number)
    out.add(text)
    for mark in move.marks:
        out.add(mark, glue=not mark.startswith("$"))
    if move.clock is not None:
        out.add(_comment(f"[%clock {format_clock(move.clock, position.turn)}]"))
    for comment in move.comments:
        out.add_comment(comment)


def _write_ending(out: _Lines, game: PdnGame) -> None:
    """The game's closing comments, then its result."""
    for comment in game.closing:
        out.add_comment(comment)
    out.add(game.result)


def format_game(game: PdnGame, positions: Sequence[Position] = ()) -> str:
    """One game as PDN text, ending with a blank line. `positions`: the game's positions when they
    are already replayed (its start, then the one after each move), so as not to play them again."""
    start = positions[0] if positions else None
    header = "\n".join(_tag_line(name, value) for name, value in game_tags(game, start))
    out = _Lines()
    for comment in game.comments:
        out.add_comment(comment)
    variant = game.variant
    start = _start(game, start)
    if variant is not None and start is not None:
        # Number plies as if the first mover had started: a set-up with the other side to move opens 1...
        _write_line(out, start, game.moves, 0 if start.turn is variant.first_to_move else 1, positions)
    for text in game.rest:  # moves that did not replay when the game was read: kept as written
        out.add(text)
    _write_ending(out, game)
    return f"{header}\n\n{out.text()}\n\n"


class WrittenMove(NamedTuple):
    """A move whose text is already the variant's notation of it in its position (as the referee
    records it), with what goes after it (a named tuple: a game page makes one a move)."""

    text: str
    clock: float | None = None
    comments: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()


def format_written_game(game: PdnGame, moves: Sequence[WrittenMove], positions: Sequence[Position]) -> str:
    """`format_game` for a game whose moves are given as their text (`game` gives the tags, comments
    and result; its own moves are not written), with `positions`, its start and the position after
    each move: the same text, without working any move's notation out again."""
    header = "\n".join(_tag_line(name, value) for name, value in game_tags(game, positions[0], len(moves)))
    out = _Lines()
    for comment in game.comments:
        out.add_comment(comment)
    start = positions[0]
    first = 0 if start.turn is start.variant.first_to_move else 1
    for index, move in enumerate(moves):
        _write_move(out, positions[index], first + index, index == 0, move.text, move)
    _write_ending(out, game)
    return f"{header}\n\n{out.text()}\n\n"


def write_games(stream: TextIO, games: Iterable[PdnGame]) -> int:
    """Write games to a text stream; returns how many."""
    count = 0
    for game in games:
        stream.write(format_game(game))
        count += 1
    return count


def write_pdn(path: str | Path, games: Iterable[PdnGame]) -> int:
    """Write games to a PDN file (UTF-8); returns how many."""
    with Path(path).open("w", encoding="utf-8", newline="\n") as stream:
        return write_games(stream, games)


def game_record(
    variant: Variant,
    moves: Sequence[Move],
    *,
    start: Position | None = None,
    tags: dict[str, str] | None = None,
    result: str = "*",
    clocks: Sequence[float | None] | None = None,
    comments: Sequence[Sequence[str]] | None = None,
    intro: Sequence[str] = (),
) -> PdnGame:
    """A `PdnGame` from legal moves, for the writer: ``clocks[i]`` is the mover's time left after
    ply i (seconds), ``comments[i]`` the comments after it. Raises ValueError on an illegal move."""
    position = start if start is not None else Position.start(variant)
    if position.variant.id != variant.id:
        raise ValueError(f"the start position is {position.variant.id}, the game is {variant.id}")
    first = position
    pdn_moves: list[PdnMove] = []
    for ply, move in enumerate(moves):
        if move not in position.legal_moves():
            raise ValueError(f"ply {ply + 1}: {move.path} is not a legal move in {position.fen()}")
        pdn_moves.append(
            PdnMove(
                text=format_pdn(position, move),
                move=move,
                comments=tuple(comments[ply]) if comments is not None and ply < len(comments) else (),
                clock=clocks[ply] if clocks is not None and ply < len(clocks) else None,
            )
        )
        position = position.play(move)
    return PdnGame(
        tags=dict(tags or {}),
        variant_id=variant.id,
        start_fen=first.fen(),
        moves=tuple(pdn_moves),
        result=result,
        comments=tuple(intro),
    )
