"""The shared Hub loop, run in-process on text streams, for what a real player cannot be made to do."""

from __future__ import annotations

import io

from arbiter.notation.movetext import parse_hub
from arbiter.players.control import SearchControl
from arbiter.players.hub_loop import HubEngine
from arbiter.players.player import Decision, InfoSink, Player, ThinkRequest
from arbiter.rules import Position, get_variant


class FailingPlayer(Player):
    name = "failing"

    def think(self, request: ThinkRequest, control: SearchControl, info: InfoSink) -> Decision:
        raise RuntimeError("the search broke")


def run_engine(player: Player, script: str) -> list[str]:
    out = io.StringIO()
    assert HubEngine(player, io.StringIO(script), out).run() == 0
    return out.getvalue().splitlines()


def test_a_player_that_fails_reports_the_error_and_still_plays_a_legal_move() -> None:
    lines = run_engine(FailingPlayer(), "pos\nlevel depth=1\ngo think\n")
    assert lines[0].startswith("error ") and "the search broke" in lines[0]
    assert lines[1].startswith("done move=")
    parse_hub(Position.start(get_variant("english")), lines[1].removeprefix("done move="))


def test_commands_are_answered_in_order_and_quit_ends_the_loop() -> None:
    lines = run_engine(FailingPlayer(), "ping\ninit\nquit\nping\n")
    assert lines == ["pong", "ready"]
