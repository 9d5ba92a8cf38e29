"""A game page's boards: the replay reads each Hub text once and makes each board from the one before,
and still shows, ply by ply, the very boards of the rules core, in every variant."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from arbiter.notation.movetext import format_hub, format_pdn
from arbiter.referee.record import GameRecord, MoveRecord, PlayerRecord, Side
from arbiter.report.replay import board_letters, replay
from arbiter.rules import VARIANTS, Position, get_variant


def random_record(variant_id: str, seed: int, plies: int = 120) -> tuple[GameRecord, list[Position]]:
    """A game of random legal moves, recorded as the referee records it, and its positions."""
    variant = get_variant(variant_id)
    chooser = random.Random(seed)
    position = Position.start(variant)
    positions = [position]
    moves = []
    for ply in range(1, plies + 1):
        legal = position.legal_moves()
        if not legal:
            break
        move = chooser.choice(legal)
        moves.append(
            MoveRecord(
                ply=ply,
                side=Side.of(position.turn),
                text=format_pdn(position, move),
                hub=format_hub(move),
            )
        )
        position = position.play(move)
        positions.append(position)
    record = GameRecord(
        variant=variant.id,
        white=PlayerRecord(name="a"),
        black=PlayerRecord(name="b"),
        start_fen=positions[0].fen(),
        time_control="?",
        moves=moves,
        started_at=datetime(2026, 1, 1, tzinfo=UTC),
    )
    return record, positions


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_the_boards_of_a_replay_are_the_rules_cores_boards_after_every_ply(variant_id: str) -> None:
    for seed in range(3):
        record, positions = random_record(variant_id, seed)
        replayed = replay(record)
        assert replayed.fault is None
        assert list(replayed.boards) == [board_letters(position) for position in positions]
        assert list(replayed.positions) == positions
        if any(position.mules for position in positions):
            assert list(replayed.mules) == [tuple(position.mule_squares()) for position in positions]


def test_a_hub_text_that_names_no_legal_move_stops_the_replay_there_whatever_was_read_before() -> None:
    record, _ = random_record("english", seed=5, plies=12)
    replay(record)  # its Hub texts are known now
    moves = list(record.moves)
    moves[6] = moves[6].model_copy(update={"hub": moves[4].hub, "text": moves[4].text})
    replayed = replay(record.model_copy(update={"moves": moves}))
    assert replayed.fault is not None
    assert replayed.fault.startswith(f"ply 7 ({moves[4].text}) does not replay")
    assert len(replayed.boards) == 7
