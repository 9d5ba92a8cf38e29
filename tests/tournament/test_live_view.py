"""The live terminal view, driven by a real event: games done and left, running games, standings, and
the time losses, forfeits and faults so far."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from rich.console import Console
from tournament_files import bundled, program, write_tournament

from arbiter.commands.live_view import LiveView
from arbiter.commands.standings import points_text
from arbiter.running.runner import TournamentRunner
from arbiter.store import EventKind, TournamentStore
from arbiter.tournament.config import load_tournament
from arbiter.tournament.stored_standings import stored_standings

# Three players, three games: the engine that stops answering loses both its games on time, the one
# that crashes loses its game against `random` by forfeit (and its crash is a fault).
EVENT = (
    'variant = "english"\ntime_control = "st=0.5"\nformat = "round-robin"\nconcurrency = 2\n'
    "[adjudication]\nmax_plies = 60\n"
)


def test_live_view_shows_progress_running_games_standings_and_trouble_so_far(tmp_path: Path) -> None:
    engines = bundled("random") + program("hang", "hang_on_go.py") + program("crash", "crash_in_search.py")
    config, players = load_tournament(write_tournament(tmp_path, EVENT, engines))
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=160, color_system=None)
    with TournamentStore.open(config.database) as store:
        runner = TournamentRunner(config, players)
        view = LiveView(store, console, standings_every=0.2)
        runner.observer = view
        view.attach(runner.open_tournament(store))
        with view:
            summary = asyncio.run(runner.run(store, handle_signals=False))
        faults = sum(
            1 for stored in store.events(summary.tournament_id) if stored.event.kind is EventKind.FAULT
        )
        endings = [
            g.record.outcome.termination.value for g in store.games(summary.tournament_id) if g.record.outcome
        ]
        table = stored_standings(store, summary.tournament_id).table
    assert summary.finished == 3
    assert sorted(endings) == ["crash", "time_forfeit", "time_forfeit"]
    assert faults >= 1
    shown = screen.getvalue()
    assert "games done 0/3, left 3" in shown
    assert f"games done 3/3, left 0   running 0   time losses 2   forfeits 1   faults {faults}" in shown
    # A game against the engine that stops answering runs for at least half a second: long enough to
    # be drawn among the running games.
    assert "running" in shown and "seconds" in shown
    assert any(f"r{round_}-b1-g1" in shown for round_ in (1, 2, 3))
    # The last frame holds the final standings.
    last = shown.rsplit("games done 3/3", 1)[1]
    assert "Standings" in last
    for standing in table:
        assert any(
            standing.player in line and f" {points_text(standing.points)} " in line.replace("│", " ")
            for line in last.splitlines()
        )


def test_a_resumed_event_counts_the_trouble_of_earlier_runs(tmp_path: Path) -> None:
    engines = bundled("random") + program("hang", "hang_on_go.py") + program("crash", "crash_in_search.py")
    config, players = load_tournament(write_tournament(tmp_path, EVENT, engines))
    with TournamentStore.open(config.database) as store:
        summary = asyncio.run(TournamentRunner(config, players).run(store, handle_signals=False))
        faults = store.event_counts(summary.tournament_id)[EventKind.FAULT]
        screen = io.StringIO()
        view = LiveView(store, Console(file=screen, force_terminal=True, width=160, color_system=None))
        runner = TournamentRunner(config, players)
        runner.observer = view
        view.attach(runner.open_tournament(store))
        with view:
            asyncio.run(runner.run(store, handle_signals=False))
    assert (
        f"games done 3/3, left 0   running 0   time losses 2   forfeits 1   faults {faults}"
        in screen.getvalue()
    )
