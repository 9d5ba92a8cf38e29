"""Alpha-beta must beat a random mover almost always: at least 95 wins in 100 games.

The games are played in-process through the rules core's ``Game`` (the search function is called
directly at a small fixed depth) to keep the test fast. Colours alternate, a game still running after
200 plies counts as a draw, and a draw is not a win.
"""

from __future__ import annotations

import random

from arbiter.players.control import SearchControl
from arbiter.players.level import Level
from arbiter.players.search import AlphaBetaSearch
from arbiter.rules import Color, Game, get_variant

PLY_CAP = 200


def play_match(variant_id: str, games: int, depth: int) -> tuple[int, int, int]:
    """(wins, draws, losses) of alpha-beta at ``depth`` against a seeded random mover."""
    variant = get_variant(variant_id)
    search = AlphaBetaSearch(variant)
    wins = draws = losses = 0
    for index in range(games):
        rng = random.Random(index)
        game = Game(variant)
        search.new_game()
        searcher: Color = variant.first_to_move if index % 2 == 0 else variant.first_to_move.opponent
        while game.end is None and game.ply < PLY_CAP:
            position = game.position
            if position.turn is searcher:
                control = SearchControl.for_level(Level(depth=depth))
                move = search.search(position, game.positions[:-1], control).move
            else:
                move = rng.choice(position.legal_moves())
            game.play(move)
        if game.end is None or game.end.winner is None:
            draws += 1
        elif game.end.winner is searcher:
            wins += 1
        else:
            losses += 1
    return wins, draws, losses


def test_alphabeta_beats_random_in_at_least_95_of_100_english_games() -> None:
    wins, draws, losses = play_match("english", 100, depth=4)
    print(f"english, depth 4, alphabeta vs random: {wins} wins, {draws} draws, {losses} losses")
    assert wins >= 95, (wins, draws, losses)


def test_alphabeta_beats_random_in_international_too() -> None:
    wins, draws, losses = play_match("international", 20, depth=2)
    print(f"international, depth 2, alphabeta vs random: {wins} wins, {draws} draws, {losses} losses")
    assert wins >= 19, (wins, draws, losses)
