"""How a worker finds an engine the coordinator names: the same configuration, with this host's paths.

The coordinator sends each engine's whole configuration. Where a program lives elsewhere on a worker's
machine, that machine says so in an engines file of its own, named by the environment variable
``ARBITER_WORKER_ENGINES`` in the worker's environment; it has the layout of a tournament's engines file::

    [[engines]]
    name = "kingsrow"                       # the engine's name in the tournament
    command = ["/opt/kingsrow/kingsrow"]    # any key given here replaces the coordinator's
    working_dir = "/opt/kingsrow"

As in a tournament's engines file, ``bundled = "alphabeta"`` stands for the command of a bundled engine
(and its score unit, unless the entry gives one). Bundled engines are started with the worker's own
Python, whatever Python the coordinator runs.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from arbiter.distributed.orders import EngineOrder
from arbiter.engines import EngineConfig
from arbiter.tournament.config import BUNDLED_SCORE_UNIT, EngineEntry, bundled_command, validation_problems

OVERRIDES_VARIABLE = "ARBITER_WORKER_ENGINES"


class HostEngineError(ValueError):
    """This host's engines file cannot be used for an engine; the message names the file and the key."""


def host_overrides_file() -> Path | None:
    value = os.environ.get(OVERRIDES_VARIABLE, "").strip()
    return Path(value) if value else None


def read_overrides(path: Path) -> dict[str, dict[str, Any]]:
    """The entries of a host engines file, by engine name."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise HostEngineError(f"{path} (from ${OVERRIDES_VARIABLE}): cannot read: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise HostEngineError(f"{path} (from ${OVERRIDES_VARIABLE}): not valid TOML: {exc}") from None
    entries: dict[str, dict[str, Any]] = {}
    for index, entry in enumerate(data.get("engines", [])):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise HostEngineError(f"{path} (from ${OVERRIDES_VARIABLE}): engines[{index}] has no name")
        entries[entry["name"]] = {key: value for key, value in entry.items() if key != "name"}
    return entries


def host_config(order: EngineOrder, overrides: dict[str, dict[str, Any]] | None = None) -> EngineConfig:
    """The configuration this host starts the engine with.

    ``overrides`` defaults to this host's engines file (read afresh, so an edit needs no worker restart).
    """
    config = order.config
    if order.bundled is not None:
        config = config.model_copy(update={"command": bundled_command(order.bundled)})
    if overrides is None:
        path = host_overrides_file()
        overrides = read_overrides(path) if path is not None else {}
    update = overrides.get(config.name)
    if not update:
        return config
    try:
        return EngineConfig.model_validate(config.model_dump() | _unbundled(config.name, update))
    except ValidationError as exc:
        raise HostEngineError(
            f"{_file()}: engine {config.name!r}: {validation_problems(exc, 'entry')}"
        ) from None


def _unbundled(name: str, update: dict[str, Any]) -> dict[str, Any]:
    """An entry's keys with ``bundled`` read as a tournament's engines file reads it: the command of that
    bundled engine, on this host's Python."""
    if "bundled" not in update:
        return update
    keys = dict(update)
    try:
        entry = EngineEntry.model_validate({"name": name, "bundled": keys.pop("bundled")})
    except ValidationError as exc:
        raise HostEngineError(f"{_file()}: engine {name!r}: {validation_problems(exc, 'entry')}") from None
    if entry.bundled is not None:
        keys.setdefault("command", bundled_command(entry.bundled))
        keys.setdefault("score_unit", BUNDLED_SCORE_UNIT)
    return keys


def _file() -> str:
    path = host_overrides_file()
    return f"{path} (from ${OVERRIDES_VARIABLE})" if path is not None else "the host engines file"
