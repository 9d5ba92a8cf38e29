"""What a bundled engine is to the Hub loop: its name, its parameters, and how it picks a move."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from arbiter.players.control import SearchControl
from arbiter.players.level import Level
from arbiter.rules import History, Move, Position

ParamValue = bool | int | float | str

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


class ParamError(ValueError):
    """A ``set-param`` value that does not fit the parameter."""


@dataclass(frozen=True)
class ParamSpec:
    """One engine parameter as declared by a Hub ``param`` line."""

    name: str
    type: str  # bool, int, real, string or enum
    default: ParamValue
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: tuple[str, ...] = ()
    help: str = ""

    def parse(self, text: str) -> ParamValue:
        """The typed value of ``text``, or a ParamError that names the parameter and what it accepts."""
        value: ParamValue
        if self.type == "bool":
            low = text.strip().lower()
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
            raise ParamError(f"param {self.name}: {text!r} is not true or false")
        if self.type in ("int", "real"):
            try:
                value = int(text) if self.type == "int" else float(text)
            except ValueError:
                kind = "a whole number" if self.type == "int" else "a number"
                raise ParamError(f"param {self.name}: {text!r} is not {kind}") from None
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise ParamError(f"param {self.name}: {text} is outside {self.minimum}..{self.maximum}")
            return value
        if self.type == "enum" and text not in self.choices:
            raise ParamError(f"param {self.name}: {text!r} is not one of {' '.join(self.choices)}")
        return text

    def hub_fields(self) -> list[tuple[str, object]]:
        fields: list[tuple[str, object]] = [("name", self.name), ("value", self.default), ("type", self.type)]
        if self.minimum is not None:
            fields.append(("min", self.minimum))
        if self.maximum is not None:
            fields.append(("max", self.maximum))
        if self.choices:
            fields.append(("values", " ".join(self.choices)))
        return fields


@dataclass(frozen=True)
class ThinkRequest:
    """Everything a player is told for one search."""

    position: Position
    history: tuple[Position, ...]  # positions that came before ``position`` in this game, oldest first
    level: Level
    draw_offered: bool  # the opponent offered a draw with its last move
    game_ply: int  # plies played so far in this game, as far as the engine can tell
    moves: tuple[Move, ...] = ()  # the move played from each of ``history`` (the last one to ``position``)

    def legal_moves(self) -> list[Move]:
        """The moves the player may choose: the position's legal moves, less those a rule on earlier
        moves forbids (Frisian's king-move limit), as far as the moves given show them."""
        if self.position.variant.history_filter is None or len(self.moves) != len(self.history):
            return self.position.legal_moves()
        return History((*self.history, self.position), self.moves).legal_moves()


@dataclass(frozen=True)
class Decision:
    """The answer to one search: a move (or resignation), and whether to offer or accept a draw."""

    move: Move | None
    draw: bool = False
    resign: bool = False


InfoSink = Callable[[str], None]  # takes a whole protocol line, e.g. an ``info`` line


class Player(ABC):
    name: str
    version: str = "1.0"
    author: str = "arbiter project"

    def params(self) -> list[ParamSpec]:
        return []

    def set_param(self, name: str, value: ParamValue) -> None:  # noqa: B027 - optional hook
        """Take a parameter declared by ``params``; the value is already checked and typed."""

    def new_game(self) -> None:  # noqa: B027 - optional hook
        """Forget everything learnt in the previous game (quickly: ``go`` may follow at once)."""

    def tidy(self) -> bool:
        """Do a little housekeeping left for idle time (about a millisecond at most); True while more
        is left. Called only while no command is waiting, so never where a clock runs."""
        return False

    @abstractmethod
    def think(self, request: ThinkRequest, control: SearchControl, info: InfoSink) -> Decision:
        """Pick a move for ``request.position``, which has at least one legal move."""
