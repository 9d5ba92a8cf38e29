"""The ``alphabeta`` engine: iterative-deepening alpha-beta with a real evaluation.

Run it with ``python -m arbiter.players.alphabeta``; it speaks Hub on stdin/stdout, honours every
``level`` form (``depth``, ``nodes``, ``move-time``, ``time``/``moves``/``inc``, ``infinite``) and
answers ``stop`` promptly with the best move found so far. While searching it prints
``info depth= score= nodes= time= nps= pv=`` after each completed iteration (score in centi-men
from its own view).

Parameters, besides ``variant``:
- ``draw_offers`` (bool, default true): offer a draw (``done move=... draw``) when the game is long
  (past ply 120) and the score is level (within 0.1 man); accept an offer (``draw-offered`` on ``go``)
  when its own score is 0 or worse.
- ``resign`` (bool, default false): resign (``done resign``) once the score has been below
  ``-resign_score`` for three searches in a row. Off by default so that games run to their real end
  unless a tournament asks otherwise.
- ``resign_score`` (int, default 1500 centi-men).
"""

from __future__ import annotations

import sys

from arbiter.players.control import SearchControl
from arbiter.players.hub_loop import run_player
from arbiter.players.hub_text import format_hub_line
from arbiter.players.player import Decision, InfoSink, ParamSpec, ParamValue, Player, ThinkRequest
from arbiter.players.search import MATE, AlphaBetaSearch, Iteration

DRAW_OFFER_AFTER_PLY = 120
DRAW_OFFER_MARGIN = 10  # |score| below this counts as level
RESIGN_AFTER_SEARCHES = 3


def info_line(iteration: Iteration) -> str:
    nps = int(iteration.nodes / iteration.seconds) if iteration.seconds > 0 else iteration.nodes
    return format_hub_line(
        "info",
        [
            ("depth", iteration.depth),
            ("score", iteration.score),
            ("nodes", iteration.nodes),
            ("time", round(iteration.seconds, 3)),
            ("nps", nps),
            ("pv", " ".join(iteration.pv)),
        ],
    )


class AlphaBetaPlayer(Player):
    name = "alphabeta"

    def __init__(self) -> None:
        self.searches: dict[str, AlphaBetaSearch] = {}
        self.draw_offers = True
        self.resign = False
        self.resign_score = 1500
        self.hopeless_searches = 0

    def params(self) -> list[ParamSpec]:
        return [
            ParamSpec("draw_offers", "bool", self.draw_offers, help="offer and accept draws in level games"),
            ParamSpec("resign", "bool", self.resign, help="resign lost games"),
            ParamSpec("resign_score", "int", self.resign_score, minimum=100, maximum=MATE),
        ]

    def set_param(self, name: str, value: ParamValue) -> None:
        if name == "draw_offers" and isinstance(value, bool):
            self.draw_offers = value
        elif name == "resign" and isinstance(value, bool):
            self.resign = value
        elif name == "resign_score" and isinstance(value, int):
            self.resign_score = value

    def new_game(self) -> None:
        for search in self.searches.values():
            search.new_game()
        self.hopeless_searches = 0

    def tidy(self) -> bool:
        return any([search.tidy() for search in self.searches.values()])

    def search_for(self, request: ThinkRequest) -> AlphaBetaSearch:
        variant = request.position.variant
        if variant.id not in self.searches:
            self.searches[variant.id] = AlphaBetaSearch(variant)
        return self.searches[variant.id]

    def think(self, request: ThinkRequest, control: SearchControl, info: InfoSink) -> Decision:
        search = self.search_for(request)
        result = search.search(
            request.position,
            request.history,
            control,
            lambda iteration: info(info_line(iteration)),
            request.legal_moves(),
        )
        score = result.score
        self.hopeless_searches = self.hopeless_searches + 1 if score < -self.resign_score else 0
        if self.resign and self.hopeless_searches >= RESIGN_AFTER_SEARCHES:
            return Decision(None, resign=True)
        draw = self.draw_offers and (
            (request.draw_offered and score <= 0)
            or (request.game_ply > DRAW_OFFER_AFTER_PLY and abs(score) < DRAW_OFFER_MARGIN)
        )
        return Decision(result.move, draw=draw)


def main(argv: list[str] | None = None) -> int:
    return run_player(AlphaBetaPlayer(), argv)


if __name__ == "__main__":
    sys.exit(main())
