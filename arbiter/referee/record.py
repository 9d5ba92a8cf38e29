"""The record of one game: who played what, every move with its time and the engine's last info, the result.

A ``GameRecord`` is plain data (pydantic), saved as JSON (``to_json`` / ``from_json``) and turned into
PDN and HTML elsewhere. The result is kept as the winning colour (``Winner``), not as PDN text, because
PDN names the side that moves first first: in English draughts, where Black moves first, ``1-0`` means
Black won, while in international draughts ``1-0`` means White won. ``pdn_result`` and
``winner_from_pdn`` convert, given the colour that moves first in the variant.

Times are seconds measured by the referee; ``started_at``/``ended_at`` are wall-clock moments with a
time zone.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Literal, TypeVar

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, computed_field, model_validator

from arbiter.rules.geometry import Color


class Side(StrEnum):
    """A player's colour as saved in records."""

    WHITE = "white"
    BLACK = "black"

    @classmethod
    def of(cls, color: Color | Side) -> Side:
        if isinstance(color, Side):
            return color
        return cls.WHITE if color is Color.WHITE else cls.BLACK

    @property
    def color(self) -> Color:
        return Color.WHITE if self is Side.WHITE else Color.BLACK

    @property
    def opponent(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE


class Winner(StrEnum):
    """The result of a game, by colour."""

    WHITE = "white"
    BLACK = "black"
    DRAW = "draw"
    UNFINISHED = "unfinished"

    @classmethod
    def side(cls, color: Color | Side) -> Winner:
        """The winner value for a colour's win."""
        return cls.WHITE if Side.of(color) is Side.WHITE else cls.BLACK

    @property
    def decisive(self) -> bool:
        return self in (Winner.WHITE, Winner.BLACK)


class Termination(StrEnum):
    """Why a game ended."""

    NO_PIECES = "no_pieces"
    """The side to move has no pieces left (a loss, or a win in anti variants)."""
    NO_LEGAL_MOVES = "no_legal_moves"
    """The side to move is blocked (a loss, or a win in anti variants)."""
    VARIANT_RULE = "variant_rule"
    """A game end of the variant's own (Mule checkers' mule rules, Turkish lone pieces)."""
    REPETITION = "repetition"
    MOVE_COUNT_RULE = "move_count_rule"
    """A counting draw rule; ``GameOutcome.rule`` says which (``40-move``, ``25-move``, ``16-move``...)."""
    AGREEMENT = "agreement"
    RESIGNATION = "resignation"
    MAX_LENGTH = "max_length"
    """The tournament's limit on the number of plies was reached."""
    ADJUDICATION_DRAW = "adjudication_draw"
    ADJUDICATION_WIN = "adjudication_win"
    TIME_FORFEIT = "time_forfeit"
    IMPROPER_DELAY = "improper_delay"
    """The ACF jump limit and the grace minute after "Time" passed without a move."""
    ILLEGAL_MOVE = "illegal_move"
    UNPARSABLE_OUTPUT = "unparsable_output"
    CRASH = "crash"
    NO_ANSWER = "no_answer"
    START_FAILURE = "start_failure"
    ABANDONED = "abandoned"
    """The game was stopped (by the user, or the run ended) before a result."""
    AS_RECORDED = "as_recorded"
    """An imported game whose source gives the result but not why (a PDN file's Result tag)."""

    def phrase(self, rule: str | None = None) -> str:
        """The reason in a few words, e.g. ``loss on time`` or ``move-count rule (40-move)``."""
        text = _PHRASES[self]
        return f"{text} ({rule})" if rule else text


_PHRASES: dict[Termination, str] = {
    Termination.NO_PIECES: "no pieces left",
    Termination.NO_LEGAL_MOVES: "no legal move",
    Termination.VARIANT_RULE: "the variant's own rule",
    Termination.REPETITION: "repetition of position",
    Termination.MOVE_COUNT_RULE: "move-count rule",
    Termination.AGREEMENT: "draw agreed",
    Termination.RESIGNATION: "resignation",
    Termination.MAX_LENGTH: "maximum game length reached",
    Termination.ADJUDICATION_DRAW: "adjudicated as a draw",
    Termination.ADJUDICATION_WIN: "adjudicated as a win",
    Termination.TIME_FORFEIT: "loss on time",
    Termination.IMPROPER_DELAY: "improper delay after Time was called on a jump",
    Termination.ILLEGAL_MOVE: "illegal move",
    Termination.UNPARSABLE_OUTPUT: "unreadable engine output",
    Termination.CRASH: "engine crashed",
    Termination.NO_ANSWER: "engine stopped answering",
    Termination.START_FAILURE: "engine failed to start",
    Termination.ABANDONED: "game abandoned",
    Termination.AS_RECORDED: "result as recorded",
}

_ONLY_DRAWN = {
    Termination.REPETITION,
    Termination.MOVE_COUNT_RULE,
    Termination.AGREEMENT,
    Termination.MAX_LENGTH,
    Termination.ADJUDICATION_DRAW,
}
_ONLY_DECISIVE = {
    Termination.NO_PIECES,
    Termination.NO_LEGAL_MOVES,
    Termination.RESIGNATION,
    Termination.ADJUDICATION_WIN,
    Termination.TIME_FORFEIT,
    Termination.IMPROPER_DELAY,
    Termination.ILLEGAL_MOVE,
    Termination.UNPARSABLE_OUTPUT,
    Termination.CRASH,
    Termination.NO_ANSWER,
}
_WINNER_WORDS = {
    Winner.WHITE: "White wins",
    Winner.BLACK: "Black wins",
    Winner.DRAW: "Draw",
    Winner.UNFINISHED: "Unfinished",
}


def allowed_winners(termination: Termination) -> set[Winner]:
    """The results a termination can have (a repetition is always a draw, a crash never is, ...)."""
    if termination in _ONLY_DRAWN:
        return {Winner.DRAW}
    if termination in _ONLY_DECISIVE:
        return {Winner.WHITE, Winner.BLACK}
    if termination is Termination.ABANDONED:
        return {Winner.UNFINISHED}
    if termination is Termination.START_FAILURE:
        return {Winner.WHITE, Winner.BLACK, Winner.UNFINISHED}
    return {Winner.WHITE, Winner.BLACK, Winner.DRAW}  # variant_rule


def pdn_result(winner: Winner, first_mover: Color | Side, points_per_win: Literal[1, 2] = 1) -> str:
    """PDN result text; the side that moves first in the variant is named first.

    ``points_per_win=2`` gives the international form (``2-0``, ``0-2``, ``1-1``).
    """
    if winner is Winner.UNFINISHED:
        return "*"
    if winner is Winner.DRAW:
        return "1-1" if points_per_win == 2 else "1/2-1/2"
    first_won = winner is Winner.side(first_mover)
    return f"{points_per_win}-0" if first_won else f"0-{points_per_win}"


def winner_from_pdn(text: str, first_mover: Color | Side) -> Winner:
    """Read PDN result text (either scoring form) back into a ``Winner``."""
    first = Side.of(first_mover)
    results = {
        "1-0": Winner.side(first),
        "2-0": Winner.side(first),
        "0-1": Winner.side(first.opponent),
        "0-2": Winner.side(first.opponent),
        "1/2-1/2": Winner.DRAW,
        "1-1": Winner.DRAW,
        "*": Winner.UNFINISHED,
    }
    try:
        return results[text.strip()]
    except KeyError:
        raise ValueError(f"unknown PDN result {text!r}: expected one of {', '.join(results)}") from None


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EngineInfo(_Model):
    """The last ``info`` line an engine printed while searching for a move."""

    depth: int | None = None
    score: float | None = None
    nodes: int | None = None
    time: float | None = None
    nps: float | None = None
    pv: list[str] = Field(default_factory=list)
    extra: dict[str, str] = Field(default_factory=dict)
    """Every other field, and any known one whose value was not a number, as the engine wrote it."""

    @classmethod
    def from_fields(cls, fields: Mapping[str, str | None]) -> EngineInfo:
        """Build from the key=value fields of an ``info`` line (a flag without a value maps to None)."""
        known: dict[str, Any] = {}
        extra: dict[str, str] = {}
        for key, value in fields.items():
            converter = _INFO_NUMBERS.get(key)
            if key == "pv" and value is not None:
                known["pv"] = value.split()
                continue
            if converter is not None and value is not None:
                try:
                    known[key] = converter(value)
                    continue
                except ValueError:
                    pass
            extra[key] = "" if value is None else value
        return cls(**known, extra=extra)

    @classmethod
    def trusted(
        cls,
        depth: int | None,
        score: float | None,
        nodes: int | None,
        time: float | None,
        nps: float | None,
        pv: list[str],
        extra: dict[str, str],
    ) -> EngineInfo:
        """Engine info whose values already have their types (the engine layer read them as numbers),
        made without validating them again: the referee records one with every move of an engine that
        sends ``info``. Every field is given, so the record is the one validation would make."""
        return _unvalidated(
            cls,
            {
                "depth": depth,
                "score": score,
                "nodes": nodes,
                "time": time,
                "nps": nps,
                "pv": pv,
                "extra": extra,
            },
        )


_INFO_NUMBERS: dict[str, type[int] | type[float]] = {
    "depth": int,
    "score": float,
    "nodes": int,
    "time": float,
    "nps": float,
}


class PlayerRecord(_Model):
    name: str
    """The player's name in the tournament."""
    engine_id: str | None = None
    """The engine's key in the tournament configuration, when it is an engine."""
    identity: dict[str, str] = Field(default_factory=dict)
    """What the engine said about itself (Hub ``id``: name, version, author, country)."""


class OpeningRecord(_Model):
    name: str | None = None
    acf_number: int | None = None
    """The opening's number in the ACF three-move deck."""
    moves: list[str] = Field(default_factory=list)
    """The opening's forced moves in PDN; they also appear in ``GameRecord.moves`` (``from_opening``)."""


TIME_CALL_PREFIX = "Time: called"
"""How a move's warning starts when the referee called "Time" at an ACF jump limit."""


class MoveRecord(_Model):
    ply: int = Field(ge=1)
    side: Side
    text: str
    """The move in PDN (``11-15``, ``15x24``)."""
    hub: str
    """The move as Hub writes it (``28x19x23``)."""
    from_opening: bool = False
    """Played from the opening deck, not chosen by an engine (no time, no info)."""
    elapsed: float | None = Field(default=None, ge=0)
    """Seconds the move took, from ``go`` written to ``done`` read."""
    clock: float | None = None
    """The mover's remaining time after the move (None when the time control has no clock)."""
    warnings: list[str] = Field(default_factory=list)
    """What the referee noted on this move, e.g. ``Time`` called on a jump."""
    draw_offered: bool = False
    info: EngineInfo | None = None

    @classmethod
    def trusted(
        cls,
        ply: int,
        side: Side,
        text: str,
        hub: str,
        from_opening: bool,
        elapsed: float | None,
        clock: float | None,
        warnings: list[str],
        draw_offered: bool,
        info: EngineInfo | None,
    ) -> MoveRecord:
        """A record of values the referee has already checked (a ply from 1 on, a measured time of 0 or
        more), made without validating them again: the referee makes one for every move. Every field is
        given, so the record is the one validation would make (``fields_set`` included)."""
        return _unvalidated(
            cls,
            {
                "ply": ply,
                "side": side,
                "text": text,
                "hub": hub,
                "from_opening": from_opening,
                "elapsed": elapsed,
                "clock": clock,
                "warnings": warnings,
                "draw_offered": draw_offered,
                "info": info,
            },
        )


_M = TypeVar("_M", bound=BaseModel)


def _unvalidated(cls: type[_M], values: dict[str, Any]) -> _M:
    """A model of ``values``, every field given, as ``model_construct`` makes it without its loop over
    the fields and their defaults."""
    model = _new(cls)
    _set_attribute(model, "__dict__", values)
    _set_attribute(model, "__pydantic_fields_set__", set(values))
    _set_attribute(model, "__pydantic_extra__", None)
    _set_attribute(model, "__pydantic_private__", None)
    return model


_new = object.__new__
_set_attribute = object.__setattr__


class GameOutcome(_Model):
    winner: Winner
    termination: Termination
    rule: str | None = None
    """Which rule ended the game when that needs saying (always for ``move_count_rule``)."""
    reason: str
    """The termination in words, for people."""

    @model_validator(mode="after")
    def _fits_together(self) -> GameOutcome:
        if self.winner not in allowed_winners(self.termination):
            allowed = ", ".join(sorted(allowed_winners(self.termination)))
            raise ValueError(
                f"a game ended by {self.termination} cannot have result {self.winner} ({allowed})"
            )
        if self.termination is Termination.MOVE_COUNT_RULE and not self.rule:
            raise ValueError("a move_count_rule ending must say which rule (e.g. rule='40-move')")
        return self

    @classmethod
    def of(
        cls, winner: Winner, termination: Termination, rule: str | None = None, reason: str | None = None
    ) -> GameOutcome:
        """An outcome whose ``reason`` defaults to words such as ``Black wins: loss on time``."""
        if reason is None:
            reason = f"{_WINNER_WORDS[winner]}: {termination.phrase(rule)}"
        return cls(winner=winner, termination=termination, rule=rule, reason=reason)


class GameRecord(_Model):
    variant: str
    """The variant id (``english``, ``international``, ...)."""
    white: PlayerRecord
    black: PlayerRecord
    start_fen: str
    """The position before the first move of ``moves``."""
    opening: OpeningRecord | None = None
    time_control: str
    """The time control's text (canonical form)."""
    moves: list[MoveRecord] = Field(default_factory=list)
    outcome: GameOutcome | None = None
    """None while the game is being played."""
    started_at: AwareDatetime
    ended_at: AwareDatetime | None = None
    warnings: list[str] = Field(default_factory=list)
    """What the referee noted about the game as a whole (an engine's ``error`` lines, for example)."""
    tags: dict[str, str] = Field(default_factory=dict)
    """Further PDN header tags (``Event``, ``Round``, ...)."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def plies(self) -> int:
        """The number of moves of either side in ``moves``."""
        return len(self.moves)

    @model_validator(mode="before")
    @classmethod
    def _drop_saved_plies(cls, data: Any) -> Any:
        # ``plies`` is saved for readers of the JSON; when loading, it must agree with the moves.
        if isinstance(data, dict) and "plies" in data:
            data = dict(data)
            plies = data.pop("plies")
            moves = data.get("moves", [])
            if isinstance(moves, list) and plies != len(moves):
                raise ValueError(f"plies is {plies} but {len(moves)} moves are recorded")
        return data

    @model_validator(mode="after")
    def _moves_in_order(self) -> GameRecord:
        for index, move in enumerate(self.moves):
            if move.ply != index + 1:
                raise ValueError(f"move {index + 1} ({move.text}) is numbered ply {move.ply}")
            if index and move.side is self.moves[index - 1].side:
                raise ValueError(f"ply {move.ply} ({move.text}): {move.side} moved twice in a row")
        if self.ended_at is not None and self.ended_at < self.started_at:
            raise ValueError("the game ends before it starts")
        return self

    @property
    def winner(self) -> Winner:
        return Winner.UNFINISHED if self.outcome is None else self.outcome.winner

    def player(self, side: Side | Color) -> PlayerRecord:
        return self.white if Side.of(side) is Side.WHITE else self.black

    def pdn_result(self, first_mover: Color | Side, points_per_win: Literal[1, 2] = 1) -> str:
        """The PDN result text, naming the variant's first mover first (see ``pdn_result``)."""
        return pdn_result(self.winner, first_mover, points_per_win)

    def to_json(self, indent: int | None = None) -> str:
        return self.model_dump_json(indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        return cls.model_validate_json(text)
