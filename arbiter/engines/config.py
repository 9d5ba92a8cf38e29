"""How one engine is started and talked to: the configuration model, validated once at load time."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PositiveFloat,
    PositiveInt,
    field_validator,
    model_validator,
)

ParamValue = bool | int | float | str

PORT_PLACEHOLDER = "{port}"
# DXP reports whole seconds, so an engine's own clock drifts from the arbiter's: see engines/dxp_clock.py.
DEFAULT_DXP_MARGIN = 1.0

# The units engines give their scores in, as centi-men each (the unit the arbiter stores: a man is 100).
ScoreUnit = Literal["men", "centi-men", "milli-men"]
SCORE_UNITS: dict[str, float] = {"men": 100.0, "centi-men": 1.0, "milli-men": 0.1}
# Hub's protocol document gives scores in men (Scan's `info score=0.25`); DXP reports no scores.
PROTOCOL_SCORE_UNITS: dict[str, ScoreUnit] = {"hub": "men"}


def score_scale(config: EngineConfig) -> float:
    """What one of the engine's score units is in centi-men."""
    unit = config.score_unit or PROTOCOL_SCORE_UNITS.get(config.protocol, "centi-men")
    return SCORE_UNITS[unit]


MAX_TIMEOUT_SECONDS = 7 * 24 * 3600.0


class Timeouts(BaseModel):
    """Seconds the arbiter waits for each answer. Every wait in the engine layer uses one of these."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    handshake: PositiveFloat = Field(10.0, description="`hub` to `wait` (DXP: until connected)")
    ready: PositiveFloat = Field(
        30.0, description="`init` to `ready`, `new-game` to `pong` (DXP: game request to acceptance)"
    )
    search: PositiveFloat = Field(600.0, description="a search when the caller gives no deadline")
    stop: PositiveFloat = Field(5.0, description="`stop` to `done`")
    ping: PositiveFloat = Field(5.0, description="`ping` to `pong`")
    quit: PositiveFloat = Field(2.0, description="`quit` to process exit, before it is terminated")
    kill: PositiveFloat = Field(2.0, description="SIGTERM to exit, before SIGKILL")

    @field_validator("*")
    @classmethod
    def _wait_ends(cls, seconds: float) -> float:
        # An endless wait (inf, or a typo of many digits) would hang a game instead of failing it.
        if not math.isfinite(seconds) or seconds > MAX_TIMEOUT_SECONDS:
            raise ValueError(f"{seconds} seconds: give a finite wait, at most {MAX_TIMEOUT_SECONDS:,.0f}")
        return seconds


class DxpSettings(BaseModel):
    """How the arbiter meets a DXP engine on the loopback interface."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    mode: Literal["engine_listens", "engine_connects"] = "engine_listens"
    port: int = Field(0, ge=0, le=65535, description="0: the arbiter picks a free port")
    initiator_name: str = Field("arbiter", max_length=32)
    variants: list[str] = Field(default_factory=lambda: ["international"])
    default_minutes: int = Field(10, ge=0, le=999, description="game time announced for non-clock levels")
    margin: float = Field(
        DEFAULT_DXP_MARGIN, ge=0, description="seconds a move may end late (DXP clocks count whole seconds)"
    )


class EngineConfig(BaseModel):
    """One engine as the user configured it."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    name: str = Field(min_length=1)
    # Not required: a checkerboard engine has none (the default is not validated, so [] is).
    command: list[str] = Field(
        default_factory=list, min_length=1, description="program and arguments; never run through a shell"
    )
    protocol: Literal["hub", "dxp", "checkerboard"] = "hub"
    library: Path | None = Field(None, strict=False, description="checkerboard: the engine's .so (or .dll)")
    working_dir: Path | None = Field(None, strict=False)
    env: dict[str, str] = Field(default_factory=dict)
    inherit_env: bool = True
    params: dict[str, ParamValue] = Field(default_factory=dict)
    variant_names: dict[str, str] = Field(
        default_factory=dict, description="arbiter variant id -> the engine's own name for it"
    )
    timeouts: Timeouts = Field(default_factory=Timeouts)
    memory_limit_mb: PositiveInt | None = None
    cpu_affinity: list[int] | None = None
    line_limit_bytes: PositiveInt = 64 * 1024
    output_limit_bytes: PositiveInt = 8 * 1024 * 1024
    stderr_limit_bytes: PositiveInt = Field(
        16 * 1024 * 1024, description="stderr one process may write; beyond it, the fault stderr_flood"
    )
    stderr_event_limit_bytes: PositiveInt | None = Field(
        None,
        description="stderr kept on disk of all the engine's processes in one event "
        "(default: 4 times stderr_limit_bytes); the rest is read, not kept",
    )
    max_infos: PositiveInt = 100
    dxp: DxpSettings = Field(default_factory=DxpSettings)
    score_unit: ScoreUnit | None = Field(
        None, description="the unit of the engine's `info score=` (default: its protocol's, see SCORE_UNITS)"
    )
    debug: bool = Field(False, description="keep a log of every line sent to and received from the engine")

    @field_validator("command")
    @classmethod
    def _program_named(cls, command: list[str]) -> list[str]:
        if command and not command[0].strip():
            raise ValueError("the first word of the command (the program) is empty")
        return command

    @field_validator("cpu_affinity")
    @classmethod
    def _cpus_exist(cls, cpus: list[int] | None) -> list[int] | None:
        if cpus is None:
            return None
        if not cpus:
            raise ValueError("cpu_affinity lists no CPU")
        available = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
        missing = sorted(set(cpus) - available)
        if missing:
            raise ValueError(
                f"cpu_affinity names CPUs {missing} that this machine does not offer {sorted(available)}"
            )
        return cpus

    @property
    def takes_variant_names(self) -> bool:
        """Whether ``variant_names`` applies: not to a checkerboard engine, whose game type decides."""
        return self.protocol != "checkerboard"

    @model_validator(mode="after")
    def _program_or_library(self) -> EngineConfig:
        if self.protocol == "checkerboard":
            if self.library is None:
                raise ValueError("a checkerboard engine needs 'library': the path of its .so (or .dll)")
            if self.command:
                raise ValueError("a checkerboard engine is its 'library'; it takes no 'command'")
            if self.variant_names:
                # The adapter plays the rules of the variant it is told: a renamed variant would be
                # played under another variant's rules while the referee judges the real one.
                raise ValueError(
                    "a checkerboard engine takes no 'variant_names': its game type decides which "
                    "variants it plays"
                )
            return self
        if self.library is not None:
            raise ValueError(f"'library' is for protocol = \"checkerboard\", not {self.protocol}")
        if not self.command:
            raise ValueError(f"a {self.protocol} engine needs 'command': its program and arguments")
        return self

    @model_validator(mode="after")
    def _dxp_settings_usable(self) -> EngineConfig:
        if self.protocol != "dxp":
            return self
        if self.params:
            raise ValueError("DXP has no parameters: configure a DXP engine through its command line")
        if self.dxp.port != 0:
            return self
        if not any(PORT_PLACEHOLDER in arg for arg in self.command):
            raise ValueError(
                f"a DXP engine needs a fixed dxp.port, or '{PORT_PLACEHOLDER}' in its command so the arbiter "
                "can tell it the port it picked"
            )
        return self
