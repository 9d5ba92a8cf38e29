"""The relay to the Wine host, and what is said when Wine cannot be used, checked without Wine: a
stand-in (tests/engines/fake_wine.py) speaks the host's frames, with Wine-like noise on its stdout."""

from __future__ import annotations

import asyncio
import os
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from checkerboard_builds import cb_config

from arbiter.engines import EngineClient, EngineConfigError, EngineFault, MoveTime, create_engine
from arbiter.engines.checkerboard.api import BLACK, MAN
from arbiter.engines.checkerboard.relay import RelayLibrary, windows_path
from arbiter.engines.checkerboard.wine_prefix import new_instance
from arbiter.engines.checkerboard.wine_setup import WineSetup, host_path, needs_wine

FAKE_WINE = Path(__file__).resolve().parents[1] / "engines" / "fake_wine.py"
ENGLISH_START = "B" + "b" * 12 + "e" * 8 + "w" * 12


def fake_dll(path: Path, machine: int = 0x8664) -> Path:
    """The first bytes of a Windows DLL: an MZ header pointing at a PE header for ``machine``."""
    pe_header = b"PE\0\0" + machine.to_bytes(2, "little")
    path.write_bytes(b"MZ" + bytes(0x3A) + (0x40).to_bytes(4, "little") + pe_header)
    return path


def fake_setup(tmp_path: Path) -> WineSetup:
    template = tmp_path / "template"
    (template / "drive_c").mkdir(parents=True)
    (template / "system.reg").write_text("")
    wine = [sys.executable, str(FAKE_WINE)]
    return WineSetup(wine, ["true"], tmp_path / "host.exe", template, 64, tmp_path / "cache")


def test_a_dll_needs_wine_on_linux_only() -> None:
    assert needs_wine(Path("engine.dll"), "linux") and needs_wine(Path("ENGINE.DLL"), "linux")
    assert not needs_wine(Path("engine.so"), "linux") and not needs_wine(Path("engine.dll"), "win32")


def test_the_relay_answers_calls_sets_playnow_during_getmove_and_logs_wine_noise_apart(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    setup = fake_setup(tmp_path)
    library = RelayLibrary(fake_dll(tmp_path / "engine.dll"), setup, {"PATH": "/usr/bin:/bin"})
    assert library.enginecommand("name") == (True, "Fake engine")
    assert library.enginecommand("get nothing") == (False, "?")
    board = [[0] * 8 for _ in range(8)]
    board[1][5] = BLACK | MAN
    replies = []
    worker = threading.Thread(
        target=lambda: replies.append(library.getmove(tuple(map(tuple, board)), BLACK, 1.0, 1, 0))
    )
    library.set_play_now(False)
    worker.start()
    time.sleep(0.2)
    assert replies == [], "the pretend engine thinks until playnow is set"
    library.set_play_now(True)
    worker.join(10)
    [reply] = replies
    assert reply.board[0][4] == BLACK | MAN and reply.board[1][5] == 0
    assert (reply.result, reply.text, reply.move) == (3, "depth 1", None)
    prefixes = list((setup.directory / "instances").iterdir())
    assert len(prefixes) == 1 and (prefixes[0] / "system.reg").exists()
    library.flush_output()
    assert list((setup.directory / "instances").iterdir()) == [], "the engine's prefix is removed"
    logged = capfd.readouterr().err
    assert "some Wine noise that is not a frame" in logged and "more noise between frames" in logged
    assert "playnow 1 during getmove" in logged


def test_a_dll_path_is_given_to_wine_on_drive_z() -> None:
    assert windows_path(Path("/opt/engines/kr.dll")) == "Z:\\opt\\engines\\kr.dll"


def wine_env(tmp_path: Path, mode: str, wine: str | None = None) -> dict[str, str]:
    cache = tmp_path / "cache"
    host = host_path(64, cache)
    host.parent.mkdir(parents=True)
    host.write_bytes(b"MZ")  # the fake Wine never runs it
    return {
        "ARBITER_WINE": wine or shlex.join([sys.executable, str(FAKE_WINE)]),
        "ARBITER_WINESERVER": "true",
        "ARBITER_WINE_DIR": str(cache),
        "FAKE_WINE_MODE": mode,
    }


async def search_once(tmp_path: Path, env: dict[str, str], library: Path | None = None) -> EngineClient:
    dll = library or fake_dll(tmp_path / "engine.dll")
    engine = create_engine(cb_config(dll, env=env), stderr_log=tmp_path / "e.log")
    try:
        await engine.open("english")
        await engine.search(ENGLISH_START, [], MoveTime(0.1), timeout=10.0)
    except EngineFault as fault:
        assert engine.faults[0] is fault
    finally:
        await engine.quit()
    return engine


def test_an_access_violation_reported_by_the_host_ends_the_adapter_by_sigsegv(tmp_path: Path) -> None:
    engine = asyncio.run(search_once(tmp_path, wine_env(tmp_path, "crash")))
    assert [fault.kind for fault in engine.faults] == ["crashed"]
    assert "SIGSEGV" in engine.faults[0].message
    assert "0xC0000005 (access violation) at 00000001deadbeef in getmove" in engine.faults[0].message


def test_a_host_that_ends_without_a_word_is_a_crash_with_its_exit_code(tmp_path: Path) -> None:
    engine = asyncio.run(search_once(tmp_path, wine_env(tmp_path, "gone")))
    assert [fault.kind for fault in engine.faults] == ["crashed"]
    assert "the Wine host ended during getmove (exit code 3)" in engine.faults[0].message


def refusal(tmp_path: Path, env: dict[str, str], library: Path | None = None) -> str:
    """Why the engine is refused: a configuration error, raised before any adapter is started."""
    dll = library or fake_dll(tmp_path / "engine.dll")
    engine = create_engine(cb_config(dll, env=env), stderr_log=tmp_path / "e.log")
    with pytest.raises(EngineConfigError) as refused:
        asyncio.run(engine.open("english"))
    assert engine.pid == 0 and engine.faults == [], "no adapter was started"
    return str(refused.value)


def test_missing_wine_is_a_configuration_error_naming_its_packages(tmp_path: Path) -> None:
    message = refusal(tmp_path, wine_env(tmp_path, "think", wine="/nowhere/wine"))
    assert "'/nowhere/wine' (ARBITER_WINE) is not a program" in message
    assert "apt-get install wine wine64" in message


def test_a_missing_cross_compiler_is_named_with_its_package(tmp_path: Path) -> None:
    env = wine_env(tmp_path, "think")
    env.update(ARBITER_WINE_DIR=str(tmp_path / "empty-cache"), PATH=str(tmp_path))
    message = refusal(tmp_path, env)
    assert "x86_64-w64-mingw32-gcc is missing" in message
    assert "apt-get install mingw-w64" in message


def test_a_dll_that_is_no_windows_library_is_refused_saying_why(tmp_path: Path) -> None:
    fake = tmp_path / "fake.dll"
    fake.write_text("not a library")
    assert "is not a Windows DLL (no MZ header)" in refusal(tmp_path, wine_env(tmp_path, "think"), fake)


def test_a_match_with_wine_missing_is_refused_before_its_first_game(tmp_path: Path) -> None:
    database = tmp_path / "match.sqlite"
    env = {**os.environ, **wine_env(tmp_path, "think", wine="/nowhere/wine")}
    command = [sys.executable, "-m", "arbiter.cli", "match", f"cb:{fake_dll(tmp_path / 'kr.dll')}", "random"]
    done = subprocess.run(
        [*command, "--db", str(database)], capture_output=True, text=True, timeout=120, env=env
    )
    # The preflight starts every engine before the database is opened: this one stops the match there,
    # as a configuration error (exit code 2, as docs/wine.md says): Wine is to be installed.
    assert done.returncode == 2, done.stdout + done.stderr
    assert "nothing was played or stored" in done.stderr and "apt-get install wine wine64" in done.stderr
    assert "Traceback" not in done.stderr
    assert not database.exists()


def test_the_prepare_command_says_what_to_install_when_wine_is_missing(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "arbiter.engines.checkerboard.wine_setup"]
    env = {"PATH": str(tmp_path), "ARBITER_WINE_DIR": str(tmp_path / "cache"), "HOME": str(tmp_path)}
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 1
    assert "no 'wine' on PATH" in done.stderr and "apt-get install wine wine64" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_engine_prefix_links_the_template_files_and_keeps_its_symlinks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    template = tmp_path / "template"
    (template / "dosdevices").mkdir(parents=True)
    (template / "dosdevices" / "c:").symlink_to("../drive_c")
    (template / "system32").mkdir()
    (template / "system32" / "kernel32.dll").write_text("a library")
    (template / "system.reg").write_text("registry")
    (template / "wineserver").write_text("the template's own server's")
    hard = new_instance(template, tmp_path / "cache")
    linked = (hard / "system32" / "kernel32.dll").stat().st_ino
    assert linked == (template / "system32" / "kernel32.dll").stat().st_ino
    assert os.readlink(hard / "dosdevices" / "c:") == "../drive_c"
    assert not (hard / "wineserver").exists()

    def no_hard_links(source: str, target: Path) -> None:
        raise OSError("hard links not supported")

    monkeypatch.setattr(os, "link", no_hard_links)
    soft = new_instance(template, tmp_path / "cache")
    library = soft / "system32" / "kernel32.dll"
    assert library.is_symlink() and library.read_text() == "a library"


def test_an_engine_prefix_has_its_own_copy_of_the_files_wine_writes_into(tmp_path: Path) -> None:
    # Wine rewrites a file with other links where it is: a linked registry would carry one engine's
    # settings into the template, and from there into every engine's prefix.
    template = tmp_path / "template"
    (template / "drive_c" / "windows").mkdir(parents=True)
    (template / "system.reg").write_text("registry")
    (template / "drive_c" / "windows" / "win.ini").write_text("[windows]")
    prefix = new_instance(template, tmp_path / "cache")
    for name in ("system.reg", "drive_c/windows/win.ini"):
        copy, original = prefix / name, template / name
        assert not copy.is_symlink() and copy.stat().st_ino != original.stat().st_ino, name
        assert copy.read_text() == original.read_text()
    (prefix / "system.reg").write_text("an engine's settings")
    assert (template / "system.reg").read_text() == "registry"


def test_an_unusable_cache_directory_is_named_without_a_traceback(tmp_path: Path) -> None:
    env = wine_env(tmp_path, "think")
    (tmp_path / "cache" / "prefixes").write_text("a file where the prefixes go")
    message = refusal(tmp_path, env)
    assert "cannot use" in message and "prefixes" in message and "ARBITER_WINE_DIR" in message


def test_an_engine_prefix_that_cannot_be_made_stops_the_start_saying_why(tmp_path: Path) -> None:
    env = wine_env(tmp_path, "think")
    asyncio.run(search_once(tmp_path, env))  # makes the template; the engine plays a move
    (tmp_path / "cache" / "instances").rmdir()
    (tmp_path / "cache" / "instances").write_text("a file where the engines' prefixes go")
    engine = asyncio.run(search_once(tmp_path, env))
    [fault] = engine.faults
    assert fault.kind == "startup_exit" and "cannot prepare Wine for" in fault.message
    assert "Traceback" not in (tmp_path / "e.log").read_text()
