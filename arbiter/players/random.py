"""The ``random`` engine: a uniformly random legal move, reproducible through the ``seed`` parameter.

Run it with ``python -m arbiter.players.random``; it speaks Hub on stdin/stdout. With ``seed`` 0 (the
default) it seeds itself from the operating system; any other seed makes its choices repeatable. The
seed is applied when set, not at each ``new-game``, so the games of one match differ.
"""

from __future__ import annotations

import random as _random
import sys

from arbiter.players.control import SearchControl
from arbiter.players.hub_loop import run_player
from arbiter.players.player import Decision, InfoSink, ParamSpec, ParamValue, Player, ThinkRequest
from arbiter.rules import Move, Position

SEED_PARAM = ParamSpec(
    "seed", "int", 0, minimum=0, maximum=2**31 - 1, help="0 seeds from the system; any other value repeats"
)


def seeded_rng(seed: int) -> _random.Random:
    return _random.Random(seed) if seed else _random.Random()


class RandomPlayer(Player):
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = seeded_rng(seed)

    def params(self) -> list[ParamSpec]:
        return [SEED_PARAM]

    def set_param(self, name: str, value: ParamValue) -> None:
        if name == "seed" and isinstance(value, int):
            self.rng = seeded_rng(value)

    def candidates(self, position: Position, moves: list[Move] | None = None) -> list[Move]:
        """The moves to choose among, uniformly: every legal move (``moves``, where a rule on earlier
        moves narrows the position's)."""
        return position.legal_moves() if moves is None else moves

    def think(self, request: ThinkRequest, control: SearchControl, info: InfoSink) -> Decision:
        return Decision(self.rng.choice(self.candidates(request.position, request.legal_moves())))


def main(argv: list[str] | None = None) -> int:
    return run_player(RandomPlayer(), argv)


if __name__ == "__main__":
    sys.exit(main())
