"""How a figure reads, the same in the terminal and on the site."""

from __future__ import annotations

_MOST_PERCENT_DECIMALS = 4
_LLR_DECIMALS = range(2, 7)


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


def llr_figures(llr: float, lower: float, upper: float) -> tuple[str, str, str]:
    """An SPRT's LLR and its bounds as text: two decimals, or as many more as it takes for an LLR that
    is not a bound not to read as one (-2.9436 against the bound -2.9444 is not ``-2.94`` twice, which
    would look decided)."""
    texts = ("", "", "")
    for decimals in _LLR_DECIMALS:
        texts = (f"{llr:.{decimals}f}", f"{lower:.{decimals}f}", f"{upper:.{decimals}f}")
        if all(
            texts[0] != text or llr == bound for text, bound in zip(texts[1:], (lower, upper), strict=True)
        ):
            break
    return texts
