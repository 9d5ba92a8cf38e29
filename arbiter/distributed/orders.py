"""What travels between the coordinator and the workers, as JSON text.

Every message is a pydantic model sent as its JSON text, never as pickled objects: a worker and the
coordinator then only need the same message format, and a record arrives exactly as it would be saved.
A game order carries everything the worker needs to play one game (the engines' configurations, the
variant, start position and opening, the time control and the referee's rules); a game return carries the
record and the engines' faults, or a problem of the worker's (an engine it could not start), for which the
coordinator turns that worker away and has the game played by another.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, TypeAdapter

from arbiter.engines import EngineConfig, EngineIdentity
from arbiter.referee.record import GameRecord, OpeningRecord
from arbiter.referee.settings import RefereeRules
from arbiter.referee.setup import GameSetup
from arbiter.referee.timecontrol import TimeControl, parse_time_control
from arbiter.store import Event, EventKind

ORDER_FORMAT = 2
"""Raised whenever a message changes shape, so a worker of another format is refused by the preflight."""


def arbiter_version() -> str:
    try:
        return version("arbiter")
    except PackageNotFoundError:
        return "unknown"


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EngineOrder(_Message):
    """One engine as the coordinator knows it; ``bundled`` names a bundled engine, which each worker
    starts with its own Python rather than the coordinator's."""

    config: EngineConfig
    bundled: str | None = None


class GameOrder(_Message):
    """One game to play on a worker."""

    game: str = Field(description="the game's key in the schedule (r1-b1-g1), for messages")
    variant: str
    time_control: str
    start_fen: str | None = None
    opening: OpeningRecord | None = None
    rules: RefereeRules = Field(default_factory=RefereeRules)
    white_margin: float | None = None
    black_margin: float | None = None
    tags: dict[str, str] = Field(default_factory=dict)
    white_time_control: str | None = None
    black_time_control: str | None = None
    white: EngineOrder
    black: EngineOrder
    reuse_engines: bool = True

    @classmethod
    def of(
        cls, key: str, setup: GameSetup, white: EngineOrder, black: EngineOrder, *, reuse_engines: bool
    ) -> GameOrder:
        return cls(
            game=key,
            variant=setup.variant,
            time_control=str(setup.time_control),
            start_fen=setup.start_fen,
            opening=setup.opening,
            rules=setup.rules,
            white_margin=setup.white_margin,
            black_margin=setup.black_margin,
            tags=dict(setup.tags),
            white_time_control=_text(setup.white_time_control),
            black_time_control=_text(setup.black_time_control),
            white=white,
            black=black,
            reuse_engines=reuse_engines,
        )

    def setup(self) -> GameSetup:
        return GameSetup(
            variant=self.variant,
            time_control=parse_time_control(self.time_control),
            start_fen=self.start_fen,
            opening=self.opening,
            rules=self.rules,
            white_margin=self.white_margin,
            black_margin=self.black_margin,
            tags=dict(self.tags),
            white_time_control=_control(self.white_time_control),
            black_time_control=_control(self.black_time_control),
        )


def _text(control: TimeControl | None) -> str | None:
    return None if control is None else str(control)


def _control(text: str | None) -> TimeControl | None:
    return None if text is None else parse_time_control(text)


class WorkerName(_Message):
    """Which worker did something, in the words a user can find it by."""

    address: str
    name: str
    host: str

    def __str__(self) -> str:
        named = f"{self.name!r} " if self.name and self.name != self.address else ""
        return f"worker {named}at {self.address} on host {self.host!r}"


class EngineProblem(_Message):
    """An engine that a worker could not use, or (``engine`` None) the worker's engines file as a whole:
    a fault of that worker's, for which no game is forfeited."""

    worker: WorkerName
    engine: str | None
    message: str

    def what(self) -> str:
        """The problem, without the worker's name (nor the engine's twice, when its message names it)."""
        if self.engine is None:
            return self.message
        return (
            f"cannot start engine {self.engine!r}: {self.message.removeprefix(f'engine {self.engine!r}: ')}"
        )

    def describe(self) -> str:
        return f"{self.worker}: {self.what()}" if self.engine is None else f"{self.worker} {self.what()}"


class EngineFaultNote(_Message):
    """A fault an engine had during a game, kept as one of the game's events."""

    kind: EventKind
    message: str
    engine: str | None = None
    at: AwareDatetime

    @classmethod
    def of(cls, event: Event) -> EngineFaultNote:
        return cls(kind=event.kind, message=event.message, engine=event.engine, at=event.at)

    def event(self) -> Event:
        return Event(self.kind, self.message, engine=self.engine, at=self.at)


class GameReturn(_Message):
    """What a worker sends back for one game order: a record with its events, or a problem."""

    worker: WorkerName
    record: GameRecord | None = None
    events: list[EngineFaultNote] = Field(default_factory=list)
    problem: EngineProblem | None = None
    error: str | None = Field(None, description="a game that cannot be played as ordered (a bad opening)")


class ProbeOrder(_Message):
    """The preflight: start each engine once on a worker and check it plays the variant."""

    variant: str
    engines: list[EngineOrder]


class ProbeReport(_Message):
    """One worker's answer to the preflight."""

    worker: WorkerName
    arbiter_version: str
    order_format: int
    games: float = Field(description="the worker's 'games' resource: how many games it plays at once")
    identities: dict[str, str] = Field(
        default_factory=dict, description="engine name -> its identity as JSON (EngineIdentity)"
    )
    problems: list[EngineProblem] = Field(default_factory=list)
    config_errors: list[str] = Field(
        default_factory=list, description="engines that refuse the tournament's variant or a setting"
    )


_IDENTITY = TypeAdapter(EngineIdentity)


def identity_json(identity: EngineIdentity) -> str:
    return _IDENTITY.dump_json(identity).decode()


def identity_from_json(text: str) -> EngineIdentity:
    return _IDENTITY.validate_json(text)
