"""What the bad-input tests share: `arbiter` run as a user runs it, a small event already stored, and
what "stored results intact" means (every stored game row and move row, read back unchanged)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ROOT / "tests" / "engines"
ARBITER = [sys.executable, "-m", "arbiter.cli"]
COMMAND_SECONDS = 180

ENGINE_LINES = (
    '[[engines]]\nname = "random"\nbundled = "random"\n[[engines]]\nname = "greedy"\nbundled = "greedy"\n'
)
QUICK_EVENT = (
    'name = "stored event"\ndatabase = "event.sqlite"\ntime_control = "depth=1"\ngames_per_encounter = 2\n'
    + ENGINE_LINES
)


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str

    @property
    def said(self) -> str:
        """Both streams, with the live view's wrapped lines joined again."""
        return " ".join((self.out + "\n" + self.err).split())


def arbiter(
    *args: str | Path,
    cwd: Path,
    env: dict[str, str] | None = None,
    preexec_fn: Callable[[], None] | None = None,
) -> Ran:
    """`arbiter` as a user runs it, with `env` added to the environment; `preexec_fn` runs in the child
    before it starts (a limit on the files it may write, say)."""
    done = subprocess.run(
        [*ARBITER, *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=COMMAND_SECONDS,
        env={**os.environ, **(env or {})},
        preexec_fn=preexec_fn,
    )
    return Ran(done.returncode, done.stdout, done.stderr)


def ran_from_files(folder: Path, stem: str) -> Ran:
    """What a command run by a shell script said, from the files it wrote: ``stem.code``, ``stem.out``
    and ``stem.err`` in `folder`."""
    return Ran(
        int((folder / f"{stem}.code").read_text()),
        (folder / f"{stem}.out").read_text(),
        (folder / f"{stem}.err").read_text(),
    )


def assert_refused(ran: Ran, *expected: str, code: int | None = None) -> None:
    """A clear refusal: a non-zero exit, each expected piece of the message, and no traceback."""
    assert ran.code != 0, f"accepted:\n{ran.out}\n{ran.err}"
    if code is not None:
        assert ran.code == code, f"exit {ran.code}:\n{ran.out}\n{ran.err}"
    assert "Traceback" not in ran.out + ran.err, ran.out + ran.err
    for piece in expected:
        assert piece in ran.said, f"{piece!r} not said:\n{ran.out}\n{ran.err}"


def stored_rows(database: Path) -> list[tuple[object, ...]]:
    """Every game and move row of the database, read without writing to it."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        games = db.execute("SELECT * FROM game ORDER BY id").fetchall()
        moves = db.execute("SELECT * FROM move ORDER BY game_id, ply").fetchall()
    return [*games, *moves]


def make_stored_event(folder: Path) -> Path:
    """A database holding a finished two-game event, played for real by `arbiter run`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "stored.toml").write_text(QUICK_EVENT, encoding="utf-8")
    ran = arbiter("run", "stored.toml", cwd=folder)
    assert ran.code == 0, f"{ran.out}\n{ran.err}"
    database = folder / "event.sqlite"
    assert finished_games(database) == 2
    return database


def finished_games(database: Path) -> int:
    """Finished games stored (0 while the database is being made)."""
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
            return int(db.execute("SELECT count(*) FROM game WHERE finished = 1").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def write_random_games(path: Path, count: int, seed: int = 19) -> None:
    """A PDN file of `count` random legal English games (40 to 100 plies), for databases of some size."""
    import random

    from arbiter.notation.pdn_model import result_text
    from arbiter.notation.pdn_writer import format_game, game_record
    from arbiter.rules import Game, get_variant

    variant = get_variant("english")
    chance = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for number in range(count):
            game = Game(variant)
            length = chance.randint(40, 100)
            while game.end is None and len(game.moves) < length:
                game.play(chance.choice(game.legal_moves()))
            decided = game.end is not None and game.end.winner is not None
            result = result_text(variant, game.end.winner) if game.end and decided else "1/2-1/2"
            tags = {"White": f"Player {number % 7}", "Black": f"Player {number % 7 + 1}"}
            out.write(format_game(game_record(variant, list(game.moves), tags=tags, result=result)))
