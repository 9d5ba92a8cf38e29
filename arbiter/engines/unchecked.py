"""Frozen dataclasses filled in without their ``__init__``, for values made at every move whose checks
were done where they came from (``Clock.trusted``, ``SearchResult.moved``): a frozen ``__init__`` sets
each field through ``object.__setattr__`` and runs ``__post_init__``'s checks again."""

from __future__ import annotations

from typing import Any, TypeVar

_D = TypeVar("_D")

_new = object.__new__
_set_attribute = object.__setattr__


def filled_in(cls: type[_D], values: dict[str, Any]) -> _D:
    """An instance of the frozen dataclass ``cls`` holding ``values``, which name every field in the
    order declared: equal to, and with the same attributes as, the one ``cls(**values)`` makes."""
    made = _new(cls)
    _set_attribute(made, "__dict__", values)
    return made
