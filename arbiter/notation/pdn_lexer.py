"""PDN text to tokens: lines decoded one at a time, then split into tags, moves, comments and the rest.

Files are read as bytes a chunk at a time, so memory stays flat however long the file is. Each line is
decoded on its own: UTF-8 first, then cp1252 (the usual Windows encoding of old archives), then
latin-1, which accepts any byte; the lines that needed a fallback are counted so the reader can say so.
Every token carries the line and column (both from 1) where it starts.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import BinaryIO

CHUNK_SIZE = 1 << 16
# A comment longer than this is taken to be one whose closing brace is missing.
MAX_COMMENT_CHARS = 1 << 20

_LINE_BREAK = re.compile(rb"\r\n|\n|\r")


@dataclass
class DecodingReport:
    """How the lines of one file were decoded."""

    encoding: str = "utf-8"  # the encoding of the whole file where it had a byte-order mark
    fallback_lines: int = 0  # lines that were not UTF-8
    first_fallback_line: int | None = None
    fallback_encodings: set[str] = field(default_factory=set)

    def note(self, line_number: int, encoding: str) -> None:
        self.fallback_lines += 1
        if self.first_fallback_line is None:
            self.first_fallback_line = line_number
        self.fallback_encodings.add(encoding)

    def describe(self) -> str | None:
        """A sentence for the user when anything but plain UTF-8 was read, else None."""
        if self.fallback_lines == 0:
            return None if self.encoding == "utf-8" else f"read as {self.encoding} (byte-order mark)"
        names = " or ".join(sorted(self.fallback_encodings))
        return (
            f"{self.fallback_lines} line(s) are not UTF-8 and were read as {names} "
            f"(the first is line {self.first_fallback_line})"
        )


def decode_line(raw: bytes, line_number: int, report: DecodingReport) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        text = raw.decode("cp1252")
        report.note(line_number, "cp1252")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
        report.note(line_number, "latin-1")
    return text


def read_lines(
    stream: BinaryIO, report: DecodingReport, chunk_size: int = CHUNK_SIZE
) -> Iterator[tuple[int, str]]:
    """(line number, text) for each line of a binary stream; CR LF, LF and CR all end a line."""
    pending = stream.read(chunk_size)
    for bom, encoding in ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")):
        if pending.startswith(bom):
            report.encoding = "utf-16"
            yield from _read_wide_lines(pending[len(bom) :], stream, encoding, chunk_size)
            return
    if pending.startswith(codecs.BOM_UTF8):
        pending = pending[len(codecs.BOM_UTF8) :]
    number = 0
    at_end = False
    # What is held between chunks is the line not ended yet: a line longer than a chunk grows in place,
    # and only the new chunk is searched for a line break (plus a CR held at the end of the last), so
    # a line of megabytes costs no more than its length.
    unfinished = bytearray(pending)
    searched = 0
    while not at_end:
        chunk = stream.read(chunk_size)
        at_end = not chunk
        unfinished += chunk
        start = 0
        for match in _LINE_BREAK.finditer(unfinished, searched):
            # A CR at the very end may be the first half of a CR LF split across two chunks.
            if not at_end and match.end() == len(unfinished) and match.group() == b"\r":
                break
            number += 1
            yield number, decode_line(bytes(unfinished[start : match.start()]), number, report)
            start = match.end()
        if start:
            del unfinished[:start]
        searched = max(len(unfinished) - 1, 0)  # a held CR is searched again, with what follows it
    if unfinished:
        yield number + 1, decode_line(bytes(unfinished), number + 1, report)


def _read_wide_lines(
    head: bytes, stream: BinaryIO, encoding: str, chunk_size: int
) -> Iterator[tuple[int, str]]:
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    pending = decoder.decode(head)
    number = 0
    at_end = False
    while not at_end:
        chunk = stream.read(chunk_size)
        at_end = not chunk
        pending += decoder.decode(chunk, final=at_end)
        held = "" if at_end or not pending.endswith("\r") else "\r"  # maybe half of a CR LF
        parts = re.split(r"\r\n|\n|\r", pending[: len(pending) - len(held)])
        pending = parts.pop() + held
        for part in parts:
            number += 1
            yield number, part
    if pending:
        yield number + 1, pending


class TokenKind(StrEnum):
    TAG = "tag"  # text = name, value = value
    MOVE_NUMBER = "move number"  # text as written: "12.", "12...", "12"
    MOVE = "move"  # text with spaces removed: "1-6", "15x24x31", "c3-d4"
    MARK = "mark"  # strength marks and numeric glyphs: "!?", "$3"
    RESULT = "result"  # "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"
    COMMENT = "comment"  # brace or line comment, without its delimiters
    VARIATION_START = "("
    VARIATION_END = ")"
    # Faults found while reading the text: value says what is wrong.
    BROKEN_TAG = "broken tag"
    UNKNOWN = "unknown"  # text that is no PDN token
    NESTED_COMMENT = "nested comment"  # a '{' inside a comment (the comment is read to its matching '}')
    UNCLOSED_COMMENT = "unclosed comment"
    STRAY_BRACE = "stray brace"  # a '}' outside any comment


# A clock reading in a comment (`{[%clock w0:59:12]}`): a reading, not words of the annotator.
CLOCK_COMMAND = re.compile(r"\[%clock\s+([^\]]*)\]")


@dataclass
class Annotations:
    """What a file holds besides its games' tags, moves and results, counted as the lexer meets it:
    comments (a comment that holds nothing but [%clock] readings is no comment here), side lines,
    marks ($n, ! and ?), and % escape lines."""

    comments: int = 0
    side_lines: int = 0
    marks: int = 0
    escape_lines: int = 0

    def count_comment(self, text: str) -> None:
        if "[%clock" not in text or CLOCK_COMMAND.sub("", text).strip():
            self.comments += 1

    def describe(self) -> str | None:
        """`155 comments and 3 side lines`, or None when there are none."""
        counts = (
            (self.comments, "comment", "comments"),
            (self.side_lines, "side line", "side lines"),
            (self.marks, "mark ($n, !, ?)", "marks ($n, !, ?)"),
            (self.escape_lines, "% line", "% lines"),
        )
        parts = [f"{count:,} {one if count == 1 else many}" for count, one, many in counts if count]
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"

    @property
    def single(self) -> bool:
        """Whether there is exactly one thing counted (for the verb that follows `describe`)."""
        return self.comments + self.side_lines + self.marks + self.escape_lines == 1


@dataclass(frozen=True, slots=True)
class Token:
    kind: TokenKind
    text: str
    line: int
    column: int
    value: str = ""


_END = r"(?=[\s{}()\[\];!?$*,]|$)"  # what may follow a move, number or result
_SQUARE = r"(?:\d{1,3}|[a-lA-L](?:1[0-2]|[1-9]))"
_MAIN = re.compile(
    rf"""
    (?P<space>\s+)
    |(?P<tag>\[)
    |(?P<comment>\{{)
    |(?P<line_comment>;.*)
    |(?P<mark_paren>\([!?]+\))
    |(?P<open>\()
    |(?P<close>\))
    |(?P<stray>\}})
    |(?P<stray_bracket>\])
    |(?P<nag>\$\d+)
    |(?P<marks>[!?]+)
    |(?P<result>(?:1/2-1/2|½-½|1-0|0-1|2-0|0-2|1-1|0-0){_END}|\*)
    |(?P<number>\d+(?:\.+|…)(?:[ \t]*(?:\.\.+|…))?|\d+(?=[ \t]+{_SQUARE}))
    |(?P<move>{_SQUARE}(?:[ \t]*[-xX:×][ \t]*{_SQUARE})+{_END})
    |(?P<glued>[a-lA-L](?:1[0-2]|[1-9])(?:[a-lA-L](?:1[0-2]|[1-9]))+{_END})
    |(?P<word>[^\s{{}}()\[\];]+)
    """,
    re.VERBOSE,
)
# A value is plain characters and backslash pairs, written unrolled: the same strings as
# (?:[^"\\]|\\.)*, without a backtracking point a character (which cost ~170 bytes each on long values).
_TAG = re.compile(r'\[\s*([A-Za-z0-9_+\-]+)\s*"([^"\\]*(?:\\.[^"\\]*)*)"\s*\]')
_TAG_NAME_ONLY = re.compile(r"\[\s*([A-Za-z0-9_+\-]+)")
_MOVE_SPACES = re.compile(r"[ \t]+")
_GLUED_SQUARES = re.compile(r"[a-lA-L](?:1[0-2]|[1-9])")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


class Lexer:
    """Tokens of PDN text given as numbered lines. One instance reads one file, in order, counting its
    comments, side lines, marks and escape lines in ``annotations``."""

    def __init__(self, lines: Iterable[tuple[int, str]], annotations: Annotations | None = None) -> None:
        self._lines = lines
        self._comment: _OpenComment | None = None
        self.annotations = annotations if annotations is not None else Annotations()

    def tokens(self) -> Iterator[Token]:
        for number, line in self._lines:
            if self._comment is None and line.startswith("%"):
                self.annotations.escape_lines += 1
                continue  # an escape line: ignored, as PDN says
            pos = 0
            length = len(line)
            while pos < length:
                if self._comment is not None:
                    pos = yield from self._comment_text(line, pos, number)
                    continue
                match = _MAIN.match(line, pos)
                assert match is not None  # the last alternative matches any non-space text
                kind = match.lastgroup
                column = pos + 1
                pos = match.end()
                text = match.group()
                if kind == "space":
                    continue
                if kind == "tag":
                    token, pos = _tag(line, match.start(), number)
                    yield token
                elif kind == "comment":
                    self._comment = _OpenComment(number, column)
                elif kind == "line_comment":
                    body = text[1:].strip()
                    self.annotations.count_comment(body)
                    yield Token(TokenKind.COMMENT, body, number, column)
                elif kind == "mark_paren":
                    self.annotations.marks += 1
                    yield Token(TokenKind.MARK, text[1:-1], number, column)
                elif kind == "open":
                    self.annotations.side_lines += 1
                    yield Token(TokenKind.VARIATION_START, text, number, column)
                elif kind == "close":
                    yield Token(TokenKind.VARIATION_END, text, number, column)
                elif kind == "stray":
                    yield Token(TokenKind.STRAY_BRACE, text, number, column, "'}' closes no comment")
                elif kind == "stray_bracket":
                    yield Token(TokenKind.UNKNOWN, text, number, column, "a bracket that closes no tag")
                elif kind in ("nag", "marks"):
                    self.annotations.marks += 1
                    yield Token(TokenKind.MARK, text, number, column)
                elif kind == "result":
                    yield Token(TokenKind.RESULT, text.replace("½", "1/2"), number, column)
                elif kind == "number":
                    text = _MOVE_SPACES.sub("", text).replace("…", "...")
                    yield Token(TokenKind.MOVE_NUMBER, text, number, column)
                elif kind == "move":
                    yield Token(TokenKind.MOVE, _MOVE_SPACES.sub("", text), number, column)
                elif kind == "glued":
                    # Coordinates written without a separator ("a3b4"), joined with '-' for the resolver.
                    yield Token(TokenKind.MOVE, "-".join(_GLUED_SQUARES.findall(text)), number, column)
                else:
                    yield Token(
                        TokenKind.UNKNOWN, text, number, column, "not a PDN move, move number or result"
                    )
            if self._comment is not None:
                self._comment.parts.append("\n")
        if self._comment is not None:
            comment = self._comment
            self._comment = None
            yield Token(
                TokenKind.UNCLOSED_COMMENT,
                "{",
                comment.line,
                comment.column,
                "the comment opened here is never closed (no '}' before the end of the file)",
            )

    def _comment_text(self, line: str, pos: int, number: int) -> Generator[Token, None, int]:
        """Read comment text from ``pos`` to its '}' or the end of the line; returns where it stopped."""
        comment = self._comment
        assert comment is not None
        start = pos
        length = len(line)
        while pos < length:
            char = line[pos]
            pos += 1
            if char == "{":
                # PDN comments do not nest; the comment is still read to the matching '}' so that
                # the text after it is not taken for moves.
                comment.depth += 1
                yield Token(
                    TokenKind.NESTED_COMMENT,
                    "{",
                    number,
                    pos,
                    f"'{{' inside the comment opened at line {comment.line} column {comment.column}: "
                    "comments do not nest in PDN",
                )
            elif char == "}":
                if comment.depth == 0:
                    comment.parts.append(line[start : pos - 1])
                    self._comment = None
                    text = "".join(comment.parts).strip()
                    self.annotations.count_comment(text)
                    yield Token(TokenKind.COMMENT, text, comment.line, comment.column)
                    return pos
                comment.depth -= 1
        comment.parts.append(line[start:pos])
        comment.size += pos - start
        if comment.size > MAX_COMMENT_CHARS:
            self._comment = None
            yield Token(
                TokenKind.UNCLOSED_COMMENT,
                "{",
                comment.line,
                comment.column,
                f"the comment opened here runs past {MAX_COMMENT_CHARS:,} characters without a '}}'",
            )
        return pos


@dataclass
class _OpenComment:
    line: int
    column: int
    parts: list[str] = field(default_factory=list)
    depth: int = 0  # braces opened inside it (a fault, but read through)
    size: int = 0


def _tag(line: str, start: int, number: int) -> tuple[Token, int]:
    match = _TAG.match(line, start)
    if match:
        return Token(TokenKind.TAG, match.group(1), number, start + 1, _unescape(match.group(2))), match.end()
    # A broken tag: say what is wrong, and skip to its ']' (or the end of the line).
    name_match = _TAG_NAME_ONLY.match(line, start)
    close = line.find("]", start)
    end = close + 1 if close >= 0 else len(line)
    text = line[start:end]
    name = name_match.group(1) if name_match else ""
    if name_match is None:
        why = 'a tag needs a name and a quoted value, like [Event "..."]'
    elif '"' not in text:
        why = f"tag {name!r} has no quoted value"
    elif text.count('"') - text.count('\\"') < 2:
        why = f"the value of tag {name!r} has no closing quote"
    elif close < 0:
        why = f"tag {name!r} has no closing ']'"
    else:
        why = f'tag {name!r} is not of the form [Name "value"]'
    return Token(TokenKind.BROKEN_TAG, name, number, start + 1, f"broken tag {text.strip()!r}: {why}"), end
