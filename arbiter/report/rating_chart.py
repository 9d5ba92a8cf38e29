"""The ratings picture: each player's Elo difference against the field, with its confidence interval.

Drawn as SVG here (no chart library, nothing fetched): one row per player, a dot at the estimate and
a bar over the interval. An interval without end runs to the edge of the picture and ends in an
arrow. A player whose games (pairs) all had the same result has no interval yet: a dot alone. Names
are escaped.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from arbiter.tournament.stats import EloEstimate

WIDTH = 760
LABEL_WIDTH = 190
VALUE_WIDTH = 150
ROW_HEIGHT = 30
TOP = 46
NAME_SIZE = 13  # px: the stylesheet's size of a name
NAME_SPACE = LABEL_WIDTH - 14  # px: a name's room, right-aligned 10 px before the plot
# Glyph widths in ems, each at least as wide as DejaVu Sans (the usual Linux font, one of the widest)
# draws it: the chart is drawn before any browser picks a font, so a name is fitted to the widest.
_NARROW = frozenset(" !'(),-./:;I[]fijlrt|")
_WIDE = frozenset("#%&+<=>@MW^mw~")
_STEPS = (50, 100, 200, 250, 500, 1000)
_MAX_SPAN = 1000.0


@dataclass(frozen=True)
class RatedPlayer:
    name: str
    estimate: EloEstimate


def format_elo(value: float) -> str:
    if math.isinf(value):
        return "+\u221e" if value > 0 else "\u2212\u221e"
    rounded = round(value)
    return "0" if rounded == 0 else f"{rounded:+d}".replace("-", "\u2212")


def describe(estimate: EloEstimate) -> str:
    """``+35 [-12, +80]``: the estimate and its interval, or why it has none yet (``0, no interval yet:
    every game drawn``)."""
    reason = estimate.no_interval_reason
    if reason is not None:
        return f"{format_elo(estimate.elo)}, no interval yet: {reason}"
    return f"{format_elo(estimate.elo)} [{format_elo(estimate.lower)}, {format_elo(estimate.upper)}]"


def _span(rated: Sequence[RatedPlayer]) -> float:
    """Half the width of the axis: a round number above every finite end of every interval."""
    finite = [
        abs(value)
        for player in rated
        for value in (player.estimate.elo, player.estimate.lower, player.estimate.upper)
        if not math.isinf(value)
    ]
    largest = min(max(finite, default=100.0), _MAX_SPAN)
    for step in _STEPS:
        if step * 4 >= largest:
            return float(step * 4)
    return _MAX_SPAN


def _glyph_width(char: str) -> float:
    """A generous width of `char`, in ems (beyond ASCII: a CJK character's, or more for a capital)."""
    if char in _NARROW:
        return 0.42
    if not char.isascii():
        return 1.1 if char.isupper() else 1.0
    if char in _WIDE:
        return 1.0
    return 0.8 if char.isupper() else 0.66


def fitted_name(name: str) -> str:
    """`name` whole where it fits the label column, else as much of its start as fits with "…"."""
    room = NAME_SPACE / NAME_SIZE
    if sum(map(_glyph_width, name)) <= room:
        return name
    width, end = 1.0, 0  # the ellipsis
    while end < len(name) and width + _glyph_width(name[end]) <= room:
        width += _glyph_width(name[end])
        end += 1
    return name[:end].rstrip() + "\u2026"


def _tick_step(span: float) -> float:
    return span / 4


def rating_chart(rated: Sequence[RatedPlayer], confidence: float = 0.95) -> Markup:
    """The picture, one row per player in the order given."""
    span = _span(rated)
    plot_left, plot_right = LABEL_WIDTH, WIDTH - VALUE_WIDTH
    plot_width = plot_right - plot_left
    height = TOP + ROW_HEIGHT * len(rated) + 12

    def x_of(elo: float) -> float:
        clamped = max(-span, min(span, elo))
        return plot_left + (clamped + span) / (2 * span) * plot_width

    percent = f"{confidence * 100:.0f}"
    parts = [
        f'<svg class="ratings" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'role="img" aria-label="Elo difference against the field with {percent}% intervals">',
        f'<text class="axis-title" x="{plot_left}" y="13">Elo against the field, {percent}% interval</text>',
    ]
    step = _tick_step(span)
    tick = -span
    while tick <= span + 1e-9:
        x = x_of(tick)
        css = "zero" if abs(tick) < 1e-9 else "grid"
        parts.append(f'<line class="{css}" x1="{x:.1f}" y1="{TOP - 8}" x2="{x:.1f}" y2="{height - 8}"/>')
        label = "0" if css == "zero" else format_elo(tick)
        parts.append(f'<text class="tick" x="{x:.1f}" y="{TOP - 14}">{label}</text>')
        tick += step
    for index, player in enumerate(rated):
        y = TOP + index * ROW_HEIGHT + ROW_HEIGHT / 2
        estimate = player.estimate
        name = fitted_name(player.name)
        parts.append(f'<g class="row"><title>{escape(player.name)}: {describe(estimate)}</title>')
        parts.append(f'<text class="name" x="{plot_left - 10}" y="{y + 4:.1f}">{escape(name)}</text>')
        if estimate.no_interval_reason is None:
            parts.extend(_interval_bar(estimate, y, x_of, span))
        parts.append(f'<circle class="estimate" cx="{x_of(estimate.elo):.1f}" cy="{y:.1f}" r="5"/>')
        parts.append(f'<text class="value" x="{plot_right + 14}" y="{y + 4:.1f}">{_value(estimate)}</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return Markup("".join(parts))


def _interval_bar(estimate: EloEstimate, y: float, x_of: Callable[[float], float], span: float) -> list[str]:
    """The bar over the interval, with a cap at each end, or an arrow where it runs past the edge."""
    low, high = x_of(estimate.lower), x_of(estimate.upper)
    parts = [f'<line class="interval" x1="{low:.1f}" y1="{y:.1f}" x2="{high:.1f}" y2="{y:.1f}"/>']
    for end, value in ((low, estimate.lower), (high, estimate.upper)):
        if math.isinf(value) or abs(value) > span:
            # The interval runs past the edge: an arrow whose tip is that edge.
            base = end - 8 * (1 if value > 0 else -1)
            points = f"M{base:.1f} {y - 5:.1f} L{end:.1f} {y:.1f} L{base:.1f} {y + 5:.1f} Z"
            parts.append(f'<path class="arrow" d="{points}"/>')
        else:
            parts.append(
                f'<line class="cap" x1="{end:.1f}" y1="{y - 6:.1f}" x2="{end:.1f}" y2="{y + 6:.1f}"/>'
            )
    return parts


def _value(estimate: EloEstimate) -> str:
    """The figures beside a row: the estimate and its interval, or that it has none yet (the reason is
    in the row's title: the column has room for a dozen characters)."""
    if estimate.no_interval_reason is not None:
        return f"{format_elo(estimate.elo)}, no interval yet"
    return describe(estimate)
