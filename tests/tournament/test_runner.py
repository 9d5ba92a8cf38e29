"""The tournament runner with real engines and a real database: complete events, forfeits, stopping."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from tournament_files import bundled, engine_starts, program, write_tournament

from arbiter.notation.movetext import parse_pdn
from arbiter.referee.observer import GameObserver
from arbiter.referee.record import GameRecord, MoveRecord, Termination, Winner
from arbiter.rules import Position, get_variant
from arbiter.running.runner import QuietObserver, RunError, TournamentRunner
from arbiter.store import TournamentStore
from arbiter.tournament.config import load_tournament
from arbiter.tournament.plan import plan_tournament
from arbiter.tournament.schedule import PlannedGame
from arbiter.tournament.scoring import FinishedGame, Outcome
from arbiter.tournament.standings import standings
from arbiter.tournament.stored_standings import stored_standings

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
        stored = stored_standings(store, tid).table
        assert [(s.player, s.points) for s in stored] == [(s.player, s.points) for s in own]
        assert sum(s.points for s in stored) == 24
        # Wins, draws, losses and Sonneborn-Berger, counted here from the stored records alone.
        assert {
            s.player: (s.overall.wins, s.overall.draws, s.overall.losses, s.sonneborn_berger) for s in stored
        } == counted_by_hand([g.record for g in games])


def counted_by_hand(records: list[GameRecord]) -> dict[str, tuple[int, int, int, float]]:
    """Each player's wins, draws, losses and Sonneborn-Berger (the sum, over their games, of the share of
    the game they earned times the opponent's final score)."""
    shares: list[tuple[str, str, float]] = []  # (player, opponent, share of the game)
    for record in records:
        assert record.outcome is not None
        white_share = {Winner.WHITE: 1.0, Winner.DRAW: 0.5, Winner.BLACK: 0.0}[record.outcome.winner]
        shares.append((record.white.name, record.black.name, white_share))
        shares.append((record.black.name, record.white.name, 1.0 - white_share))
    score: dict[str, float] = {}
    for player, _, share in shares:
        score[player] = score.get(player, 0.0) + share
    counted: dict[str, tuple[int, int, int, float]] = {}
    for player in score:
        mine = [(opponent, share) for who, opponent, share in shares if who == player]
        counted[player] = (
            sum(1 for _, share in mine if share == 1.0),
            sum(1 for _, share in mine if share == 0.5),
            sum(1 for _, share in mine if share == 0.0),
            sum(share * score[opponent] for opponent, share in mine),
        )
    return counted


def test_gauntlet_plays_the_first_engine_against_each_other_with_both_colours(tmp_path: Path) -> None:
    body = FAST + 'format = "gauntlet"\ncycles = 2\n' + LIMIT
    engines = bundled("alphabeta") + bundled("random") + bundled("greedy")
    store, tid = run(write_tournament(tmp_path, body, engines))
    with store:
        games = store.games(tid)
        assert len(games) == 4 and all(g.finished for g in games)
        seats = Counter((g.record.white.name, g.record.black.name) for g in games)
        assert seats == Counter(
            [
                ("alphabeta", "random"),
                ("random", "alphabeta"),
                ("alphabeta", "greedy"),
                ("greedy", "alphabeta"),
            ]
        )
        table = stored_standings(store, tid).table
        counted = counted_by_hand([g.record for g in games])
        assert {s.player: (s.games, s.points) for s in table} == {
            player: (wins + draws + losses, wins + draws / 2)
            for player, (wins, draws, losses, _) in counted.items()
        }
        assert {s.player: s.games for s in table} == {"alphabeta": 4, "random": 2, "greedy": 2}


@pytest.mark.parametrize(("reuse", "starts"), [(True, 1), (False, 4)])
def test_reuse_engines_keeps_engines_between_games_or_restarts_them(
    tmp_path: Path, reuse: bool, starts: int
) -> None:
    body = (
        'variant = "english"\ntime_control = "depth=1"\nformat = "match"\ngames_per_encounter = 4\n'
        f"concurrency = 1\nreuse_engines = {str(reuse).lower()}\n" + LIMIT
    )
    config, engines = load_tournament(write_tournament(tmp_path, body, bundled("random") + bundled("greedy")))
    logs = tmp_path / "logs"
    with TournamentStore.open(config.database) as store:
        summary = asyncio.run(
            TournamentRunner(config, engines, log_dir=logs).run(store, handle_signals=False)
        )
    assert summary.finished == 4
    assert engine_starts(logs) == Counter({"random": starts, "greedy": starts})


class StopAfterTwoGames(QuietObserver):
    def __init__(self, runner: TournamentRunner) -> None:
        self.runner = runner
        self.finished = 0

    def game_finished(self, game: PlannedGame, record: GameRecord) -> None:
        self.finished += 1
        if self.finished == 2:
            self.runner.request_stop()


class StopAtPly(GameObserver):
    """Asks the runner to stop once the game has been told of its ``ply``th move."""

    def __init__(self, runner: TournamentRunner, ply: int) -> None:
        self.runner, self.ply = runner, ply

    def move_played(self, record: GameRecord, move: MoveRecord, position: Position) -> None:
        if move.ply == self.ply:
            self.runner.request_stop()


def test_a_game_abandoned_by_a_stop_keeps_its_moves_and_start_and_is_played_again(tmp_path: Path) -> None:
    body = 'variant = "english"\ntime_control = "60+1"\nformat = "match"\n' + LIMIT
    config, engines = load_tournament(write_tournament(tmp_path, body, bundled("greedy") + bundled("random")))
    first = TournamentRunner(config, engines)
    first.game_observer = lambda game: StopAtPly(first, 6)
    with TournamentStore.open(config.database) as store:
        stopped = asyncio.run(first.run(store, handle_signals=False))
        assert stopped.stopped and stopped.abandoned == 1
        (kept,) = store.games(stopped.tournament_id)
        record = kept.record
        assert not kept.finished and record.outcome is not None
        assert record.outcome.termination is Termination.ABANDONED
        assert record.plies == len(record.moves) >= 6, "the moves played before the stop are kept"
        assert [move.ply for move in record.moves] == list(range(1, record.plies + 1))
        assert all(move.clock is not None and move.elapsed is not None for move in record.moves)
        assert record.ended_at is not None and record.started_at < record.ended_at
        position = Position.from_fen(get_variant("english"), record.start_fen)
        for move in record.moves:
            position = position.play(parse_pdn(position, move.text))
        resumed = asyncio.run(TournamentRunner(config, engines).run(store, handle_signals=False))
        (played,) = store.games(resumed.tournament_id)
        assert played.finished and played.record.moves[0].ply == 1, "played again from its start"


def test_a_stopped_event_resumes_with_other_concurrency_report_and_engine_reuse(tmp_path: Path) -> None:
    body = 'variant = "english"\ntime_control = "depth=1"\nformat = "round-robin"\nconcurrency = 1\n' + LIMIT
    engines_text = bundled("random") + bundled("greedy") + bundled("random-3", "random", seed=3)
    config, engines = load_tournament(write_tournament(tmp_path, body, engines_text))
    planned = set(plan_tournament(config).schedule.by_key())
    first = TournamentRunner(config, engines)
    first.observer = StopAfterTwoGames(first)
    changed = config.model_copy(
        update={"concurrency": 2, "reuse_engines": False, "report": tmp_path / "site"}
    )
    with TournamentStore.open(config.database) as store:
        stopped = asyncio.run(first.run(store, handle_signals=False))
        assert stopped.stopped and 2 <= stopped.finished < len(planned)
        resumed = asyncio.run(TournamentRunner(changed, engines).run(store, handle_signals=False))
        assert resumed.tournament_id == stopped.tournament_id
        assert resumed.finished == len(planned) and not resumed.stopped
        assert {g.key for g in store.games(stopped.tournament_id)} == planned
        assert len(store.tournaments()) == 1


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
        assert stored_standings(store, tid).table[0].player == "random"


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


def test_another_event_under_the_same_name_is_refused_naming_what_differs(tmp_path: Path) -> None:
    body = 'variant = "english"\ntime_control = "depth=1"\nformat = "match"\n[openings]\ndeck = "acf-144"\n'
    config, engines = load_tournament(
        write_tournament(tmp_path, body + LIMIT, bundled("random") + bundled("greedy"))
    )
    with TournamentStore.open(config.database) as store:
        tid = asyncio.run(TournamentRunner(config, engines).run(store, handle_signals=False)).tournament_id
    # A database written before `plies` existed holds no such key: it takes its default, and resumes.
    with sqlite3.connect(config.database) as db:
        stored = json.loads(db.execute("select config from tournament").fetchone()[0])
        del stored["openings"]["plies"]
        db.execute("update tournament set config = ?", (json.dumps(stored),))
    with TournamentStore.open(config.database) as store:
        again = asyncio.run(TournamentRunner(config, engines).run(store, handle_signals=False))
        assert again.tournament_id == tid and again.played_now == 0
        other = config.model_copy(update={"games_per_encounter": 2, "cycles": 2})
        with pytest.raises(
            RunError, match=r"another configuration \(differing: cycles, games_per_encounter\)"
        ):
            TournamentRunner(other, engines).open_tournament(store)


class Messages(QuietObserver):
    def __init__(self) -> None:
        self.messages: list[str] = []

    def message(self, text: str) -> None:
        self.messages.append(text)


def test_a_note_of_each_stored_game_that_fails_is_reported_and_the_event_finishes(tmp_path: Path) -> None:
    body = 'variant = "english"\ntime_control = "depth=1"\nformat = "round-robin"\nconcurrency = 2\n' + LIMIT
    config, engines = load_tournament(write_tournament(tmp_path, body, bundled("random") + bundled("greedy")))
    observer = Messages()
    runner = TournamentRunner(config, engines, observer=observer)
    noted: list[int] = []

    def site_gone(tournament_id: int) -> None:
        noted.append(tournament_id)
        raise ValueError("the queue is closed")

    runner.game_stored = site_gone
    with TournamentStore.open(config.database) as store:
        summary = asyncio.run(runner.run(store, handle_signals=False))
    planned = len(plan_tournament(config).schedule.games)
    assert summary.finished == planned and not summary.stopped
    assert noted == [summary.tournament_id] * planned  # told on the loop, once a stored game
    assert observer.messages.count("report not refreshed: the queue is closed") == planned
