"""Each Wine engine gets a prefix of its own, so its wineserver is its own and `wineserver -k` at its end
touches no other engine. A prefix is a hard-linked copy of the template (hundreds of MB, but a copy
takes milliseconds and no space; symbolic links where the file system has no hard links). The files Wine
writes to, the registry hives and Windows' .ini files (a few MB), are copied instead: Wine rewrites a
file that has other links where it is, so through a link an engine's settings (CheckerBoard engines keep
theirs in the registry) would reach the template and every engine's prefix made from it after."""

from __future__ import annotations

import glob
import os
import secrets
import shutil
import tempfile
from contextlib import suppress
from pathlib import Path

_STALE_MARK = "-"
_WRITTEN_BY_WINE = (".reg", ".ini")  # copied, never linked (see above)


def instances_directory(cache: Path) -> Path:
    return cache / "instances"


def new_instance(template: Path, cache: Path) -> Path:
    """A fresh prefix copied from ``template``, named after this process (so a stale one is known)."""
    root = instances_directory(cache)
    root.mkdir(parents=True, exist_ok=True)
    remove_stale(root)
    prefix = root / f"{os.getpid()}{_STALE_MARK}{secrets.token_hex(4)}"
    _link_tree(template, prefix)
    return prefix


def _link_tree(source: Path, target: Path) -> None:
    target.mkdir()
    for entry in os.scandir(source):
        if entry.name in ("wineserver", ".arbiter-ready"):
            continue
        there = target / entry.name
        if entry.is_symlink():
            there.symlink_to(os.readlink(entry.path))
        elif entry.is_dir():
            _link_tree(Path(entry.path), there)
        elif entry.name.lower().endswith(_WRITTEN_BY_WINE):
            shutil.copy2(entry.path, there)
        else:
            try:
                os.link(entry.path, there)
            except OSError:  # no hard links on this file system: a symbolic link is as cheap and as safe
                there.symlink_to(entry.path)


def remove_instance(prefix: Path) -> None:
    remove_server_directories(prefix)
    shutil.rmtree(prefix, ignore_errors=True)


def remove_server_directories(prefix: Path) -> None:
    """What the prefix's ended wineserver left under /tmp (Wine leaves its lock file there)."""
    for directory in server_directories(prefix):
        shutil.rmtree(directory, ignore_errors=True)
        with suppress(OSError):
            directory.parent.rmdir()  # a directory Wine made for this server alone, now empty


def server_directories(prefix: Path) -> list[Path]:
    """Where Wine keeps the socket and lock of a prefix's wineserver: ``server-<dev>-<inode>`` of the
    prefix, in ``/tmp/.wine-<uid>`` or in a ``/tmp/wine-XXXXXX`` of its own."""
    try:
        stat = prefix.stat()
    except OSError:
        return []
    name = f"server-{stat.st_dev:x}-{stat.st_ino:x}"
    found: set[Path] = set()
    for root in {"/tmp", tempfile.gettempdir()}:
        for pattern in (f".wine-{os.getuid()}", "wine-*"):
            found.update(Path(path) for path in glob.glob(os.path.join(root, pattern, name)))
    return sorted(found)


def remove_stale(root: Path) -> None:
    """Prefixes left by engines whose process was killed before it could remove its own."""
    for entry in root.iterdir():
        pid, mark, _ = entry.name.partition(_STALE_MARK)
        if mark and pid.isdigit() and not _alive(int(pid)):
            remove_instance(entry)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
