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
from collections.abc import Collection, Iterable
from pathlib import Path

_UNSAFE = re.compile(r"[^a-z0-9]+")
_UNSAFE_KEY = re.compile(r"[^A-Za-z0-9._-]+")
SLUG_CHARS = 40
# The names of a site's own files (`PageWriter`, `write_game_page`, `LiveGames`): a build removes a file
# an earlier one wrote only if its name has this shape, whatever the folder's record says of it.
_SITE_FILE = re.compile(
    r"(?:index|live|openings|games(?:-[0-9]+)?)\.html|event\.pdn|live-data\.js"
    r"|(?:engines|openings)/[A-Za-z0-9._-]+\.html|games/[A-Za-z0-9._-]+\.(?:html|pdn)|static/[a-z]+\.(?:css|js)"
)
SITE_FOLDERS = ("engines", "games", "openings", "static")
_GENERATOR = b'<meta name="generator" content="arbiter">'


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


def is_site_file(relative: str) -> bool:
    """Whether `relative` (a path in a site's folder, with ``/``) names a file of a site's own layout."""
    return _SITE_FILE.fullmatch(relative) is not None


def site_files_in(folder: Path, besides: Collection[str] = ()) -> list[str]:
    """The files in the site's `folder` that look like a site's own (of its layout, and a page with
    the generator's mark: `templates/base.html`), other than `besides`."""
    found: list[str] = []
    for prefix in ("", *(f"{name}/" for name in SITE_FOLDERS)):
        try:
            entries = list(os.scandir(folder / prefix))
        except OSError:  # no such folder
            continue
        names = (prefix + entry.name for entry in entries if entry.is_file(follow_symlinks=False))
        found += [
            name for name in names if name not in besides and is_site_file(name) and _marked(folder / name)
        ]
    return sorted(found)


def _marked(path: Path) -> bool:
    if path.suffix != ".html":
        return True
    try:
        with path.open("rb") as stream:
            return _GENERATOR in stream.read(2048)
    except OSError:
        return False


def remove_site_files(folder: Path, names: Iterable[str]) -> tuple[list[str], list[str]]:
    """Remove the files `names` (paths in the site's `folder`) and the site's subfolders that this
    leaves empty; return (the files removed, those that could not be). A name not of a site's own
    layout (`is_site_file`), a link and anything outside the folder are left alone."""
    root = folder.resolve()
    removed: list[str] = []
    failed: list[str] = []
    for name in sorted(names):
        path = folder / name
        if (
            not is_site_file(name)
            or path.is_symlink()
            or not path.is_file()
            or root not in path.resolve().parents
        ):
            continue
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        except OSError:
            failed.append(name)
            continue
        removed.append(name)
    for subfolder in {name.partition("/")[0] for name in removed if "/" in name}:
        with contextlib.suppress(OSError):  # not empty: the new site's files, or the user's
            (folder / subfolder).rmdir()
    return removed, failed


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
