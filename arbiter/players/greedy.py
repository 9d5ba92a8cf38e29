"""The ``greedy`` engine: the move that leaves the best material balance, ties broken at random.

It looks one move ahead only: own material minus the opponent's after its move, kings weighted as
in the alpha-beta evaluation (where having no move wins, the fewest pieces count as best; in Mule
checkers a move that wins at once by the mule rules comes first and one that loses comes last). Run it
with ``python -m arbiter.players.greedy``; ``seed`` works as for ``random``.
"""

from __future__ import annotations

import sys

from arbiter.players.evaluation import material_balance, piece_values, plays_to_lose
from arbiter.players.hub_loop import run_player
from arbiter.players.random import RandomPlayer
from arbiter.rules import Color, Move, Position
from arbiter.rules.mule import judge_played

# Beyond any material balance: a move that wins (or loses) the game at once by the Mule checkers rules.
DECIDED = 1_000_000


def material_after(position: Position, move: Move) -> int:
    """The mover's material minus the opponent's once ``move`` is played (higher is better for it)."""
    after = position.play(move)
    if position.variant.has_mules:
        verdict = judge_played(position, move, after)
        if verdict is not None:
            return DECIDED if verdict[0] else -DECIDED
    values = piece_values(position.variant)
    balance = material_balance(values, after.white, after.black, after.kings, after.mules)
    if position.turn is Color.BLACK:
        balance = -balance
    return -balance if plays_to_lose(position.variant) else balance


def greedy_choices(position: Position, moves: list[Move] | None = None) -> list[Move]:
    """Every legal move (of ``moves``, if given) that reaches the best material balance."""
    scored = [(material_after(position, m), m) for m in (position.legal_moves() if moves is None else moves)]
    best = max(score for score, _ in scored)
    return [m for score, m in scored if score == best]


class GreedyPlayer(RandomPlayer):
    """Plays a move that leaves the best material, choosing at random among equals."""

    name = "greedy"

    def candidates(self, position: Position, moves: list[Move] | None = None) -> list[Move]:
        return greedy_choices(position, moves)


def main(argv: list[str] | None = None) -> int:
    return run_player(GreedyPlayer(), argv)


if __name__ == "__main__":
    sys.exit(main())
