"""How a figure reads, the same in the terminal and on the site."""

from __future__ import annotations

_MOST_PERCENT_DECIMALS = 4


def percent(fraction: float) -> str:
    """``85.4%``: one decimal, or as many more as it takes for a fraction short of certainty not to read
    as certain (a likelihood of superiority of 0.9998 is ``99.98%``, not ``100.0%``)."""
    for decimals in range(1, _MOST_PERCENT_DECIMALS + 1):
        text = f"{fraction * 100:.{decimals}f}"
        if fraction in (0.0, 1.0) or float(text) not in (0.0, 100.0):
            return f"{text}%"
    least = 10.0**-_MOST_PERCENT_DECIMALS
    return (
        f"<{least:.{_MOST_PERCENT_DECIMALS}f}%"
        if fraction < 0.5
        else f">{100 - least:.{_MOST_PERCENT_DECIMALS}f}%"
    )
