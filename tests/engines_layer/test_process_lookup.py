"""An engine's processes are found by reading /proc: each process's stat line, parsed where its command
name may hold spaces and parentheses, and only the processes of the group looked for are kept."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from arbiter.engines.process_group import group_members, read_entry
from arbiter.engines.process_marker import MARKER_VARIABLE, marked_processes

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc (Linux)")


def test_a_group_is_found_by_its_stat_lines_even_when_a_command_name_holds_parentheses(
    tmp_path: Path,
) -> None:
    sleep = shutil.which("sleep")
    assert sleep is not None
    odd = tmp_path / "x) (y z"
    odd.symlink_to(sleep)
    process = subprocess.Popen([str(odd), "30"], start_new_session=True)
    try:
        members = group_members(process.pid)
        assert [(m.pid, m.ppid, m.pgid, m.command) for m in members] == [
            (process.pid, os.getpid(), process.pid, "x) (y z")
        ]
        # The same process read again (its state may have moved on: a process just started may be
        # waiting on the disk at one read and running at the next).
        again = read_entry(process.pid)
        assert again is not None and replace(again, state=members[0].state) == members[0]
        assert members[0].start_time > 0 and not members[0].zombie
        assert all(entry.pid != process.pid for entry in group_members(os.getpgid(0)))
    finally:
        process.kill()
        process.wait()
    assert group_members(process.pid) == []
    assert read_entry(process.pid) is None


def test_a_process_carrying_the_token_is_found_and_one_without_it_is_not() -> None:
    token = f"{os.getpid()}-lookup"
    sleeper = [sys.executable, "-c", "import time; time.sleep(30)"]
    marked = subprocess.Popen(sleeper, env={**os.environ, MARKER_VARIABLE: f"outer:{token}"})
    unmarked = subprocess.Popen(sleeper, env={**os.environ, MARKER_VARIABLE: f"{token}-other"})
    try:
        assert [entry.pid for entry in marked_processes(token)] == [marked.pid]
    finally:
        for process in (marked, unmarked):
            process.kill()
            process.wait()
    assert marked_processes(token) == []
