"""The alpha-beta search and its evaluation, called in-process."""

from __future__ import annotations

import pytest

from arbiter.notation.movetext import format_hub, parse_hub
from arbiter.players.control import SearchControl
from arbiter.players.evaluation import Evaluator
from arbiter.players.level import Level
from arbiter.players.search import MATE_BOUND, AlphaBetaSearch, Iteration, SearchResult
from arbiter.rules import VARIANTS, Position, get_variant


def search(
    position: Position, level: Level, history: list[Position] | None = None
) -> tuple[SearchResult, list[Iteration]]:
    seen: list[Iteration] = []
    result = AlphaBetaSearch(position.variant).search(
        position, history or [], SearchControl.for_level(level), seen.append
    )
    return result, seen


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_the_symmetric_start_position_evaluates_level(variant_id: str) -> None:
    start = Position.start(get_variant(variant_id))
    evaluator = Evaluator(start.variant)
    assert evaluator.evaluate(start.white, start.black, start.kings, int(start.turn)) == 0


@pytest.mark.parametrize("fen", ["W:W21,K30:B3,7,K12", "B:WK5,6:B24,27,28"])
def test_evaluation_is_from_the_side_to_move(fen: str) -> None:
    p = Position.from_fen(get_variant("english"), fen)
    evaluator = Evaluator(p.variant)
    assert evaluator.evaluate(p.white, p.black, p.kings, 0) == -evaluator.evaluate(
        p.white, p.black, p.kings, 1
    )


def test_a_king_is_worth_more_than_a_man() -> None:
    variant = get_variant("english")
    evaluator = Evaluator(variant)
    king = Position.from_fen(variant, "W:WK22:B5")
    man = Position.from_fen(variant, "W:W22:B5")
    score_king = evaluator.evaluate(king.white, king.black, king.kings, 0)
    score_man = evaluator.evaluate(man.white, man.black, man.kings, 0)
    assert score_king > score_man


@pytest.mark.parametrize("depth", [1, 3, 5])
def test_a_depth_level_completes_exactly_that_many_iterations(depth: int) -> None:
    result, seen = search(Position.start(get_variant("english")), Level(depth=depth))
    assert [i.depth for i in seen] == list(range(1, depth + 1))
    assert result.depth == depth


def test_a_node_level_stops_the_search_at_that_many_nodes() -> None:
    position = Position.start(get_variant("international"))
    result, _ = search(position, Level(nodes=1000))
    assert result.nodes <= 1000
    assert result.move in position.legal_moves()


def test_a_search_stopped_before_it_starts_still_returns_a_legal_move() -> None:
    position = Position.start(get_variant("international"))
    control = SearchControl.for_level(Level(infinite=True))
    control.stop()
    result = AlphaBetaSearch(position.variant).search(position, [], control)
    assert result.move in position.legal_moves()


def test_the_search_finds_the_quiet_move_that_leaves_the_opponent_without_a_move() -> None:
    # Black to move: 21-25 blocks White's last man (its capture over 25 would land on 22, occupied).
    variant = get_variant("english")
    position = Position.from_fen(variant, "B:W29:B21,22")
    assert len(position.legal_moves()) > 1
    result, _ = search(position, Level(depth=3))
    assert format_hub(result.move) == "21-25"
    assert result.score > MATE_BOUND


def test_the_search_sees_a_forced_loss() -> None:
    variant = get_variant("english")
    result, _ = search(Position.from_fen(variant, "B:WK18,K19,K27:B1"), Level(depth=4))
    assert result.score < -MATE_BOUND


def test_a_move_back_to_an_earlier_position_of_the_game_scores_as_a_draw() -> None:
    # White, a king down, can return to a position seen before: the search takes that draw.
    variant = get_variant("english")
    position = Position.from_fen(variant, "W:WK18:BK3,K4")
    earlier = position.play(parse_hub(position, "18-14"))
    without, _ = search(position, Level(depth=2))
    with_history, _ = search(position, Level(depth=2), history=[earlier])
    assert without.score < 0
    assert with_history.score == 0
    assert format_hub(with_history.move) == "18-14"


def test_searching_a_long_repetitive_game_history_works() -> None:
    variant = get_variant("international")
    position = Position.from_fen(variant, "W:WK47:BK4")
    history: list[Position] = []
    for _ in range(40):  # the two kings wander without ever offering a capture
        safe = [m for m in position.legal_moves() if not position.play(m).has_capture()]
        history.append(position)
        position = position.play(safe[0])
    assert len(set(history)) < len(history)  # positions did repeat
    result, seen = search(position, Level(depth=6), history)
    assert result.move in position.legal_moves()
    assert seen


def test_the_transposition_table_is_kept_between_moves_and_cleared_for_a_new_game() -> None:
    variant = get_variant("english")
    engine = AlphaBetaSearch(variant)
    position = Position.start(variant)
    engine.search(position, [], SearchControl.for_level(Level(depth=4)))
    assert engine.table
    engine.new_game()
    assert not engine.table


def test_a_search_refuses_a_position_of_another_variant() -> None:
    engine = AlphaBetaSearch(get_variant("english"))
    with pytest.raises(ValueError, match="international"):
        engine.search(
            Position.start(get_variant("international")), [], SearchControl.for_level(Level(depth=1))
        )


def test_a_new_game_leaves_a_full_table_to_be_freed_in_slices_while_idle() -> None:
    search = AlphaBetaSearch(get_variant("english"))
    full = {(n, n, n, n, 0): (1, 0, 0, None) for n in range(25_000)}
    search.table = full  # type: ignore[assignment]
    search.new_game()
    assert search.table == {} and len(full) == 25_000  # nothing freed where go may follow at once
    slices = 0
    while search.tidy():
        slices += 1
    assert full == {} and slices == 2  # 10,000 entries, 10,000, then the last 5,000
