"""How an engine's name appears in the names of its log files."""

from __future__ import annotations

import hashlib

NAME_CHARACTERS = 40  # the most of a log file's name an engine's name takes
_DIGEST_CHARACTERS = 8


def file_safe(name: str) -> str:
    """``name`` as it appears in its log files' names: as it is when it is short and made of letters,
    digits and ``-_.`` only; otherwise what it holds of those (the rest replaced by ``_``), cut to fit,
    with a short digest of the whole name, so that two engines' names never lead to the same files
    ("Scan 3" and "Scan_3", two names alike in their first 40 characters)."""
    safe = "".join(char if char.isalnum() or char in "-_." else "_" for char in name)
    if safe == name and 0 < len(name) <= NAME_CHARACTERS:
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:_DIGEST_CHARACTERS]
    kept = safe[: NAME_CHARACTERS - _DIGEST_CHARACTERS - 1] or "engine"
    return f"{kept}-{digest}"
