"""The arbiter's legal moves agree with pydraughts, an independent implementation, position by position.

Positions come from seeded random legal play: long games from the start position (so kings appear) and
shorter games from random middle-game set-ups with men and kings of both colours. For each position the
two move sets are compared as (start square, end square, captured set); pydraughts lists one move per
capture path, so its list is reduced to that identity first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from draughts import Board
from draughts import Move as PydraughtsMove
from rules_samples import sample_positions

from arbiter.notation.movetext import MoveTextError, format_pdn, parse_hub, parse_pdn
from arbiter.rules import Color, Position, get_variant

MoveKey = tuple[int, int, frozenset[int]]

PYDRAUGHTS_NAME = {"english": "english", "international": "standard"}
POSITIONS_PER_VARIANT = 2000
SEED = {"english": 20240611, "international": 20240612}


def pydraughts_keys(board: Board) -> set[MoveKey]:
    """pydraughts' legal moves of a board, one per (start, end, captured set)."""
    keys: set[MoveKey] = set()
    for move in board.legal_moves():
        steps = move.board_move
        keys.add((int(steps[0][0]), int(steps[-1][1]), frozenset(int(s) for s in move.captures)))
    return keys


def is_king(position: Position, square: int) -> bool:
    piece = position.piece_at(square)
    return piece is not None and piece.is_king


def arbiter_keys(position: Position) -> set[MoveKey]:
    return {m.key for m in position.legal_moves()}


def describe(keys: set[MoveKey]) -> str:
    def text(key: MoveKey) -> str:
        start, end, captured = key
        if not captured:
            return f"{start}-{end}"
        return f"{start}x{end} taking {','.join(str(s) for s in sorted(captured))}"

    return "[" + "; ".join(text(k) for k in sorted(keys, key=lambda k: (k[0], k[1], sorted(k[2])))) + "]"


@dataclass
class Coverage:
    """What the sampled positions exercised, so the comparison cannot pass on trivial positions."""

    positions: int = 0
    with_kings: int = 0
    capture_positions: int = 0
    multi_captures: int = 0  # moves taking two or more pieces
    king_captures: int = 0
    crowning_moves: int = 0
    same_start_and_end: int = 0  # positions where two moves share start and end (different captured sets)
    mismatches: list[str] = field(default_factory=list)


def compare(variant_id: str) -> Coverage:
    variant = get_variant(variant_id)
    cov = Coverage()
    for position in sample_positions(variant, POSITIONS_PER_VARIANT, SEED[variant_id]):
        fen = position.fen()
        ours = arbiter_keys(position)
        theirs = pydraughts_keys(Board(PYDRAUGHTS_NAME[variant_id], fen=fen))
        cov.positions += 1
        if ours != theirs:
            cov.mismatches.append(
                f"{variant_id} {fen}\n"
                f"  arbiter only:   {describe(ours - theirs)}\n"
                f"  pydraughts only: {describe(theirs - ours)}\n"
                f"  arbiter:    {describe(ours)}\n"
                f"  pydraughts: {describe(theirs)}"
            )
        moves = position.legal_moves()
        cov.with_kings += bool(position.kings)
        cov.capture_positions += position.has_capture()
        cov.multi_captures += sum(len(m.captured) >= 2 for m in moves)
        cov.king_captures += sum(m.is_capture and is_king(position, m.start) for m in moves)
        cov.crowning_moves += sum(m.crowns for m in moves)
        ends = [(m.start, m.end) for m in moves]
        cov.same_start_and_end += len(set(ends)) < len(ends)
    return cov


def assert_same_moves(cov: Coverage) -> None:
    shown = "\n".join(cov.mismatches[:5])
    assert not cov.mismatches, (
        f"{len(cov.mismatches)} of {cov.positions} positions have different legal moves "
        f"(moves as start-end, or startxend taking the captured squares):\n{shown}"
    )


def test_english_legal_moves_match_pydraughts_in_random_positions() -> None:
    cov = compare("english")
    assert cov.positions == POSITIONS_PER_VARIANT
    assert_same_moves(cov)
    # The sample must reach the rules that matter, or agreement means little.
    assert cov.with_kings >= 800, cov
    assert cov.capture_positions >= 250, cov
    assert cov.multi_captures >= 50, cov
    assert cov.king_captures >= 80, cov
    assert cov.crowning_moves >= 300, cov


def test_international_legal_moves_match_pydraughts_in_random_positions() -> None:
    cov = compare("international")
    assert cov.positions == POSITIONS_PER_VARIANT
    assert_same_moves(cov)
    assert cov.with_kings >= 500, cov
    assert cov.capture_positions >= 300, cov
    assert cov.multi_captures >= 150, cov
    assert cov.king_captures >= 200, cov
    assert cov.crowning_moves >= 150, cov


def test_start_position_fen_means_the_same_in_both() -> None:
    # English: Black (squares 1-12) moves first; international: White (31-50) moves first.
    english = get_variant("english")
    assert Position.from_fen(english, "B:W21-32:B1-12") == Position.start(english)
    assert Position.from_fen(english, Board("english").fen) == Position.start(english)
    assert Position.from_fen(english, Board("english", fen="B:W21-32:B1-12").fen) == Position.start(english)
    international = get_variant("international")
    assert Position.from_fen(international, Board("standard").fen) == Position.start(international)
    assert Position.start(english).turn is Color.BLACK
    assert Position.start(international).turn is Color.WHITE


def play_side_by_side(variant_id: str, seed: int, games: int, max_plies: int) -> int:
    """Play the same random moves in both libraries; the positions must stay the same. Returns plies."""
    variant = get_variant(variant_id)
    rng = random.Random(seed)
    plies = 0
    for game in range(games):
        ours = Position.start(variant)
        board = Board(PYDRAUGHTS_NAME[variant_id])
        for ply in range(max_plies):
            theirs = Position.from_fen(variant, board.fen)
            assert theirs == ours, (
                f"{variant_id} game {game} ply {ply}: pydraughts reached {board.fen}, arbiter {ours.fen()}"
            )
            moves = ours.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            same = [
                m
                for m in board.legal_moves()
                if (m.board_move[0][0], m.board_move[-1][1], frozenset(m.captures)) == move.key
            ]
            assert same, f"{variant_id} {ours.fen()}: pydraughts has no move {move.key}"
            board.push(same[0])
            ours = ours.play(move)
            plies += 1
    return plies


def test_english_moves_lead_to_the_same_positions_as_pydraughts() -> None:
    # Checks how moves are applied (captured men removed, crowning) and that both write FEN alike.
    assert play_side_by_side("english", seed=7, games=4, max_plies=150) >= 200


def test_international_moves_lead_to_the_same_positions_as_pydraughts() -> None:
    assert play_side_by_side("international", seed=8, games=3, max_plies=200) >= 200


@pytest.mark.parametrize("variant_id", ["english", "international"])
def test_move_text_is_read_alike_by_both(variant_id: str) -> None:
    # Each library reads the other's PDN and Hub text as the same move, including pydraughts' full
    # capture paths, whose landing squares may differ from the path the arbiter keeps for that move.
    variant = get_variant(variant_id)
    problems: list[str] = []
    checked = 0
    for position in sample_positions(variant, 800, SEED[variant_id] + 1):
        fen = position.fen()
        board = Board(PYDRAUGHTS_NAME[variant_id], fen=fen)
        listed = board.legal_moves()
        for theirs in listed:
            key = (int(theirs.board_move[0][0]), int(theirs.board_move[-1][1]), frozenset(theirs.captures))
            texts = [
                (parse_pdn, theirs.pdn_move),
                (parse_pdn, "x".join(str(s) for s in theirs.steps_move)),
                (parse_hub, theirs.hub_move),
            ]
            for parse, text in texts:
                checked += 1
                try:
                    got = parse(position, text).key
                except MoveTextError as error:
                    problems.append(f"{variant_id} {fen}: arbiter cannot read pydraughts' {text!r}: {error}")
                    continue
                if got != key:
                    problems.append(f"{variant_id} {fen}: arbiter reads {text!r} as {describe({got})}")
        for ours in position.legal_moves() if listed else []:
            text = format_pdn(position, ours)
            checked += 1
            # Handing over the listed moves spares pydraughts generating them again for each text.
            read = PydraughtsMove(
                pdn_move=text,
                possible_moves=listed[0].possible_moves,
                possible_captures=listed[0].possible_captures,
                variant=board.variant,
            )
            got = (int(read.board_move[0][0]), int(read.board_move[-1][1]), frozenset(read.captures))
            if got != ours.key:
                problems.append(
                    f"{variant_id} {fen}: pydraughts reads arbiter's {text!r} as {describe({got})}"
                )
    assert checked >= 5000
    assert not problems, f"{len(problems)} of {checked} move texts are read differently:\n" + "\n".join(
        problems[:5]
    )
