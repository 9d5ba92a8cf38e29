"""The tournament runner with real engines and a real database: complete events, forfeits, stopping."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

from tournament_files import bundled, program, write_tournament

from arbiter.referee.record import Termination, Winner
from arbiter.store import TournamentStore
from arbiter.tournament.config import load_tournament
from arbiter.tournament.runner import TournamentRunner
from arbiter.tournament.scoring import FinishedGame, Outcome
from arbiter.tournament.standings import standings

FAST = 'variant = "english"\ntime_control = "depth=3"\nconcurrency = 2\n'
LIMIT = "[adjudication]\nmax_plies = 160\n"


def run(path: Path) -> tuple[TournamentStore, int]:
    config, engines = load_tournament(path)
    runner = TournamentRunner(config, engines)
    store = TournamentStore.open(config.database)
    summary = asyncio.run(runner.run(store, handle_signals=False))
    return store, summary.tournament_id


def test_four_engine_double_round_robin_on_ten_ballots_completes_and_standings_agree(tmp_path: Path) -> None:
    body = (
        FAST
        + 'format = "round-robin"\ncycles = 2\ngames_per_encounter = 2\nrepeat = true\n'
        + '[openings]\ndeck = "acf-156"\ncount = 10\n'
        + LIMIT
    )
    engines = (
        bundled("random") + bundled("greedy") + bundled("alphabeta") + bundled("random-7", "random", seed=7)
    )
    store, tid = run(write_tournament(tmp_path, body, engines))
    with store:
        games = store.games(tid)
        assert len(games) == 24  # 6 pairs x 2 cycles x a ballot played with both colours
        assert all(g.finished for g in games)
        pairs = Counter(frozenset((g.record.white.name, g.record.black.name)) for g in games)
        assert set(pairs.values()) == {4}
        colours = Counter((g.record.white.name, g.record.black.name) for g in games)
        assert set(colours.values()) == {2}, "each engine takes each colour against each opponent"
        ballots = Counter(g.record.opening.name for g in games if g.record.opening)
        assert len(ballots) == 10 and all(n % 2 == 0 for n in ballots.values())
        # The standings read from the database agree with standings computed from the games themselves.
        outcome = {
            Winner.WHITE: Outcome.WHITE_WINS,
            Winner.BLACK: Outcome.BLACK_WINS,
            Winner.DRAW: Outcome.DRAW,
        }
        own = standings(
            [
                FinishedGame(g.record.white.name, g.record.black.name, outcome[g.record.outcome.winner])  # type: ignore[union-attr]
                for g in games
            ]
        )
        stored = store.standings(tid).table
        assert [(s.player, s.points) for s in stored] == [(s.player, s.points) for s in own]
        assert sum(s.points for s in stored) == 24


def test_faulty_engine_loses_its_games_by_forfeit_and_the_event_finishes(tmp_path: Path) -> None:
    body = FAST + 'format = "round-robin"\n' + LIMIT
    engines = bundled("random") + bundled("greedy") + program("crasher", "crash_in_search.py")
    store, tid = run(write_tournament(tmp_path, body, engines))
    with store:
        games = store.games(tid)
        assert len(games) == 3 and all(g.finished for g in games)
        for g in games:
            record = g.record
            assert record.outcome is not None
            if "crasher" in (record.white.name, record.black.name):
                loser = Winner.WHITE if record.white.name == "crasher" else Winner.BLACK
                assert record.outcome.termination is Termination.CRASH
                assert record.outcome.winner is not loser and record.outcome.winner is not Winner.DRAW
        faults = [e for e in store.events(tid) if e.event.engine == "crasher"]
        assert faults, "the crash is kept as an event"


def test_engine_that_will_not_start_forfeits_its_games(tmp_path: Path) -> None:
    body = FAST + 'format = "match"\ngames_per_encounter = 2\n' + LIMIT
    engines = bundled("random") + program("ghost", "exit_at_start.py")
    store, tid = run(write_tournament(tmp_path, body, engines))
    with store:
        games = store.games(tid)
        assert len(games) == 2
        for g in games:
            assert g.record.outcome is not None
            assert g.record.outcome.termination is Termination.START_FAILURE
        assert store.standings(tid).table[0].player == "random"


def test_running_again_plays_nothing_twice(tmp_path: Path) -> None:
    body = FAST + 'format = "match"\ngames_per_encounter = 2\n' + LIMIT
    path = write_tournament(tmp_path, body, bundled("random") + bundled("greedy"))
    store, tid = run(path)
    with store:
        first = {str(g.key): g.record.plies for g in store.games(tid)}
    store, tid_again = run(path)
    with store:
        assert tid_again == tid
        assert {str(g.key): g.record.plies for g in store.games(tid)} == first
