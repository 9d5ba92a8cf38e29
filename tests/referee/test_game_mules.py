"""Mule checkers through the referee: engines are told which men are mules, and play by it."""

from __future__ import annotations

from pathlib import Path

from referee_games import bundled, game_setup, play, received, scripted

from arbiter.engines.hub_wire import parse_line
from arbiter.referee.settings import RefereeRules


def pos_fields(log: Path) -> list[dict[str, str]]:
    return [parse_line(line).fields for line in received(log, "pos")]


def test_every_pos_line_of_a_mule_game_names_the_mules_of_its_position(tmp_path: Path) -> None:
    white_log, black_log = tmp_path / "white.log", tmp_path / "black.log"
    # Six quiet plies from the start: no mule can be taken yet.
    record = play(
        game_setup("depth=1", variant="mule", rules=RefereeRules(max_plies=6)),
        scripted("white", "--moves", "22-17 17-13 26-22", "--log", str(white_log)),
        scripted("black", "--moves", "9-14 5-9 10-15", "--log", str(black_log)),
    )
    assert [move.text for move in record.moves] == ["9-14", "22-17", "5-9", "17-13", "10-15", "26-22"]
    sent = pos_fields(white_log) + pos_fields(black_log)
    assert len(sent) == 6
    assert all(fields["mules"] == "1 2 3 4 29 30 31 32" for fields in sent), sent


def test_the_mules_key_follows_captured_mules(tmp_path: Path) -> None:
    log = tmp_path / "white.log"
    # Black's 10x28 takes White's mule on 15 and man on 24; White keeps its mule on 22 and plays on.
    record = play(
        game_setup(
            "depth=1", variant="mule", fen="B:W14,M15,M22,24,30:BM1,3,10", rules=RefereeRules(max_plies=2)
        ),
        scripted("white", "--log", str(log)),
        scripted("black", "--moves", "10x28"),
    )
    assert record.moves[0].text == "10x28"
    assert pos_fields(log)[0]["mules"] == "1 22"


def test_an_english_game_sends_no_mules_key(tmp_path: Path) -> None:
    log = tmp_path / "white.log"
    play(
        game_setup("depth=1", fen="W:W14,24,30:B3,10"),
        scripted("white", "--log", str(log)),
        scripted("black"),
    )
    assert all("mules" not in fields for fields in pos_fields(log))


def test_bundled_alphabeta_told_the_mules_keeps_clear_of_the_opponents_last_mule() -> None:
    # Black must capture: 10x17 takes a regular man, 10x28 two pieces with White's last mule (a loss).
    record = play(
        game_setup("depth=3", variant="mule", fen="B:W14,M15,24,30:BM1,3,10"),
        bundled("random"),
        bundled("alphabeta"),
    )
    assert record.moves[0].text == "10x17"
