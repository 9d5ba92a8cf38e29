"""The text of Hub lines: `command key=value key="a value" flag ...`, both ways.

A value that holds a space or `=`, or is empty, is written in double quotes; there is no escape inside
quotes, so a value can never contain a double quote or a line break.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

_TOKEN = re.compile(r'([^\s="]+)(?:=(?:"([^"]*)"|([^\s"]*)))?')
_BARE_VALUE = re.compile(r'[^\s="]+')
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")

# A move: squares joined by '-' (a quiet move: exactly two squares) or by 'x' (a capture: start, end,
# then the captured squares). Only the shape is checked here; legality is the referee's business.
_MOVE = re.compile(r"[1-9]\d?(?:-[1-9]\d?|(?:x[1-9]\d?)+)")
_POSITION = re.compile(r"[WB][wbWBe]+")


_NO_FLAGS: frozenset[str] = frozenset()


class HubSyntaxError(ValueError):
    """A line that cannot be read as Hub text."""


@dataclass(slots=True)
class HubLine:
    """One line read (or to write). Not frozen: one is made for every line an engine prints, and a
    frozen dataclass sets each field through ``object.__setattr__``."""

    command: str
    fields: dict[str, str] = field(default_factory=dict)
    flags: frozenset[str] = frozenset()


def parse_line(text: str) -> HubLine:
    """Read one line (without its newline). Raises HubSyntaxError for text that is not Hub."""
    # Printable ASCII (every ``done``, most lines) holds no control character and no tab: the pattern
    # that looks for them is asked only about the rest.
    if text.isascii():
        if not text.isprintable() and _CONTROL.search(text):
            raise HubSyntaxError("control characters in the line")
        if '"' not in text:
            # Without quotes, in ASCII and without control characters (most of what engines print, every
            # ``done``): read here by splitting it at its spaces and tabs, the only white space it can
            # hold, which is what ``_parse_tokens`` reads from it too. What that reader must read (and
            # explain, if it is not Hub) goes on to it.
            words = text.split()
            if words and "=" not in words[0]:
                fields: dict[str, str] = {}
                flags: set[str] = set()
                for word in words[1:]:
                    key, equals, value = word.partition("=")
                    if not equals:
                        flags.add(word)
                    elif not key:  # `=value` is not Hub: the token reader says where
                        break
                    else:
                        fields[key] = value
                else:
                    return HubLine(words[0], fields, frozenset(flags) if flags else _NO_FLAGS)
    elif _CONTROL.search(text):
        raise HubSyntaxError("control characters in the line")
    return _parse_tokens(text)


def _parse_tokens(text: str) -> HubLine:
    """Any line, token by token (quoted values included); raises HubSyntaxError for text that is not Hub."""
    end = len(text)
    position = _skip_space(text, 0)
    command = ""
    fields: dict[str, str] = {}
    flags: set[str] = set()
    while position < end:
        token = _TOKEN.match(text, position)
        if token is None:
            raise HubSyntaxError(_what_is_wrong(text, position))
        after = token.end()
        if after < end and text[after] not in " \t":
            raise HubSyntaxError(_what_is_wrong(text, after))
        key, quoted, bare = token.group(1), token.group(2), token.group(3)
        has_value = quoted is not None or bare is not None
        if not command:
            if has_value:
                raise HubSyntaxError("the line starts with key=value instead of a command")
            command = key
        elif has_value:
            fields[key] = quoted if quoted is not None else bare
        else:
            flags.add(key)
        position = _skip_space(text, after)
    if not command:
        raise HubSyntaxError("empty line")
    return HubLine(command, fields, frozenset(flags))


def _what_is_wrong(text: str, position: int) -> str:
    """Why the line cannot be read at ``position``: said in the words of the line's rules, so that an
    author who printed `best = 9-13` or an unclosed quote sees what to change, not just where."""
    column = position + 1
    char = text[position]
    if position > 0 and text[position - 1] == '"' and char != '"':
        return f"text right after a closing quote at column {column} (a space must follow it)"
    if char == '"':
        if '"' not in text[position + 1 :]:
            return f"a double quote never closed at column {column}"
        return f'a double quote inside a word at column {column} (only a whole value is quoted: key="...")'
    if char == "=":
        return f"'=' without a key before it at column {column}"
    return f"unreadable text at column {column}"


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t":
        position += 1
    return position


def quote_value(value: str) -> str:
    """The value as it is written after `key=`."""
    if '"' in value or _CONTROL.search(value) or "\t" in value:
        raise ValueError(f"a Hub value cannot hold double quotes, tabs or line breaks: {value!r}")
    if _BARE_VALUE.fullmatch(value):
        return value
    return f'"{value}"'


def format_line(command: str, fields: Mapping[str, str] | None = None, flags: Iterable[str] = ()) -> str:
    """One Hub line (without its newline)."""
    for word in (command, *(fields or {}), *flags):
        if not _BARE_VALUE.fullmatch(word):
            raise ValueError(f"not a Hub command or key: {word!r}")
    parts = [command]
    parts.extend(f"{key}={quote_value(value)}" for key, value in (fields or {}).items())
    parts.extend(flags)
    return " ".join(parts)


def is_move_text(text: str) -> bool:
    """True when ``text`` has the shape of a Hub move (`32-28`, `28x19x23`)."""
    return _MOVE.fullmatch(text) is not None


def check_position_text(position: str) -> None:
    """Raise ValueError unless ``position`` has the shape of a Hub position (side letter, then squares)."""
    if not _POSITION.fullmatch(position):
        raise ValueError(
            f"not a Hub position: {position!r} (expected W or B, then one of w b W B e per square)"
        )


def format_seconds(seconds: float) -> str:
    """Seconds as a short real number with millisecond resolution: 0.1, 60, 2.5."""
    text = f"{seconds:.3f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"
