"""Declared parameters, configured values, the variant, and the engine configuration model."""

from __future__ import annotations

import os
import sys

import pytest
from pydantic import ValidationError

from arbiter.engines import (
    EngineConfig,
    EngineConfigError,
    VariantUnsupported,
    resolve_settings,
    variant_setting,
)
from arbiter.engines.hub_wire import parse_line
from arbiter.engines.params import ParamDecl, encode_value, parse_param

SCAN_PARAMS = [
    'param name=variant value=normal type=enum values="normal killer bt frisian losing"',
    "param name=book value=true type=bool",
    "param name=book-ply value=4 type=int min=0 max=20",
    "param name=tt-size value=24 type=int min=16 max=30",
    "param name=margin value=0.5 type=real min=0 max=2.5",
    'param name=book-file value="data/book" type=string',
]


def declared() -> dict[str, ParamDecl]:
    decls = [parse_param(parse_line(text).fields) for text in SCAN_PARAMS]
    return {decl.name: decl for decl in decls}


def test_param_lines_are_read_with_their_types_ranges_and_values() -> None:
    params = declared()
    assert params["variant"].values == ("normal", "killer", "bt", "frisian", "losing")
    assert (params["book-ply"].type, params["book-ply"].min, params["book-ply"].max) == ("int", 0, 20)
    assert params["book-file"].default == "data/book"
    assert params["margin"].describe() == "real 0..2.5"


def test_a_broken_param_declaration_is_refused() -> None:
    with pytest.raises(ValueError, match="enum without values"):
        parse_param({"name": "x", "type": "enum"})
    with pytest.raises(ValueError, match="not a number"):
        parse_param({"name": "x", "type": "int", "min": "low"})


@pytest.mark.parametrize(
    ("name", "value", "text"),
    [
        ("book", True, "true"),
        ("book", "false", "false"),
        ("book-ply", 8, "8"),
        ("book-ply", "8", "8"),
        ("margin", 1, "1"),
        ("margin", 0.25, "0.25"),
        ("book-file", "my book.bin", "my book.bin"),
        ("variant", "killer", "killer"),
    ],
)
def test_a_value_that_fits_its_declaration_is_encoded(
    name: str, value: bool | int | float | str, text: str
) -> None:
    assert encode_value(declared()[name], value) == text


@pytest.mark.parametrize(
    ("name", "value", "complaint"),
    [
        ("book", 1, "true or false"),
        ("book", "yes", "true or false"),
        ("book-ply", 21, "outside"),
        ("book-ply", 2.5, "whole number"),
        ("book-ply", True, "whole number"),
        ("book-ply", "many", "whole number"),
        ("margin", 3.0, "outside"),
        ("margin", float("inf"), "number"),
        ("variant", "english", "one of normal, killer"),
        ("book-file", 3, "text"),
        ("book-file", 'a "quoted" name', "double quotes"),
    ],
)
def test_a_value_that_does_not_fit_its_declaration_is_refused(
    name: str, value: bool | int | float | str, complaint: str
) -> None:
    with pytest.raises(ValueError, match=complaint):
        encode_value(declared()[name], value)


def test_configuration_errors_name_every_bad_parameter_before_any_game() -> None:
    with pytest.raises(EngineConfigError) as caught:
        resolve_settings("scan", declared(), {"tt-size": 40, "threads": 4, "book": True})
    message = str(caught.value)
    assert "engine 'scan'" in message
    assert "'tt-size' (int 16..30)" in message and "40 is outside" in message
    assert "'threads' is not declared" in message and "variant, book, book-ply" in message


def test_settings_come_in_configuration_order_with_the_variant_last() -> None:
    settings = resolve_settings("scan", declared(), {"book": False, "tt-size": 22}, "killer")
    assert settings == [("book", "false"), ("tt-size", "22"), ("variant", "killer")]


def test_the_variant_is_set_through_the_engine_s_own_name_for_it() -> None:
    assert variant_setting("scan", declared(), "international", {"international": "normal"}) == "normal"


def test_an_engine_that_cannot_play_the_variant_is_refused_with_a_message_that_says_so() -> None:
    with pytest.raises(VariantUnsupported) as caught:
        variant_setting("scan", declared(), "english")
    message = str(caught.value)
    assert "cannot play variant 'english'" in message
    assert "normal, killer, bt, frisian, losing" in message
    assert "variant_names" in message


def test_an_engine_without_a_variant_parameter_plays_the_board_it_is_given() -> None:
    params = declared()
    del params["variant"]
    assert variant_setting("plain", params, "english") is None
    assert resolve_settings("plain", params, {}, "english") == []


def test_the_variant_may_not_also_be_set_as_a_parameter() -> None:
    with pytest.raises(EngineConfigError, match="set by the tournament"):
        resolve_settings("scan", declared(), {"variant": "normal"}, "international")


def _config(**fields: object) -> EngineConfig:
    return EngineConfig.model_validate({"name": "e", "command": [sys.executable, "engine.py"], **fields})


def test_engine_configuration_has_explicit_defaults_for_every_timeout() -> None:
    config = _config()
    assert config.protocol == "hub"
    assert config.timeouts.handshake > 0 and config.timeouts.quit > 0 and config.timeouts.kill > 0


@pytest.mark.parametrize(
    ("fields", "complaint"),
    [
        ({"command": []}, "at least 1"),
        ({"command": [" "]}, "program"),
        ({"protocol": "uci"}, "hub"),
        ({"timeouts": {"ping": 0}}, "greater than 0"),
        ({"timeouts": {"pong": 1}}, "Extra inputs"),
        ({"memory_limit_mb": -5}, "greater than 0"),
        ({"cpu_affinity": []}, "lists no CPU"),
        ({"cpu_affinity": [4096]}, "does not offer"),
        ({"protocol": "dxp"}, "{port}"),
        ({"protocol": "dxp", "dxp": {"port": 27531}, "params": {"x": 1}}, "no parameters"),
        ({"shell": True}, "Extra inputs"),
    ],
)
def test_a_bad_engine_configuration_is_refused_with_the_reason(
    fields: dict[str, object], complaint: str
) -> None:
    with pytest.raises(ValidationError, match=complaint):
        _config(**fields)


def test_cpu_affinity_accepts_the_cpus_this_machine_offers() -> None:
    cpus = sorted(os.sched_getaffinity(0))
    assert _config(cpu_affinity=cpus[:1]).cpu_affinity == cpus[:1]
