"""Tournament files for the runner tests, written into a test's temporary folder, the command line of
a small match, and the engine starts read back from a run's logs."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ARBITER = [sys.executable, "-m", "arbiter.cli"]
ROOT = Path(__file__).resolve().parents[2]
ENGINES = ROOT / "tests" / "engines"


def bundled(name: str, engine: str | None = None, **params: object) -> str:
    lines = ["[[engines]]", f'name = "{name}"', f'bundled = "{engine or name}"']
    if params:
        inner = ", ".join(f"{k} = {v!r}".replace("'", '"') for k, v in params.items())
        lines.append(f"params = {{ {inner} }}")
    return "\n".join(lines) + "\n"


def program(name: str, script: str, *args: str) -> str:
    command = ", ".join(f'"{part}"' for part in [sys.executable, str(ENGINES / script), *args])
    return f'[[engines]]\nname = "{name}"\ncommand = [{command}]\n'


def write_tournament(folder: Path, body: str, engines: str, name: str = "test event") -> Path:
    path = folder / "tournament.toml"
    path.write_text(f'name = "{name}"\ndatabase = "event.sqlite"\n{body}\n{engines}', encoding="utf-8")
    return path


def greedy_random_match(database: Path, *flags: str) -> list[str]:
    """`arbiter match greedy random` at depth 1 into ``database``, with ``flags`` added."""
    return [*ARBITER, "match", "greedy", "random", "--tc", "depth=1", "--db", str(database), *flags]


def engine_starts(log_dir: Path) -> Counter[str]:
    """How many times each engine was started for games, from the start lines of its logs."""
    starts: Counter[str] = Counter()
    for log in log_dir.glob("*.log"):
        name = log.name.split("-game-")[0]  # <engine>-game-<key>.stderr.log
        starts[name] += log.read_text(encoding="utf-8", errors="replace").count("[arbiter] started pid")
    return starts
