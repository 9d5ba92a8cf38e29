"""A match's progress for long runs: games done and left, the running score of the first engine, its
Elo and the time left, in the live view's own line, or one line a game when output is not a terminal."""

from __future__ import annotations

import asyncio
import io
import json
import math
import re
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from tournament_files import bundled, write_tournament

from arbiter.commands.live_view import LiveView
from arbiter.commands.run_extras import ExtrasObserver, MatchProgress, RunExtras
from arbiter.commands.sprt_view import interval_ends, signed
from arbiter.referee.record import GameOutcome, GameRecord, PlayerRecord, Termination, Winner
from arbiter.running.runner import QuietObserver, TournamentRunner
from arbiter.store import TournamentStore
from arbiter.tournament.config import load_tournament
from arbiter.tournament.plan import plan_tournament
from arbiter.tournament.schedule import PlannedGame
from arbiter.tournament.stats import elo_from_pentanomial, elo_from_wdl, pentanomial

MATCH = (
    'variant = "english"\ntime_control = "depth=1"\nformat = "match"\ngames_per_encounter = 4\n'
    "[adjudication]\nmax_plies = 30\n"
)


def play_match(tmp_path: Path, terminal: bool) -> str:
    engines = bundled("alphabeta") + bundled("random")
    config, players = load_tournament(write_tournament(tmp_path, MATCH, engines))
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=terminal, width=160, color_system=None)
    with TournamentStore.open(config.database) as store:
        runner = TournamentRunner(config, players)
        view = LiveView(store, console, standings_every=0.2)
        runner.observer = ExtrasObserver(view, RunExtras(), "alphabeta", concurrency=1)
        view.attach(runner.open_tournament(store))
        with view:
            asyncio.run(runner.run(store, handle_signals=False))
    return screen.getvalue()


def test_one_line_a_game_gives_the_running_score_elo_and_time_left_when_not_a_terminal(
    tmp_path: Path,
) -> None:
    lines = [line for line in play_match(tmp_path, terminal=False).splitlines() if line.startswith("done ")]
    assert len(lines) == 4
    for number, line in enumerate(lines[:3], start=1):
        score = r"alphabeta \+\d+ =\d+ -\d+ \(.*\)"
        pattern = rf"done {number}/4, left {4 - number}, {score}, draw ratio \d+\.\d%, Elo .*, ETA \d+m\d\ds"
        assert re.fullmatch(pattern, line), line
    assert lines[3].startswith("done 4/4, left 0, alphabeta +") and "ETA" not in lines[3]


def test_the_live_view_keeps_the_match_progress_on_a_line_of_its_own(tmp_path: Path) -> None:
    last = play_match(tmp_path, terminal=True).rsplit("games done 4/4", 1)[1]
    line = r"^done 4/4, left 0, alphabeta \+\d+ =\d+ -\d+ \(.*\), draw ratio \d+\.\d%, Elo "
    assert re.search(line, last, re.MULTILINE)


PAIRED = (
    'variant = "english"\ntime_control = "depth=1"\nformat = "match"\ncycles = 6\n'
    'games_per_encounter = 2\nrepeat = true\n[openings]\ndeck = "acf-156"\n[adjudication]\nmax_plies = 30\n'
)


def test_the_elo_of_a_match_played_in_pairs_is_counted_by_pairs_as_the_final_table_counts_it(
    tmp_path: Path,
) -> None:
    # The progress line counted single games ("Elo +70 ±124") where the final table, for the same
    # games played in opening pairs, said +70.4 [-1.9, +149.5]: two intervals for one match.
    config, players = load_tournament(
        write_tournament(tmp_path, PAIRED, bundled("alphabeta") + bundled("random"))
    )
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=False, width=200, color_system=None)
    with TournamentStore.open(config.database) as store:
        runner = TournamentRunner(config, players)
        view = LiveView(store, console, standings_every=0.2)
        runner.observer = ExtrasObserver(view, RunExtras(), "alphabeta", concurrency=1)
        view.attach(tournament_id := runner.open_tournament(store))
        with view:
            asyncio.run(runner.run(store, handle_signals=False))
        games = store.finished_results(tournament_id)
    lines = [line for line in screen.getvalue().splitlines() if line.startswith("done ")]
    assert len(lines) == 12, lines
    assert lines[0].endswith("Elo by pairs: none yet, ETA " + lines[0].rsplit("ETA ", 1)[1]), lines[0]
    table = elo_from_pentanomial(pentanomial(games, "alphabeta").counts)
    assert table.paired and table.count == 6
    last = lines[-1]
    assert f", Elo by pairs {signed(table.elo, 0)}" in last, (last, table)
    reason = table.no_interval_reason
    if reason is not None:
        assert last.endswith(f"(no interval yet: {reason})"), last
    elif math.isfinite(table.margin):
        assert last.endswith(f" ±{table.margin:.0f}"), (last, table)
    else:
        assert last.endswith(interval_ends(table, 0)), (last, table)


class StopsAfterTwoGames(QuietObserver):
    def __init__(self, runner: TournamentRunner) -> None:
        self.runner, self.finished = runner, 0

    def game_finished(self, game: PlannedGame, record: GameRecord) -> None:
        self.finished += 1
        if self.finished == 2:
            self.runner.request_stop()


def test_a_resumed_match_s_running_score_and_elo_count_the_games_of_its_earlier_runs(tmp_path: Path) -> None:
    # The running score started from nothing on resume: "done 3/4, left 1, alphabeta +1 =0 -0 (1/1, ...)"
    # beside the SPRT line and standings, which count all three games.
    config, players = load_tournament(
        write_tournament(tmp_path, MATCH, bundled("alphabeta") + bundled("random"))
    )
    with TournamentStore.open(config.database) as store:
        runner = TournamentRunner(config, players)
        runner.observer = StopsAfterTwoGames(runner)
        asyncio.run(runner.run(store, handle_signals=False))
        assert len(store.finished_results(runner.open_tournament(store))) == 2, "two games left to resume"
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=False, width=160, color_system=None)
    with TournamentStore.open(config.database) as store:
        runner = TournamentRunner(config, players)
        view = LiveView(store, console, standings_every=0.2)
        observer = ExtrasObserver(view, RunExtras(), "alphabeta", concurrency=1)
        runner.observer = observer
        tournament_id = runner.open_tournament(store)
        view.attach(tournament_id)
        observer.attach(store, tournament_id)
        with view:
            asyncio.run(runner.run(store, handle_signals=False))
        scores = [game.fraction_for("alphabeta") for game in store.finished_results(tournament_id)]
    lines = [line for line in screen.getvalue().splitlines() if line.startswith("done ")]
    assert len(lines) == 2, lines
    counts = [re.search(r"alphabeta \+(\d+) =(\d+) -(\d+) \(", line) for line in lines]
    assert counts[0] is not None and sum(int(n) for n in counts[0].groups()) == 3, lines
    wins, losses = scores.count(1.0), scores.count(0.0)
    expected = f"done 4/4, left 0, alphabeta +{wins} ={4 - wins - losses} -{losses} ({sum(scores):g}/4, "
    assert lines[1].startswith(expected), lines
    assert f"Elo {signed(elo_from_wdl(wins, 4 - wins - losses, losses).elo, 0)}" in lines[1], lines


def test_a_game_abandoned_by_a_stop_is_left_out_of_the_json_lines_until_it_is_played_again(
    tmp_path: Path,
) -> None:
    config, _ = load_tournament(write_tournament(tmp_path, MATCH, bundled("alphabeta") + bundled("random")))
    game = plan_tournament(config).schedule.games[0]
    lines = tmp_path / "games.jsonl"
    observer = ExtrasObserver(QuietObserver(), RunExtras(json_out=lines), None, concurrency=1)

    def ended(winner: Winner, termination: Termination) -> GameRecord:
        return GameRecord(
            variant="english",
            white=PlayerRecord(name=game.white),
            black=PlayerRecord(name=game.black),
            start_fen="B:W21-32:B1-12",
            time_control="depth=1",
            outcome=GameOutcome.of(winner, termination, reason="why"),
            started_at=datetime.now(UTC),
        )

    observer.game_finished(game, ended(Winner.UNFINISHED, Termination.ABANDONED))
    observer.game_finished(game, ended(Winner.WHITE, Termination.NO_PIECES))
    observer.close()
    written = [json.loads(line) for line in lines.read_text(encoding="utf-8").splitlines()]
    assert [(line["game"], line["winner"]) for line in written] == [(str(game.key), "white")]


def test_the_progress_line_gives_the_draw_ratio_as_cutechess_cli_does() -> None:
    progress = MatchProgress("a", total=20, done=0, concurrency=1)
    progress.wins, progress.draws, progress.losses = 1, 6, 1
    assert "a +1 =6 -1 (4/8, 50.0%), draw ratio 75.0%, Elo " in progress.text()
