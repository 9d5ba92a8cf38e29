"""The adapter's translations, without a library: squares to CheckerBoard cells, levels to getmove's
time arguments, boards back to moves."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from arbiter.engines.checkerboard.adapter import replay
from arbiter.engines.checkerboard.api import EXACT_TIME
from arbiter.engines.checkerboard.board import BoardMap
from arbiter.engines.checkerboard.decode import decode
from arbiter.engines.checkerboard.games import variants_for
from arbiter.engines.checkerboard.timing import increment_fields, reserve, time_args
from arbiter.rules import Position, get_variant


def cb_default_cell(square: int) -> tuple[int, int]:
    """CheckerBoard's own numbering for English, Russian and Brazilian (its numbertocoors)."""
    y = (square - 1) // 4
    return 2 * (3 - (square - 1) % 4) + (y & 1), y


def cb_italian_cell(square: int) -> tuple[int, int]:
    y = (square - 1) // 4
    return 2 * ((square - 1) % 4) + (y & 1), y


@pytest.mark.parametrize("variant", ["english", "russian", "brazilian", "pool"])
def test_square_numbers_land_on_checkerboard_s_cells(variant: str) -> None:
    cells = BoardMap.of(get_variant(variant))
    assert [cells.cells[n] for n in range(1, 33)] == [cb_default_cell(n) for n in range(1, 33)]
    assert cells.cells[1] == (6, 0) and cells.cells[4] == (0, 0) and cells.cells[32] == (1, 7)


def test_italian_squares_use_checkerboard_s_italian_layout() -> None:
    cells = BoardMap.of(get_variant("italian"))
    assert [cells.cells[n] for n in range(1, 33)] == [cb_italian_cell(n) for n in range(1, 33)]


@pytest.mark.parametrize("variant", ["english", "russian", "italian"])
def test_the_start_has_black_on_rows_0_to_2_and_white_on_5_to_7(variant: str) -> None:
    board = BoardMap.of(get_variant(variant)).board(Position.start(get_variant(variant)))
    black = {y for x in range(8) for y in range(8) if board[x][y] == 6}
    white = {y for x in range(8) for y in range(8) if board[x][y] == 5}
    assert black == {0, 1, 2} and white == {5, 6, 7}
    assert all((x + y) % 2 == 0 for x in range(8) for y in range(8) if board[x][y])


def test_a_board_with_all_squares_or_ten_columns_is_refused() -> None:
    for variant in ("turkish", "international"):
        with pytest.raises(ValueError, match="8x8"):
            BoardMap.of(get_variant(variant))


def test_game_types_offer_the_arbiter_s_variants_with_their_options() -> None:
    assert variants_for(21) == ["english", "english+iyt-draws"]
    assert variants_for(25) == ["russian"]
    assert variants_for(26) == ["brazilian", "brazilian+no-endgame-rules"]
    assert variants_for(22) == ["italian"]
    assert variants_for(24) == [] and variants_for(30) == []


def test_a_fixed_time_per_move_is_exact_and_watched_a_little_before_the_limit() -> None:
    args = time_args({"move-time": "2"})
    assert args.info == EXACT_TIME and args.moreinfo == 0
    assert args.maxtime == pytest.approx(2 - reserve(2)) and args.watchdog == pytest.approx(
        2 - reserve(2) / 2
    )
    assert args.maxtime < args.watchdog < 2


def test_the_reserve_has_a_floor_for_short_limits_grows_with_the_limit_and_has_a_ceiling() -> None:
    assert reserve(0.05) == pytest.approx(0.025), "never more than half a very short limit"
    assert reserve(0.1) == pytest.approx(0.05)
    assert reserve(0.3) == pytest.approx(0.11), "80 ms and a tenth: 0.3 s leaves the engine 0.19 s"
    assert reserve(1.0) == pytest.approx(0.18)
    assert reserve(4.2) == pytest.approx(0.5)
    assert reserve(3600) == pytest.approx(0.5)
    short = time_args({"move-time": "0.3"})
    assert short.maxtime == pytest.approx(0.19) and short.watchdog == pytest.approx(0.245)


def test_moves_in_a_period_become_a_fixed_exact_time_per_move() -> None:
    args = time_args({"moves": "30", "time": "3600", "inc": "0"})
    assert args.info == EXACT_TIME and args.maxtime == pytest.approx((3600 - 0.5) / 30)
    assert args.watchdog == pytest.approx(3600 - 0.25)
    jump = time_args({"moves": "1", "time": "0.6", "inc": "0"})
    assert jump.maxtime == pytest.approx(0.6 - 0.14)
    with_increment = time_args({"moves": "2", "time": "9", "inc": "1"})
    assert with_increment.maxtime == pytest.approx((10 - 0.5) / 2)


def test_a_fischer_clock_fills_the_incremental_fields_in_the_finest_unit() -> None:
    args = time_args({"time": "10", "inc": "1"})
    assert args.info == 1 << 2 and args.moreinfo == 10000 << 16 | 1000
    # Hub's time is before the increment, added before the move: the move may take 11 s.
    assert args.maxtime == pytest.approx(2.0) and args.watchdog == pytest.approx(11 - 0.25)
    assert increment_fields(100, 5) == (2 << 2, 10000 << 16 | 500)
    assert increment_fields(3600, 30) == (3 << 2, 36000 << 16 | 300)
    assert increment_fields(100000, 0) == (3 << 2, 0xFFFF << 16), "beyond 16 bits it says the most it can"


def test_depth_and_nodes_have_no_checkerboard_form_and_say_so() -> None:
    for fields in ({"depth": "8"}, {"nodes": "1000"}):
        args = time_args(fields)
        assert args.maxtime == 1.0 and args.watchdog is None and args.note is not None
    assert time_args({}, frozenset({"infinite"})).watchdog is None


def test_the_returned_board_is_decoded_into_the_move_that_leads_to_it() -> None:
    variant = get_variant("english")
    cells = BoardMap.of(variant)
    start = Position.start(variant)
    for move in start.legal_moves():
        decoded = decode(start, cells.board(start.play(move)), None, cells)
        assert decoded.board is None and decoded.move == f"{move.start}-{move.end}"


def test_a_capture_is_decoded_with_its_captured_squares() -> None:
    variant = get_variant("russian")
    cells = BoardMap.of(variant)
    position = Position.from_fen(variant, "W:Wc3:Bd4,f6")
    [move] = position.legal_moves()
    decoded = decode(position, cells.board(position.play(move)), None, cells)
    assert decoded.move == "x".join(str(n) for n in (move.start, move.end, *sorted(move.captured)))


def test_a_board_no_legal_move_leads_to_is_shown_as_a_fen() -> None:
    variant = get_variant("english")
    cells = BoardMap.of(variant)
    start = Position.start(variant)
    grid = [list(column) for column in cells.board(start)]
    grid[6][0] = 0  # square 1 emptied: a black man vanished
    grid[3][3] = 3  # a value that is no piece, on the dark cell of square 15
    grid[0][1] = 6  # a black man on a light cell
    decoded = decode(start, tuple(tuple(column) for column in grid), None, cells)
    assert decoded.board is not None
    assert decoded.board.startswith("W:W21,22,23,24,25,26,27,28,29,30,31,32:B2,3,")
    assert "square 15 holds 3" in decoded.board and "light cell (0,1) holds 6" in decoded.board
    assert decoded.move == "1-15", "the squares it left and reached, as well as they can be told"


def test_picking_up_from_the_last_search_gives_what_replaying_from_scratch_gives() -> None:
    variant = get_variant("english")
    chooser = random.Random(7)
    kings_seen = 0
    for _game in range(20):
        position = Position.start(variant)
        base, since, last = position.hub(), list[str](), None
        for _ply in range(120):
            legal = position.legal_moves()
            if not legal:
                break
            picked_up = replay(variant, base, since, last)
            fresh = replay(variant, base, since)
            assert picked_up.position == fresh.position == position
            assert picked_up.history == fresh.history
            last = picked_up
            move = chooser.choice(legal)
            piece = position.piece_at(move.start)
            position = position.play(move)
            if move.captured or piece is None or not piece.is_king:
                base, since = position.hub(), []
            else:
                kings_seen += 1
                since.append(f"{move.start}-{move.end}")
    assert kings_seen > 20, "the games reached runs of king moves"


def test_only_the_adapter_program_reads_the_rules_the_engine_layer_does_not() -> None:
    probe = "import sys, arbiter.engines; print('arbiter.rules' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
