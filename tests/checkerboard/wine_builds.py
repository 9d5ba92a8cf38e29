"""The C test engine (tests/engines/cb_engine.c) cross-compiled as Windows DLLs with MinGW-w64, and
looks through /proc for Wine processes that outlived their engine and for children left unreaped."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from checkerboard_builds import BUILDS, SOURCE

from arbiter.engines.process_group import read_entry

PACKAGES = "Debian packages wine, wine64 and mingw-w64: bash scripts/install-wine.sh"
CROSS = {64: "x86_64-w64-mingw32-gcc", 32: "i686-w64-mingw32-gcc"}


def missing_tools() -> list[str]:
    return [name for name in ("wine", "wineserver", CROSS[64]) if shutil.which(name) is None]


def skip_without_wine() -> None:
    missing = missing_tools()
    if missing:
        named = ", ".join(missing)
        pytest.skip(f"the Wine engine tests need Wine and MinGW-w64 ({PACKAGES}); missing: {named}")


def build_dll(directory: Path, name: str, bits: int = 64) -> Path:
    """One build of the test engine as a Windows DLL, compiled into ``directory`` unless it is there."""
    target = directory / f"cb_{name}_{bits}.dll"
    if target.exists():
        return target
    compiler = shutil.which(CROSS[bits])
    if compiler is None:
        pytest.skip(f"no {CROSS[bits]} ({PACKAGES})")
    # Static: the DLL needs no MinGW runtime DLL beside it (clock_gettime is in winpthreads).
    command = [compiler, "-shared", "-static", "-O1", "-o", str(target), str(SOURCE), *BUILDS[name]]
    command.append("-lpthread")
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stderr}"
    return target


def live_wine_processes(wine_dir: Path) -> list[str]:
    """Every live process (zombies are dead, only not yet reaped) whose environment names a Wine prefix
    under ``wine_dir``: the engine's host, its wineserver and the services Wine starts."""
    marker = f"WINEPREFIX={wine_dir}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            environment = (entry / "environ").read_bytes()
        except OSError:
            continue
        state = stat[stat.rfind(")") + 2 :].split()[0]
        if state != "Z" and any(item.startswith(marker) for item in environment.split(b"\0")):
            found.append(f"{entry.name} {stat[: stat.rfind(')') + 1]}")
    return found


def zombie_children() -> set[int]:
    """The pids of this process's children that have ended and are not reaped."""
    me, zombies = os.getpid(), set()
    for name in os.listdir("/proc"):
        entry = read_entry(int(name)) if name.isdigit() else None
        if entry is not None and entry.zombie and entry.ppid == me:
            zombies.add(entry.pid)
    return zombies
