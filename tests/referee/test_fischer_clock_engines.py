"""A Fischer clock as Hub engines read it: `time` is the clock before the move's increment, which the
engine adds for the move it is asked (as Scan does)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from referee_games import ENGINES

SCRIPTED = ENGINES / "scripted_player.py"


def test_an_engine_spending_most_of_time_plus_increment_never_overruns_a_short_fischer_clock(
    tmp_path: Path,
) -> None:
    # 0.3+0.5: told the clock with the increment in it (time=0.8 inc=0.5), the engine would take
    # 0.9 x 1.3 s on its first move, past its 0.8 s and the margin. Told time=0.3 inc=0.5, it keeps
    # a quarter of a second in hand (margin included) on every move.
    engine = f"cmd={sys.executable} arg={SCRIPTED} arg=--spend-clock arg=0.9"
    result = subprocess.run(
        [
            sys.executable, "-m", "arbiter.cli", "match", "--engine", f"{engine} name=a",
            "--engine", f"{engine} name=b", "--tc", "0.3+0.5 margin=0.2", "--games", "1",
            "--max-plies", "4", "--db", "m.sqlite",
        ],  # fmt: skip
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    with sqlite3.connect(tmp_path / "m.sqlite") as db:
        terminations = [row[0] for row in db.execute("SELECT termination FROM game")]
        plies = db.execute("SELECT count(*) FROM move").fetchone()[0]
    assert terminations == ["max_length"] and plies == 4, (terminations, result.stdout)
