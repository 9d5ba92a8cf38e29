"""`arbiter engine NAME` starts a bundled engine that speaks Hub, as a user would type it."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("name", ["random", "greedy", "alphabeta"])
def test_arbiter_engine_runs_the_bundled_engine(name: str) -> None:
    start = "B" + "b" * 12 + "e" * 8 + "w" * 12
    session = f"hub\ninit\npos pos={start}\nlevel depth=1\ngo think\nquit\n"
    result = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "engine", name, "--param", "variant=english"],
        input=session,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"id name={name}")
    assert "ready" in lines
    done = [line for line in lines if line.startswith("done move=")]
    assert done and done[0].split("=")[1].split("-")[0] in {"9", "10", "11", "12"}
