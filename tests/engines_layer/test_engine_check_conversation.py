"""`arbiter engine check` shows what was said to the engine: on failure always, with --debug as it
happens; Scan's variant names and working directory are taken as a new user gives them."""

from __future__ import annotations

import tempfile
from pathlib import Path

from engine_layer_support import engine_command, run_check


def scratch_logs() -> set[str]:
    return {path.name for path in Path(tempfile.gettempdir()).glob("arbiter-check-*")}


def test_a_failing_check_prints_the_conversation_and_leaves_no_log_behind() -> None:
    before = scratch_logs()
    code, output = run_check("--", *engine_command("hub1_engine.py"))
    assert code == 1
    assert "speaks Hub version 1" in output
    conversation = output.split("communication (last ", 1)[1].splitlines()[1:]
    assert [line.strip().split(" ", 1)[1] for line in conversation] == [
        "hub1_engine > hub",
        "hub1_engine < Hub1 test engine 2.0 by the arbiter tests",
        "hub1_engine < name Hub1Test 2.0",
        "hub1_engine < author Arbiter tests",
        "hub1_engine < country NL",
        "hub1_engine < wait",
        "hub1_engine > quit",
    ]
    assert "stderr log:" not in output and scratch_logs() == before


def test_debug_prints_every_line_as_it_is_exchanged_and_scan_names_reach_the_engine(tmp_path: Path) -> None:
    (tmp_path / "scan.ini").write_text("")
    args = ["-v", "frisian", "--cwd", str(tmp_path), "--debug", "--move-time", "0.05"]
    code, output = run_check(*args, "--", *engine_command("scan_like_hub.py", "--answer-captures"))
    assert code == 0, output
    assert "scan_like_hub > set-param name=variant value=frisian" in output
    assert "scan_like_hub < done move=" in output
    assert "score 150" in output  # 1.5 men, shown in centi-men
    assert "communication (last" not in output  # shown as it happened, not again
