"""Data for the page's scripts, embedded as JSON that cannot end its ``<script>`` element early.

The JSON goes inside ``<script type="application/json">``, which the browser never runs; the
characters that could close the element or start markup (``<``, ``>``, ``&``) and the two line
separators JavaScript once refused in strings are written as ``\\u`` escapes, so any engine text in
it stays data. Scripts read it back with ``JSON.parse`` of the element's text.
"""

from __future__ import annotations

import json
from typing import Any

from markupsafe import Markup

_ESCAPES = (
    ("<", "\\u003c"),
    (">", "\\u003e"),
    ("&", "\\u0026"),
    ("'", "\\u0027"),
    ("\u2028", "\\u2028"),
    ("\u2029", "\\u2029"),
)


def script_json(value: Any) -> Markup:
    """`value` as JSON text safe to place between ``<script type="application/json">`` tags."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    # One replace per character that is there (rarely any): str.translate with a table goes through
    # the whole text a character at a time, a tenth of a game page's cost.
    for character, escape in _ESCAPES:
        if character in text:
            text = text.replace(character, escape)
    return Markup(text)
