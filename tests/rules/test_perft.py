"""Perft: the move generator counts the published numbers of leaves, and agrees with pydraughts elsewhere.

Convention (VARIANTS.md): two capture sequences with the same start, end and captured set are one move.
"""

from __future__ import annotations

import random

import pytest
from draughts import Board

from arbiter.rules import Position, divide, get_variant, perft

MoveKey = tuple[int, int, frozenset[int]]

PYDRAUGHTS_NAME = {"english": "english", "international": "standard"}

ENGLISH_START_COUNTS = [7, 49, 302, 1469, 7361, 36768, 179740, 845931]
INTERNATIONAL_START_COUNTS = [9, 81, 658, 4265, 27117, 167140]


@pytest.mark.parametrize(
    ("variant_id", "depth", "leaves"),
    [("english", d, n) for d, n in enumerate(ENGLISH_START_COUNTS, start=1)]
    + [("international", d, n) for d, n in enumerate(INTERNATIONAL_START_COUNTS, start=1)],
)
def test_perft_from_the_start_matches_the_published_count(variant_id: str, depth: int, leaves: int) -> None:
    assert perft(Position.start(get_variant(variant_id)), depth) == leaves


def test_perft_at_depth_zero_counts_the_position_itself() -> None:
    assert perft(Position.start(get_variant("english")), 0) == 1


def test_divide_from_the_start_sums_to_perft() -> None:
    start = Position.start(get_variant("international"))
    parts = divide(start, 4)
    assert {m.key for m, _ in parts} == {m.key for m in start.legal_moves()}
    assert sum(n for _, n in parts) == INTERNATIONAL_START_COUNTS[3]


def pydraughts_divide(board: Board, depth: int) -> dict[MoveKey, int]:
    """Leaves under each legal move (one per start, end and captured set), with pydraughts."""
    out: dict[MoveKey, int] = {}
    for key, move in _distinct_moves(board).items():
        board.push(move)
        out[key] = _pydraughts_perft(board, depth - 1)
        board.pop()
    return out


def _distinct_moves(board: Board) -> dict[MoveKey, object]:
    # pydraughts lists one move per capture path; paths with the same identity lead to the same position.
    moves: dict[MoveKey, object] = {}
    for m in board.legal_moves():
        key = (int(m.board_move[0][0]), int(m.board_move[-1][1]), frozenset(int(s) for s in m.captures))
        moves.setdefault(key, m)
    return moves


def _pydraughts_perft(board: Board, depth: int) -> int:
    if depth == 0:
        return 1
    moves = _distinct_moves(board)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves.values():
        board.push(move)
        total += _pydraughts_perft(board, depth - 1)
        board.pop()
    return total


# Middle-game positions, each chosen for a rule it exercises; depths keep pydraughts to about a second.
MIDGAME = [
    pytest.param("english", "B:WK1,21-22,24,26-29,31-32:B2-5,8-9,14,16", 4, id="english-crowded-middle-game"),
    pytest.param("english", "B:WK1,K3,15,18,23-24,29:B16,20,K26", 5, id="english-king-double-jumps"),
    # Black's man 22x31 crowns and the move ends although a king on 31 could jump on over 27.
    pytest.param("english", "B:W18,19,26,27,30,K4:B9,14,22,K23,K12", 6, id="english-crowning-ends-capture"),
    pytest.param(
        "english", "W:WK10,13,18,21,22,25:B6,7,15-16,K28,K30", 5, id="english-man-crowns-by-capture"
    ),
    pytest.param(
        "international",
        "W:W25,29,31,35-37,39-42,44-50:B1-9,11,13,16,18",
        3,
        id="international-crowded-middle-game",
    ),
    # The king on 5 takes three men either by 28 and 39 or by 32 and 43, landing on 25 both ways.
    pytest.param(
        "international",
        "W:WK5,9,11-13,K17,21-22,K26,29,36,42,48,50:BK2,4,14-15,20,30-31,33,38,K49",
        5,
        id="international-same-start-and-end-different-captures",
    ),
    # A flying king's five-piece capture, with two routes through 9 and a choice of landing square.
    pytest.param("international", "B:W13,K14,15,30,32-33,41,46:B6,K35", 5, id="international-king-loops"),
    # White's man 11x2x13x24 passes the crowning row in mid-capture and stays a man.
    pytest.param(
        "international", "W:W11,27,31-35,K46:B7,8,18,19,22,23,K44", 6, id="international-man-passes-row"
    ),
]


@pytest.mark.parametrize(("variant_id", "fen", "depth"), MIDGAME)
def test_divide_matches_pydraughts_in_middle_game_positions(variant_id: str, fen: str, depth: int) -> None:
    position = Position.from_fen(get_variant(variant_id), fen)
    ours = {m.key: n for m, n in divide(position, depth)}
    theirs = pydraughts_divide(Board(PYDRAUGHTS_NAME[variant_id], fen=fen), depth)
    differing = {
        k: (ours.get(k), theirs.get(k)) for k in ours.keys() | theirs.keys() if ours.get(k) != theirs.get(k)
    }
    assert not differing, f"{variant_id} {fen} divide {depth}: move -> (arbiter, pydraughts): {differing}"
    assert perft(position, depth) == sum(theirs.values())


def test_the_chosen_middle_game_positions_show_their_rules() -> None:
    # Guards the comments above: the positions must keep exercising what they were chosen for.
    english = get_variant("english")
    crowning = Position.from_fen(english, "B:W18,19,26,27,30,K4:B9,14,22,K23,K12").legal_moves()
    assert any(m.start == 22 and m.end == 31 and m.crowns and m.captured == {26} for m in crowning)
    international = get_variant("international")
    twins = Position.from_fen(
        international, "W:WK5,9,11-13,K17,21-22,K26,29,36,42,48,50:BK2,4,14-15,20,30-31,33,38,K49"
    ).legal_moves()
    assert {(m.start, m.end) for m in twins} == {(5, 25)}
    assert len({m.captured for m in twins}) == 2
    passing = Position.from_fen(international, "W:W11,27,31-35,K46:B7,8,18,19,22,23,K44").legal_moves()
    assert [(m.path, m.crowns) for m in passing] == [((11, 2, 13, 24), False)]


@pytest.mark.parametrize("variant_id", ["english", "international"])
def test_bulk_counting_agrees_with_listing_the_moves(variant_id: str) -> None:
    # Perft counts the last ply without listing moves; along random games it must equal the listed count.
    variant = get_variant(variant_id)
    rng = random.Random(5)
    checked = 0
    while checked < 400:
        position = Position.start(variant)
        for _ in range(150):
            moves = position.legal_moves()
            assert perft(position, 1) == len(moves), position.fen()
            assert perft(position, 2) == sum(len(position.play(m).legal_moves()) for m in moves), (
                position.fen()
            )
            checked += 1
            if not moves:
                break
            position = position.play(rng.choice(moves))


def test_a_capture_may_end_on_its_start_square_fmjd() -> None:
    # FMJD: the capturing piece may pass its start square again and end there (one of the source
    # rule texts says it may not). The man on 38 takes 32, 22, 23 and 33 and is back on 38.
    position = Position.from_fen(get_variant("international"), "W:W38:B22,23,32,33")
    [move] = position.legal_moves()
    assert move.start == move.end == 38 and move.captured == frozenset({22, 23, 32, 33})
    # English: a king may do the same (11 round 6, 7, 14 and 15).
    [ring] = Position.from_fen(get_variant("english"), "W:WK11:B6,7,14,15").legal_moves()
    assert ring.start == ring.end == 11 and len(ring.captured) == 4


def test_perft_counts_a_capture_once_and_count_paths_once_per_path() -> None:
    # Each ring can be run both ways round: one move, two paths.
    for variant_id, fen in (("international", "W:W38:B22,23,32,33"), ("english", "W:WK11:B6,7,14,15")):
        position = Position.from_fen(get_variant(variant_id), fen)
        assert perft(position, 1) == 1
        assert perft(position, 1, count_paths=True) == 2
        assert perft(position, 2, count_paths=True) == 2 * perft(position, 2)
        assert [n for _, n in divide(position, 2, count_paths=True)] == [2 * perft(position, 2)]


def test_count_paths_agrees_where_no_capture_has_two_paths() -> None:
    start = Position.start(get_variant("english"))
    assert [perft(start, d, count_paths=True) for d in range(1, 7)] == ENGLISH_START_COUNTS[:6]


def test_perft_command_counts_paths_when_asked() -> None:
    from typer.testing import CliRunner

    from arbiter.cli import app

    args = ["perft", "-v", "english", "--fen", "W:WK11:B6,7,14,15", "-d", "1", "--divide"]
    once = CliRunner().invoke(app, args)
    paths = CliRunner().invoke(app, [*args, "--count-paths"])
    assert once.exit_code == paths.exit_code == 0, once.output + paths.output
    assert "total 1 leaves at depth 1" in once.output
    assert "total 2 leaves at depth 1" in paths.output


def test_count_paths_keeps_the_variants_own_move_rules() -> None:
    # Breakthrough: nothing after a crowning; optional capture: the quiet moves beside the ring capture.
    breakthrough = Position.from_fen(get_variant("bt"), "W:W6,40:B45,15")
    assert perft(breakthrough, 2, count_paths=True) == perft(breakthrough, 2) == 4
    ring = Position.from_fen(get_variant("english+optional-capture"), "W:WK11:B6,7,14,15")
    assert (perft(ring, 1), perft(ring, 1, count_paths=True)) == (3, 4)
