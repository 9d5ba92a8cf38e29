"""Time-control text: parsing, the canonical form, and a description in words.

The text uses the vocabulary engine testers know from cutechess (all durations in seconds)::

    CONTROL = BASE [OPTION ...]                 (tokens separated by spaces)
    BASE    = STAGE[:STAGE...] | st=SECONDS | depth=N | nodes=N | acf | fmjd | fmjd-fischer
    STAGE   = [MOVES/]SECONDS[+INCREMENT]
    OPTION  = jump[=acf] | jump=off | scale=FACTOR | margin=SECONDS

- ``30/3600``: 30 moves in an hour. The last stage repeats: after every 30 moves another hour is added,
  and unused time carries over.
- ``3600+5``: an hour for the whole game, 5 seconds added before every move (Fischer).
- ``40/5400+30``: 40 moves in 90 minutes, repeating, with a 30-second increment.
- ``50/7200:25/3600``: 50 moves in 2 hours, then an hour for every further 25 moves. A stage without a
  move count lasts the rest of the game, so it can only be the last one (``40/5400+30:1800+30``).
- ``st=2``: 2 seconds for every move; ``depth=6`` and ``nodes=100000``: a fixed search, no clock.
- ``acf`` is ``30/3600 jump=acf``; ``fmjd`` is ``50/7200:25/3600``; ``fmjd-fischer`` is ``4800+60``.
- ``jump`` (or ``jump=acf``) turns on the ACF jump limits: a move with only one way to capture must be
  made within 1 minute, with several ways within 5 minutes; then "Time" is called, and one more minute
  is allowed before the game is lost for improper delay. ``jump=off`` turns them off (``acf jump=off``).
- ``scale=F`` multiplies every duration (stage times, increments, ``st``, the jump limits and their
  grace minute), so ``acf scale=0.01`` is the ACF control at one hundredth of the time.
- ``margin=S`` is the time margin (cutechess's ``timemargin``): a move that ends at most ``S`` seconds
  after its deadline is still accepted. It absorbs process and pipe latency, so it is *not* scaled.
  The default is 0.

``str()`` of a parsed control is its canonical text (and parses back to an equal control);
``describe()`` says the same in words.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any

from pydantic import PlainSerializer, PlainValidator, WithJsonSchema

GRAMMAR = """\
time control grammar (durations in seconds):
  CONTROL = BASE [OPTION ...]
  BASE    = STAGE[:STAGE...] | st=SECONDS | depth=N | nodes=N | acf | fmjd | fmjd-fischer
  STAGE   = [MOVES/]SECONDS[+INCREMENT]   (the last stage repeats; one without MOVES ends the list)
  OPTION  = jump[=acf] | jump=off | scale=FACTOR | margin=SECONDS
examples: 30/3600, 3600+5, 40/5400+30, 50/7200:25/3600, st=2, depth=6, nodes=100000, acf scale=0.01"""


def _usable(seconds: float) -> bool:
    return math.isfinite(seconds) and 0 <= seconds <= MAX_SECONDS


# Bounds on what a control may ask: beyond them a game cannot be played (or a number is a typo).
MAX_SECONDS = 7 * 24 * 3600.0
MAX_STAGE_MOVES = 10_000
MAX_DEPTH = 1_000
MAX_NODES = 10**15
MAX_SCALE = 1_000


class TimeControlError(ValueError):
    """A time-control text that does not follow the grammar; the message shows the grammar."""

    def __init__(self, text: str, problem: str) -> None:
        self.text = text
        self.problem = problem
        super().__init__(f"bad time control {text!r}: {problem}\n{GRAMMAR}")


@dataclass(frozen=True)
class Stage:
    """A period of the clock: ``seconds`` for ``moves`` moves (``None``: the rest of the game)."""

    moves: int | None
    seconds: float
    increment: float = 0.0

    def __str__(self) -> str:
        text = _number(self.seconds)
        if self.moves is not None:
            text = f"{self.moves}/{text}"
        if self.increment:
            text += f"+{_number(self.increment)}"
        return text


@dataclass(frozen=True)
class ClockStages:
    """A game clock made of stages; the last one repeats when it has a move count."""

    stages: tuple[Stage, ...]

    def __post_init__(self) -> None:
        if not self.stages:
            raise ValueError("a clock needs at least one stage")
        for index, stage in enumerate(self.stages):
            if stage.moves is None and index != len(self.stages) - 1:
                raise ValueError(f"stage {stage} has no move count, so it must be the last stage")
            if stage.moves is not None and stage.moves < 1:
                raise ValueError(f"stage {stage}: the move count must be at least 1")
            if stage.moves is not None and stage.moves > MAX_STAGE_MOVES:
                raise ValueError(f"stage {stage}: the move count must be at most {MAX_STAGE_MOVES:,}")
            if not (_usable(stage.seconds) and _usable(stage.increment)):
                raise ValueError(
                    f"stage {stage}: durations must be finite, 0 or more, at most {_duration(MAX_SECONDS)}"
                )
            if stage.seconds == 0 and stage.increment == 0:
                raise ValueError(f"stage {stage} gives no time at all")

    def stage(self, index: int) -> Stage:
        """The stage in force after ``index`` completed periods (the last stage repeats)."""
        return self.stages[min(index, len(self.stages) - 1)]

    def __str__(self) -> str:
        return ":".join(str(stage) for stage in self.stages)


@dataclass(frozen=True)
class FixedMoveTime:
    """The same time for every move (``st=``); going over it loses on time."""

    seconds: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.seconds) and self.seconds > 0):
            raise ValueError("st= must be a finite number of seconds above 0")
        if self.seconds > MAX_SECONDS:
            raise ValueError(f"st= must be at most {_duration(MAX_SECONDS)}")

    def __str__(self) -> str:
        return f"st={_number(self.seconds)}"


@dataclass(frozen=True)
class FixedDepth:
    """Search to a fixed depth on every move; no clock."""

    depth: int

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise ValueError("depth= must be at least 1")
        if self.depth > MAX_DEPTH:
            raise ValueError(f"depth= must be at most {MAX_DEPTH:,}")

    def __str__(self) -> str:
        return f"depth={self.depth}"


@dataclass(frozen=True)
class FixedNodes:
    """Search a fixed number of nodes on every move; no clock."""

    nodes: int

    def __post_init__(self) -> None:
        if self.nodes < 1:
            raise ValueError("nodes= must be at least 1")
        if self.nodes > MAX_NODES:
            raise ValueError(f"nodes= must be at most {MAX_NODES:,}")

    def __str__(self) -> str:
        return f"nodes={self.nodes}"


Base = ClockStages | FixedMoveTime | FixedDepth | FixedNodes


@dataclass(frozen=True)
class JumpLimits:
    """The ACF jump limits, unscaled: the time allowed for a capture move, then the grace before loss."""

    one_way: float = 60.0
    several_ways: float = 300.0
    grace: float = 60.0

    def __str__(self) -> str:
        return "jump=acf"


ACF_JUMP_LIMITS = JumpLimits()


@dataclass(frozen=True)
class TimeControl:
    """A parsed time control. Durations are stored as written; ``scaled()`` gives the ones that apply."""

    base: Base
    jump_limits: JumpLimits | None = None
    scale: float = 1.0
    margin: float = 0.0
    preset: str | None = None

    def __post_init__(self) -> None:
        if not (math.isfinite(self.scale) and self.scale > 0):
            raise ValueError("scale= must be a finite number above 0")
        if not (math.isfinite(self.margin) and self.margin >= 0):
            raise ValueError("margin= must be a finite number of seconds, 0 or more")
        self._check_options_apply()
        if self.preset is not None:
            known = PRESETS.get(self.preset)
            if known is None:
                raise ValueError(f"unknown preset {self.preset!r}")
            if known[0] != self.base:
                raise ValueError(f"the {self.preset!r} preset is {_preset_text(self.preset)}")

    def _check_options_apply(self) -> None:
        """Refuse options that would be silently ignored, and durations too long to play."""
        base = self.base
        if self.margin > MAX_SECONDS:
            raise ValueError(f"margin= must be at most {_duration(MAX_SECONDS)}")
        if self.scale > MAX_SCALE:
            raise ValueError(f"scale= must be at most {MAX_SCALE:,}")
        untimed = isinstance(base, FixedDepth | FixedNodes)
        if untimed and self.jump_limits is None:
            if self.margin:
                raise ValueError(
                    f"margin= has nothing to act on: {base} has no time limit (add jump to time captures)"
                )
            if self.scale != 1:
                raise ValueError(f"scale= has nothing to act on: {base} has no time limit")
        if isinstance(base, FixedMoveTime) and self.jump_limits is not None:
            shortest = self.scaled(self.jump_limits.one_way)
            if self.scaled(base.seconds) <= shortest:
                raise ValueError(
                    f"the jump limits ({_duration(shortest)} for a capture) never apply: every move already "
                    f"has {_duration(self.scaled(base.seconds))} (st=); remove jump"
                )

    def scaled(self, seconds: float) -> float:
        """A duration of the control as it applies in play (multiplied by ``scale``)."""
        return seconds * self.scale

    @property
    def has_clock(self) -> bool:
        """True when each player has a running clock (stages), as opposed to per-move limits."""
        return isinstance(self.base, ClockStages)

    def __str__(self) -> str:
        parts = [self.preset if self.preset is not None else str(self.base)]
        implied_jump = PRESETS[self.preset][1] if self.preset is not None else None
        if self.jump_limits != implied_jump:
            parts.append(str(self.jump_limits) if self.jump_limits is not None else "jump=off")
        if self.scale != 1:
            parts.append(f"scale={_number(self.scale)}")
        if self.margin:
            parts.append(f"margin={_number(self.margin)}")
        return " ".join(parts)

    def describe(self) -> str:
        """The control in words, with the durations that apply in play (after scaling)."""
        sentences = [_describe_base(self.base, self.scale)]
        if self.jump_limits is not None:
            limits = self.jump_limits
            sentences.append(
                "ACF jump limits: a capture with only one way to take must be made within "
                f"{_duration(self.scaled(limits.one_way))}, with several ways within "
                f"{_duration(self.scaled(limits.several_ways))}; then Time is called, and after "
                f"{_duration(self.scaled(limits.grace))} more the game is lost for improper delay"
            )
        if self.scale != 1:
            sentences.append(f"every duration scaled by {_number(self.scale)}")
        if self.margin:
            sentences.append(f"a margin of {_duration(self.margin)} before a loss on time")
        text = "; ".join(sentences)
        if self.preset is not None:
            text = f"{self.preset.upper()} preset: {text}"
        return text


PRESETS: dict[str, tuple[Base, JumpLimits | None]] = {
    "acf": (ClockStages((Stage(30, 3600.0),)), ACF_JUMP_LIMITS),
    "fmjd": (ClockStages((Stage(50, 7200.0), Stage(25, 3600.0))), None),
    "fmjd-fischer": (ClockStages((Stage(None, 4800.0, 60.0),)), None),
}


def _preset_text(name: str) -> str:
    base, jump = PRESETS[name]
    return f"{base} {jump}" if jump is not None else str(base)


_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)"
_STAGE_RE = re.compile(rf"(?:(?P<moves>\d+)/)?(?P<seconds>{_NUMBER})(?:\+(?P<increment>{_NUMBER}))?")
_NUMBER_RE = re.compile(_NUMBER)
_INTEGER_RE = re.compile(r"\d+")


# cutechess-cli's and fastchess's clock is MOVES/TIME+INCREMENT with TIME in seconds or MINUTES:SECONDS,
# and 0 moves for the whole game. Here a colon separates stages, as in PGN's TimeControl tag.
_CUTECHESS_MINUTES = re.compile(
    r"(?:(?P<moves>\d+)/)?(?P<minutes>\d+):(?P<seconds>[0-5]?\d(?:\.\d+)?)(?P<increment>\+\d+(?:\.\d+)?)?"
)


def from_cutechess(text: str) -> str:
    """A clock written as cutechess-cli writes it, in this module's grammar: ``1:30+1`` is ``90+1``,
    ``40/4:00`` is ``40/240``, ``0/60`` is ``60``; any other text is returned as it is."""
    found = _CUTECHESS_MINUTES.fullmatch(text)
    if found is not None:
        seconds = 60 * int(found["minutes"]) + float(found["seconds"])
        moves = found["moves"]
        return (f"{moves}/{seconds:g}" if moves not in (None, "0") else f"{seconds:g}") + (
            found["increment"] or ""
        )
    return text[2:] if text.startswith("0/") else text


def with_margin(text: str, seconds: float) -> str:
    """Time-control text with the margin ``seconds`` in place of any ``margin=`` it gives: a player's
    own margin (cutechess-cli's ``timemargin``, set per engine) outranks the control's."""
    kept = [token for token in text.split() if not token.lower().startswith("margin=")]
    return " ".join([*kept, f"margin={_number(seconds)}"] if seconds else kept)


def parse_time_control(text: str) -> TimeControl:
    """Parse time-control text (see the module docstring); raise ``TimeControlError`` when malformed."""
    return _parsed(text)


@functools.lru_cache(maxsize=256)
def _parsed(text: str) -> TimeControl:
    # Every game of an event reads the same text again; a control is immutable, so one is shared.
    tokens = text.lower().split()
    if not tokens:
        raise TimeControlError(text, "it is empty")
    base: Base | None = None
    jump: JumpLimits | None = None
    preset: str | None = None
    options: dict[str, str] = {}
    for token in tokens:
        key, has_value, value = token.partition("=")
        if key in ("scale", "margin", "jump"):
            if key in options:
                raise TimeControlError(text, f"{key!r} is given twice")
            options[key] = value if has_value else ""
            continue
        if base is not None:
            raise TimeControlError(text, f"{token!r} is a second base control (after {str(base)!r})")
        if token in PRESETS:
            preset = token
            base, jump = PRESETS[token]
        else:
            base = _parse_base(text, token)
    if base is None:
        raise TimeControlError(text, "there is no base control (stages, st=, depth=, nodes= or a preset)")
    if "jump" in options:
        if options["jump"] not in ("", "acf", "off"):
            raise TimeControlError(text, f"unknown jump limits {options['jump']!r}: use jump=acf or jump=off")
        jump = None if options["jump"] == "off" else ACF_JUMP_LIMITS
    scale = _option_number(text, options, "scale", 1.0)
    margin = _option_number(text, options, "margin", 0.0)
    try:
        return TimeControl(base=base, jump_limits=jump, scale=scale, margin=margin, preset=preset)
    except ValueError as error:
        raise TimeControlError(text, str(error)) from None


def _parse_base(text: str, token: str) -> Base:
    key, has_value, value = token.partition("=")
    try:
        if has_value:
            if key == "st":
                return FixedMoveTime(_number_value(text, key, value))
            if key == "depth":
                return FixedDepth(_integer_value(text, key, value))
            if key == "nodes":
                return FixedNodes(_integer_value(text, key, value))
            raise TimeControlError(text, f"unknown key {key!r}")
        stages = []
        for part in token.split(":"):
            match = _STAGE_RE.fullmatch(part)
            if match is None:
                problem = f"{part!r} is not a stage (MOVES/SECONDS+INCREMENT) or a preset"
                if part == "inf":  # cutechess-cli's tc=inf
                    problem += " (no clock, only a limit: depth=N or nodes=N alone)"
                raise TimeControlError(text, problem)
            moves = match["moves"]
            increment = match["increment"]
            stages.append(
                Stage(
                    moves=int(moves) if moves is not None else None,
                    seconds=float(match["seconds"]),
                    increment=float(increment) if increment is not None else 0.0,
                )
            )
        return ClockStages(tuple(stages))
    except TimeControlError:
        raise
    except ValueError as error:
        raise TimeControlError(text, str(error) + _minutes_hint(token)) from None


def _minutes_hint(token: str) -> str:
    """For stages that fail and read as cutechess-cli's minutes and seconds: what to write instead."""
    meant = from_cutechess(token)
    if meant == token:
        return ""
    if ":" in token:
        return f" (a colon separates stages here, as in PGN; for minutes and seconds give seconds: {meant})"
    return f" (for the whole game give no move count: {meant})"


def _number_value(text: str, key: str, value: str) -> float:
    if not _NUMBER_RE.fullmatch(value):
        raise TimeControlError(text, f"{key}= needs a number such as 2 or 0.5, not {value!r}")
    return float(value)


def _integer_value(text: str, key: str, value: str) -> int:
    if not _INTEGER_RE.fullmatch(value):
        raise TimeControlError(text, f"{key}= needs a whole number, not {value!r}")
    return int(value)


def _option_number(text: str, options: dict[str, str], key: str, default: float) -> float:
    if key not in options:
        return default
    return _number_value(text, key, options[key])


def _number(value: float) -> str:
    """A number as short decimal text without an exponent, so that it parses back to the same float."""
    if not math.isfinite(value):
        return repr(value)
    if value == int(value):
        return str(int(value))
    return format(Decimal(repr(value)), "f")


def _duration(seconds: float) -> str:
    """A duration for people: ``2 h``, ``1 h 30 min``, ``5 min``, ``36 s``, ``0.6 s``."""
    milliseconds = round(seconds * 1000)
    hours, rest = divmod(milliseconds, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    parts = []
    if hours:
        parts.append(f"{hours} h")
    if minutes:
        parts.append(f"{minutes} min")
    if rest or not parts:
        parts.append(f"{_number(rest / 1000)} s")
    return " ".join(parts)


def _describe_base(base: Base, scale: float) -> str:
    if isinstance(base, FixedMoveTime):
        return f"{_duration(base.seconds * scale)} per move"
    if isinstance(base, FixedDepth):
        return f"search to depth {base.depth} on every move"
    if isinstance(base, FixedNodes):
        return f"search {base.nodes} nodes on every move"
    increments = {stage.increment for stage in base.stages}
    shared_increment = increments.pop() if len(increments) == 1 else None
    phrases = []
    last = len(base.stages) - 1
    for index, stage in enumerate(base.stages):
        time = _duration(stage.seconds * scale)
        if stage.increment and shared_increment is None:
            time += f" (+{_duration(stage.increment * scale)} a move)"
        then = "then " if index else ""
        if stage.moves is None:
            phrases.append(f"{then}{time} for the rest of the game" if index else f"{time} for the game")
            continue
        if index < last or index == 0:
            phrases.append(f"{then}{stage.moves} moves in {time}")
        if index == last:
            phrases.append(f"then {time} for every further {stage.moves} moves")
    text = ", ".join(phrases)
    if shared_increment:
        text += f", plus {_duration(shared_increment * scale)} added before every move"
    if any(stage.moves is not None for stage in base.stages):
        text += " (unused time carries over)"
    return text


def _validate(value: Any) -> TimeControl:
    if isinstance(value, TimeControl):
        return value
    if isinstance(value, str):
        return parse_time_control(value)
    raise ValueError(f"a time control must be text such as '30/3600', not {type(value).__name__}")


TimeControlText = Annotated[
    TimeControl,
    PlainValidator(_validate),
    PlainSerializer(str, return_type=str),
    WithJsonSchema({"type": "string", "description": "time control, e.g. 30/3600, 3600+5, acf scale=0.01"}),
]
"""A pydantic field type: time-control text, validated into a ``TimeControl`` and saved as its text."""
