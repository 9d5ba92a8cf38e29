"""Writing the site's files so that a reader never sees half of one, and naming them safely.

Each file is written to a temporary file beside it and renamed over the old one; a rename within one
directory is atomic, so a browser or a static host watching the folder of a running event reads either
the old page or the new one.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import re
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

_UNSAFE = re.compile(r"[^a-z0-9]+")
_UNSAFE_KEY = re.compile(r"[^A-Za-z0-9._-]+")
SLUG_CHARS = 40


def write_atomic(path: Path, data: str | bytes) -> None:
    """Replace `path` with `data` in one step (temporary file in the same folder, then rename)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        handle, temporary = _temporary_beside(path)
    except FileNotFoundError:  # a folder not made yet (or removed since)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = _temporary_beside(path)
    try:
        # The descriptor written straight, without a buffered file object around it: a site refresh
        # writes hundreds of small files.
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(handle, view) :]
            if _FCHMOD:
                os.fchmod(handle, 0o644)
        finally:
            os.close(handle)
        if not _FCHMOD:
            os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


# Temporary names from the process id and a counter: a site refresh writes hundreds of files, and
# `tempfile.mkstemp` spends much of a small file's write on drawing a random name.
_TEMPORARY_NUMBERS = itertools.count()
_FCHMOD = hasattr(os, "fchmod")
_CREATE_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def _temporary_beside(path: Path) -> tuple[int, str]:
    """A new, empty temporary file ``.NAME.<pid>-<n>.tmp`` beside `path`, opened for writing; if that
    name is taken (a file left by a killed process that had the same id), one from `tempfile`."""
    temporary = str(path.parent / f".{path.name}.{os.getpid()}-{next(_TEMPORARY_NUMBERS)}.tmp")
    try:
        return os.open(temporary, _CREATE_NEW, 0o600), temporary
    except FileExistsError:
        return tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)


def remove_stale_temporaries(folder: Path, older_than: float = 60.0) -> int:
    """Remove the temporary files a killed build left in the site (``.NAME.XXXX.tmp``) and return how
    many. Only files older than `older_than` seconds go: a younger one may be another build's, in flight."""
    removed = 0
    limit = time.time() - older_than
    for path in folder.rglob(".*.tmp"):
        with contextlib.suppress(OSError):
            if path.is_file() and path.stat().st_mtime < limit:
                path.unlink()
                removed += 1
    return removed


def short_hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def page_key(key: str) -> str:
    """A game key made safe as a file name (keys such as ``r1-b2-g1`` pass unchanged)."""
    safe = _UNSAFE_KEY.sub("_", key).strip("._") or "game"
    return safe if safe == key else f"{safe}-{short_hash(key)}"


def engine_slugs(names: Iterable[str]) -> dict[str, str]:
    """A distinct file-name-safe slug for every player name.

    A name that is already a plain slug keeps it; any other gets a short hash of the full name
    added, so names that differ only in punctuation or case still get pages of their own.
    """
    slugs: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        if name in slugs:
            continue
        base = _UNSAFE.sub("-", name.lower()).strip("-")[:SLUG_CHARS].strip("-") or "player"
        slug = base if base == name.lower() else f"{base}-{short_hash(name)}"
        while slug in used:
            slug = f"{base}-{short_hash(slug + name)}"
        used.add(slug)
        slugs[name] = slug
    return slugs
