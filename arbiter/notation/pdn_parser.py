"""Tokens to games: groups the tokens of a PDN file into one `RawGame` at a time, before any replay.

A game is its tags, then its move text, up to a result (the game terminator) or the next tag after
move text, or the end of the file. Variations nest in parentheses and hang off the move they replace.
Faults in the text itself (broken tags, stray braces, unclosed variations) are kept with the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from arbiter.notation.pdn_lexer import Token, TokenKind
from arbiter.notation.pdn_model import RESULTS, FaultKind, PdnFault


@dataclass
class RawMove:
    text: str
    line: int
    column: int
    marks: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    variations: list[RawLine] = field(default_factory=list)


@dataclass
class RawStop:
    """Text in a line of moves that is no move: the replay of that line stops here."""

    token: Token


@dataclass
class RawLine:
    items: list[RawMove | RawStop] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)  # before its first move
    opened: tuple[int, int] = (0, 0)  # a variation's '(': line and column

    def last_move(self) -> RawMove | None:
        if self.items and isinstance(self.items[-1], RawMove):
            return self.items[-1]
        return None


@dataclass
class RawGame:
    number: int
    line: int
    tags: dict[str, str] = field(default_factory=dict)
    tag_places: dict[str, tuple[int, int]] = field(default_factory=dict)
    main: RawLine = field(default_factory=RawLine)
    result: str | None = None  # the terminator, when there is one
    result_place: tuple[int, int] | None = None
    faults: list[PdnFault] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def move_texts(self) -> list[str]:
        return [item.text for item in self.main.items if isinstance(item, RawMove)]

    @property
    def empty(self) -> bool:
        return not self.tags and not self.main.items and self.result is None and not self.faults


def _fault(token: Token, kind: FaultKind = FaultKind.SYNTAX, reason: str | None = None) -> PdnFault:
    return PdnFault(kind, reason or token.value, token.line, token.column)


class GameAssembler:
    """Turns a stream of tokens into games, one at a time, holding only the current game."""

    def __init__(self, tokens: Iterable[Token]) -> None:
        self._tokens = tokens

    def games(self) -> Iterator[RawGame]:
        number = 0
        game: RawGame | None = None
        stack: list[RawLine] = []  # the lines being read: the main line, then open variations
        in_moves = False
        for token in self._tokens:
            kind = token.kind
            if game is None:
                number += 1
                game = RawGame(number, token.line)
                stack = [game.main]
                in_moves = False
            if kind is TokenKind.TAG or kind is TokenKind.BROKEN_TAG:
                if in_moves:
                    # A tag after move text without a result: that game ended there.
                    finished = self._finish(game, stack)
                    if not finished.empty:
                        yield finished
                    number += 1
                    game = RawGame(number, token.line)
                    stack = [game.main]
                    in_moves = False
                if kind is TokenKind.TAG:
                    if token.text in game.tags:
                        game.notes.append(
                            f"tag {token.text} is given twice (line {game.tag_places[token.text][0]} and "
                            f"line {token.line}); the later value is used"
                        )
                    game.tags[token.text] = token.value
                    game.tag_places[token.text] = (token.line, token.column)
                else:
                    game.faults.append(_fault(token, FaultKind.BROKEN_TAG))
                continue
            line = stack[-1]
            if kind is TokenKind.RESULT:
                if len(stack) > 1:
                    line.comments.append(token.text)  # a result inside a variation ends nothing
                    continue
                game.result = token.text
                game.result_place = (token.line, token.column)
                yield self._finish(game, stack)
                game = None
                continue
            # A comment before any tag belongs to the game whose tags follow; anything else starts the
            # move text, after which a tag means a new game.
            if not (kind is TokenKind.COMMENT and not game.tags and not game.main.items):
                in_moves = True
            if kind is TokenKind.MOVE:
                line.items.append(RawMove(token.text, token.line, token.column))
            elif kind is TokenKind.MOVE_NUMBER:
                pass  # numbers are checked by the replay itself: the side to move is known
            elif kind is TokenKind.COMMENT:
                last = line.last_move()
                (last.comments if last else line.comments).append(token.text)
            elif kind is TokenKind.MARK:
                last = line.last_move()
                if last is not None:
                    last.marks.append(token.text)
            elif kind is TokenKind.VARIATION_START:
                variation = RawLine(opened=(token.line, token.column))
                last = line.last_move()
                if last is not None:
                    last.variations.append(variation)
                else:
                    game.faults.append(
                        _fault(token, reason="a variation must follow the move it replaces; it is skipped")
                    )
                stack.append(variation)
            elif kind is TokenKind.VARIATION_END:
                if len(stack) > 1:
                    stack.pop()
                else:
                    game.faults.append(_fault(token, reason="')' closes no variation"))
            elif kind is TokenKind.UNKNOWN:
                line.items.append(RawStop(token))
            else:  # NESTED_COMMENT, UNCLOSED_COMMENT, STRAY_BRACE
                game.faults.append(_fault(token))
        if game is not None:
            finished = self._finish(game, stack)
            if not finished.empty:  # comments after the last result make no game
                yield finished

    def _finish(self, game: RawGame, stack: list[RawLine]) -> RawGame:
        if len(stack) > 1:
            # Told where the outermost one opens: everything after it was read as side lines.
            line, column = stack[1].opened
            game.faults.append(
                PdnFault(
                    FaultKind.SYNTAX,
                    "the variation opened here is not closed with ')' before the end of the game"
                    + (f" ({len(stack) - 1} variations are open)" if len(stack) > 2 else ""),
                    line,
                    column,
                )
            )
        if game.result is None:
            self._odd_result(game)
        return game

    def _odd_result(self, game: RawGame) -> None:
        """A game without a terminator whose last 'move' is its Result tag, as in files that score a
        match 4-6: that text is the result (a bad one), not a move."""
        declared = game.tags.get("Result")
        last = game.main.last_move()
        if (
            declared
            and last is not None
            and last.text == declared.replace(" ", "")
            and declared not in RESULTS
        ):
            game.main.items.pop()
            game.result = declared
            game.result_place = (last.line, last.column)
