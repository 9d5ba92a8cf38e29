"""Files and folders a command writes besides its database, checked before the work that leads to them.

The checks make nothing: a folder that does not exist yet is made when the first file is written into
it, so a command refused before its work (an engine that cannot start) leaves no empty folder behind.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


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
