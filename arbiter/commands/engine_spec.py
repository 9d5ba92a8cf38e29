"""Engines on the command line: one function reads every way `play`, `match` and the cutechess-style
`-engine` flag name an engine, so a new kind of engine is added in one place.

An engine is written as one of:

- a bundled engine's name: ``alphabeta``;
- a CheckerBoard engine library: ``cb:/path/engine.so`` (``cmd=cb:/path/engine.so`` among settings);
- a command line (split as a shell would, never run through one): ``"./scan hub"``;
- ``key=value`` words, as cutechess-cli's ``-engine`` takes them::

      "cmd=./scan arg=hub dir=/opt/scan name=Scan option.threads=2 variant.international=normal"
      "cmd='./moby -p {port}' proto=dxp listen=engine name=Moby"

The keys are listed in ``SPEC_KEYS``.
"""

from __future__ import annotations

import math
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from arbiter.engines import EngineConfig, Timeouts
from arbiter.engines.checkerboard import checkerboard_entry, is_checkerboard_name
from arbiter.players import PLAYER_MODULES
from arbiter.referee.timecontrol import TimeControlError, from_cutechess, parse_time_control, with_margin
from arbiter.tournament.config import BUNDLED_SCORE_UNIT, bundled_command, validation_problems

SPEC_KEYS: dict[str, str] = {
    "cmd": "the program (or a bundled engine's name); a quoted value may hold its arguments too",
    "arg": "one more argument (repeat the key for more)",
    "args": "the arguments in one value, split as a shell would (fastchess's args=)",
    "name": "the engine's name in the event (default: the program's)",
    "dir": "the working directory the engine is started in",
    "proto": "hub (the default) or dxp",
    "port": "DXP: the port (0 or absent: the arbiter picks one and passes it through {port})",
    "listen": "DXP: who listens, engine (the default) or arbiter",
    "option.NAME": "a Hub parameter (set-param) of the engine",
    "variant.ID": "the engine's own name for the arbiter's variant ID (variant.international=normal)",
    "score": "the unit of the engine's scores: men, centi-men or milli-men",
    "debug": "true: log every line sent to and read from this engine",
    "tc": "the engine's own time control (-each tc= gives one to all); as in cutechess-cli, 1:30+1 is "
    "90 s and 1 s a move",
    "st": "seconds per move: the time control st=N",
    "depth": "a fixed depth: the time control depth=N",
    "nodes": "a fixed node count: the time control nodes=N",
    "timemargin": "milliseconds a move may be late: the margin of the clock the engine plays under, its own "
    "or the event's",
    "timeouts.NAME": "seconds the arbiter waits for the engine, as a tournament file's [engines.timeouts]: "
    "timeouts.handshake= (its start, 10), timeouts.ready= (init and each new game, 30), stop, ping, quit, "
    "kill, search",
}
_LISTEN = {"engine": "engine_listens", "arbiter": "engine_connects"}
# The settings that give an engine a time control of its own; it plays under one of them.
CLOCK_KEYS = ("tc", "st", "depth", "nodes")
_EACH = "--each "  # before a setting that --each gave
# What tc=inf alone is told: cutechess-cli's "no clock" still needs something that ends a search.
_NO_CLOCK = "an engine with no clock needs a limit of its own: depth=N or nodes=N (or st=S, a time a move)"


class EngineSpecError(ValueError):
    """An engine that cannot be read from the command line; the message says which word and why."""


@dataclass(frozen=True)
class EngineSpec:
    """An engine read from the command line: its configuration, and the bundled name, clock and time
    margin that the caller handles."""

    config: EngineConfig
    bundled: str | None = None
    time_control: str | None = None
    """The engine's own clock (tc=, st=, depth=, nodes=), if it has one."""
    clock_setting: str | None = None
    """The setting that gave it that clock, as given (``tc=60``, or ``--each st=1``)."""
    time_margin: float | None = None
    """Its timemargin= in seconds, if given."""

    @property
    def clock_from_each(self) -> bool:
        """Whether its clock is one that --each gave it."""
        return self.clock_setting is not None and self.clock_setting.startswith(_EACH)

    def control_played(self, event_control: str) -> str:
        """The time control the engine plays under: its own clock, or else ``event_control``, with its
        own margin. As in cutechess-cli, timemargin is the engine's whichever option gives its clock."""
        clock = self.time_control or event_control
        return clock if self.time_margin is None else with_margin(clock, self.time_margin)

    def entry(self) -> dict[str, Any]:
        """The engine as a tournament file's `[[engines]]` entry (the stored configuration)."""
        data = self.config.model_dump(mode="json", exclude_defaults=True)
        data["name"] = self.config.name
        if self.bundled is not None:
            data["bundled"] = self.bundled
        return data


def is_spec_word(word: str) -> bool:
    """Whether a word is a `key=value` setting of an engine, rather than a program or an argument."""
    key, equals, _ = word.partition("=")
    return bool(equals) and (key in SPEC_KEYS or key.startswith(("option.", "variant.", "timeouts.")))


def parse_engine_spec(
    text: str | list[str],
    *,
    taken: set[str] | None = None,
    variant_names: dict[str, str] | None = None,
    debug: bool = False,
    each: dict[str, list[str]] | None = None,
) -> EngineSpec:
    """The engine ``text`` names (see the module's documentation).

    ``taken`` holds the names given so far: a second engine of the same name gets ``-2``.
    ``variant_names`` and ``debug`` apply to every engine of the command (its own settings come first),
    and so do ``each``'s settings (`parse_each`), but for the keys the engine sets itself; an engine
    with a clock of its own takes none of ``each``'s clock settings (its tc=60 and --each st=1: tc=60).
    """
    words = _words(text)
    if not words:
        raise EngineSpecError("an engine is empty")
    if all(is_spec_word(word) for word in words):
        fields = _fields(words, "engine")
    elif is_spec_word(words[0]) or words[0].partition("=")[0] in _CUTECHESS_ONLY_KEYS:
        # A cutechess-cli setting first (`conf=NAME`, its engines.json entry) is no program to run.
        raise EngineSpecError(f"engine {' '.join(words)!r}: {_not_a_setting(words)}")
    else:
        fields = {"cmd": [shlex.join(words)]}
    own_clock = any(key in CLOCK_KEYS and fields[key] != ["inf"] for key in fields)
    each_keys = {key for key in each or {} if key not in fields and not (own_clock and key in CLOCK_KEYS)}
    fields |= {key: (each or {})[key] for key in each_keys}
    if "cmd" not in fields:
        raise EngineSpecError(f"engine {' '.join(words)!r} has no cmd=")
    return _build(fields, each_keys, taken, variant_names or {}, debug)


def parse_each(text: str) -> dict[str, list[str]]:
    """The settings of `--each` (cutechess-cli's -each: settings of every engine), checked as its own:
    a mistake in them is told as --each's, not as the first engine's that it would reach."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise EngineSpecError(f"--each {text!r}: {error}") from None
    if not all(is_spec_word(word) for word in words):
        raise EngineSpecError(f"--each {text!r}: {_not_a_setting(words)}")
    fields = _fields(words, "--each")
    if "name" in fields:
        # Every engine of one name, then told apart by the -2 the second gets: never what is meant
        # (cutechess-cli would give both the one name, fastchess the second a suffix).
        raise EngineSpecError(
            f"--each name={fields['name'][0]}: one name cannot name every engine; give each its own in its "
            "--engine settings (name=...)"
        )
    own = _own_clock(fields, set(fields), where="")
    if own is not None and own[1] is not None:  # tc=inf alone waits for an engine's own limit
        _check_clock(own[0], own[1], where="")
    _time_margin(fields, set(fields), where="")
    try:
        Timeouts.model_validate(_timeouts(fields, "--each "))
    except ValidationError as error:
        said = validation_problems(error, "timeouts", under="timeouts.")
        raise EngineSpecError(f"--each {text!r}: {said}") from None
    return fields


# cutechess-cli engine settings that have no key here, with what does their work instead.
_CUTECHESS_ONLY_KEYS = {
    "restart": "an engine is kept from game to game and started afresh after a crash (a tournament file's "
    "reuse_engines = false starts it for every game)",
    "stderr": "each engine's stderr is kept in the logs folder beside the database",
    "book": "openings come from -openings file=F (--openings)",
    "bookdepth": "openings come from -openings file=F (--openings)",
    "initstr": "Hub's start-up lines are the arbiter's to send; an engine's parameters are option.NAME=VALUE",
    "conf": "give the engine's cmd= and settings (a tournament file can hold them: `arbiter run`)",
}


def _not_a_setting(words: list[str]) -> str:
    """What is wrong with the first of ``words`` that is no engine setting."""
    odd = next(word for word in words if not is_spec_word(word))
    key, equals, _ = odd.partition("=")
    what = f"unknown setting {key}=" if equals else f"{odd!r} is not a key=value setting"
    instead = _CUTECHESS_ONLY_KEYS.get(key) if equals else None
    if instead is not None:
        return f"{what}, a cutechess-cli setting the arbiter does not take: {instead}"
    return f"{what}; keys: {', '.join(SPEC_KEYS)}"


def _words(text: str | list[str]) -> list[str]:
    if isinstance(text, list):
        return text
    try:
        return shlex.split(text)
    except ValueError as error:
        raise EngineSpecError(f"engine {text!r}: {error}") from None


def _fields(words: list[str], whose: str) -> dict[str, list[str]]:
    fields: dict[str, list[str]] = {}
    for word in words:
        key, _, value = word.partition("=")
        fields.setdefault(key, []).append(value)
    for key, values in fields.items():
        if len(values) > 1 and key != "arg":
            raise EngineSpecError(f"{whose} setting {key}= is given {len(values)} times")
    return fields


def _setting(key: str, value: str, each_keys: set[str]) -> str:
    """A setting as the user gave it: ``tc=60``, or ``--each tc=60`` when it came from --each."""
    return f"{_EACH}{key}={value}" if key in each_keys else f"{key}={value}"


def _one(fields: dict[str, list[str]], key: str) -> str | None:
    values = fields.get(key)
    return values[0] if values else None


def _build(
    fields: dict[str, list[str]],
    each_keys: set[str],
    taken: set[str] | None,
    variant_names: dict[str, str],
    debug: bool,
) -> EngineSpec:
    cmd = _one(fields, "cmd") or ""
    bundled = cmd if cmd in PLAYER_MODULES else None
    library: dict[str, object] = {}
    if is_checkerboard_name(cmd):
        library = checkerboard_entry(cmd)
        command = [str(library.pop("name"))]  # only names the engine: the library is the program
    elif bundled is not None:
        command = bundled_command(bundled)
    else:
        try:
            command = shlex.split(cmd)
        except ValueError as error:
            raise EngineSpecError(f"engine cmd={cmd!r}: {error}") from None
        if not command:
            raise EngineSpecError("an engine's cmd= is empty")
    command += fields.get("arg", [])
    if (args := _one(fields, "args")) is not None:
        try:
            command += shlex.split(args)
        except ValueError as error:
            raise EngineSpecError(f"engine args={args!r}: {error}") from None
    name = _one(fields, "name") or bundled or default_engine_name(command)
    if taken is not None:
        base, number = name, 2
        while name in taken:
            name, number = f"{base}-{number}", number + 1
        taken.add(name)
    data: dict[str, Any] = {"name": name, **library} if library else {"name": name, "command": command}
    proto = _one(fields, "proto")
    if proto is not None:
        if proto not in ("hub", "dxp", "checkerboard"):
            raise EngineSpecError(f"engine {name!r}: proto={proto!r}: the arbiter speaks hub and dxp")
        data["protocol"] = proto
    if (directory := _one(fields, "dir")) is not None:
        data["working_dir"] = Path(directory).expanduser()
    dxp: dict[str, Any] = {}
    if (port := _one(fields, "port")) is not None:
        if not port.isdigit():
            raise EngineSpecError(f"engine {name!r}: port={port!r} is not a port number")
        dxp["port"] = int(port)
    if (listen := _one(fields, "listen")) is not None:
        if listen not in _LISTEN:
            raise EngineSpecError(f"engine {name!r}: listen={listen!r}: say engine or arbiter")
        dxp["mode"] = _LISTEN[listen]
    if dxp:
        data["dxp"] = dxp
    params = {
        key.removeprefix("option."): values[0] for key, values in fields.items() if key.startswith("option.")
    }
    if params:
        data["params"] = params
    own_names = {
        key.removeprefix("variant."): v[0] for key, v in fields.items() if key.startswith("variant.")
    }
    # The command's --variant-name is for the engines that take variant names: not a checkerboard
    # engine, whose game type decides its variants (its own variant.ID= keys are refused below).
    names = {**variant_names, **own_names} if not library else own_names
    if names:
        data["variant_names"] = names
    timeouts = _timeouts(fields, f"engine {name!r}: ")
    if timeouts:
        data["timeouts"] = timeouts
    score = _one(fields, "score") or (BUNDLED_SCORE_UNIT if bundled is not None else None)
    if score is not None:
        data["score_unit"] = score
    engine_debug = _one(fields, "debug")
    if engine_debug is not None and engine_debug not in ("true", "false"):
        raise EngineSpecError(f"engine {name!r}: debug={engine_debug!r}: say true or false")
    if debug or engine_debug == "true":
        data["debug"] = True
    try:
        config = EngineConfig.model_validate(data)
    except ValidationError as error:
        raise EngineSpecError(f"engine {name!r}: {validation_problems(error, 'engine')}") from None
    where = f"engine {name!r}: "
    setting, clock = _time_control(fields, each_keys, where)
    margin = _time_margin(fields, each_keys, where)
    return EngineSpec(config, bundled, time_control=clock, clock_setting=setting, time_margin=margin)


def _timeouts(fields: dict[str, list[str]], where: str) -> dict[str, float]:
    """The timeouts.NAME= settings, in seconds (their bounds are the configuration's to check); a
    mistake is told after ``where`` (``engine 'E': ``, or ``--each ``)."""
    waits: dict[str, float] = {}
    for key, values in fields.items():
        if not key.startswith("timeouts."):
            continue
        wait = key.removeprefix("timeouts.")
        if wait not in Timeouts.model_fields:
            known = ", ".join(Timeouts.model_fields)
            raise EngineSpecError(f"{where}{key}=: no such timeout; timeouts: {known}")
        try:
            waits[wait] = float(values[0])
        except ValueError:
            raise EngineSpecError(f"{where}{key}={values[0]}: give seconds, e.g. {key}=60") from None
    return waits


_INTERPRETER = re.compile(r"^(python|pypy|node|java|perl|ruby|sh|bash|wine|mono)[0-9.]*(\.exe)?$")


def default_engine_name(command: list[str]) -> str:
    """An engine's name when none is given: its program's, or its script's when the program is an
    interpreter (``python3 engines/mine.py`` is ``mine``, not ``python3``)."""
    program = Path(command[0]).name
    if _INTERPRETER.match(program):
        script = next((arg for arg in command[1:] if not arg.startswith("-")), None)
        if script is not None:
            return Path(script).stem or program
    return program or "engine"


def _time_control(
    fields: dict[str, list[str]], each_keys: set[str], where: str
) -> tuple[str | None, str | None]:
    """(the setting as given, the engine's own clock), if it has one. One that cannot be read is refused
    here, naming the engine (``where``) and its setting: the --tc option may not even be given."""
    own = _own_clock(fields, each_keys, where)
    if own is None:
        return None, None
    setting, clock = own
    if clock is None:
        raise EngineSpecError(f"{where}{setting}: {_NO_CLOCK}")
    _check_clock(setting, clock, where)
    return setting, clock


def _check_clock(setting: str, clock: str, where: str) -> None:
    try:
        parse_time_control(clock)
    except TimeControlError as error:
        raise EngineSpecError(f"{where}{setting}: {error}") from None


def _own_clock(
    fields: dict[str, list[str]], each_keys: set[str], where: str
) -> tuple[str, str | None] | None:
    """(the setting as given, the clock it gives: None for tc=inf alone) of the tc=, st=, depth= and
    nodes= settings, if any. An engine plays under one clock or limit, so two are refused rather than
    one dropped; tc=inf only says there is no clock (tc=inf depth=3 searches to depth 3)."""
    given = [(key, value) for key, values in fields.items() if key in CLOCK_KEYS for value in values]
    clocks = [(key, value) for key, value in given if (key, value) != ("tc", "inf")]
    if len(clocks) > 1:
        first, second = (_setting(key, value, each_keys) for key, value in clocks[:2])
        raise EngineSpecError(
            f"{where}{first} and {second} are two time controls, and an engine plays under one: give one "
            "of them (no clock and a limit: tc=inf with depth=N, nodes=N or st=S)"
        )
    if clocks:
        key, value = clocks[0]
        return _setting(key, value, each_keys), from_cutechess(value) if key == "tc" else f"{key}={value}"
    return (_setting("tc", "inf", each_keys), None) if given else None


def _time_margin(fields: dict[str, list[str]], each_keys: set[str], where: str) -> float | None:
    """The timemargin= setting (milliseconds) in seconds, if given."""
    text = _one(fields, "timemargin")
    if text is None:
        return None
    try:
        milliseconds = float(text)
    except ValueError:
        milliseconds = math.nan
    if not (math.isfinite(milliseconds) and milliseconds >= 0):
        setting = _setting("timemargin", repr(text), each_keys)
        raise EngineSpecError(f"{where}{setting} is not a number of milliseconds (0 or more)")
    return milliseconds / 1000


def parse_variant_names(pairs: list[str]) -> dict[str, str]:
    """`--variant-name ID=NAME` options as a mapping (international=normal: the engine says normal)."""
    names: dict[str, str] = {}
    for pair in pairs:
        variant, equals, name = pair.partition("=")
        if not equals or not variant or not name:
            raise EngineSpecError(f"--variant-name expects ID=NAME (international=normal), not {pair!r}")
        names[variant] = name
    return names


def command_line_engines(
    texts: list[str | list[str]],
    *,
    variant_names: list[str] | None = None,
    debug: bool = False,
    each: dict[str, list[str]] | None = None,
) -> list[EngineSpec]:
    """The engines of one command, named apart, each with the command's variant names, debug flag and
    ``each`` settings (an engine's own ``tc=`` is kept in its spec: the caller gives it that clock)."""
    names = parse_variant_names(variant_names or [])
    taken: set[str] = set()
    return [
        parse_engine_spec(text, taken=taken, variant_names=names, debug=debug, each=each) for text in texts
    ]
