"""`cb:/path/engine.so` wherever the command line names an engine."""

from __future__ import annotations

from pathlib import Path

PREFIX = "cb:"


def is_checkerboard_name(text: str) -> bool:
    return text.startswith(PREFIX) and len(text) > len(PREFIX)


def checkerboard_entry(text: str) -> dict[str, object]:
    """The engine configuration keys for ``cb:PATH``: named after the library's file."""
    library = Path(text[len(PREFIX) :]).expanduser()
    return {"name": library.stem or "checkerboard", "protocol": "checkerboard", "library": library}
