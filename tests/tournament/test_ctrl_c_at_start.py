"""Ctrl-C as a command starts, while its modules load, ends it quietly with the status of a stop (130),
not with a Python traceback."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

# The child interrupts itself as `arbiter match` imports its command's module: a Ctrl-C that came in the
# fifth of a second those imports take, made to come at a known moment.
CHILD = textwrap.dedent(
    """
    import importlib.abc, os, signal, sys

    class CtrlC(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "arbiter.commands.run":
                os.kill(os.getpid(), signal.SIGINT)
            return None

    sys.meta_path.insert(0, CtrlC())
    from arbiter.cli import main
    sys.argv = ["arbiter", "match", "random", "greedy", "--db", sys.argv[1]]
    main()
    """
)


def test_ctrl_c_while_a_command_loads_stops_it_without_a_traceback_and_stores_nothing(tmp_path: Path) -> None:
    database = tmp_path / "match.sqlite"
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(database)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 130, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr
    assert not database.exists()
