"""Turning a game record into table rows and back, without losing anything on the way."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

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
)
from arbiter.store.errors import StoredGameUnreadableError
from arbiter.store.records import GameKey, ScheduledGame

if TYPE_CHECKING:
    # Only named in annotations: a running match writes and reads rows without the ORM, as plain rows
    # that name the same columns (`arbiter.store.run_store`).
    from arbiter.store.tables import GameRow

MOVE_COLUMNS = (
    "ply", "side", "text", "hub", "from_opening", "elapsed", "clock", "warnings", "draw_offered",
    "has_info", "depth", "score", "nodes", "info_time", "nps", "pv", "info_extra",
)  # fmt: skip
MoveValues = tuple[Any, ...]
"""A move's row: the values of `MOVE_COLUMNS`, in that order."""


def dump_json(value: Any) -> str | None:
    """Compact JSON text, or None for an empty list or dictionary (stored as NULL)."""
    if value is None or (isinstance(value, list | dict) and not value):
        return None
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def load_list(text: str | None) -> list[Any]:
    """A list stored as JSON (NULL: empty). Raises ValueError for JSON that is not a list."""
    if text is None:
        return []
    value = json.loads(text)
    if not isinstance(value, list):
        raise ValueError(f"a list was expected, not {_preview(text)}")
    return value


def _finite(value: float | None, key: str, extra: dict[str, Any]) -> float | None:
    """An engine's real as stored, or None for one that is not finite (``inf`` stored before such values
    were kept as text): then its text joins the fields kept as text, as it is kept now."""
    if value is None or math.isfinite(value):
        return value
    extra.setdefault(key, str(value))
    return None


def load_dict(text: str | None) -> dict[str, Any]:
    """A dictionary stored as JSON (NULL: empty). Raises ValueError for JSON that is not an object."""
    if text is None:
        return {}
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"a dictionary was expected, not {_preview(text)}")
    return value


def _preview(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:40] + "...")


def game_columns(tournament_id: int, planned: ScheduledGame, record: GameRecord) -> dict[str, Any]:
    """The game table's values for `record`, stored as the planned game `planned`."""
    outcome = record.outcome
    return {
        "tournament_id": tournament_id,
        "game_key": str(planned.key),
        "round": planned.key.round,
        "board": planned.key.board,
        "game_number": planned.key.game,
        "cycle": planned.cycle,
        "pair_index": planned.pair_index,
        "white": record.white.name,
        "black": record.black.name,
        "white_engine_id": record.white.engine_id,
        "black_engine_id": record.black.engine_id,
        "white_identity": dump_json(record.white.identity),
        "black_identity": dump_json(record.black.identity),
        "variant": record.variant,
        "time_control": record.time_control,
        "start_fen": record.start_fen,
        "opening_id": planned.opening.id if planned.opening is not None else None,
        "opening_index": planned.opening_index,
        "opening": None if record.opening is None else json.dumps(record.opening.model_dump(mode="json")),
        "finished": is_finished(record),
        "winner": record.winner.value,
        "termination": None if outcome is None else outcome.termination.value,
        "rule": None if outcome is None else outcome.rule,
        "reason": None if outcome is None else outcome.reason,
        "plies": record.plies,
        "started_at": record.started_at.isoformat(),
        "ended_at": None if record.ended_at is None else record.ended_at.isoformat(),
        "warnings": dump_json(record.warnings),
        "tags": dump_json(record.tags),
    } | move_stats(record)


def move_stats(record: GameRecord) -> dict[str, Any]:
    """Each side's timed moves and their seconds, and its moves with a depth and their sum (the
    opening's moves left out): what an engine page adds up over the engine's games."""
    # One pass over the moves, each side's figures listed apart (white's first): summed as lists, in
    # the order played, as they always were.
    timed: tuple[list[float], list[float]] = ([], [])
    depths: tuple[list[int], list[int]] = ([], [])
    for move in record.moves:
        if not move.from_opening:
            black = move.side is _BLACK
            if move.elapsed is not None:
                timed[black].append(move.elapsed)
            info = move.info
            if info is not None and info.depth is not None:
                depths[black].append(info.depth)
    stats: dict[str, Any] = {}
    for side, own_timed, own_depths in zip(_SIDE_TEXT, timed, depths, strict=True):
        stats[f"{side}_timed"] = len(own_timed)
        stats[f"{side}_seconds"] = float(sum(own_timed))
        stats[f"{side}_depths"] = len(own_depths)
        stats[f"{side}_depth_sum"] = sum(own_depths)
    return stats


def is_finished(record: GameRecord) -> bool:
    """A game counts as played when it has a result; abandoned ones are to be played again."""
    return record.winner is not Winner.UNFINISHED


def move_columns(game_id: int, move: MoveRecord) -> dict[str, Any]:
    return dict(zip(MOVE_ROW_COLUMNS, move_row(game_id, move), strict=True))


MOVE_ROW_COLUMNS = ("game_id", *MOVE_COLUMNS)
"""The move table's columns as `move_row` gives their values."""


def move_row(game_id: int, move: MoveRecord) -> tuple[Any, ...]:
    """A move's row of the move table, the values of `MOVE_ROW_COLUMNS` in that order: made for every
    move of every game a runner stores, so as a plain tuple."""
    info = move.info
    side = _SIDE_TEXT[move.side is _BLACK]  # the enum's value, without its descriptor
    warnings = dump_json(move.warnings) if move.warnings else None
    if info is None:
        return (
            game_id, move.ply, side, move.text, move.hub, move.from_opening, move.elapsed, move.clock,
            warnings, move.draw_offered,
        ) + _NO_INFO  # fmt: skip
    return (
        game_id, move.ply, side, move.text, move.hub, move.from_opening, move.elapsed, move.clock,
        warnings, move.draw_offered, True, info.depth, info.score, info.nodes, info.time, info.nps,
        dump_json(info.pv), dump_json(info.extra),
    )  # fmt: skip


_BLACK = Side.BLACK
_SIDE_TEXT = (Side.WHITE.value, Side.BLACK.value)
_NO_INFO = (False, None, None, None, None, None, None, None)  # has_info and the info columns, empty


def game_key_of(row: GameRow) -> GameKey:
    return GameKey(round=row.round, board=row.board, game=row.game_number)


def record_from_rows(game: GameRow, moves: Sequence[MoveValues]) -> GameRecord:
    """The game record stored in `game` and its `moves` (in ply order). Raises
    StoredGameUnreadableError, naming the game and the ply, for a value that cannot be read back."""
    label = f"{game_key_of(game)} (id {game.id})"
    records = []
    for move in moves:
        try:
            records.append(move_from_row(move))
        except ValueError as error:  # pydantic's validation errors and JSON's decoding errors
            raise StoredGameUnreadableError(f"{label}, ply {move[0]}", _first_line(error)) from None
    try:
        return _game_record(game, records)
    except ValueError as error:
        raise StoredGameUnreadableError(label, _first_line(error)) from None


def _first_line(error: ValueError) -> str:
    lines = str(error).splitlines()
    # pydantic puts the model's name first and the field and its problem on the next lines
    return "; ".join(line.strip() for line in lines[:3] if line.strip()) or type(error).__name__


def _game_record(game: GameRow, moves: list[MoveRecord]) -> GameRecord:
    outcome = None
    if game.termination is not None:
        outcome = GameOutcome(
            winner=Winner(game.winner),
            termination=Termination(game.termination),
            rule=game.rule,
            reason=game.reason or "",
        )
    return GameRecord(
        variant=game.variant,
        white=PlayerRecord(
            name=game.white, engine_id=game.white_engine_id, identity=load_dict(game.white_identity)
        ),
        black=PlayerRecord(
            name=game.black, engine_id=game.black_engine_id, identity=load_dict(game.black_identity)
        ),
        start_fen=game.start_fen,
        opening=None if game.opening is None else OpeningRecord.model_validate_json(game.opening),
        time_control=game.time_control,
        moves=moves,
        outcome=outcome,
        started_at=datetime.fromisoformat(game.started_at),
        ended_at=None if game.ended_at is None else datetime.fromisoformat(game.ended_at),
        warnings=load_list(game.warnings),
        tags=load_dict(game.tags),
    )


_SIDES = {side.value: side for side in Side}
_FLAGS = {0: False, 1: True}


def move_from_row(row: MoveValues) -> MoveRecord:
    """The move stored in a row of `MOVE_COLUMNS`. Raises ValueError for a value arbiter never writes."""
    (ply, side, text, hub, from_opening, elapsed, clock, warnings, draw_offered, has_info) = row[:10]
    # A move without engine info, stored as arbiter writes it, is made without validating it again: a
    # game page reads every move of every game. Any other value goes through validation, which refuses
    # what arbiter never writes (an edited file).
    if (
        not has_info
        and type(ply) is int
        and ply >= 1
        and side in _SIDES
        and type(text) is str
        and type(hub) is str
        and type(from_opening) is int
        and from_opening in _FLAGS
        and type(draw_offered) is int
        and draw_offered in _FLAGS
        and (warnings is None or warnings == "[]")  # no warnings: written as NULL (`dump_json`)
        and (elapsed is None or (type(elapsed) is float and elapsed >= 0))
        and (clock is None or type(clock) is float)
    ):
        return MoveRecord.trusted(
            ply, _SIDES[side], text, hub, _FLAGS[from_opening], elapsed, clock, [], _FLAGS[draw_offered], None
        )
    info = None
    if has_info:
        depth, score, nodes, info_time, nps, pv, info_extra = row[10:]
        extra = load_dict(info_extra)
        info = EngineInfo(
            depth=depth,
            score=_finite(score, "score", extra),
            nodes=nodes,
            time=_finite(info_time, "time", extra),
            nps=_finite(nps, "nps", extra),
            pv=load_list(pv),
            extra=extra,
        )
    return MoveRecord(
        ply=ply,
        side=side,  # pydantic turns the text into a Side faster than Side() does
        text=text,
        hub=hub,
        from_opening=from_opening,
        elapsed=elapsed,
        clock=clock,
        warnings=load_list(warnings),
        draw_offered=draw_offered,
        info=info,
    )
