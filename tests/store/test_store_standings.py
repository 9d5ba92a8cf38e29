"""Standings from the database, and the `arbiter standings` command that prints them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from store_samples import game_for, new_tournament
from typer.testing import CliRunner

from arbiter.cli import app
from arbiter.commands.standings import points_text
from arbiter.referee.record import OpeningRecord, Side, Termination, Winner
from arbiter.store import Event, EventKind, TournamentStore
from arbiter.tournament.openings import Opening, OpeningKind, OpeningSequence
from arbiter.tournament.schedule import PlannedGame, TournamentFormat, plan_games
from arbiter.tournament.scoring import STANDARD, TWO_ONE_ZERO, FinishedGame, Outcome, ScoringScheme
from arbiter.tournament.standings import crosstable, standings
from arbiter.tournament.stats import Pentanomial, pentanomial
from arbiter.tournament.stored_standings import stored_standings

PLAYERS = ("Greedy", "Random", "Alpha-beta", "Idle")
RESULTS = [Winner.WHITE, Winner.DRAW, Winner.BLACK, Winner.WHITE, Winner.UNFINISHED, Winner.DRAW]


def store_results(
    path: Path, *, scoring: ScoringScheme = STANDARD
) -> tuple[int, list[tuple[PlannedGame, Winner]]]:
    """A double round robin of three of the four players (Idle never plays), with one abandoned game."""
    planned = plan_games(PLAYERS[:3], TournamentFormat.ROUND_ROBIN, games_per_encounter=2, cycles=2).games
    played = [(game, RESULTS[number % len(RESULTS)]) for number, game in enumerate(planned)]
    with TournamentStore.open(path) as store:
        tid = new_tournament(store, PLAYERS, scoring=scoring)
        for number, (game, winner) in enumerate(played):
            store.record_game(tid, game, game_for(game, winner, seed=number, plies=12))
    return tid, played


def expected_results(played: list[tuple[PlannedGame, Winner]]) -> list[FinishedGame]:
    outcomes = {Winner.WHITE: Outcome.WHITE_WINS, Winner.BLACK: Outcome.BLACK_WINS, Winner.DRAW: Outcome.DRAW}
    return [FinishedGame(g.white, g.black, outcomes[w]) for g, w in played if w is not Winner.UNFINISHED]


def test_standings_from_the_database_are_those_of_the_finished_games(tmp_path: Path) -> None:
    tid, played = store_results(tmp_path / "t.db")
    expected = expected_results(played)
    with TournamentStore.open(tmp_path / "t.db", create=False) as store:
        result = stored_standings(store, tid)
    assert result.games == len(expected) == len(played) - 2
    assert result.players == PLAYERS
    assert result.table == standings(expected, PLAYERS)
    assert result.crosstable == crosstable(expected, PLAYERS)
    # Idle is listed, without games; the unfinished games count for nobody.
    idle = next(s for s in result.table if s.player == "Idle")
    assert (idle.games, idle.points) == (0, 0.0)
    assert sum(s.games for s in result.table) == 2 * len(expected)


def test_standings_use_the_tournament_scoring_scheme_unless_told_otherwise(tmp_path: Path) -> None:
    tid, played = store_results(tmp_path / "t.db", scoring=TWO_ONE_ZERO)
    expected = expected_results(played)
    with TournamentStore.open(tmp_path / "t.db", create=False) as store:
        own = stored_standings(store, tid)
        standard = stored_standings(store, tid, STANDARD)
    assert own.scheme == TWO_ONE_ZERO
    assert own.table == standings(expected, PLAYERS, TWO_ONE_ZERO)
    assert standard.table == standings(expected, PLAYERS, STANDARD)
    assert sum(s.points for s in own.table) == 2 * sum(s.points for s in standard.table)


def test_finished_results_carry_openings_and_pairs_for_the_statistics(tmp_path: Path) -> None:
    planned = plan_games(
        ["Greedy", "Random"], TournamentFormat.MATCH, cycles=3, games_per_encounter=2, repeat=True
    )
    winners = [Winner.WHITE, Winner.WHITE, Winner.DRAW, Winner.BLACK, Winner.BLACK, Winner.UNFINISHED]
    with TournamentStore.open(tmp_path / "t.db") as store:
        tid = new_tournament(store, ["Greedy", "Random"])
        for game, winner in zip(planned.games, winners, strict=True):
            store.record_game(tid, game, game_for(game, winner))
        results = store.finished_results(tid)
    assert [r.pair_index for r in results] == [1, 1, 2, 2, 3]
    # Greedy's pairs: 1 won with White, lost with Black (WL); 2 drew, then lost with White (LD);
    # 3 lost, and the second game was abandoned, so the pair is incomplete.
    paired = pentanomial(results, "Greedy")
    assert paired.counts == Pentanomial(wl=1, ld=1)
    assert paired.incomplete_pairs == (3,)


@pytest.mark.parametrize(
    ("points", "text"), [(3.0, "3"), (3.5, "3½"), (0.5, "½"), (0.0, "0"), (1.25, "1.25")]
)
def test_points_are_printed_as_players_write_them(points: float, text: str) -> None:
    assert points_text(points) == text


def test_the_standings_command_prints_the_table_and_crosstable(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    tid, played = store_results(path)
    table = standings(expected_results(played), PLAYERS)
    outcome = CliRunner().invoke(app, ["standings", str(path)])
    assert outcome.exit_code == 0, outcome.output
    text = outcome.output
    assert "Standings" in text and "Crosstable" in text
    assert f"{len(played) - 2} games finished, 2 unfinished" in text
    for standing in table:
        line = next(line for line in text.splitlines() if f" {standing.player} " in line)
        assert points_text(standing.points) in line
        assert f"{standing.as_white.wins}-{standing.as_white.draws}-{standing.as_white.losses}" in line
        assert f"{standing.sonneborn_berger:.2f}" in line
    assert str(tid) in text


def test_the_crosstable_shows_points_alone_when_every_pair_played_alike(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    planned = plan_games(
        ["Greedy", "Random", "Idle"], TournamentFormat.ROUND_ROBIN, games_per_encounter=2
    ).games
    with TournamentStore.open(path) as store:
        tid = new_tournament(store, ["Greedy", "Random", "Idle"])
        for number, game in enumerate(planned):
            winner = Winner.DRAW if "Idle" in (game.white, game.black) else Winner.side(Side.WHITE)
            store.record_game(tid, game, game_for(game, winner, seed=number, plies=8))
    outcome = CliRunner().invoke(app, ["standings", str(path)])
    assert outcome.exit_code == 0, outcome.output
    assert "Crosstable (2 games per pair)" in outcome.output
    crosstable_text = outcome.output.split("Crosstable")[1]
    greedy_row = next(line for line in crosstable_text.splitlines() if "│ Greedy" in line)
    # Greedy against Random: one win with White, one loss with Black; against Idle: two draws.
    assert [cell.strip() for cell in greedy_row.split("│")[3:6]] == ["×", "1", "1"]


def test_the_crosstable_of_a_single_round_robin_says_one_game_per_pair(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    planned = plan_games(["Greedy", "Random", "Idle"], TournamentFormat.ROUND_ROBIN).games
    with TournamentStore.open(path) as store:
        tid = new_tournament(store, ["Greedy", "Random", "Idle"])
        for number, game in enumerate(planned):
            store.record_game(tid, game, game_for(game, Winner.DRAW, seed=number, plies=8))
    outcome = CliRunner().invoke(app, ["standings", str(path)])
    assert outcome.exit_code == 0, outcome.output
    assert "Crosstable (1 game per pair)" in outcome.output


def test_the_standings_command_lists_and_chooses_tournaments(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    store_results(path)
    with TournamentStore.open(path) as store:
        new_tournament(store, ["Solo", "Duo"], name="Later event")
    runner = CliRunner()
    listing = runner.invoke(app, ["standings", str(path), "--list"])
    assert listing.exit_code == 0, listing.output
    assert "Store test" in listing.output and "Later event" in listing.output
    latest = runner.invoke(app, ["standings", str(path)])
    assert "Later event" in latest.output and "1 other tournament" in latest.output
    chosen = runner.invoke(app, ["standings", str(path), "-t", "Store test"])
    assert "Greedy" in chosen.output and "Later event" not in chosen.output


def test_the_standings_command_says_what_is_wrong_with_the_database(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(app, ["standings", str(tmp_path / "nothing.db")])
    assert missing.exit_code == 2
    assert "no such tournament database" in missing.output
    assert not (tmp_path / "nothing.db").exists()
    text_file = tmp_path / "notes.txt"
    text_file.write_text("hello\n", encoding="utf-8")
    wrong = runner.invoke(app, ["standings", str(text_file)])
    assert wrong.exit_code == 2 and "not an arbiter database" in wrong.output
    path = tmp_path / "t.db"
    store_results(path)
    unknown = runner.invoke(app, ["standings", str(path), "-t", "Winter"])
    assert unknown.exit_code == 2 and "no tournament 'Winter'" in unknown.output
    scheme = runner.invoke(app, ["standings", str(path), "--scoring", "3-1-0"])
    assert scheme.exit_code == 2 and "unknown scoring scheme" in scheme.output


def test_the_arbiter_program_prints_standings_from_a_database(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    store_results(path)
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "standings", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Standings" in done.stdout and "Alpha-beta" in done.stdout


def test_endings_events_and_opening_names_are_counted_from_the_stored_games(tmp_path: Path) -> None:
    deck = OpeningSequence(
        (
            Opening(id="acf-5", kind=OpeningKind.MOVES, text="9-13 22-18 6-9", name="Dreaded Edinburgh"),
            Opening(id="acf-7", kind=OpeningKind.MOVES, text="9-13 22-18 10-15"),
        )
    )
    planned = plan_games(
        ["Greedy", "Random"],
        TournamentFormat.MATCH,
        cycles=2,
        games_per_encounter=2,
        repeat=True,
        openings=deck,
    ).games
    winners = [Winner.WHITE, Winner.DRAW, Winner.BLACK, Winner.UNFINISHED]
    fault = Event(EventKind.FAULT, "crashed", engine="Random")
    with TournamentStore.open(tmp_path / "t.db") as store:
        tid = new_tournament(store, ["Greedy", "Random"])
        for number, (game, winner) in enumerate(zip(planned, winners, strict=True)):
            assert game.opening is not None
            record = game_for(game, winner, seed=number).model_copy(
                update={"opening": OpeningRecord(name=game.opening.name or game.opening.id)}
            )
            events = [fault] if number == 2 else [Event(EventKind.WARNING, "slow"), fault]
            store.record_game(tid, game, record, events)
        store.record_event(tid, Event(EventKind.NOTE, "resumed"))
        stored = store.games(tid)
        endings = store.termination_counts(tid)
        events = store.event_counts(tid)
        names = store.opening_names(tid)
    expected: dict[Termination, int] = {}
    for game in stored:
        if game.finished and game.record.outcome is not None:
            expected[game.record.outcome.termination] = expected.get(game.record.outcome.termination, 0) + 1
    assert endings == expected and sum(endings.values()) == 3, "the abandoned game is not counted"
    assert events == {EventKind.FAULT: 4, EventKind.WARNING: 3, EventKind.NOTE: 1}
    assert names == {"acf-5": "Dreaded Edinburgh", "acf-7": "acf-7"}
