"""A DXP engine refereed like any other: it follows one game from the position after the opening."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from referee_games import ENGINES, QUICK, game_setup, play, scripted

from arbiter.engines import DxpSettings, EngineConfig
from arbiter.referee.record import Termination
from arbiter.referee.settings import RefereeRules


def dxp_follower(record: Path, moves: str) -> EngineConfig:
    command = [sys.executable, str(ENGINES / "dxp_follower.py"), "--listen", "{port}", "--moves", moves]
    return EngineConfig(
        name="follower",
        protocol="dxp",
        command=[*command, "--record", str(record)],
        dxp=DxpSettings(mode="engine_listens"),
        timeouts=QUICK,
    )


def test_a_dxp_engine_plays_through_captures_after_an_opening(tmp_path: Path) -> None:
    messages = tmp_path / "dxp.jsonl"
    white = dxp_follower(messages, "28x19x23,33-28,37x28x32,38-33")
    black = scripted("black", "--moves", "14x23 23x32 10-14")
    setup = game_setup(
        "40/90 scale=0.1", variant="international", opening="32-28 19-23", rules=RefereeRules(max_plies=9)
    )
    record = play(setup, white, black)
    assert record.outcome is not None and record.outcome.termination is Termination.MAX_LENGTH
    assert [move.hub for move in record.moves] == [
        "32-28",
        "19-23",
        "28x19x23",
        "14x23x19",
        "33-28",
        "23x32x28",
        "37x28x32",
        "10-14",
        "38-33",
    ]
    received = [json.loads(line) for line in messages.read_text().splitlines()]
    request = received[0]
    assert request["type"] == "R" and request["follower_colour"] == "W"
    # The game request starts from the position after the opening, with White to move.
    assert request["start"] == "B" and str(request["position"]).startswith("W")
    relayed = [message for message in received if message["type"] == "M"]
    assert [(message["from"], message["to"]) for message in relayed] == [(14, 23), (23, 32), (10, 14)]


def test_a_dxp_game_request_announces_the_main_clock_when_the_first_move_is_a_capture(tmp_path: Path) -> None:
    messages = tmp_path / "dxp.jsonl"
    setup = game_setup(
        "fmjd scale=0.05 jump", variant="international", fen="W:W28,45:B23,5", rules=RefereeRules(max_plies=2)
    )
    record = play(setup, dxp_follower(messages, "28x19x23"), scripted("black"))
    assert record.outcome is not None and record.outcome.termination is Termination.MAX_LENGTH
    assert record.moves[0].hub == "28x19x23"
    request = json.loads(messages.read_text().splitlines()[0])
    # 7200 s x 0.05 for 50 moves: 6 minutes, not the jump limit's 3 s for one move (0 minutes).
    assert (request["type"], request["minutes"]) == ("R", 6)


def test_a_dxp_game_request_announces_no_move_count_as_dxp_counts_the_game_s_length(tmp_path: Path) -> None:
    # 10 moves a minute, repeating: announced as 1 minute with no move count (000), as a count of 10
    # would let the engine end the game after 10 moves (Scan does, adjudicating it itself).
    messages = tmp_path / "dxp.jsonl"
    setup = game_setup("10/60", variant="international", rules=RefereeRules(max_plies=2))
    record = play(setup, dxp_follower(messages, "32-28"), scripted("black", "--moves", "19-23"))
    assert record.outcome is not None and record.outcome.termination is Termination.MAX_LENGTH
    request = json.loads(messages.read_text().splitlines()[0])
    assert (request["type"], request["minutes"], request["moves"]) == ("R", 1, 0)
