"""Hub protocol lines: reading ``command key=value flag ...`` and writing them back with Hub's quoting.

A value that holds a space, an ``=`` or nothing is written between double quotes; a key without
``=value`` is a flag. Hub has no escape for a double quote inside a value, so one is written as ``'``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class HubLine:
    """One parsed line: the command word, its ``key=value`` pairs and its bare flags."""

    command: str
    values: dict[str, str] = field(default_factory=dict)
    flags: frozenset[str] = frozenset()

    def get(self, key: str) -> str | None:
        return self.values.get(key)

    def has_flag(self, flag: str) -> bool:
        return flag in self.flags


def parse_hub_line(text: str) -> HubLine | None:
    """The line's command and arguments, or None for a blank line. Never raises: garbage stays garbage."""
    s = text.strip()
    n = len(s)
    i = 0
    while i < n and not s[i].isspace():
        i += 1
    command = s[:i]
    if not command:
        return None
    values: dict[str, str] = {}
    flags: set[str] = set()
    while True:
        while i < n and s[i].isspace():
            i += 1
        if i >= n:
            break
        start = i
        while i < n and not s[i].isspace() and s[i] != "=":
            i += 1
        key = s[start:i]
        if i < n and s[i] == "=":
            i += 1
            if i < n and s[i] == '"':
                close = s.find('"', i + 1)
                if close < 0:  # an unterminated quote takes the rest of the line
                    close = n
                value = s[i + 1 : close]
                i = close + 1
            else:
                start = i
                while i < n and not s[i].isspace():
                    i += 1
                value = s[start:i]
            if key:
                values[key] = value
        elif key:
            flags.add(key)
    return HubLine(command, values, frozenset(flags))


def quote_hub_value(value: str) -> str:
    clean = value.replace('"', "'").replace("\n", " ").replace("\r", " ")
    if clean == "" or any(c.isspace() or c == "=" for c in clean):
        return f'"{clean}"'
    return clean


def format_hub_line(
    command: str, values: Iterable[tuple[str, object]] = (), flags: Iterable[str] = ()
) -> str:
    """``command key=value ... flag ...`` with every value quoted where Hub needs it."""
    parts = [command]
    for key, value in values:
        text = _text_of(value)
        parts.append(f"{key}={quote_hub_value(text)}")
    parts.extend(flags)
    return " ".join(parts)


def _text_of(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)
