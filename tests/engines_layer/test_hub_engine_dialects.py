"""What real Hub engines print, as they print it: the game is played, stored and exported whatever odd
text their `info` and `done` lines hold, and a move written in a form Hub does not use is refused with a
message that says which legal moves it could mean."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

ARBITER = [sys.executable, "-m", "arbiter.cli"]
ENGINES = Path(__file__).resolve().parents[1] / "engines"


def arbiter(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ARBITER, *args], capture_output=True, text=True, timeout=60, cwd=cwd)


def hub_engine(program: str, name: str, *args: str) -> str:
    extra = "".join(f" arg={arg}" for arg in args)
    return f"cmd={sys.executable} arg={ENGINES / program}{extra} proto=hub name={name}"


def test_info_numbers_too_large_or_not_finite_are_kept_as_text_and_the_game_is_stored(
    tmp_path: Path,
) -> None:
    db, pdn = tmp_path / "run.db", tmp_path / "games.pdn"
    ran = arbiter(
        "match", "--engine", hub_engine("odd_info.py", "odd"), "--engine", "random", "--games", "1",
        "--max-plies", "1", "--tc", "st=1", "--db", str(db), "--pdn-out", str(pdn), cwd=tmp_path,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert "Traceback" not in ran.stderr
    with sqlite3.connect(db) as connection:
        row = connection.execute(
            "SELECT depth, score, nodes, info_time, nps, info_extra FROM move"
        ).fetchone()
    assert row[:5] == (None, None, None, None, None)
    for text in ("99999999999999999999", "inf", "99999999999999999999999999999", "nan", "-inf"):
        assert f'"{text}"' in row[5]
    assert "11-15" in pdn.read_text()
