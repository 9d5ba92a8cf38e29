"""Scan's Hub variants beyond international draughts: killer draughts and breakthrough (``bt``).

No published perft was found for either (Scan has no perft, and the perft threads collected in dctl
cover neither): both move trees are international's from the start until a king captures a king
(killer) or a man is crowned (breakthrough), so their start counts are pinned to international's
published ones, and the rules that differ are pinned by positions. pydraughts plays breakthrough, so
the breakthrough game end is compared with it in seeded random games; no second implementation of
killer was found to compare with.
"""

from __future__ import annotations

import random

import pytest

from arbiter.notation.movetext import parse_pdn
from arbiter.rules import Color, EndReason, Game, Position, get_variant, perft

draughts = pytest.importorskip("draughts", reason="pydraughts is the test-only reference for rules")

INTERNATIONAL_START_COUNTS = [9, 81, 658, 4265, 27117]


def paths(variant_id: str, fen: str) -> set[tuple[int, ...]]:
    return {m.path for m in Position.from_fen(get_variant(variant_id), fen).legal_moves()}


@pytest.mark.parametrize("variant_id", ["killer", "bt"])
def test_scan_variants_start_with_internationals_move_tree(variant_id: str) -> None:
    start = Position.start(get_variant(variant_id))
    assert [perft(start, d) for d in range(1, 6)] == INTERNATIONAL_START_COUNTS


def test_killer_king_capturing_a_king_last_stops_right_behind_it() -> None:
    # The king on 46 takes the man on 28 and then the king on 19: it must stop on 14.
    assert paths("killer", "W:WK46:B28,K19") == {(46, 23, 14)}
    assert paths("international", "W:WK46:B28,K19") == {(46, 23, 14), (46, 23, 10), (46, 23, 5)}


def test_killer_king_whose_last_capture_is_a_man_lands_anywhere_beyond() -> None:
    # The king taken first (28) does not bind; the last piece taken (19) is a man.
    assert paths("killer", "W:WK46:BK28,19") == {(46, 23, 14), (46, 23, 10), (46, 23, 5)}
    assert paths("killer", "W:WK46:BK28") == {(46, 23)}
    assert paths("killer", "W:WK46:B28") == {(46, 23), (46, 19), (46, 14), (46, 10), (46, 5)}


def test_breakthrough_the_first_to_crown_wins() -> None:
    variant = get_variant("bt")
    game = Game(variant, Position.from_fen(variant, "W:W6,40:B45,15"))
    end = game.play(parse_pdn(game.position, "6-1"))
    assert end is not None
    assert (end.winner, end.reason, end.rule, end.ply) == (
        Color.WHITE,
        EndReason.VARIANT_RULE,
        "crowned first",
        1,
    )
    assert game.position.legal_moves() == []  # the game is over: Black has no move
    # White's 6-1, 40-34 and 40-35, each answered by 15-20 and 45-50, except 6-1, which ends the game.
    start = Position.from_fen(variant, "W:W6,40:B45,15")
    assert [perft(start, 1), perft(start, 2)] == [3, 4]


def test_breakthrough_set_up_with_a_king_is_won_by_its_side_at_once() -> None:
    variant = get_variant("bt")
    end = Game(variant, Position.from_fen(variant, "B:WK1,40:B45")).end
    assert end is not None and end.winner is Color.WHITE and end.rule == "crowned first"


def test_breakthrough_game_end_matches_pydraughts_in_random_games() -> None:
    variant = get_variant("bt")
    rng = random.Random(2026)
    crowned = 0
    for _ in range(12):
        game = Game(variant)
        board = draughts.Board(variant="breakthrough", fen=game.position.fen())
        while game.end is None and game.ply < 300:
            ours = {(m.start, m.end, m.captured) for m in game.legal_moves()}
            theirs = {
                (m.steps_move[0], m.steps_move[-1], frozenset(c for c in (m.captures or []) if c))
                for m in board.legal_moves()
            }
            assert ours == theirs, game.position.fen()
            move = rng.choice(sorted(game.legal_moves(), key=lambda m: m.path))
            game.play(move)
            board.push(
                next(
                    m
                    for m in board.legal_moves()
                    if m.steps_move == list(move.path)
                    or (m.steps_move[0], m.steps_move[-1]) == (move.start, move.end)
                    and frozenset(c for c in (m.captures or []) if c) == move.captured
                )
            )
        if game.end is not None and game.end.rule == "crowned first":
            crowned += 1
            assert board.is_over()
            winner = draughts.WHITE if game.end.winner is Color.WHITE else draughts.BLACK
            assert board.winner() == winner
    assert crowned >= 6  # most random games end by a crowning
