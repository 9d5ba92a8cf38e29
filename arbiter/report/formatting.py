"""How numbers read on the site: points with halves, times, scores, win-draw-loss records."""

from __future__ import annotations

import math
from datetime import datetime

from arbiter.tournament.standings import Tally


def points(value: float) -> str:
    """``2½``, ``½``, ``3``; other fractions with two decimals."""
    whole = math.floor(value)
    rest = value - whole
    if abs(rest) < 1e-9:
        return str(int(whole))
    if abs(rest - 0.5) < 1e-9:
        return "\u00bd" if whole == 0 else f"{int(whole)}\u00bd"
    return f"{value:.2f}"


def seconds(value: float | None) -> str:
    """A duration: ``0.42``, ``12.3``, ``1:05.2``, ``1:02:03``; empty when unknown."""
    if value is None:
        return ""
    if value < 10:
        return f"{value:.2f}"
    if value < 60:
        return f"{value:.1f}"
    minutes, rest = divmod(value, 60)
    if minutes < 60:
        return f"{int(minutes)}:{rest:04.1f}"
    hours, minutes = divmod(int(minutes), 60)
    return f"{hours}:{minutes:02d}:{int(rest):02d}"


def score(value: float | None) -> str:
    if value is None:
        return ""
    if value == int(value):
        return f"{int(value):+d}"
    return f"{value:+.2f}"


def record(tally: Tally) -> str:
    """``+3 =2 -1``: wins, draws, losses."""
    return f"+{tally.wins} ={tally.draws} -{tally.losses}"


def moment(value: datetime | None) -> str:
    """A date and time to the minute, in the time zone it was recorded in."""
    if value is None:
        return ""
    return value.strftime("%Y-%m-%d %H:%M %Z").strip()


def day(value: datetime | None) -> str:
    return "" if value is None else value.strftime("%Y-%m-%d")
