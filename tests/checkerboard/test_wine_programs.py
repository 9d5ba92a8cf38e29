"""A Windows Hub engine (.exe) given as a plain command, `wine engine.exe`, set up as docs/wine.md says:
the instant Hub engine of the benchmarks, cross-compiled with MinGW-w64, in a Wine prefix of the test's
own whose server was started before the engine and is ended after it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from wine_builds import CROSS, live_wine_processes, skip_without_wine

INSTANT_HUB = Path(__file__).resolve().parents[2] / "benchmarks" / "instant_hub.c"


@pytest.fixture
def wine_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    """A new prefix, made and served as docs/wine.md says: `wineboot -i`, then a server that stays
    (`wineserver -p`) and Wine's services, so the engines only connect; `wineserver -k` at the end."""
    skip_without_wine()
    env = {key: value for key, value in os.environ.items() if key != "DISPLAY"}
    env.update(WINEPREFIX=str(tmp_path / "prefix"), WINEDEBUG="-all", WINEDLLOVERRIDES="mscoree,mshtml=")
    said = tmp_path / "wine-setup.log"
    try:
        for step in (["wineboot", "-i"], ["wineserver", "-w"], ["wineserver", "-p"], ["wineboot"]):
            # Into a file, not a pipe: the server and services these leave running would hold a pipe open.
            with said.open("a") as log:
                done = subprocess.run(step, env=env, stdout=log, stderr=log, timeout=120)
            assert done.returncode == 0, f"{' '.join(step)}: {said.read_text()}"
        yield env
    finally:
        subprocess.run(["wineserver", "-k"], env=env, stderr=subprocess.DEVNULL, timeout=60)
        subprocess.run(["wineserver", "-w"], env=env, stderr=subprocess.DEVNULL, timeout=60)
    assert live_wine_processes(tmp_path / "prefix") == []


def build_exe(tmp_path: Path) -> Path:
    target = tmp_path / "instant_hub.exe"
    compiler = shutil.which(CROSS[64])
    assert compiler is not None
    command = [compiler, "-O1", "-static", "-o", str(target), str(INSTANT_HUB), "-lpthread"]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stderr}"
    return target


def test_a_windows_hub_program_run_with_wine_passes_engine_check_with_its_crlf_lines(
    wine_env: dict[str, str], tmp_path: Path
) -> None:
    exe = build_exe(tmp_path)
    # A Windows program's stdout is in text mode: every line it writes ends with \r\n.
    raw = subprocess.run(
        ["wine", str(exe), "-", "1"], input=b"hub\nquit\n", env=wine_env, capture_output=True, timeout=60
    )
    assert b"version=1 author=arbiter\r\nwait\r\n" in raw.stdout
    command = [sys.executable, "-m", "arbiter.cli", "engine", "check", "--cwd", str(tmp_path)]
    check = subprocess.run(
        [*command, "--", "wine", "./instant_hub.exe", "-", "1"],
        env=wine_env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert "instant-hub" in check.stdout and "faults: none" in check.stdout
