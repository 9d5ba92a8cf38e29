"""Once a match's SPRT has decided, the decision stands: a game still running then finishes and is
stored, but the test is over. `arbiter standings`, `arbiter stats sprt` and the site show the test as
it decided, over the games it counted, and running the match again plays no more games.

Real engines and a real database: `loser` resigns at its first move; `hanger` hangs at its first move
in one process only (the first to make the marker file), so exactly one game ends late, on time, won
by `loser`. Two games at a time: the quick losses decide H0 while that game still runs.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

from tournament_files import ARBITER, ENGINES

from arbiter.store import TournamentStore

# The bounds are [-3.40, 2.96]: 4 losses are LLR -2.93 (continue), 5 are -3.66 (H0), and 5 losses with
# the late win are -3.25, which on its own would say continue.
SPRT = "elo0=0 elo1=200 alpha=0.05 beta=0.0317"
DECIDED = re.compile(r"SPRT: H0 accepted · LLR -3\.66 \(bounds -3\.40, 2\.96\) · 5 games")


def _engine(name: str, *args: str) -> str:
    words = [f"cmd={sys.executable}", f"arg={ENGINES / 'scripted_player.py'}", *(f"arg={a}" for a in args)]
    return " ".join([*words, f"name={name}"])


def _match(database: Path, marker: Path, site: Path) -> list[str]:
    return [
        *ARBITER,
        "match",
        _engine("loser", "--resign-at", "1"),
        _engine("hanger", "--hang-at", "1", "--once", str(marker)),
        "--tc",
        "3+0",
        "--rounds",
        "20",
        "--concurrency",
        "2",
        "--db",
        str(database),
        "--report",
        str(site),
        "--sprt",
        SPRT,
    ]


def test_a_decided_sprt_stands_after_a_running_game_ends_and_on_a_second_run(tmp_path: Path) -> None:
    database, site = tmp_path / "m.sqlite", tmp_path / "site"
    command = _match(database, tmp_path / "hung", site)
    first = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "White lost on time" in first.stdout or "Black lost on time" in first.stdout, first.stdout
    summary = first.stdout.split("finished: ", 1)[1]
    assert DECIDED.search(summary), first.stdout
    # The match's own summary tells the late game apart, as standings, stats sprt and the site do: it
    # said "5 games" beside "finished: 6/40 games", as if the sixth had been lost or counted.
    assert "5 games (1 game finished after the decision, not counted)" in summary, first.stdout
    with TournamentStore.open(database, create=False) as store:
        assert len(store.finished_results(store.find_tournament().id)) == 6, "the late game is stored"

    standings = subprocess.run(
        [*ARBITER, "standings", str(database)], capture_output=True, text=True, timeout=60
    )
    assert standings.returncode == 0, standings.stderr
    assert DECIDED.search(standings.stdout), standings.stdout
    assert "1 game finished after the decision, not counted" in standings.stdout

    stats = subprocess.run(
        [*ARBITER, "stats", "sprt", str(database)], capture_output=True, text=True, timeout=60
    )
    assert stats.returncode == 0, stats.stderr
    assert "counts: 0 wins, 0 draws, 5 losses (5 games, draw ratio 0.0%)" in stats.stdout
    assert "decision: H0 accepted" in stats.stdout

    index = (site / "index.html").read_text(encoding="utf-8")
    assert re.search(r'class="sprt-decision">H0 accepted', index), "the site, written after the late game"
    assert re.search(r'class="sprt-count">5 games', index)

    again = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "[7/40]" not in again.stdout, "a decided test starts no more games"
    assert DECIDED.search(again.stdout), again.stdout
    with TournamentStore.open(database, create=False) as store:
        assert len(store.finished_results(store.find_tournament().id)) == 6


def test_a_game_a_stop_abandons_after_the_decision_is_not_announced_as_resumable(tmp_path: Path) -> None:
    # Ctrl-C while the game running at the decision was finishing said "1 abandoned (run again to
    # resume)"; run again, the match only said it was finished: a decided test plays no more games.
    database, site = tmp_path / "m.sqlite", tmp_path / "site"
    command = _match(database, tmp_path / "hung", site)
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as run:
        assert run.stdout is not None
        seen = []
        for line in run.stdout:
            seen.append(line)
            if line.startswith("SPRT decided H0"):
                run.send_signal(signal.SIGINT)  # the hanging game is still running
                break
        rest = run.communicate(timeout=60)[0]
    output = "".join(seen) + rest
    assert run.returncode == 130, output
    assert "stopped: 5/40 games" in output, output
    assert "1 abandoned (not played again: the SPRT had decided)" in output, output
    assert "run again to resume" not in output
    again = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "is already finished" in again.stdout and DECIDED.search(again.stdout), again.stdout
    with TournamentStore.open(database, create=False) as store:
        assert len(store.finished_results(store.find_tournament().id)) == 5
