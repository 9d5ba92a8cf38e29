"""A Windows Hub engine (.exe) given as a plain command, `wine engine.exe`: the instant Hub engine of the
benchmarks, cross-compiled with MinGW-w64, in a Wine prefix of the test's own, whose server was started
before the engine and is ended after it (as docs/wine.md suggests), or is started by the first engine
and shared by the others (the prefix's server and services are not that engine's to end)."""

from __future__ import annotations

import os
import shutil
import sqlite3
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


@pytest.fixture(scope="module")
def bare_prefix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, str], Path]]:
    """A prefix made (`wineboot -i`) whose server has ended: the first engine's `wine` starts it again,
    with Wine's services, as in a prefix nothing else uses. (the environment, a folder with the .exe)"""
    skip_without_wine()
    folder = tmp_path_factory.mktemp("bare-wine")
    env = {key: value for key, value in os.environ.items() if key != "DISPLAY"}
    env.update(WINEPREFIX=str(folder / "prefix"), WINEDEBUG="-all", WINEDLLOVERRIDES="mscoree,mshtml=")
    said = folder / "wine-setup.log"
    try:
        for step in (["wineboot", "-i"], ["wineserver", "-w"]):
            with said.open("a") as log:
                done = subprocess.run(step, env=env, stdout=log, stderr=log, timeout=120)
            assert done.returncode == 0, f"{' '.join(step)}: {said.read_text()}"
        build_exe(folder)
        yield env, folder
    finally:
        subprocess.run(["wineserver", "-k"], env=env, stderr=subprocess.DEVNULL, timeout=60)
        subprocess.run(["wineserver", "-w"], env=env, stderr=subprocess.DEVNULL, timeout=60)


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


def test_the_wine_server_a_windows_program_starts_is_not_its_stray_and_ends_with_the_arbiter(
    bare_prefix: tuple[dict[str, str], Path],
) -> None:
    env, folder = bare_prefix
    # A first start in the prefix boots Wine's services: slow on a busy machine, so a longer wait.
    command = [sys.executable, "-m", "arbiter.cli", "engine", "check", "--cwd", str(folder)]
    check = subprocess.run(
        [*command, "--handshake-timeout", "60", "--", "wine", "./instant_hub.exe", "-", "1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    # The server and services its `wine` started belong to the prefix, for every Wine program in it:
    # they were once ended with the engine as processes it left running (a stray_processes fault).
    assert "faults: none" in check.stdout, check.stdout
    assert live_wine_processes(folder / "prefix") == [], "ended when the arbiter exits"


def test_wine_engines_sharing_a_prefix_play_a_match_without_ending_each_other_s_server(
    bare_prefix: tuple[dict[str, str], Path],
) -> None:
    env, folder = bare_prefix
    engines = [
        f"cmd=wine arg=./instant_hub.exe arg=- arg={seed} name=W{seed} dir={folder} timeouts.handshake=60"
        for seed in (1, 2)
    ]
    match = [sys.executable, "-m", "arbiter.cli", "match", "--engine", engines[0], "--engine", engines[1]]
    options = ["--games", "6", "-c", "2", "--force-concurrency", "--tc", "10+0.1", "--max-plies", "40"]
    played = subprocess.run(
        [*match, *options, "--db", str(folder / "m.sqlite")],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert played.returncode == 0, played.stdout + played.stderr
    assert "finished: 6/6 games" in played.stdout
    with sqlite3.connect(folder / "m.sqlite") as db:
        ends = db.execute("SELECT termination, COUNT(*) FROM game GROUP BY termination").fetchall()
        faults = db.execute("SELECT COUNT(*) FROM event WHERE kind = 'fault'").fetchone()[0]
    assert {end for end, _ in ends} <= {"max_length", "no_pieces", "no_legal_moves", "repetition"}, ends
    assert faults == 0, "no engine lost its server, and none left a stray behind"
    assert live_wine_processes(folder / "prefix") == []
