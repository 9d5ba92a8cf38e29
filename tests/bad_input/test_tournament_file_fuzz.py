"""Random tournament files built from the real keys, with wrong types and extreme values: each is
either accepted or refused with a clear message naming the file, never a traceback, never a hang.

Each file goes the way `arbiter run` takes one before it opens a database: read and validated, its
engines resolved, its games planned and its openings checked. Every example must end within the
deadline below, however large the numbers in it.
"""

from __future__ import annotations

import math
from datetime import timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from arbiter.engines.config import DxpSettings, EngineConfig, Timeouts
from arbiter.running.runner import TournamentRunner
from arbiter.tournament.config import Adjudication, ConfigError, Openings, TournamentConfig, load_tournament
from arbiter.tournament.openings import OpeningError

# Keys whose text names a file or a process: given text, they would make the test touch the machine.
PATHS = {"database", "report", "engines_file", "file", "working_dir", "command", "scheduler"}

TOP_KEYS = sorted(set(TournamentConfig.model_fields) - {"engines", "openings", "adjudication"})
OPENING_KEYS = sorted(Openings.model_fields)
ADJUDICATION_KEYS = sorted(Adjudication.model_fields)
ENGINE_KEYS = sorted(set(EngineConfig.model_fields) - {"timeouts", "dxp"} | {"bundled"})
TIMEOUT_KEYS = sorted(Timeouts.model_fields)
DXP_KEYS = sorted(DxpSettings.model_fields)

BASE: dict[str, Any] = {
    "name": "fuzzed event",
    "database": "event.sqlite",
    "time_control": "depth=1",
    "openings": {"deck": "acf-156"},
    "adjudication": {"max_plies": 100},
    "engines": [{"name": "a", "bundled": "random"}, {"name": "b", "bundled": "greedy"}],
}

extreme_ints = st.sampled_from([0, -1, 1, 2, 3, 10**6, 10**6 + 1, 2**31, 2**63, -(2**63), 10**20, 10**100])
odd_floats = st.sampled_from([0.0, -0.0, -1.5, 1e-300, 1e300, math.inf, -math.inf, math.nan, 0.1, 7.0])
odd_texts = st.sampled_from(
    [
        "",
        " ",
        "2",
        "yes",
        "true",
        "inf",
        "nan",
        "-1",
        "acf",
        "st=0",
        "depth=99999999999999999999",
        "99999999999999999999/1",
        "\x00",
        "caf\u00e9",
        "a" * 300,
        "acf-156",
        "round-robin",
        "english+iyt-draws",
    ]
) | st.text(max_size=12)
scalars = st.one_of(extreme_ints, odd_floats, odd_texts, st.booleans())
values = st.one_of(
    scalars,
    st.lists(scalars, max_size=4),
    st.dictionaries(st.sampled_from(["a", "seed", "hash", "x"]), scalars, max_size=3),
)


def toml_value(value: Any) -> str:
    """A value in TOML (the standard library reads TOML but does not write it)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return (
            '"'
            + "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}" for c in value)
            + '"'
        )
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    assert isinstance(value, dict)
    return "{ " + ", ".join(f'"{key}" = {toml_value(item)}' for key, item in value.items()) + " }"


def toml_text(data: dict[str, Any]) -> str:
    lines = [
        f'"{key}" = {toml_value(value)}' for key, value in data.items() if not isinstance(value, dict | list)
    ]
    lines += [
        f'"{key}" = {toml_value(value)}'
        for key, value in data.items()
        if isinstance(value, list) and key != "engines"
    ]
    for key, value in data.items():
        if isinstance(value, dict):
            lines.append(f"[{key}]")
            lines += [f'"{inner}" = {toml_value(item)}' for inner, item in value.items()]
    for engine in data.get("engines", []) if isinstance(data.get("engines"), list) else []:
        lines.append("[[engines]]")
        lines += [f'"{inner}" = {toml_value(item)}' for inner, item in engine.items()]
    return "\n".join(lines) + "\n"


@st.composite
def tournament_files(draw: st.DrawFn) -> dict[str, Any]:
    data: dict[str, Any] = {
        key: (
            dict(value)
            if isinstance(value, dict)
            else [dict(e) for e in value]
            if isinstance(value, list)
            else value
        )
        for key, value in BASE.items()
    }
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.sampled_from(["top", "openings", "adjudication", "engine", "timeouts", "dxp"]))
        keys = {
            "top": TOP_KEYS,
            "openings": OPENING_KEYS,
            "adjudication": ADJUDICATION_KEYS,
            "engine": ENGINE_KEYS,
            "timeouts": TIMEOUT_KEYS,
            "dxp": DXP_KEYS,
        }[where]
        key = draw(st.sampled_from(keys))
        value = draw(values)
        if key in PATHS and isinstance(value, str | list | dict):
            continue  # text there names a file or a program: not what this test is about
        if where == "top":
            data[key] = value
        elif where in ("openings", "adjudication"):
            data[where][key] = value
        else:
            engine = data["engines"][draw(st.integers(0, 1))]
            if where == "engine":
                engine[key] = value
            else:
                engine.setdefault(where, {})[key] = value
    return data


@settings(
    max_examples=150,
    deadline=timedelta(seconds=30),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=tournament_files())
def test_any_tournament_file_is_accepted_or_refused_clearly(data: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "fuzzed.toml"
    path.write_text(toml_text(data), encoding="utf-8")
    try:
        config, engines = load_tournament(path)
        TournamentRunner(config, engines)  # plans every game and checks the openings
        event("accepted")
    except ConfigError as refused:
        event("refused while reading")
        message = str(refused)
        assert message.startswith(str(path)), message
        assert "Traceback" not in message
    except (ValueError, OpeningError) as refused:  # what `arbiter run` reports after loading the file
        event("refused while planning")
        assert str(refused).strip(), "an empty message"
