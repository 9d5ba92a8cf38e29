"""Control characters made visible: a NUL, an escape sequence or a stray carriage return in a name or
a message an engine (or a file) supplied must not reach a PDN file, a web page or a terminal raw."""

from __future__ import annotations

import re

_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def visible_controls(text: str) -> str:
    """`text` with every control character but the tab and the line feed written as ``\\xNN``."""
    if not _CONTROLS.search(text):
        return text
    return _CONTROLS.sub(lambda found: f"\\x{ord(found.group()):02x}", text)
