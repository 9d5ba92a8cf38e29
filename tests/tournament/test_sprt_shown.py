"""Where a match's SPRT stands, shown while it runs, in the final summary, when it is stopped with
Ctrl-C, and in `arbiter standings`: real engines, a real database, the real command."""

from __future__ import annotations

import asyncio
import io
import re
import signal
import subprocess
from pathlib import Path

from rich.console import Console
from tournament_files import ARBITER, bundled, greedy_random_match, write_tournament

from arbiter.commands.live_view import LiveView
from arbiter.running.runner import TournamentRunner
from arbiter.store import TournamentStore
from arbiter.tournament.config import load_tournament
from arbiter.tournament.sprt_status import SprtStatus
from arbiter.tournament.stats import SprtSettings, pentanomial, sprt_pentanomial, sprt_wdl

MATCH = (
    'variant = "english"\ntime_control = "depth=1"\nformat = "match"\ncycles = 3\n'
    "games_per_encounter = 2\n[adjudication]\nmax_plies = 80\n"
    "[sprt]\nelo0 = 0\nelo1 = 20\nalpha = 0.05\nbeta = 0.05\n"
)
SPRT_LINE = re.compile(r"SPRT: (\w[\w ]*) · LLR (-?\d+\.\d\d) \(bounds -2\.94, 2\.94\) · (\d+) games?")


class FramesKept(LiveView):
    """The live view, keeping the frame it would draw next each time the SPRT moves (the terminal
    itself redraws only a few times a second, so it may skip some)."""

    frames: list[str]

    def sprt_updated(self, status: SprtStatus) -> None:
        super().sprt_updated(status)
        page = Console(file=io.StringIO(), width=250, color_system=None)
        page.print(self._render())
        self.frames.append(page.file.getvalue())  # type: ignore[attr-defined]


def test_live_view_shows_the_sprt_after_every_game_of_a_match(tmp_path: Path) -> None:
    config, players = load_tournament(
        write_tournament(tmp_path, MATCH, bundled("greedy") + bundled("random"))
    )
    assert config.sprt == SprtSettings(elo0=0.0, elo1=20.0)
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=250, color_system=None)
    with TournamentStore.open(config.database) as store:
        runner = TournamentRunner(config, players)
        view = FramesKept(store, console, standings_every=0.2)
        view.frames = []
        runner.observer = view
        view.attach(runner.open_tournament(store))
        with view:
            summary = asyncio.run(runner.run(store, handle_signals=False))
        games = store.finished_results(summary.tournament_id)
    counts = []
    for frame in view.frames:
        found = SPRT_LINE.search(frame)
        assert found is not None, frame
        counts.append(int(found[3]))
        assert f"games done {found[3]}/6" in frame, "the line counts the games done so far"
    assert counts == [0, 1, 2, 3, 4, 5, 6]
    wins = sum(1 for g in games if g.fraction_for("greedy") == 1.0)
    losses = sum(1 for g in games if g.fraction_for("greedy") == 0.0)
    expected = sprt_wdl(SprtSettings(elo0=0.0, elo1=20.0), wins, len(games) - wins - losses, losses)
    last = screen.getvalue().rsplit("games done 6/6", 1)[1]  # the terminal's last frame
    assert f"LLR {expected.llr:.2f} (bounds -2.94, 2.94) · 6 games" in last
    assert "· greedy against random: Elo " in last
    assert " · elo0=0 elo1=20 alpha=0.05 beta=0.05 model=logistic" in last
    assert summary.sprt is not None and summary.sprt.llr == expected.llr


def test_ctrl_c_summary_and_standings_show_where_the_sprt_stands(tmp_path: Path) -> None:
    database = tmp_path / "match.sqlite"
    command = greedy_random_match(database, "--games", "2", "--rounds", "200", "--repeat")
    command += ["--max-plies", "80", "--sprt", "elo0=0 elo1=5 model=normalized"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    seen = []
    for line in process.stdout:  # the plain output prints the SPRT line after every game
        seen.append(line)
        found = SPRT_LINE.search(line)
        if found and int(found[3]) >= 4:
            process.send_signal(signal.SIGINT)
            break
    output = "".join(seen) + process.communicate(timeout=120)[0]
    assert process.returncode == 130, output
    stopped = output.split("stopped: ", 1)[1]
    final = SPRT_LINE.search(stopped)
    assert final is not None, output
    assert final[1] == "continue"
    with TournamentStore.open(database, create=False) as store:
        games = store.finished_results(store.find_tournament().id)
    counts = pentanomial(games, "greedy", "random").counts
    settings = SprtSettings(elo0=0.0, elo1=5.0, model="normalized")  # type: ignore[arg-type]
    expected = sprt_pentanomial(settings, counts)
    assert int(final[3]) == len(games)
    assert float(final[2]) == round(expected.llr, 2)
    assert f"{counts.pairs} pair" in stopped and "nElo " in stopped and "model=normalized" in stopped

    standings = subprocess.run(
        [*ARBITER, "standings", str(database)], capture_output=True, text=True, timeout=60
    )
    assert standings.returncode == 0, standings.stderr
    again = SPRT_LINE.search(standings.stdout)
    assert again is not None and again.group(0) == final.group(0)


def test_standings_of_a_match_without_an_sprt_show_none(tmp_path: Path) -> None:
    database = tmp_path / "plain.sqlite"
    played = subprocess.run(
        greedy_random_match(database, "--max-plies", "40"), capture_output=True, text=True, timeout=120
    )
    assert played.returncode == 0, played.stderr
    standings = subprocess.run(
        [*ARBITER, "standings", str(database)], capture_output=True, text=True, timeout=60
    )
    assert standings.returncode == 0
    assert "SPRT" not in standings.stdout and "SPRT" not in played.stdout


def test_an_sprt_in_a_round_robin_file_is_refused_with_its_line(tmp_path: Path) -> None:
    body = MATCH.replace('format = "match"', 'format = "round-robin"')
    path = write_tournament(tmp_path, body, bundled("greedy") + bundled("random"))
    result = subprocess.run([*ARBITER, "run", str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "an SPRT tests a match of two engines" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "event.sqlite").exists()


def test_a_resumed_match_keeps_its_sprt_and_refuses_another(tmp_path: Path) -> None:
    database = tmp_path / "m.sqlite"
    base = greedy_random_match(database, "--max-plies", "40")
    first = subprocess.run([*base, "--sprt", "elo0=0 elo1=10"], capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    shown = SPRT_LINE.search(first.stdout.split("finished: ", 1)[1])
    assert shown is not None
    same = subprocess.run([*base, "--sprt", "elo0=0 elo1=10"], capture_output=True, text=True, timeout=120)
    assert same.returncode == 0, same.stderr
    again = SPRT_LINE.search(same.stdout.split("finished: ", 1)[1])
    assert again is not None and again.group(0) == shown.group(0), "the same test, on the same games"
    other = subprocess.run([*base, "--sprt", "elo0=0 elo1=20"], capture_output=True, text=True, timeout=120)
    assert other.returncode == 2
    assert "differing: sprt" in other.stderr


def test_the_match_of_the_report_no_longer_stops_after_a_win_and_a_loss(tmp_path: Path) -> None:
    # `arbiter match greedy random --sprt elo0=0 elo1=50 alpha=0.05 beta=0.05` used to accept H0 after
    # one win and one loss (LLR -4.10). A handful of games cannot decide [0, 50]: all four are played.
    database = tmp_path / "m.sqlite"
    command = greedy_random_match(database, "--rounds", "2", "--max-plies", "60")
    command += ["--sprt", "elo0=0", "elo1=50", "alpha=0.05", "beta=0.05"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "finished: 4/4 games" in result.stdout
    assert "SPRT decided" not in result.stdout
    final = SPRT_LINE.search(result.stdout.split("finished: 4/4 games", 1)[1])
    assert final is not None and final[1] == "continue" and final[3] == "4"
