"""A game page's boards: the replay reads each Hub text once and makes each board from the one before,
and still shows, ply by ply, the very boards of the rules core, in every variant."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from arbiter.notation.movetext import format_hub, format_pdn
from arbiter.referee.record import (
    EngineInfo,
    GameOutcome,
    GameRecord,
    MoveRecord,
    PlayerRecord,
    Side,
    Termination,
    Winner,
)
from arbiter.report.game_page import GameJob, write_game_page
from arbiter.report.inputs import EventInfo, GameEntry
from arbiter.report.replay import board_letters, played_values, replay
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


def with_engine_lines(record: GameRecord) -> GameRecord:
    """The record with a clock, a time and an engine line on every move, as engines give them."""
    moves = [
        move.model_copy(
            update={
                "elapsed": 0.01 * move.ply,
                "clock": 60.0 - 0.01 * move.ply,
                "info": EngineInfo(depth=move.ply % 9, score=0.25 * (move.ply % 5 - 2), pv=[move.hub]),
            }
        )
        for move in record.moves
    ]
    outcome = GameOutcome.of(Winner.DRAW, Termination.AGREEMENT)
    return record.model_copy(update={"moves": moves, "outcome": outcome})


def page_files(folder: Path, record: GameRecord, played: tuple[int, ...] | None) -> dict[str, bytes]:
    event = EventInfo(
        name="Cup", variant=record.variant, time_control="?", format="match", players=("a", "b")
    )
    game = GameEntry(key="r1-b1-g1", white="a", black="b", record=record, round=1, board=1)
    job = GameJob(event, game, "r1-b1-g1", None, None, {"a": "a", "b": "b"}, False, played)
    write_game_page(folder, job)
    return {path.name: path.read_bytes() for path in (folder / "games").iterdir()}


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_a_game_page_made_from_the_referees_positions_is_the_page_made_by_replaying_the_game(
    variant_id: str, tmp_path: Path
) -> None:
    for seed in range(2):
        record, positions = random_record(variant_id, seed)
        record = with_engine_lines(record)
        played = tuple(value for position in positions for value in played_values(position))
        assert replay(record, played).written
        from_positions = page_files(tmp_path / f"played-{seed}", record, played)
        replayed = page_files(tmp_path / f"replayed-{seed}", record, None)
        assert from_positions == replayed


def test_positions_that_do_not_fit_the_record_are_not_used() -> None:
    record, positions = random_record("english", seed=1, plies=20)
    other, other_positions = random_record("english", seed=2, plies=20)
    played = tuple(value for position in other_positions for value in played_values(position))
    assert not replay(record, played).written
    assert replay(record, played).boards == replay(record).boards
    short = tuple(value for position in positions[:-1] for value in played_values(position))
    assert not replay(record, short).written
