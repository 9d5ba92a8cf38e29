"""Scripted games for the draw-rule tests: moves by text, and quiet king moves chosen so no capture arises."""

from __future__ import annotations

from rules_samples import move_order

from arbiter.notation.movetext import parse_pdn
from arbiter.rules import Game, Move, Position, RuleCounter, get_variant


def game_from(variant_id: str, fen: str) -> Game:
    variant = get_variant(variant_id)
    return Game(variant, Position.from_fen(variant, fen))


def play(game: Game, *texts: str) -> None:
    for text in texts:
        assert game.end is None, f"game ended early at ply {game.ply}: {game.end}"
        game.play(parse_pdn(game.position, text))


def counter(game: Game, rule: str) -> RuleCounter:
    return next(c for c in game.counters() if c.rule == rule)


def is_king_move(position: Position, move: Move) -> bool:
    piece = position.piece_at(move.start)
    return piece is not None and piece.is_king


def play_quiet_king_moves(game: Game, plies: int) -> None:
    """Play ``plies`` king moves after none of which the side to move has a capture, and with no
    position seen a third time: so only a move-count rule can end the game meanwhile.

    The moves are found by a depth-first search in square order (backing up from dead ends), so a
    game depends only on the rules. Rules on earlier moves (Frisian's king limit) are not looked at:
    use it where they do not apply.
    """
    seen: dict[Position, int] = {}
    for position in game.positions:
        seen[position] = seen.get(position, 0) + 1
    budget = [20_000]

    def search(position: Position, left: int) -> list[Move] | None:
        if left == 0:
            return []
        budget[0] -= 1
        assert budget[0] > 0, f"no line of {plies} quiet king moves from {game.position.fen()}"
        for move in sorted(position.legal_moves(), key=move_order):
            if move.is_capture or not is_king_move(position, move):
                continue
            after = position.play(move)
            if after.has_capture() or seen.get(after, 0) >= 2:
                continue
            seen[after] = seen.get(after, 0) + 1
            rest = search(after, left - 1)
            seen[after] -= 1
            if rest is not None:
                return [move, *rest]
        return None

    assert game.end is None, f"the game is over: {game.end}"
    line = search(game.position, plies)
    assert line is not None, f"no line of {plies} quiet king moves from {game.position.fen()}"
    for move in line:
        assert game.end is None, f"game ended early at ply {game.ply}: {game.end}"
        game.play(move)


def play_quiet_man_move(game: Game) -> None:
    """Play a man move of the side to move that neither captures nor crowns and leaves the opponent no
    capture (the first such in square order): it resets the king-only counts and changes nothing else."""
    position = game.position
    for move in sorted(game.legal_moves(), key=move_order):
        if move.is_capture or move.crowns or is_king_move(position, move):
            continue
        if not position.play(move).has_capture():
            game.play(move)
            return
    raise AssertionError(f"no quiet man move in {position.fen()}")
