"""What running a Windows CheckerBoard DLL through Wine needs, found or made once and cached.

    python -m arbiter.engines.checkerboard.wine_setup [--bits 64|32] [ENGINE.DLL]

builds the host program (``wine_host.c``, with the MinGW-w64 cross compiler) and the Wine prefix that
every engine's own prefix is copied from, and prints where they are. The arbiter does the same by
itself before an engine's first start; the command only lets a user pay the first prefix's cost
(many seconds) ahead of time and see what is missing.

Everything lives under ``$ARBITER_WINE_DIR`` (default ``$XDG_CACHE_HOME/arbiter/wine``, or
``~/.cache/arbiter/wine``): hosts under ``hosts/<source hash>/``, the template prefix under
``prefixes/``. Nothing is ever downloaded.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from arbiter.engines.checkerboard.api import STACK_SIZE
from arbiter.engines.checkerboard.wine_prefix import remove_server_directories

HOST_SOURCE = Path(__file__).with_name("wine_host.c")
COMPILERS = {64: "x86_64-w64-mingw32-gcc", 32: "i686-w64-mingw32-gcc"}
# PE machine field -> pointer size in bits
_MACHINES = {0x8664: 64, 0x14C: 32}
# static: the host needs no MinGW DLL beside it. getmove runs on the host's main thread, whose stack is
# the one the program is linked with: as large as CheckerBoard gives its engines (see api.STACK_SIZE).
HOST_FLAGS = ["-O2", "-static", f"-Wl,--stack,{STACK_SIZE}"]
WINE_PACKAGES = "Wine: Debian packages wine and wine64 (apt-get install wine wine64)"
MINGW_PACKAGES = "MinGW-w64: Debian package mingw-w64 (apt-get install mingw-w64)"
WINE32_HINT = (
    "this machine's Wine does not run 32-bit programs; on Debian: dpkg --add-architecture i386 && "
    "apt-get update && apt-get install wine32:i386"
)
# Windows programs started headless: no Mono/Gecko installers, no menu entries, no windows.
_DLL_OVERRIDES = "mscoree,mshtml=;winemenubuilder.exe=d"
TEMPLATE_SECONDS_NOTE = "a new Wine prefix takes many seconds to create (once per machine and Wine version)"


class WineUnavailable(Exception):
    """Wine, its server, the cross compiler or a usable prefix is missing; the message says what to do."""


@dataclass(frozen=True)
class WineSetup:
    """How to start the host for one DLL."""

    wine: list[str]  # the command that runs a Windows program
    wineserver: list[str]  # the command whose `-k` ends every process of a prefix
    host: Path  # the host program, built for the DLL's pointer size
    template: Path  # the prefix each engine's own prefix is copied from
    bits: int
    directory: Path  # the cache directory (instances go under it, on the template's file system)


def needs_wine(library: Path, platform: str = sys.platform) -> bool:
    """A DLL named on a system that is not Windows."""
    return platform != "win32" and library.suffix.lower() == ".dll"


def dll_bits(library: Path) -> int:
    """32 or 64, read from the DLL's PE header."""
    try:
        with library.open("rb") as file:
            head = file.read(4096)
    except OSError as error:
        raise WineUnavailable(f"cannot read {library}: {error.strerror}") from None
    if head[:2] != b"MZ" or len(head) < 0x40:
        raise WineUnavailable(f"{library} is not a Windows DLL (no MZ header)")
    offset = int.from_bytes(head[0x3C:0x40], "little")
    if head[offset : offset + 4] != b"PE\0\0":
        raise WineUnavailable(f"{library} is not a Windows DLL (no PE header)")
    machine = int.from_bytes(head[offset + 4 : offset + 6], "little")
    if machine not in _MACHINES:
        raise WineUnavailable(f"{library} is built for machine 0x{machine:04x}, neither x86 nor x86-64")
    return _MACHINES[machine]


def cache_directory(env: Mapping[str, str]) -> Path:
    if env.get("ARBITER_WINE_DIR"):
        return Path(env["ARBITER_WINE_DIR"]).expanduser()
    base = Path(env["XDG_CACHE_HOME"]) if env.get("XDG_CACHE_HOME") else Path.home() / ".cache"
    return base / "arbiter" / "wine"


def wine_commands(env: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """(wine, wineserver): ``$ARBITER_WINE`` / ``$ARBITER_WINESERVER`` or the programs on PATH."""
    path = env.get("PATH")
    wine = shlex.split(env.get("ARBITER_WINE", "")) or _which("wine", path)
    if not wine or shutil.which(wine[0], path=path) is None:
        named = f"{wine[0]!r} (ARBITER_WINE) is not a program" if wine else "no 'wine' on PATH"
        raise WineUnavailable(f"a Windows DLL needs Wine on Linux: {named}; install {WINE_PACKAGES}")
    server = shlex.split(env.get("ARBITER_WINESERVER", "")) or _which("wineserver", path)
    if not server:
        sibling = Path(shutil.which(wine[0], path=path) or wine[0]).with_name("wineserver")
        server = [str(sibling)] if sibling.is_file() else []
    if not server:
        raise WineUnavailable(f"Wine is there but 'wineserver' is not on PATH; install {WINE_PACKAGES}")
    return wine, server


def _which(program: str, path: str | None) -> list[str]:
    found = shutil.which(program, path=path)
    return [found] if found else []


def wine_environment(env: Mapping[str, str], prefix: Path) -> dict[str, str]:
    """The environment Wine runs an engine (or builds a prefix) in: its own prefix, silent, headless."""
    wine_env = {key: value for key, value in env.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
    wine_env.update(WINEPREFIX=str(prefix), WINEDEBUG="-all", WINEDLLOVERRIDES=_DLL_OVERRIDES)
    return wine_env


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Held by one process at a time (two engines of one event prepare at once)."""
    import fcntl

    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def host_path(bits: int, directory: Path) -> Path:
    """Where the host for ``bits`` is kept: named by a hash of its source and build command, so a
    changed source is built again."""
    source = HOST_SOURCE.read_bytes()
    key = hashlib.sha256(source + " ".join([COMPILERS[bits], *HOST_FLAGS]).encode()).hexdigest()[:16]
    return directory / "hosts" / key / f"wine_host{bits}.exe"


def build_host(bits: int, directory: Path, env: Mapping[str, str]) -> Path:
    """The host program for ``bits``, built once per source and kept under ``directory/hosts``."""
    target = host_path(bits, directory)
    if target.is_file():
        return target
    compiler = shutil.which(COMPILERS[bits], path=env.get("PATH"))
    if compiler is None:
        raise WineUnavailable(
            f"the Wine host program for {bits}-bit DLLs is not built and its cross compiler "
            f"{COMPILERS[bits]} is missing; install {MINGW_PACKAGES}"
        )
    with _locked(directory / "hosts.lock"):
        if target.is_file():
            return target
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(f".{os.getpid()}.part")
        command = [compiler, *HOST_FLAGS, "-o", str(partial), str(HOST_SOURCE)]
        done = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            failed = f"building the Wine host failed: {' '.join(command)}"
            raise WineUnavailable(f"{failed}\n{done.stderr.strip()}")
        partial.replace(target)
    return target


def _wine_version(wine: list[str], env: Mapping[str, str]) -> str:
    return _version_of(tuple(wine), env.get("PATH", ""))


@functools.cache
def _version_of(wine: tuple[str, ...], path: str) -> str:
    """Asked once per process: the arbiter checks before every engine start."""
    env = {**os.environ, "PATH": path} if path else dict(os.environ)
    done = subprocess.run(
        [*wine, "--version"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={**env, "WINEDEBUG": "-all"},
        timeout=60,
    )
    version = done.stdout.strip()
    if done.returncode != 0 or not version:
        raise WineUnavailable(f"'{' '.join(wine)} --version' failed: {done.stderr.strip()}")
    return version


# Made afresh when it changes. 2: engines' prefixes copy the registry instead of linking it; a template
# made before could have taken in the settings engines wrote to their registry through the links.
TEMPLATE_REVISION = 2


def template_prefix(wine: list[str], wineserver: list[str], directory: Path, env: Mapping[str, str]) -> Path:
    """The prefix engines' prefixes are copied from, made once per Wine version (the slow part)."""
    version = _wine_version(wine, env)
    safe = "".join(c if c.isalnum() or c in ".-" else "_" for c in version)
    name = f"template-{safe}-r{TEMPLATE_REVISION}"
    prefix = directory / "prefixes" / name
    ready = prefix / ".arbiter-ready"
    if ready.is_file():
        return prefix
    with _locked(directory / "prefixes.lock"):
        if ready.is_file():
            return prefix
        shutil.rmtree(prefix, ignore_errors=True)  # a half-made one from an interrupted run
        prefix.parent.mkdir(parents=True, exist_ok=True)
        wine_env = wine_environment(env, prefix)
        try:
            done = subprocess.run(
                [sys.executable, "-c", _REAPING_RUNNER, *wine, "wineboot", "--init"],
                capture_output=True,
                text=True,
                stdin=subprocess.DEVNULL,
                env=wine_env,
                timeout=600,
            )
        finally:
            end_prefix(wineserver, prefix, env)
            remove_server_directories(prefix)
        if done.returncode != 0 or not (prefix / "system.reg").is_file():
            raise WineUnavailable(f"Wine could not create the prefix {prefix}: {done.stderr.strip()[-500:]}")
        (prefix / "wineserver").unlink(missing_ok=True)
        ready.write_text(f"{version}\n")
    return prefix


# The boot runs under a helper that is a subreaper of its own (``run_reaping``): the processes the boot
# starts (wineserver, Wine's services) end orphaned, and are adopted and reaped there rather than by an
# arbiter that adopts its engines' orphans; the helper exits once every one of them has ended.
_REAPING_RUNNER = (
    "import sys; from arbiter.engines.process_group import run_reaping; sys.exit(run_reaping(sys.argv[1:]))"
)


def end_prefix(wineserver: list[str], prefix: Path, env: Mapping[str, str]) -> None:
    """End every Wine process of ``prefix`` (its wineserver included) and wait until they are gone."""
    wine_env = wine_environment(env, prefix)
    for flag in ("-k", "-w"):
        with suppress(OSError, subprocess.TimeoutExpired):
            subprocess.run(
                [*wineserver, flag],
                env=wine_env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=20,
            )


def _check_32_bit(wine: list[str], env: Mapping[str, str]) -> None:
    """Debian's Wine without the wine32 package runs 32-bit programs as if they ended at once."""
    program = Path(shutil.which(wine[0], path=env.get("PATH")) or wine[0]).resolve()
    if program == Path("/usr/bin/wine").resolve() and not Path("/usr/lib/wine/wine").exists():
        raise WineUnavailable(WINE32_HINT)


def prepare(library: Path, env: Mapping[str, str]) -> WineSetup:
    """Everything needed to run ``library`` through Wine, built or found in the cache.

    Raises WineUnavailable, naming the packages to install, when something cannot be made."""
    return prepare_bits(dll_bits(library), env)


def prepare_bits(bits: int, env: Mapping[str, str], say: Callable[[str], None] | None = None) -> WineSetup:
    """``prepare`` for DLLs of ``bits``; ``say`` hears before the slow part may begin."""
    wine, wineserver = wine_commands(env)
    if bits == 32:
        _check_32_bit(wine, env)
    directory = cache_directory(env)
    try:
        host = build_host(bits, directory, env)
        if say is not None:
            say(f"building or finding the prefix ({TEMPLATE_SECONDS_NOTE})")
        template = template_prefix(wine, wineserver, directory, env)
    except OSError as error:
        where = error.filename or directory
        raise WineUnavailable(
            f"cannot use {where} (set ARBITER_WINE_DIR elsewhere): {error.strerror}"
        ) from None
    except subprocess.TimeoutExpired as error:
        command = " ".join(map(str, error.cmd))
        raise WineUnavailable(f"Wine did not finish in {error.timeout:g} s: {command}") from None
    return WineSetup(wine, wineserver, host, template, bits, directory)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m arbiter.engines.checkerboard.wine_setup",
        description="Build the Wine host and prefix for Windows CheckerBoard engines; say where they are.",
    )
    parser.add_argument("library", nargs="?", type=Path, help="a DLL: prepare for its pointer size")
    parser.add_argument("--bits", type=int, choices=(32, 64), default=64, help="without a DLL (default 64)")
    args = parser.parse_args(argv)
    env = dict(os.environ)
    started = time.monotonic()
    try:
        bits = dll_bits(args.library) if args.library is not None else args.bits
        setup = prepare_bits(bits, env, lambda text: print(text, flush=True))
    except WineUnavailable as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"wine: {' '.join(setup.wine)}")
    print(f"host ({setup.bits}-bit): {setup.host}")
    print(f"template prefix: {setup.template}")
    print(f"ready in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
