"""After a fault that leaves an engine in doubt, its next game is played by a freshly started process.

Each faulty engine misbehaves once, in the first process that creates its marker file; a process
started after that plays normally. So a kept engine would carry its fault into the next game (a hung
one forfeits it at once), while a fresh one plays it: the games after the fault must be played out, and
the engine's log must show one more start. The controls are short (0.3 s a move), so a closed output
or a dropped connection must be named as a crash at once to be told apart from a loss on time.
"""

from __future__ import annotations

import asyncio
import sys
from collections import Counter
from pathlib import Path

import pytest
from tournament_files import ENGINES, engine_starts, program, write_tournament

from arbiter.referee.record import Termination, Winner
from arbiter.running.runner import TournamentRunner
from arbiter.store import StoredGame, TournamentStore
from arbiter.tournament.config import load_tournament

STEADY = program("steady", "scripted_player.py", "--name", "steady")
PLAYED_OUT = Termination.MAX_LENGTH


def play_match(tmp_path: Path, body: str, engines: str) -> tuple[list[StoredGame], Counter[str]]:
    config, configs = load_tournament(write_tournament(tmp_path, body, engines))
    logs = tmp_path / "logs"
    with TournamentStore.open(config.database) as store:
        runner = TournamentRunner(config, configs, log_dir=logs)
        summary = asyncio.run(runner.run(store, handle_signals=False))
        games = store.games(summary.tournament_id)
    return games, engine_starts(logs)


def loser_is(game: StoredGame, name: str) -> bool:
    record = game.record
    assert record.outcome is not None
    lost = Winner.WHITE if record.black.name == name else Winner.BLACK
    return record.outcome.winner is lost


HUB_MATCH = (
    'variant = "english"\ntime_control = "st=0.3"\nformat = "match"\ngames_per_encounter = 3\n'
    "concurrency = 1\nreuse_engines = true\n[adjudication]\nmax_plies = 6\n"
)


@pytest.mark.parametrize(
    ("script", "termination", "named"),
    [
        ("hang_once.py", Termination.TIME_FORFEIT, "no move came"),
        ("late_once.py", Termination.TIME_FORFEIT, "no move came"),
        ("closes_stdout.py", Termination.CRASH, "closed its output"),
    ],
)
def test_an_engine_in_doubt_after_a_fault_is_started_afresh_and_plays_its_next_games(
    tmp_path: Path, script: str, termination: Termination, named: str
) -> None:
    faulty = program("faulty", script, str(tmp_path / "misbehaved"))
    games, starts = play_match(tmp_path, HUB_MATCH, faulty + STEADY)
    first, *rest = games
    assert first.record.outcome is not None
    assert first.record.outcome.termination is termination, first.record.outcome.reason
    assert named in first.record.outcome.reason and loser_is(first, "faulty")
    for game in rest:
        assert game.record.outcome is not None
        assert game.record.outcome.termination is PLAYED_OUT, game.record.outcome.reason
    assert starts == Counter({"faulty": 2, "steady": 1})


def test_a_dxp_engine_that_drops_its_connection_crashes_at_once_and_a_fresh_one_plays_on(
    tmp_path: Path,
) -> None:
    # International draughts, White first: the follower moves first as White in game 1 (where it drops
    # the connection) and answers 32-28 28x19x23 as Black in game 2.
    follower = [
        sys.executable,
        str(ENGINES / "dxp_follower.py"),
        "--listen",
        "{port}",
        "--moves",
        "32-28",
        "--black-moves",
        "19-23,14x23x19",
        "--disconnect-at",
        "1",
        "--once",
        str(tmp_path / "misbehaved"),
    ]
    command = ", ".join(f'"{part}"' for part in follower)
    engines = f'[[engines]]\nname = "faulty"\nprotocol = "dxp"\ncommand = [{command}]\n' + program(
        "steady", "scripted_player.py", "--name", "steady", "--moves", "32-28 28x19"
    )
    body = (
        'variant = "international"\ntime_control = "st=0.3"\nformat = "match"\ngames_per_encounter = 2\n'
        "concurrency = 1\nreuse_engines = true\n[adjudication]\nmax_plies = 4\n"
    )
    games, starts = play_match(tmp_path, body, engines)
    first, second = games
    assert first.record.white.name == "faulty"
    assert first.record.outcome is not None
    assert first.record.outcome.termination is Termination.CRASH, first.record.outcome.reason
    assert "closed its connection" in first.record.outcome.reason and loser_is(first, "faulty")
    assert second.record.outcome is not None
    assert second.record.outcome.termination is PLAYED_OUT, second.record.outcome.reason
    assert starts == Counter({"faulty": 2, "steady": 1})
