"""Piece-count scoring (the source rule text's second way of keeping score): the winner scores the
pieces it has left on the board; refused where winning means losing one's pieces."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "store"))

from store_samples import game_for, new_tournament  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from arbiter.cli import app  # noqa: E402
from arbiter.referee.record import (  # noqa: E402
    GameOutcome,
    GameRecord,
    MoveRecord,
    PlayerRecord,
    Side,
    Termination,
    Winner,
)
from arbiter.rules import Position, get_variant  # noqa: E402
from arbiter.store import TournamentStore  # noqa: E402
from arbiter.tournament.piece_scoring import (  # noqa: E402
    PieceScore,
    PieceScoringError,
    piece_points,
    piece_score,
    piece_scoring_refusal,
)
from arbiter.tournament.schedule import TournamentFormat, plan_games  # noqa: E402


def record(variant: str, fen: str, winner: Winner, white: str = "A", black: str = "B") -> GameRecord:
    termination = Termination.AGREEMENT if winner is Winner.DRAW else Termination.RESIGNATION
    outcome = None if winner is Winner.UNFINISHED else GameOutcome.of(winner, termination)
    return GameRecord(
        variant=variant,
        white=PlayerRecord(name=white),
        black=PlayerRecord(name=black),
        start_fen=Position.from_fen(get_variant(variant), fen).fen(),
        time_control="depth=1",
        started_at=datetime(2026, 1, 1, tzinfo=UTC),
        outcome=outcome,
    )


def test_the_winner_scores_its_pieces_left_and_the_loser_nothing() -> None:
    assert piece_score(record("english", "B:W21,22,K30:B1", Winner.WHITE)) == PieceScore(3, 0)
    assert piece_score(record("english", "B:W21,22,K30:B1", Winner.BLACK)) == PieceScore(0, 1)


def test_a_draw_scores_nothing_and_an_unfinished_game_is_not_scored() -> None:
    assert piece_score(record("english", "B:W21:B1", Winner.DRAW)) == PieceScore(0, 0)
    assert piece_score(record("english", "B:W21:B1", Winner.UNFINISHED)) is None


def test_the_pieces_are_counted_where_the_game_ended() -> None:
    # Black's 14 takes 18 (14x23), White's 26 takes it back (26x19): White wins with 19 and 30 left.
    game = record("english", "B:W18,26,30:B14", Winner.WHITE)
    game.moves.append(MoveRecord(ply=1, side=Side.BLACK, text="14x23", hub="14x23x18"))
    game.moves.append(MoveRecord(ply=2, side=Side.WHITE, text="26x19", hub="26x19x23"))
    assert piece_score(game) == PieceScore(2, 0)
    totals = piece_points([game, record("english", "B:W21:B1,2", Winner.BLACK, white="B", black="A")])
    assert totals == {"A": 4, "B": 0}


@pytest.mark.parametrize("variant_id", ["anti", "antidraughts"])
def test_piece_scoring_is_refused_where_the_winner_has_lost_its_pieces(variant_id: str) -> None:
    reason = piece_scoring_refusal(get_variant(variant_id))
    assert reason is not None and reason.startswith(f"piece-count scoring makes no sense for {variant_id}")
    with pytest.raises(PieceScoringError, match="makes no sense"):
        piece_score(
            record(variant_id, "W:W46:B1" if variant_id == "antidraughts" else "B:W21:B1", Winner.WHITE)
        )


def test_standings_command_scores_by_pieces_left(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    planned = plan_games(("A", "B"), TournamentFormat.ROUND_ROBIN, games_per_encounter=2).games
    records = [
        game_for(game, winner, seed=n, plies=10)
        for n, (game, winner) in enumerate(zip(planned, [Winner.WHITE, Winner.DRAW], strict=True))
    ]
    with TournamentStore.open(path) as store:
        tid = new_tournament(store, ("A", "B"))
        for game, played in zip(planned, records, strict=True):
            store.record_game(tid, game, played)
    expected = piece_points(records)
    result = CliRunner().invoke(app, ["standings", str(path), "--scoring", "pieces"])
    assert result.exit_code == 0, result.output
    words = " ".join(result.output.split())
    assert "2 games finished; scoring pieces" in words
    winner = planned[0].white
    assert expected[winner] > 0
    # Rank, player, points (the pieces left), games, wins, draws, losses.
    assert f"│ 1 │ {winner} │ {expected[winner]} │ 2 │ 1 │ 1 │ 0 │" in words
