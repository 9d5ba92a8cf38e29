"""`arbiter engine check -- CMD ...` against real engine programs."""

from __future__ import annotations

import re
from pathlib import Path

import typer
from engine_layer_support import engine_command
from typer.testing import CliRunner

from arbiter.commands import engine as engine_commands


def run_check(*args: str) -> tuple[int, str]:
    app = typer.Typer()

    @app.callback()
    def root() -> None:
        """The engine commands alone."""

    engine_commands.register(app)
    outcome = CliRunner().invoke(app, ["engine", "check", *args])
    return outcome.exit_code, outcome.output


def test_check_prints_identity_parameters_step_times_and_the_searches(tmp_path: Path) -> None:
    log = tmp_path / "instant.log"
    code, output = run_check("--log", str(log), "--", *engine_command("instant_hub.py"))
    assert code == 0, output
    assert re.search(r"^  name\s+instant$", output, re.MULTILINE)
    assert re.search(r"^  author\s+Arbiter tests$", output, re.MULTILINE)
    assert re.search(r"^  hash\s+int 1..1024\s+default '16'$", output, re.MULTILINE)
    for step in ("start", "handshake", "configure (init/ready)", "ping", "quit"):
        assert re.search(rf"^{re.escape(step)}\s+\d+\.\d{{4}} s$", output, re.MULTILINE), step
    # Without --variant: the English and the international start, each then after the engine's own move.
    assert "search 8x8 start" in output and "-> 11-15 in" in output
    assert "search 8x8 after 11-15" in output and "-> 23-19 in" in output
    assert "search 10x10 start" in output and "-> 32-28 in" in output
    assert "depth 3, score 0.25, nodes 1234" in output
    assert output.rstrip().endswith("faults: none")
    assert f"stderr log: {log}" in output


def test_check_with_a_variant_sets_it_and_searches_that_board_only() -> None:
    code, output = run_check(
        "--variant", "international", "--set", "hash=32", "--", *engine_command("instant_hub.py")
    )
    assert code == 0, output
    assert "search 10x10 start" in output and "search 8x8" not in output


def test_check_names_the_fault_of_a_misbehaving_engine_and_fails() -> None:
    code, output = run_check("--variant", "english", "--", *engine_command("crash_in_search.py"))
    assert code == 1
    assert re.search(r"^search 8x8 start\s+FAULT crashed after", output, re.MULTILINE)
    assert "crashed: stopped unexpectedly: it was killed by SIGSEGV" in output


def test_check_refuses_a_variant_the_engine_cannot_play() -> None:
    code, output = run_check("--variant", "frisian", "--", *engine_command("instant_hub.py"))
    assert code == 2
    assert "cannot play variant 'frisian'" in output


def test_check_refuses_a_parameter_setting_without_a_value() -> None:
    code, output = run_check("--set", "hash", "--", *engine_command("instant_hub.py"))
    assert code == 2 and "--set expects NAME=VALUE" in output


def test_check_plays_a_dxp_engine_too() -> None:
    command = engine_command("dxp_follower.py", "--connect", "{port}", "--moves", "33-29")
    code, output = run_check("--protocol", "dxp", "--dxp-mode", "engine_connects", "--", *command)
    assert code == 0, output
    assert "search 10x10 start" in output and "-> 33-29 in" in output
    assert "search 10x10 after 33-29" in output
