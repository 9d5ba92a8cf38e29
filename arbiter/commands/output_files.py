"""Files and folders a command writes besides its database, checked before the work that leads to them.

The checks make nothing: a folder that does not exist yet is made when the first file is written into
it, so a command refused before its work (an engine that cannot start) leaves no empty folder behind.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

# A PDN tag line naming the event, its value still escaped as written.
_EVENT_TAG = re.compile(rb'^[ \t]*\[[ \t]*Event[ \t]+"((?:[^"\\\r\n]|\\.)*)"', re.MULTILINE)


def why_unwritable(path: Path) -> str | None:
    """Why the file ``path`` cannot be written (its missing folders made, as writing it does), or None.
    An existing file is opened for appending and closed, which changes nothing."""
    if path.is_dir():
        return "a folder, not a file"
    if path.exists():
        try:
            with path.open("ab"):
                pass
        except OSError as exc:
            return f"cannot write there: {exc.strerror or exc}"
        return None
    return _why_folder_unwritable(path.parent)


def why_not_replaceable(path: Path, event: str) -> str | None:
    """Why writing ``event``'s games in place of the file ``path`` would lose games, or None: an empty
    file, or one holding only games of ``event`` (an earlier run's copy of them), may be replaced."""
    from arbiter.notation.pdn_writer import written_tag_value

    try:
        text = path.read_bytes()
    except OSError:
        return None  # no such file yet, or one `why_unwritable` speaks of
    if not text.strip():
        return None
    ours = written_tag_value(event).encode("utf-8")
    events = _EVENT_TAG.findall(text)
    other = next((name for name in events if name != ours), None)
    if events and other is None:
        return None
    held = (
        f"games of another event ({_unescaped(other)!r})"
        if other is not None
        else "text that is not this event's games"
    )
    return (
        f"it holds {held}, and the finished games are written in place of what it holds when the run "
        f"ends: give another file, or move this one aside"
    )


def _unescaped(value: bytes) -> str:
    return re.sub(r"\\(.)", r"\1", value.decode("utf-8", "replace"))


def why_folder_unwritable(folder: Path) -> str | None:
    """Why files cannot be written into ``folder`` (made if missing, as writing them does), or None."""
    if folder.exists() and not folder.is_dir():
        return "a file, not a folder"
    return _why_folder_unwritable(folder)


def _why_folder_unwritable(folder: Path) -> str | None:
    """Tried in the nearest folder that exists, where the missing ones would be made: a probe file made
    and removed there leaves it as it was."""
    above = folder
    while not above.exists() and above != above.parent:
        above = above.parent
    if not above.is_dir():
        return f"{above} is a file, not a folder"
    try:
        handle, probe = tempfile.mkstemp(prefix=".arbiter-probe.", suffix=".tmp", dir=above)
        os.close(handle)
        os.unlink(probe)
    except OSError as exc:
        return f"cannot write there: {exc.strerror or exc}"
    return None
