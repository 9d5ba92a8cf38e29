"""Captures written the ways Hub engines write them. Hub's form (start, end, every captured square, in
any order, with or without spaces around the line) is played; a capture written short, as a PDN path
or with only some captured squares is refused, and the reason says which legal capture(s) it could mean
and how Hub writes them. A move that cannot be read at all loses with its position named."""

from __future__ import annotations

import pytest
from referee_games import game_setup, play, scripted

from arbiter.referee.record import GameRecord, Termination, Winner
from arbiter.referee.settings import RefereeRules

# White's king on 30 has two captures to 6: over 11, 18, 24 (path 30x13x22x6) and over 11, 12, 24
# (path 30x8x17x6). Only a captured square tells them apart.
TWO_ROUTES = "W:WK30,31,34,36-40,42-43,45-47,50:B1,4-5,9-12,14-16,18,24"


def white_says(move: str) -> GameRecord:
    setup = game_setup(variant="international", fen=TWO_ROUTES, rules=RefereeRules(max_plies=1))
    return play(setup, scripted("white", "--say-at", "1", "--say", f"done move={move}"), scripted("black"))


@pytest.mark.parametrize("move", ["30x6x11x18x24", "30x6x24x18x11", "30x6x18x11x24   "])
def test_a_capture_with_every_captured_square_in_any_order_is_played(move: str) -> None:
    record = white_says(move)
    assert record.outcome is not None and record.outcome.termination == Termination.MAX_LENGTH
    assert [m.hub for m in record.moves] == ["30x6x11x18x24"]


@pytest.mark.parametrize(
    ("move", "said"),
    [
        ("30x6", "(ambiguous: as PDN it names 30x6x11x12x24 or 30x6x11x18x24;"),
        ("30-6", "(ambiguous: as PDN it names 30x6x11x12x24 or 30x6x11x18x24;"),
        ("30x13x22x6", "(as PDN it names 30x6x11x18x24;"),
        (
            "30x6x11",
            "(ambiguous: with only some of the captured squares it names 30x6x11x12x24 or 30x6x11x18x24;",
        ),
        ("30x6x12", "(with only some of the captured squares it names 30x6x11x12x24;"),
    ],
)
def test_a_capture_not_written_as_hub_is_refused_with_the_hub_text_of_what_it_could_mean(
    move: str, said: str
) -> None:
    record = white_says(move)
    outcome = record.outcome
    assert outcome is not None and (outcome.winner, outcome.termination) == (
        Winner.BLACK,
        Termination.ILLEGAL_MOVE,
    )
    assert f"'{move}' is not a legal move in {TWO_ROUTES} {said}" in outcome.reason
    assert "Hub writes a capture as start x end x every captured square" in outcome.reason


@pytest.mark.parametrize("move", ["030x06x11x18x24", "30X6X11X18X24", ""])
def test_a_move_that_cannot_be_read_loses_and_the_reason_names_its_position(move: str) -> None:
    record = white_says(move)
    outcome = record.outcome
    assert outcome is not None
    assert (outcome.winner, outcome.termination) == (Winner.BLACK, Termination.UNPARSABLE_OUTPUT)
    assert f"engine 'white': ended its search with move='{move}'" in outcome.reason
    assert "(32-28, 28x19x23; no leading zeros, a lower-case x)" in outcome.reason  # what to change
    assert outcome.reason.endswith(f"(in {TWO_ROUTES})")


# Black's man on 13 must take 17, landing on 22: PDN writes it 13x22, Hub 13x22x17.
ONE_CAPTURE = "B:W17,19,21,23,25-32:B1-5,7-13"


def test_a_capture_written_as_pdn_is_refused_listing_the_legal_moves_as_hub_writes_them() -> None:
    setup = game_setup(variant="english", fen=ONE_CAPTURE, rules=RefereeRules(max_plies=1))
    record = play(setup, scripted("white"), scripted("black", "--say-at", "1", "--say", "done move=13x22"))
    outcome = record.outcome
    assert outcome is not None and outcome.termination == Termination.ILLEGAL_MOVE
    # The list must not offer the very text refused as if it were legal.
    assert outcome.reason.endswith("; legal moves: 13x22x17")
