"""Engine identity and parameters: what an engine declares at start-up, and checking the configured
values (and the variant) against it before any game is played."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from arbiter.engines.config import EngineConfig, ParamValue
from arbiter.engines.faults import EngineConfigError, VariantUnsupported
from arbiter.engines.hub_wire import format_seconds, quote_value
from arbiter.engines.variant_names import engine_variant_name

PARAM_TYPES = ("bool", "int", "real", "string", "enum")
VARIANT_PARAM = "variant"


@dataclass(frozen=True)
class ParamDecl:
    """One `param` line. ``type`` is one of PARAM_TYPES, or whatever unknown word the engine sent (such a
    parameter is set to the configured text as it is)."""

    name: str
    type: str
    default: str = ""
    min: float | None = None
    max: float | None = None
    values: tuple[str, ...] = ()

    def describe(self) -> str:
        """A short human description: `int 1..1024`, `enum normal|killer`, `bool`."""
        if self.type == "enum":
            return "enum " + "|".join(self.values)
        if self.min is not None or self.max is not None:
            low = "" if self.min is None else format_seconds(self.min)
            high = "" if self.max is None else format_seconds(self.max)
            return f"{self.type} {low}..{high}"
        return self.type


@dataclass(frozen=True)
class EngineIdentity:
    """The `id` line (or, for DXP, the name in the game acceptance) and the declared parameters."""

    name: str = ""
    version: str = ""
    author: str = ""
    country: str = ""
    extra: dict[str, str] = field(default_factory=dict)
    params: dict[str, ParamDecl] = field(default_factory=dict)


def parse_identity(fields: Mapping[str, str], params: Mapping[str, ParamDecl]) -> EngineIdentity:
    rest = dict(fields)
    return EngineIdentity(
        name=rest.pop("name", ""),
        version=rest.pop("version", ""),
        author=rest.pop("author", ""),
        country=rest.pop("country", ""),
        extra=rest,
        params=dict(params),
    )


def parse_param(fields: Mapping[str, str]) -> ParamDecl:
    """A `param` line's fields as a declaration. Raises ValueError for a declaration that makes no sense."""
    name = fields.get("name", "")
    if not name:
        raise ValueError("a param line without a name")
    kind = fields.get("type", "string")

    def bound(key: str) -> float | None:
        text = fields.get(key)
        if text is None:
            return None
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"param {name}: {key}={text!r} is not a number") from None

    values = tuple(fields.get("values", "").split())
    if kind == "enum" and not values:
        raise ValueError(f"param {name}: an enum without values")
    return ParamDecl(name, kind, fields.get("value", ""), bound("min"), bound("max"), values)


def encode_value(decl: ParamDecl, value: ParamValue) -> str:
    """The text to send in `set-param` for ``value``; ValueError when it does not fit the declaration."""
    if decl.type == "bool":
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str) and value in ("true", "false"):
            return value
        raise ValueError(f"expects true or false, not {value!r}")
    if decl.type in ("int", "real"):
        number = _as_number(decl, value)
        _check_range(decl, number)
        return str(int(number)) if decl.type == "int" else format_seconds(number)
    if decl.type == "enum":
        if not isinstance(value, str) or value not in decl.values:
            raise ValueError(f"expects one of {', '.join(decl.values)}, not {value!r}")
        return value
    if decl.type == "string" and not isinstance(value, str):
        raise ValueError(f"expects text, not {value!r}")
    text = ("true" if value else "false") if isinstance(value, bool) else str(value)
    quote_value(text)  # raises for text the protocol cannot carry
    return text


def _as_number(decl: ParamDecl, value: ParamValue) -> float:
    kind = "a whole number" if decl.type == "int" else "a number"
    if isinstance(value, bool):
        raise ValueError(f"expects {kind}, not {value!r}")
    if isinstance(value, str):
        try:
            value = int(value) if decl.type == "int" else float(value)
        except ValueError:
            raise ValueError(f"expects {kind}, not {value!r}") from None
    if decl.type == "int" and not isinstance(value, int):
        raise ValueError(f"expects {kind}, not {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"expects {kind}, not {value!r}")
    return float(value) if decl.type == "real" else value


def _check_range(decl: ParamDecl, number: float) -> None:
    if decl.min is not None and number < decl.min or decl.max is not None and number > decl.max:
        raise ValueError(f"{number!r} is outside {decl.describe()}")


def variant_setting(
    engine: str,
    declared: Mapping[str, ParamDecl],
    variant: str,
    names: Mapping[str, str] | None = None,
    *,
    renamable: bool = True,
) -> str | None:
    """The value to give the engine's `variant` parameter for the arbiter's ``variant`` id.

    ``names`` maps arbiter variant ids to the engine's own names (Scan calls international draughts
    `normal`). None when the engine declares no `variant` parameter: it then plays the board it is given.
    Raises VariantUnsupported when the declared values do not list the variant; its message suggests a
    name mapping only where the engine takes one (``renamable``: not a checkerboard engine).
    """
    decl = declared.get(VARIANT_PARAM)
    if decl is None:
        return None
    value = engine_variant_name(variant, decl.values if decl.type == "enum" else None, names)
    if decl.type == "enum" and value not in decl.values:
        offered = ", ".join(decl.values)
        own = f" (its name for it: {value!r})" if value != variant else ""
        hint = (
            ""
            if names or not renamable
            else f"; if it names the variant differently, map it with variant_names = {{{variant} = ...}} "
            f"(command line: --variant-name {variant}=NAME)"
        )
        if "+" in variant:
            # Options that change only draw rules are told as the base variant; these change moves.
            hint = f"; its rule option changes the moves, so the engine must offer {variant!r} itself{hint}"
        raise VariantUnsupported(
            engine, f"cannot play variant {variant!r}{own}: its variant parameter offers only {offered}{hint}"
        )
    return value


def resolve_settings(
    engine: str,
    declared: Mapping[str, ParamDecl],
    configured: Mapping[str, ParamValue],
    variant: str | None = None,
    names: Mapping[str, str] | None = None,
    *,
    renamable: bool = True,
) -> list[tuple[str, str]]:
    """Every `set-param` (name, text) to send, in configuration order, the variant last.

    Raises EngineConfigError naming every configured parameter the engine does not declare or whose
    value does not fit, and VariantUnsupported when the variant cannot be played.
    """
    problems = []
    settings: list[tuple[str, str]] = []
    for name, value in configured.items():
        decl = declared.get(name)
        if decl is None:
            known = ", ".join(declared) or "none"
            problems.append(f"parameter {name!r} is not declared by the engine (it declares: {known})")
            continue
        if name == VARIANT_PARAM and variant is not None:
            problems.append("parameter 'variant' is set by the tournament's variant; remove it from params")
            continue
        try:
            settings.append((name, encode_value(decl, value)))
        except ValueError as error:
            problems.append(f"parameter {name!r} ({decl.describe()}): {error}")
    if problems:
        raise EngineConfigError(engine, "; ".join(problems))
    if variant is not None:
        variant_value = variant_setting(engine, declared, variant, names, renamable=renamable)
        if variant_value is not None:
            settings.append((VARIANT_PARAM, variant_value))
    return settings


def configured_settings(
    config: EngineConfig, declared: Mapping[str, ParamDecl], variant: str | None = None
) -> list[tuple[str, str]]:
    """``resolve_settings`` for an engine as configured: its parameters, its variant names, and a refusal
    that suggests a name mapping only where the engine takes one."""
    return resolve_settings(
        config.name,
        declared,
        config.params,
        variant,
        config.variant_names,
        renamable=config.takes_variant_names,
    )
