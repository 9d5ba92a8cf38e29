"""The game record: JSON round trip, results by colour and in PDN, consistency checks."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import pytest
from pydantic import ValidationError

from arbiter.referee.record import (
    EngineInfo,
    GameOutcome,
    GameRecord,
    MoveRecord,
    OpeningRecord,
    PlayerRecord,
    Side,
    Termination,
    Winner,
    allowed_winners,
    pdn_result,
    winner_from_pdn,
)
from arbiter.rules.geometry import Color

START = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def english_game() -> GameRecord:
    """A short English game from the ACF ballot, Black (the first mover) winning on time."""
    return GameRecord(
        variant="english",
        white=PlayerRecord(
            name="Greedy",
            engine_id="greedy",
            identity={"name": "greedy", "version": "1.0", "author": "arbiter"},
        ),
        black=PlayerRecord(name="Alpha-beta 4", engine_id="alphabeta-4"),
        start_fen="B:W21-32:B1-12",
        opening=OpeningRecord(name="Old Fourteenth", acf_number=7, moves=["11-15", "23-19", "8-11"]),
        time_control="acf scale=0.01",
        moves=[
            MoveRecord(ply=1, side=Side.BLACK, text="11-15", hub="11-15", from_opening=True),
            MoveRecord(ply=2, side=Side.WHITE, text="23-19", hub="23-19", from_opening=True),
            MoveRecord(ply=3, side=Side.BLACK, text="8-11", hub="8-11", from_opening=True),
            MoveRecord(
                ply=4,
                side=Side.WHITE,
                text="22-17",
                hub="22-17",
                elapsed=0.42,
                clock=35.58,
                info=EngineInfo(
                    depth=7, score=-0.25, nodes=12345, time=0.4, nps=30862.5, pv=["22-17", "15x22"]
                ),
            ),
            MoveRecord(
                ply=5,
                side=Side.BLACK,
                text="15x22",
                hub="15x22x18",
                elapsed=0.75,
                clock=35.25,
                warnings=["Time"],
                draw_offered=True,
                info=EngineInfo(depth=9, extra={"mean-depth": "8.5", "hashfull": "12"}),
            ),
        ],
        outcome=GameOutcome.of(Winner.BLACK, Termination.TIME_FORFEIT),
        started_at=START,
        ended_at=START + timedelta(seconds=40),
        warnings=["White wrote to stderr: hash table too small"],
        tags={"Event": "Test match", "Round": "1"},
    )


def test_a_full_record_survives_a_json_round_trip() -> None:
    record = english_game()
    text = record.to_json(indent=2)
    again = GameRecord.from_json(text)
    assert again == record
    assert again.to_json(indent=2) == text


def test_the_json_names_plies_result_and_termination_plainly() -> None:
    saved = json.loads(english_game().to_json())
    assert saved["plies"] == 5
    assert saved["outcome"]["winner"] == "black"
    assert saved["outcome"]["termination"] == "time_forfeit"
    assert saved["outcome"]["reason"] == "Black wins: loss on time"
    assert saved["moves"][4]["side"] == "black"
    assert saved["moves"][4]["warnings"] == ["Time"]
    assert saved["started_at"] == "2024-05-01T12:00:00Z"


def test_plies_count_the_recorded_moves() -> None:
    record = english_game()
    assert record.plies == 5
    record.moves.append(MoveRecord(ply=6, side=Side.WHITE, text="24x15", hub="24x15x19"))
    assert record.plies == 6


def test_saved_plies_must_agree_with_the_moves() -> None:
    saved = json.loads(english_game().to_json())
    saved["plies"] = 4
    with pytest.raises(ValidationError, match="plies is 4 but 5 moves are recorded"):
        GameRecord.model_validate(saved)


def test_moves_must_be_numbered_in_order() -> None:
    saved = json.loads(english_game().to_json())
    saved["moves"][3]["ply"] = 7
    with pytest.raises(ValidationError, match=r"move 4 \(22-17\) is numbered ply 7"):
        GameRecord.model_validate(saved)


def test_sides_must_alternate() -> None:
    saved = json.loads(english_game().to_json())
    saved["moves"][4]["side"] = "white"
    with pytest.raises(ValidationError, match=r"ply 5 \(15x22\): white moved twice in a row"):
        GameRecord.model_validate(saved)


def test_timestamps_need_a_time_zone_and_an_order() -> None:
    saved: dict[str, Any] = json.loads(english_game().to_json())
    with pytest.raises(ValidationError, match="timezone"):
        GameRecord.model_validate({**saved, "started_at": "2024-05-01T12:00:00"})
    with pytest.raises(ValidationError, match="ends before it starts"):
        GameRecord.model_validate({**saved, "ended_at": "2024-05-01T11:00:00Z"})


def test_unknown_keys_are_rejected() -> None:
    saved = json.loads(english_game().to_json())
    saved["moves"][0]["seconds"] = 1.0
    with pytest.raises(ValidationError, match="seconds"):
        GameRecord.model_validate(saved)


def test_a_game_in_progress_is_unfinished() -> None:
    record = english_game().model_copy(update={"outcome": None, "ended_at": None})
    assert record.winner is Winner.UNFINISHED
    assert record.pdn_result(Color.BLACK) == "*"
    assert GameRecord.from_json(record.to_json()) == record


# Results in PDN: the side that moves first is named first.


def test_in_english_one_nil_means_black_the_first_mover_won() -> None:
    assert pdn_result(Winner.BLACK, first_mover=Color.BLACK) == "1-0"
    assert pdn_result(Winner.WHITE, first_mover=Color.BLACK) == "0-1"
    assert english_game().pdn_result(Color.BLACK) == "1-0"


def test_in_international_one_nil_means_white_won() -> None:
    assert pdn_result(Winner.WHITE, first_mover=Color.WHITE) == "1-0"
    assert pdn_result(Winner.BLACK, first_mover=Side.WHITE) == "0-1"


def test_draws_and_unfinished_games_in_pdn() -> None:
    assert pdn_result(Winner.DRAW, Color.WHITE) == "1/2-1/2"
    assert pdn_result(Winner.UNFINISHED, Color.BLACK) == "*"


def test_international_two_point_scoring() -> None:
    assert pdn_result(Winner.WHITE, Color.WHITE, points_per_win=2) == "2-0"
    assert pdn_result(Winner.BLACK, Color.WHITE, points_per_win=2) == "0-2"
    assert pdn_result(Winner.DRAW, Color.WHITE, points_per_win=2) == "1-1"


@pytest.mark.parametrize("first_mover", [Color.WHITE, Color.BLACK])
@pytest.mark.parametrize("winner", list(Winner))
@pytest.mark.parametrize("points", [1, 2])
def test_pdn_results_read_back(first_mover: Color, winner: Winner, points: Literal[1, 2]) -> None:
    text = pdn_result(winner, first_mover, points_per_win=points)
    assert winner_from_pdn(text, first_mover) is winner


def test_unknown_pdn_result_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown PDN result '1-2'"):
        winner_from_pdn("1-2", Color.WHITE)


def test_sides_and_rules_colours_convert_both_ways() -> None:
    assert Side.of(Color.WHITE) is Side.WHITE
    assert Side.of(Color.BLACK).color is Color.BLACK
    assert Side.WHITE.opponent is Side.BLACK
    assert Winner.side(Color.BLACK) is Winner.BLACK
    assert english_game().player(Color.WHITE).name == "Greedy"


# Outcomes.


@pytest.mark.parametrize(
    ("winner", "termination", "rule", "reason"),
    [
        (Winner.DRAW, Termination.REPETITION, None, "Draw: repetition of position"),
        (Winner.DRAW, Termination.MOVE_COUNT_RULE, "40-move", "Draw: move-count rule (40-move)"),
        (Winner.WHITE, Termination.NO_LEGAL_MOVES, None, "White wins: no legal move"),
        (
            Winner.BLACK,
            Termination.IMPROPER_DELAY,
            None,
            "Black wins: improper delay after Time was called on a jump",
        ),
        (Winner.UNFINISHED, Termination.ABANDONED, None, "Unfinished: game abandoned"),
    ],
)
def test_default_reason_in_words(
    winner: Winner, termination: Termination, rule: str | None, reason: str
) -> None:
    assert GameOutcome.of(winner, termination, rule).reason == reason


def test_the_referee_can_give_its_own_words() -> None:
    outcome = GameOutcome.of(Winner.WHITE, Termination.CRASH, reason="Black's engine exited with code 139")
    assert outcome.reason == "Black's engine exited with code 139"


@pytest.mark.parametrize(
    ("winner", "termination"),
    [
        (Winner.WHITE, Termination.REPETITION),
        (Winner.BLACK, Termination.AGREEMENT),
        (Winner.DRAW, Termination.TIME_FORFEIT),
        (Winner.DRAW, Termination.CRASH),
        (Winner.UNFINISHED, Termination.RESIGNATION),
        (Winner.WHITE, Termination.ABANDONED),
    ],
)
def test_a_termination_cannot_have_a_result_it_never_gives(winner: Winner, termination: Termination) -> None:
    with pytest.raises(ValidationError, match=f"ended by {termination} cannot have result {winner}"):
        GameOutcome.of(winner, termination)


def test_a_move_count_draw_says_which_rule() -> None:
    with pytest.raises(ValidationError, match="must say which rule"):
        GameOutcome.of(Winner.DRAW, Termination.MOVE_COUNT_RULE)


def test_every_termination_has_words_and_at_least_one_result() -> None:
    for termination in Termination:
        assert termination.phrase()
        assert allowed_winners(termination)


def test_variant_rules_and_start_failures_allow_several_results() -> None:
    assert allowed_winners(Termination.VARIANT_RULE) == {Winner.WHITE, Winner.BLACK, Winner.DRAW}
    assert Winner.UNFINISHED in allowed_winners(Termination.START_FAILURE)


# Engine info.


def test_engine_info_from_hub_fields_keeps_what_it_does_not_know() -> None:
    info = EngineInfo.from_fields(
        {
            "depth": "12",
            "mean-depth": "10.41",
            "score": "0.13",
            "nodes": "1048576",
            "time": "0.52",
            "nps": "2016492.3",
            "pv": "32-28 19-23 28x19",
            "hashfull": None,
        }
    )
    assert info.depth == 12
    assert info.score == 0.13
    assert info.nodes == 1048576
    assert info.time == 0.52
    assert info.nps == 2016492.3
    assert info.pv == ["32-28", "19-23", "28x19"]
    assert info.extra == {"mean-depth": "10.41", "hashfull": ""}


def test_engine_info_that_is_not_a_number_is_kept_as_text() -> None:
    info = EngineInfo.from_fields({"depth": "12/20", "score": "mate3"})
    assert info.depth is None
    assert info.score is None
    assert info.extra == {"depth": "12/20", "score": "mate3"}


@pytest.mark.parametrize("move", english_game().moves, ids=lambda move: f"ply {move.ply}")
def test_a_move_record_the_referee_makes_without_validation_is_the_validated_one(move: MoveRecord) -> None:
    values = {**move.model_dump(), "side": move.side, "info": move.info}
    validated = MoveRecord(**values)  # every field given, as the referee gave them
    trusted = MoveRecord.trusted(**values)
    assert trusted == validated == move
    assert trusted.model_dump_json() == validated.model_dump_json()
    assert trusted.model_fields_set == validated.model_fields_set
    assert MoveRecord.model_validate_json(trusted.model_dump_json()) == move
