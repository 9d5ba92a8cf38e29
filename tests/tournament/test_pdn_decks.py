"""Opening decks cut from PDN games: each game's start position and first plies, played as ballots."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from tournament_files import bundled, write_tournament

from arbiter.notation.pdn import read_pdn_text
from arbiter.notation.pdn_writer import format_game
from arbiter.publishing.pdn_export import export_tournament
from arbiter.report.from_store import load_event
from arbiter.rules import Position, get_variant
from arbiter.running.runner import QuietObserver, TournamentRunner
from arbiter.store import TournamentStore
from arbiter.tournament.config import load_tournament
from arbiter.tournament.openings import OpeningError, OpeningKind, read_pdn_openings
from arbiter.tournament.plan import plan_tournament
from arbiter.tournament.schedule import PlannedGame

TINY_DECK = Path(__file__).resolve().parent / "openings.pdn"
SHARED_PDN = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "pdn"
ELEVEN_MEN = "B:W19,21-23,25-27,29-32:B1-7,9-12"


def shared(name: str) -> Path:
    if not SHARED_PDN.exists():
        pytest.skip(f"shared PDN data not present at {SHARED_PDN.resolve()}")
    return SHARED_PDN / name


def test_a_pdn_deck_holds_each_games_start_and_first_plies_without_repeats() -> None:
    deck = read_pdn_openings(TINY_DECK, 3, "english")
    # The fourth game opens like the first: cut at three plies it is the same opening, left out.
    assert [(o.id, o.name, o.kind, o.fen, o.moves) for o in deck] == [
        ("openings.pdn#1", "Old Faithful", OpeningKind.MOVES, "B:W21-32:B1-12", ["11-15", "23-19", "8-11"]),
        ("openings.pdn#2", "Eleven men, a shot", OpeningKind.MOVES, ELEVEN_MEN, ["11-15", "22-18", "15x22"]),
        ("openings.pdn#3", "White to move", OpeningKind.FEN, "W:W21-32:B1-12", []),
    ]
    assert [o.source for o in deck] == [f"{TINY_DECK}:1", f"{TINY_DECK}:5", f"{TINY_DECK}:10"]
    assert len(read_pdn_openings(TINY_DECK, 4, "english")) == 4  # at four plies the two differ


def test_a_pdn_deck_refuses_a_game_of_another_variant_naming_its_line(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_text('[GameType "21"]\n1. 11-15 *\n\n[GameType "20"]\n1. 32-28 *\n', encoding="utf-8")
    with pytest.raises(OpeningError, match=re.escape(f"{path}:4: game mixed.pdn#2 is international")):
        read_pdn_openings(path, 1, "english")


def test_a_pdn_deck_refuses_a_game_whose_first_plies_do_not_replay(tmp_path: Path) -> None:
    path = tmp_path / "bad.pdn"
    path.write_text('[Event "bad"]\n1. 11-15 23-19 2. 8-12 *\n', encoding="utf-8")
    with pytest.raises(OpeningError, match=r"bad\.pdn:2:\d+: game 1 \(bad\), ply 3: illegal move"):
        read_pdn_openings(path, 3, "english")


def test_a_game_dealt_a_pdn_opening_starts_from_its_position_and_plays_its_moves(tmp_path: Path) -> None:
    body = f'time_control = "depth=1"\nformat = "match"\ncycles = 3\n[openings]\nfile = "{TINY_DECK}"\n'
    body += "plies = 3\n"
    config, _ = load_tournament(write_tournament(tmp_path, body, bundled("random") + bundled("greedy")))
    plan = plan_tournament(config)
    setups = [plan.setup_for(game) for game in plan.schedule.games]
    assert [(s.start_fen, s.opening.moves if s.opening else None) for s in setups] == [
        ("B:W21-32:B1-12", ["11-15", "23-19", "8-11"]),
        (ELEVEN_MEN, ["11-15", "22-18", "15x22"]),
        ("W:W21-32:B1-12", []),
    ]
    prepared = setups[1].prepare()
    assert prepared.start.fen() == ELEVEN_MEN and len(prepared.opening_moves) == 3


class StopAtThirdGame(QuietObserver):
    """Stops the run as its third game starts: that game is abandoned and played again on resume."""

    def __init__(self, runner: TournamentRunner) -> None:
        self.runner = runner
        self.started = 0

    def game_started(self, game: PlannedGame) -> None:
        self.started += 1
        if self.started == 3:
            self.runner.request_stop()


def test_an_event_on_pdn_openings_is_stored_resumed_reported_and_exported(tmp_path: Path) -> None:
    body = (
        'variant = "english"\ntime_control = "depth=1"\nformat = "match"\ncycles = 3\n'
        "games_per_encounter = 2\nrepeat = true\nconcurrency = 1\n"
        f'[openings]\nfile = "{TINY_DECK}"\nplies = 3\n[adjudication]\nmax_plies = 60\n'
    )
    config, engines = load_tournament(write_tournament(tmp_path, body, bundled("random") + bundled("greedy")))
    planned = plan_tournament(config).schedule.by_key()
    first = TournamentRunner(config, engines)
    first.observer = StopAtThirdGame(first)
    with TournamentStore.open(config.database) as store:
        stopped = asyncio.run(first.run(store, handle_signals=False))
        assert stopped.stopped and stopped.finished == 2
        resumed = asyncio.run(TournamentRunner(config, engines).run(store, handle_signals=False))
        assert resumed.finished == 6 and resumed.played_now == 4
        games = store.games(stopped.tournament_id)
        assert {g.key for g in games} == set(planned) and all(g.finished for g in games)
        english = get_variant("english")
        for game in games:
            opening = planned[game.key].opening
            assert opening is not None and game.opening_id == opening.id
            record = game.record
            assert record.start_fen == opening.fen
            from_opening = [move.text for move in record.moves if move.from_opening]
            assert from_opening == opening.moves == [move.text for move in record.moves[: len(opening.moves)]]
            position = Position.from_fen(english, record.start_fen)
            assert len(position.legal_moves()) > 0
        exported = export_tournament(store)
        assert exported.problems == []
        text = "".join(format_game(game) for game in exported.games)
        event = load_event(store)
    read_back = read_pdn_text(text)
    assert [g.start_fen for g in read_back] == [g.record.start_fen for g in games]
    assert all(g.ok for g in read_back)
    assert [g.plies for g in read_back] == [g.record.plies for g in games]
    assert event.schedule_note is None
    assert [entry.opening.id if entry.opening else None for entry in event.games] == [
        planned[g.key].opening.id
        for g in games  # type: ignore[union-attr]
    ]
    # The site shows the set-up a PDN opening starts from, then its moves.
    by_name = {str(key): game for key, game in planned.items()}
    shown = {}
    for entry in event.games:
        given = by_name[entry.key].opening
        assert entry.opening is not None and given is not None
        shown[given.start_fen] = entry.opening.text
        if given.start_fen is not None:
            assert entry.opening.text == f"{given.start_fen} then {given.text}"
    assert len(shown) > 1, "the deck has moves from a set-up as well as bare positions"


def test_eleven_man_ballots_from_the_shared_archive_make_an_event(tmp_path: Path) -> None:
    deck = shared("succeed/11_man_english.pdn")
    body = (
        'variant = "english"\ntime_control = "depth=1"\nformat = "round-robin"\n'
        "games_per_encounter = 2\nrepeat = true\nconcurrency = 2\n"
        f'[openings]\nfile = "{deck}"\nplies = 0\norder = "random"\nseed = 11\n'
        "[adjudication]\nmax_plies = 40\n"
    )
    engines = bundled("random") + bundled("greedy") + bundled("alphabeta")
    config, players = load_tournament(write_tournament(tmp_path, body, engines))
    with TournamentStore.open(config.database) as store:
        summary = asyncio.run(TournamentRunner(config, players).run(store, handle_signals=False))
        games = store.games(summary.tournament_id)
    assert summary.finished == 6 and all(g.finished for g in games)
    english = get_variant("english")
    for first, second in zip(games[::2], games[1::2], strict=True):
        assert first.opening_id == second.opening_id and first.opening_id.startswith("11_man_english.pdn#")  # type: ignore[union-attr]
        assert first.record.start_fen == second.record.start_fen
        assert (first.record.white.name, first.record.black.name) == (
            second.record.black.name,
            second.record.white.name,
        )
        material = Position.from_fen(english, first.record.start_fen).material()
        assert (material.black_men, material.white_men) == (11, 11)
    assert len({g.opening_id for g in games}) == 3
