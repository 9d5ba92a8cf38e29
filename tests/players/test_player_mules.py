"""Mule checkers for the bundled engines: they read the mules from ``pos ... mules=`` and play by the
mule rules (capturing the opponent's last mule loses, so a bigger capture that takes it is avoided)."""

from __future__ import annotations

import pytest
from players_hub_driver import EngineProcess, fields_of
from test_alphabeta_strength import play_match

from arbiter.rules import Position, get_variant

MULE = get_variant("mule")
# Black to move must capture: 10x17 takes a regular man; 10x28 takes two pieces, one of them White's
# last mule, which loses the game for Black by the mule rules.
CHOICE = Position.from_fen(MULE, "B:W14,M15,24,30:BM1,3,10")
SAFE, BIGGER = "10x17x14", "10x28x15x24"


def done_move(done: str) -> str:
    command, values, _ = fields_of(done)
    assert command == "done", done
    return values["move"]


@pytest.mark.parametrize("engine", ["greedy", "alphabeta"])
def test_engine_told_the_mules_declines_to_capture_the_opponents_last_mule(engine: str) -> None:
    with EngineProcess(engine) as hub:
        hub.handshake(variant="mule")
        hub.send("new-game")
        hub.send(f'pos pos={CHOICE.hub()} mules="1 15"')
        hub.send("level depth=3")
        hub.send("go think")
        assert done_move(hub.read_until("done")[-1]) == SAFE


@pytest.mark.parametrize("engine", ["greedy", "alphabeta"])
def test_without_the_mules_key_the_position_has_no_mules_and_the_bigger_capture_is_taken(engine: str) -> None:
    with EngineProcess(engine) as hub:
        hub.handshake(variant="mule")
        hub.send("new-game")
        assert done_move(hub.search(CHOICE.hub(), level="depth=3")) == BIGGER


def test_a_mules_key_naming_an_empty_square_is_an_error_line() -> None:
    with EngineProcess("random") as hub:
        hub.handshake(variant="mule")
        hub.send(f'pos pos={CHOICE.hub()} mules="1 16"')
        hub.send("ping")
        lines = hub.read_until("pong")
        assert any(line.startswith("error") and "16" in line for line in lines), lines


def test_alphabeta_beats_random_at_mule_checkers() -> None:
    wins, draws, losses = play_match("mule", 20, depth=2)
    assert wins >= 19, (wins, draws, losses)
