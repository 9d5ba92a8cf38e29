"""Files a command writes besides its database, checked before the work that leads to them."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def why_unwritable(path: Path) -> str | None:
    """Why ``path`` cannot be written (its folders made as needed, as writing it does), or None. An
    existing file is opened for appending and closed, which changes nothing; otherwise a probe file is
    made and removed beside it."""
    if path.is_dir():
        return "a folder, not a file"
    above = path.parent
    while not above.exists() and above != above.parent:
        above = above.parent
    if not above.is_dir():
        return f"{above} is a file, not a folder"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            with path.open("ab"):
                pass
        else:
            handle, probe = tempfile.mkstemp(prefix=".arbiter-probe.", suffix=".tmp", dir=path.parent)
            os.close(handle)
            os.unlink(probe)
    except OSError as exc:
        return f"cannot write there: {exc.strerror or exc}"
    return None
