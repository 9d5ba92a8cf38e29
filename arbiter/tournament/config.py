"""The tournament file (TOML), validated once with pydantic; errors name the file, the line and the key."""

from __future__ import annotations

import json
import os
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeInt,
    PositiveInt,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails

from arbiter.engines.config import EngineConfig
from arbiter.referee.timecontrol import from_cutechess, parse_time_control
from arbiter.rules.variants import get_variant
from arbiter.tournament.openings import DECK_NAMES, BallotRule, ballot_rule, deck_named, is_pdn_file
from arbiter.tournament.piece_scoring import PIECE_SCORING, piece_scoring_conflict
from arbiter.tournament.stats import SPRT_KEYS, SprtSettings

BUNDLED_ENGINES = ("random", "greedy", "alphabeta")
# The bundled engines report their scores in centi-men (Hub's own unit is the man).
BUNDLED_SCORE_UNIT = "centi-men"

# The most games one event may plan: more would take years to play and exhaust memory while planning.
MAX_EVENT_GAMES = 1_000_000
MAX_CONCURRENCY = 1024


class ConfigError(ValueError):
    """A tournament or engines file that cannot be used; the message says where and why."""


class SettingError(ValueError):
    """A validator's complaint about one key (`key`, below the model that raised it), so that the
    message can name that key and its line rather than the table as a whole."""

    def __init__(self, key: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.key = key


def bundled_command(name: str) -> list[str]:
    """The command that starts one of the engines shipped with the arbiter."""
    if name not in BUNDLED_ENGINES:
        raise ValueError(f"no bundled engine named {name!r}; bundled engines: {', '.join(BUNDLED_ENGINES)}")
    return [sys.executable, "-m", f"arbiter.players.{name}"]


class EngineEntry(BaseModel):
    """An engine as a tournament file lists it: a full configuration, a bundled engine, or a reference."""

    model_config = ConfigDict(extra="allow", strict=True)

    name: str = Field(min_length=1)
    bundled: Literal["random", "greedy", "alphabeta"] | None = None

    @field_validator("name")
    @classmethod
    def _printable_name(cls, value: str) -> str:
        return printable_text(value, "the engine name")


class Openings(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    deck: str | None = Field(None, description="acf-144, acf-156, acf-174, acf-ctd, pro-checkers")
    file: Path | None = Field(
        None,
        strict=False,
        description="one opening per line (PDN moves or a FEN), or a .pdn file of games cut at `plies`",
    )
    plies: NonNegativeInt | None = Field(
        None, description="with a .pdn file: each game's start and this many of its plies make an opening"
    )
    order: Literal["sequential", "random"] = "sequential"
    seed: int = 1
    count: PositiveInt | None = Field(None, description="play only the first N openings of the deck")
    start: PositiveInt = Field(1, description="begin with the deck's Nth opening (cutechess start=)")

    @model_validator(mode="before")
    @classmethod
    def _ballot_rule_order(cls, data: Any) -> Any:
        # A ballot rule deals in its own order unless the file chooses one.
        rule = _ballot_rule_of(data)
        if rule is None or not isinstance(data, dict) or "order" in data:
            return data
        return {**data, "order": rule.order.value}

    @field_validator("file", mode="before")
    @classmethod
    def _file_given(cls, value: Any) -> Any:
        return _not_blank_path(value)

    @field_validator("deck")
    @classmethod
    def _known_deck(cls, value: str | None) -> str | None:
        if value is None:
            return None
        key = deck_named(value)
        if key is None:
            raise ValueError(f"unknown deck {value!r}; decks: {', '.join(DECK_NAMES)}")
        return key

    @model_validator(mode="after")
    def _one_source(self) -> Openings:
        if (self.deck is None) == (self.file is None):
            raise ValueError("give exactly one of 'deck' or 'file'")
        if self.file is not None and is_pdn_file(self.file):
            if self.plies is None:
                raise SettingError(
                    ("plies",),
                    "a PDN opening file needs 'plies': how many plies of each game make its opening "
                    "(0 for the game's start position only)",
                )
        elif self.plies is not None:
            raise SettingError(
                ("plies",),
                "'plies' cuts the games of a PDN opening file (file = \"games.pdn\") into openings",
            )
        return self


def _ballot_rule_of(openings: Any) -> BallotRule | None:
    """The ballot rule an `[openings]` table (raw or validated) names as its deck, if any."""
    deck = openings.get("deck") if isinstance(openings, dict) else getattr(openings, "deck", None)
    return ballot_rule(deck) if isinstance(deck, str) else None


class Adjudication(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    max_plies: PositiveInt | None = Field(None, description="a draw once the game reaches this many plies")
    draw_score: int | None = Field(None, ge=0, description="both scores within +-this many centi-men...")
    draw_moves: PositiveInt = Field(10, description="...for this many moves each: draw")
    draw_min_plies: NonNegativeInt = Field(0, description="...but never before this many plies")
    win_score: int | None = Field(None, gt=0, description="both agree a side leads by at least this...")
    win_moves: PositiveInt = Field(5, description="...for this many moves each: that side wins")
    win_two_sided: bool = Field(
        True, description="false: an engine whose own scores say it is that far behind loses (it resigns)"
    )
    play_forced_moves: bool = Field(False, description="play a move without asking when it is the only one")


class TournamentConfig(BaseModel):
    """A whole event: who plays, under which rules and clock, in which format, stored where."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field("Tournament", min_length=1)
    variant: str = "english"
    time_control: str = "acf scale=0.01"
    time_controls: dict[str, str] = Field(
        default_factory=dict, description="an engine's own time control, by its name (cutechess -engine tc=)"
    )
    format: Literal["round-robin", "gauntlet", "match"] = "round-robin"
    cycles: PositiveInt = Field(1, le=MAX_EVENT_GAMES)
    games_per_encounter: PositiveInt = Field(1, le=MAX_EVENT_GAMES)
    repeat: bool = Field(False, description="play each opening twice, colours swapped (ballot pairs)")
    openings: Openings | None = None
    scoring: Literal["1-0.5-0", "2-1-0", "pieces"] = Field(
        "1-0.5-0", description="points per win/draw/loss, or 'pieces': the winner scores its pieces left"
    )
    concurrency: PositiveInt = Field(1, le=MAX_CONCURRENCY)
    reuse_engines: bool = Field(True, description="keep engines running between games (new-game)")
    database: Path = Field(Path("tournament.sqlite"), strict=False)
    report: Path | None = Field(None, strict=False)
    engines_file: Path | None = Field(None, strict=False)
    scheduler: str | None = Field(
        None, description="a Dask scheduler (tcp://host:8786) whose workers play the games"
    )
    adjudication: Adjudication = Field(default_factory=Adjudication)
    sprt: SprtSettings | None = Field(None, description="a match stops once this test has decided")
    engines: list[EngineEntry] = Field(min_length=2)

    @model_validator(mode="before")
    @classmethod
    def _ballot_rule_pairs(cls, data: Any) -> Any:
        # A paired ballot rule (pro-checkers) plays each ballot twice with colours swapped, unless the
        # file says otherwise (which `_ballot_rule_kept` then refuses).
        if not isinstance(data, dict):
            return data
        rule = _ballot_rule_of(data.get("openings"))
        if rule is None or not rule.paired:
            return data
        return {"repeat": True, "games_per_encounter": 2, **data}

    @field_validator("variant")
    @classmethod
    def _known_variant(cls, value: str) -> str:
        return get_variant(value).id

    @field_validator("time_control")
    @classmethod
    def _valid_time_control(cls, value: str) -> str:
        parse_time_control(value)
        return value

    @field_validator("scheduler")
    @classmethod
    def _scheduler_address(cls, value: str | None) -> str | None:
        if value is not None:
            check_scheduler_address(value)
        return value

    @field_validator("database", "report", "engines_file", mode="before")
    @classmethod
    def _path_given(cls, value: Any) -> Any:
        # An empty text would be read as the folder the file is in: the site written among its files.
        return _not_blank_path(value)

    @field_validator("database")
    @classmethod
    def _names_a_file(cls, value: Path) -> Path:
        return database_path(str(value), option="")

    @model_validator(mode="after")
    def _engine_time_controls(self) -> TournamentConfig:
        names = {engine.name for engine in self.engines}
        for name, text in self.time_controls.items():
            if name not in names:
                raise SettingError(("time_controls", name), f"no engine is named {name!r}")
            try:
                parse_time_control(text)
            except ValueError as error:
                raise SettingError(("time_controls", name), str(error)) from None
        return self

    @model_validator(mode="after")
    def _distinct_names(self) -> TournamentConfig:
        names = [e.name for e in self.engines]
        doubles = sorted({n for n in names if names.count(n) > 1})
        if doubles:
            second = next(i for i, name in enumerate(names) if name in names[:i])
            raise SettingError(
                ("engines", second, "name"), f"engine names must be distinct; repeated: {', '.join(doubles)}"
            )
        if self.format == "match" and len(names) != 2:
            raise SettingError(("format",), f"a match needs exactly two engines, got {len(names)}")
        return self

    @field_validator("sprt", mode="before")
    @classmethod
    def _sprt_from_a_table(cls, value: object) -> object:
        # Strict settings take no table for a dataclass: a file's [sprt] table (or a stored configuration)
        # is read here, its numbers as numbers only.
        if value is None or isinstance(value, SprtSettings):
            return value
        keys = ", ".join(SPRT_KEYS)
        if not isinstance(value, dict):
            raise ValueError(f"give a table: [sprt] with {keys}, not {value!r}")
        for key in value:
            if key not in SPRT_KEYS:
                raise SettingError((key,), f"not an SPRT setting; the settings are {keys}")
        for key in ("elo0", "elo1", "alpha", "beta"):
            if key in value and (isinstance(value[key], bool) or not isinstance(value[key], int | float)):
                raise SettingError((key,), f"must be a number, not {value[key]!r}")
        missing = [key for key in ("elo0", "elo1") if key not in value]
        if missing:
            raise ValueError(f"needs {' and '.join(missing)} (the Elo of H0 and of H1)")
        return SprtSettings(**value)

    @model_validator(mode="after")
    def _sprt_in_a_match(self) -> TournamentConfig:
        if self.sprt is not None and self.format != "match":
            raise SettingError(
                ("sprt",), f'an SPRT tests a match of two engines (format = "match"), not a {self.format}'
            )
        return self

    @model_validator(mode="after")
    def _piece_scoring_fits(self) -> TournamentConfig:
        if self.scoring == PIECE_SCORING:
            refusal = piece_scoring_conflict(self.variant, self.sprt is not None)
            if refusal is not None:
                raise SettingError(("scoring",), refusal)
        return self

    @model_validator(mode="after")
    def _openings_in_pairs(self) -> TournamentConfig:
        if self.repeat and self.games_per_encounter % 2 != 0:
            raise SettingError(
                ("games_per_encounter",),
                "repeat plays each opening twice with colours swapped, so games_per_encounter must be "
                f"even, got {self.games_per_encounter}",
            )
        return self

    @model_validator(mode="after")
    def _ballot_rule_kept(self) -> TournamentConfig:
        rule = _ballot_rule_of(self.openings)
        if rule is None:
            return self
        if rule.paired and not self.repeat:
            raise SettingError(
                ("repeat",),
                f"the {rule.name} rule plays each ballot twice, colours swapped: remove 'repeat = false' "
                "or choose another deck",
            )
        if self.variant.partition("+")[0] != rule.variant:
            raise SettingError(
                ("variant",), f"the {rule.name} rule is played in {rule.variant}, not {self.variant}"
            )
        return self

    @field_validator("name")
    @classmethod
    def _printable_name(cls, value: str) -> str:
        return printable_text(value, "the tournament name")

    @model_validator(mode="after")
    def _playable_size(self) -> TournamentConfig:
        games = planned_game_count(self.format, len(self.engines), self.cycles, self.games_per_encounter)
        if games > MAX_EVENT_GAMES:
            key = "games_per_encounter" if self.games_per_encounter > self.cycles else "cycles"
            raise SettingError(
                (key,),
                f"this event would plan {games:,} games ({self.cycles:,} cycle(s) of "
                f"{self.games_per_encounter:,} game(s) per encounter, {len(self.engines)} engines, "
                f"{self.format}); an event holds at most {MAX_EVENT_GAMES:,}",
            )
        return self


def _not_blank_path(value: Any) -> Any:
    """A path setting as given, unless it is blank text, which Path would read as "." (this folder)."""
    return given_path("", value) if isinstance(value, str) else value


def given_path(option: str, text: str) -> Path:
    """A path from the command line (``option``) or a file's setting (no option); blank text (an unset
    shell variable) is refused, not read as "."."""
    if not text.strip():
        raise ValueError(f"{option} is empty: give a path".lstrip())
    return Path(text)


def database_path(text: str, option: str = "--db") -> Path:
    """The database file ``--db`` (or, with ``option`` empty, a file's setting) names. `/`, `.` and
    blank text name no file (the run's lock and logs are named after the file)."""
    path = given_path(option, text)
    if not path.name:
        named = f"{option} {text!r}" if option else repr(text)
        raise ValueError(f"{named} names no file; give the database's file, such as match.sqlite")
    return path


def planned_game_count(format: str, engines: int, cycles: int, games_per_encounter: int) -> int:
    """How many games an event of this shape plans, counted without building the schedule."""
    encounters = {"round-robin": engines * (engines - 1) // 2, "gauntlet": engines - 1}.get(format, 1)
    return encounters * cycles * games_per_encounter


def printable_text(value: str, what: str) -> str:
    """`value` when it is not blank and holds no control character (a NUL or an escape sequence in a
    name would reach PDN files, the terminal and the site); else a ValueError naming `what`."""
    if not value.strip():
        raise ValueError(f"{what} is empty")
    bad = next((ch for ch in value if unicodedata.category(ch) == "Cc"), None)
    if bad is not None:
        raise ValueError(f"{what} holds the control character {bad!r}")
    return value


# Dask's own schemes whose addresses are HOST:PORT (an address without one is tcp).
_HOST_PORT_SCHEMES = ("tcp", "tls", "ws", "wss")


def check_scheduler_address(address: str) -> None:
    """Raise ValueError unless ``address`` has the shape of a Dask scheduler's (``tcp://HOST:8786``):
    told before anything is made, where Dask would refuse it only once the run has begun."""
    scheme, _, rest = address.strip().rpartition("://")
    if not rest:
        raise ValueError("no address given: the scheduler's is tcp://HOST:PORT, e.g. tcp://192.168.1.5:8786")
    if (scheme or "tcp") in _HOST_PORT_SCHEMES:
        host, colon, port = rest.rpartition(":")
        if not (colon and host and port.isdigit()):
            raise ValueError(f"{address!r} has no HOST:PORT: give the scheduler's as tcp://HOST:8786")


def load_tournament(path: Path) -> tuple[TournamentConfig, list[EngineConfig]]:
    """Read and validate a tournament file and resolve its engines (bundled, inline, or by reference)."""
    data, text = _read_toml(path)
    try:
        config = TournamentConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, path, text)) from None
    base = path.parent
    config = config.model_copy(
        update={
            "database": _relative(base, config.database),
            "report": _relative(base, config.report) if config.report else None,
            "engines_file": _relative(base, config.engines_file) if config.engines_file else None,
            "openings": (
                config.openings.model_copy(update={"file": _relative(base, config.openings.file)})
                if config.openings and config.openings.file
                else config.openings
            ),
        }
    )
    library: dict[str, dict[str, Any]] = {}
    library_path = config.engines_file
    library_text = ""
    if library_path is not None:
        library_data, library_text = _read_toml(library_path)
        for i, entry in enumerate(library_data.get("engines", [])):
            if not isinstance(entry, dict) or "name" not in entry:
                raise ConfigError(f"{library_path}: engines[{i}] has no name")
            library[str(entry["name"])] = entry
    engines: list[EngineConfig] = []
    entries = list(config.engines)
    for i, entry in enumerate(config.engines):
        raw = dict(entry.model_extra or {})
        own = _Table(path, text, ("engines", i), frozenset(raw))  # what the event file says of it
        source_path, source_text, where = path, text, ("engines", i)
        _refuse_clock_in_table(entry.name, raw, path, text, where)
        if entry.bundled:
            raw.setdefault("command", bundled_command(entry.bundled))
            raw.setdefault("score_unit", BUNDLED_SCORE_UNIT)
        elif "command" not in raw and "library" not in raw and raw.get("protocol") != "checkerboard":
            if entry.name not in library:
                # A misspelled key (`comand`, `bundeld`) is the mistake to name, not the command it hides.
                _refuse_unknown_engine_keys(entry.name, raw, path, text, where)
                known = ", ".join(sorted(library)) or "none"
                raise ConfigError(
                    f"{path}:{_line_of(text, ('engines', i, 'name'))}: engine {entry.name!r} has no command, "
                    f"no library, no 'bundled' name, and is not in the engines file (engines there: {known})"
                )
            raw = {k: v for k, v in library[entry.name].items() if k != "name"} | raw
            source_path, source_text = library_path or path, library_text
            where = ("engines", list(library).index(entry.name))
            _refuse_clock_in_table(entry.name, raw, source_path, source_text, where)
            # The engines file is a shared [[engines]] list: its entries may name a bundled engine too.
            if "bundled" in raw:
                try:
                    shared = EngineEntry.model_validate({"name": entry.name, "bundled": raw.pop("bundled")})
                except ValidationError as exc:
                    raise ConfigError(_describe(exc, source_path, source_text, prefix=where)) from None
                if shared.bundled:
                    raw.setdefault("command", bundled_command(shared.bundled))
                    raw.setdefault("score_unit", BUNDLED_SCORE_UNIT)
                    # Marked as the event file's own would be, so Dask workers start it with their Python.
                    entries[i] = entry.model_copy(update={"bundled": shared.bundled})
        try:
            engines.append(EngineConfig.model_validate({"name": entry.name, **raw}))
        except ValidationError as exc:
            raise ConfigError(_describe(exc, source_path, source_text, prefix=where, own=own)) from None
    return config.model_copy(update={"engines": entries}), engines


class _Table(NamedTuple):
    """An engine's table in the event file: where it is, and the keys it gives. An engine of the
    engines file may be given more keys there, each of which is told at its own line."""

    path: Path
    text: str
    where: tuple[str | int, ...]
    keys: frozenset[str]


def _refuse_unknown_engine_keys(
    name: str, raw: dict[str, Any], path: Path, text: str, where: tuple[str | int, ...]
) -> None:
    """Refuse the keys of an engine's table that no engine takes, each with its line, as the validation
    of a complete engine table tells them (validated here with a stand-in command)."""
    try:
        EngineConfig.model_validate({"name": name, "command": ["engine"], **raw})
    except ValidationError as exc:
        if any(error["type"] == "extra_forbidden" for error in exc.errors()):
            raise ConfigError(_describe(exc, path, text, prefix=where)) from None


# The keys a cutechess-cli user may give an engine's table for its clock (-engine tc= st= ...); the
# event's `time_controls` holds an engine's own clock, by name.
_CLOCK_IN_TABLE = ("tc", "st", "depth", "nodes", "timemargin", "time_control")


def _refuse_clock_in_table(
    name: str, raw: dict[str, Any], path: Path, text: str, where: tuple[str | int, ...]
) -> None:
    """Refuse an engine's own clock given in its table, naming the engine and saying where it goes,
    rather than as one more key the table does not take."""
    key = next((key for key in raw if key in _CLOCK_IN_TABLE), None)
    if key is None:
        return
    loc = (*where, key)
    raise ConfigError(
        f"{path}:{_line_of(text, loc)}: {'.'.join(str(part) for part in loc)}: engine {name!r}: an "
        "engine's own time control goes in the event's time_controls table, by name, not in the "
        f"engine's table: time_controls = {{ {json.dumps(name)} = {_clock_example(key, raw[key])} }}"
    )


def _clock_example(key: str, value: Any) -> str:
    """The `time_controls` value that says what an engine table's ``key = value`` meant, if it can."""
    if key == "tc" and value == "inf":
        return '"depth=N"'  # no clock: a limit alone
    if key in ("tc", "time_control") and isinstance(value, str) and value.strip():
        return json.dumps(from_cutechess(value.strip()))
    if (
        key in ("st", "depth", "nodes")
        and isinstance(value, str | int | float)
        and not isinstance(value, bool)
    ):
        return json.dumps(f"{key}={value}")
    if key == "timemargin":
        return '"CONTROL margin=SECONDS"'
    return '"CONTROL"'


def _relative(base: Path, value: Path) -> Path:
    """A path from the tournament file's folder, tidied (``data/../x`` is ``x``)."""
    return value if value.is_absolute() else Path(os.path.normpath(base / value))


def _read_toml(path: Path) -> tuple[dict[str, Any], str]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        hint = " (it looks like UTF-16)" if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else ""
        raise ConfigError(
            f"{path}:{line}: not UTF-8 text{hint}: byte {exc.start} cannot be decoded; save it as UTF-8"
        ) from None
    if text.startswith("\ufeff"):
        # TOML has no byte-order mark, and tomllib's "Invalid statement" would not say what is wrong.
        raise ConfigError(
            f"{path}:1: starts with a byte-order mark (U+FEFF), which TOML does not allow; save it as "
            "UTF-8 without a BOM"
        )
    import tomllib  # only a tournament file is TOML: `arbiter match` reads none

    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None


def error_location(error: ErrorDetails) -> tuple[str | int, ...]:
    """Where a validation error is: the key it was raised at, down to the key a `SettingError` names."""
    loc = tuple(error["loc"])
    cause = error.get("ctx", {}).get("error")
    return loc + cause.key if isinstance(cause, SettingError) else loc


def validation_problems(error: ValidationError, whole: str, under: str = "") -> str:
    """What a validation error says, one ``key: why`` a problem (``whole`` for the model itself; each
    key after ``under``, the model's own key where it is part of another), without pydantic's "Value
    error, " before a validator's own words."""
    return "; ".join(
        f"{under}{'.'.join(str(part) for part in item['loc']) or whole}: "
        f"{str(item['msg']).removeprefix('Value error, ')}"
        for item in error.errors()
    )


def _describe(
    exc: ValidationError,
    path: Path,
    text: str,
    prefix: tuple[str | int, ...] = (),
    own: _Table | None = None,
) -> str:
    """Each problem as ``file:line: key: why``; one at a key of `own` (the event file's table of an
    engine read from the engines file, `path`) is told in the event file."""
    lines = []
    for error in exc.errors():
        at_path, at_text, at_prefix = path, text, prefix
        if own is not None and error["loc"] and error["loc"][0] in own.keys:
            at_path, at_text, at_prefix = own.path, own.text, own.where
        loc = at_prefix + error_location(error)
        key = ".".join(str(p) for p in loc) or "(top level)"
        # pydantic's "Value error, " before a validator's own words says nothing to the file's author.
        message = str(error["msg"]).removeprefix("Value error, ")
        lines.append(f"{at_path}:{_line_of(at_text, loc)}: {key}: {message}")
    return "\n".join(lines)


def setting_place(path: Path, key: tuple[str | int, ...]) -> str:
    """``file:line: key`` of a setting of the tournament file `path`, for a mistake found only once the
    settings are put to use (an openings count the deck cannot fill)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""  # read when it was loaded: gone or changed since, the key alone still says which
    return f"{path}:{_line_of(text, key)}: {'.'.join(str(part) for part in key)}"


def _line_of(text: str, loc: tuple[str | int, ...]) -> int:
    """Best-effort line number of a key in TOML text: table headers, array-of-table entries, then keys."""
    lines = text.splitlines()
    start = 0
    table: list[str] = []
    i = 0
    while i < len(loc):
        part = loc[i]
        nxt = loc[i + 1] if i + 1 < len(loc) else None
        if isinstance(part, str) and isinstance(nxt, int):
            # [[part]] entry number nxt
            header = re.compile(rf"^\s*\[\[\s*{re.escape('.'.join([*table, part]))}\s*\]\]")
            seen = -1
            for n in range(start, len(lines)):
                if header.match(lines[n]):
                    seen += 1
                    if seen == nxt:
                        start = n
                        break
            table.append(part)
            i += 2
            continue
        if isinstance(part, str):
            # A table, or the first entry of an array of tables ([[engines]] for the list as a whole).
            header = re.compile(rf"^\s*\[\[?\s*{re.escape('.'.join([*table, part]))}\s*\]")
            key = re.compile(rf"^\s*{re.escape(part)}\s*=")
            for n in range(start, len(lines)):
                if header.match(lines[n]) or key.match(lines[n]):
                    start = n
                    break
            table.append(part)
        i += 1
    return start + 1
