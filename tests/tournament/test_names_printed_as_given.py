"""The tables of a match print each engine's name as given: rich's emoji codes (`:100:`) are not
applied to names, and a piped run's tables are the same text as before without highlighting work."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ENGINES = Path(__file__).resolve().parents[1] / "engines"


def test_an_engine_name_with_an_emoji_code_is_printed_as_given(tmp_path: Path) -> None:
    engine = f"cmd={sys.executable} arg={ENGINES / 'instant_hub.py'}"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "arbiter.cli",
            "match",
            "--engine",
            f"{engine} name=a:100:",
            "--engine",
            f"{engine} name=b",
            "--games",
            "2",
            "--max-plies",
            "10",
            "--db",
            str(tmp_path / "m.sqlite"),
        ],  # fmt: skip
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    standings = done.stdout[done.stdout.index("Standings") :]
    assert "│ a:100: " in standings
    assert "\N{HUNDRED POINTS SYMBOL}" not in done.stdout
    assert "\x1b[" not in done.stdout  # piped: plain text, no colour codes
