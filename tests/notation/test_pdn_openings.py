"""Openings cut from PDN games: start position and first plies, as a ballot deck for tournaments."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter.notation.pdn import PdnError
from arbiter.notation.pdn_openings import openings_from_pdn
from arbiter.rules import Position, get_variant
from arbiter.tournament.openings import parse_opening_line

PDN_DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "pdn"


def shared(name: str) -> Path:
    if not PDN_DATA.exists():
        pytest.skip(f"shared PDN data not present at {PDN_DATA.resolve()}")
    return PDN_DATA / name


def test_eleven_man_ballots_give_2400_start_positions() -> None:
    deck = openings_from_pdn(shared("succeed/11_man_english.pdn"), 0)
    assert len(deck) == 2400
    first = deck[0]
    assert (first.fen, first.moves, first.variant_id) == ("B:W19,21-23,25-27,29-32:B1-7,9-12", "", "english")
    assert (first.name, first.source) == ("11_man_english #1", "11_man_english.pdn#1")
    english = get_variant("english")
    for opening in deck:
        material = Position.from_fen(english, opening.fen).material()
        assert (material.black_men, material.white_men) == (11, 11)
    assert len({o.fen for o in deck}) == 2400


def test_openings_are_cut_at_n_plies_and_repeats_left_out() -> None:
    deck = openings_from_pdn(shared("succeed/tinsley.pdn"), 3)
    assert deck[0].moves == "11-15 23-18 8-11" and deck[0].name == "Ohio State Ty 1946"
    assert all(o.plies == 3 for o in deck)
    assert len({o.moves for o in deck}) == len(deck) == 136
    everything = openings_from_pdn(shared("succeed/tinsley.pdn"), 3, unique=False)
    assert len(everything) == 724
    for opening in deck:  # a tournament deck accepts the text as it is
        assert parse_opening_line(opening.moves, opening.source).text == opening.moves


def test_a_fault_inside_the_cut_stops_the_deck_with_every_faulty_game_named(tmp_path: Path) -> None:
    path = tmp_path / "deck.pdn"
    path.write_text(
        '[Event "good"]\n[GameType "21"]\n1. 11-15 23-19 *\n\n'
        '[Event "bad"]\n[GameType "21"]\n1. 11-15 23-19 2. 8-12 *\n\n'
        '[Event "late"]\n[GameType "21"]\n1. 11-15 23-19 2. 8-11 22-17 3. 1-2 *\n'
    )
    with pytest.raises(PdnError) as raised:
        openings_from_pdn(path, 3)
    message = str(raised.value)
    assert "1 game(s) cannot give an opening of 3 plies" in message
    assert "deck.pdn:7:19: game 2 (bad), ply 3: illegal move: 8-12 is not legal" in message
    # The third game's fault is past the cut: cut at 4 plies it is fine, and shorter games count as they are.
    short = tmp_path / "short.pdn"
    short.write_text(
        '[GameType "21"]\n1. 11-15 23-19 *\n\n[GameType "21"]\n1. 11-15 23-19 2. 8-11 22-17 3. 1-2 *\n'
    )
    assert [o.moves for o in openings_from_pdn(short, 4)] == ["11-15 23-19", "11-15 23-19 8-11 22-17"]


def test_openings_are_written_in_the_projects_move_form() -> None:
    # tinsley game 1 writes 4. 10x14 for a quiet move; the opening says 10-14.
    deck = openings_from_pdn(shared("succeed/tinsley.pdn"), 7, unique=False)
    assert deck[0].moves == "11-15 23-18 8-11 27-23 4-8 23-19 10-14"


def test_an_empty_file_has_no_openings(tmp_path: Path) -> None:
    path = tmp_path / "empty.pdn"
    path.write_text("")
    with pytest.raises(PdnError, match="holds no games"):
        openings_from_pdn(path, 2)
