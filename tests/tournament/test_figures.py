"""A percentage reads as the terminal and the site show it: short of certainty never reads as certain."""

from __future__ import annotations

import pytest

from arbiter.tournament.figures import percent


@pytest.mark.parametrize(
    ("fraction", "text"),
    [(0.854, "85.4%"), (0.5, "50.0%"), (0.99949, "99.9%"), (1.0, "100.0%"), (0.0, "0.0%")],
)
def test_a_percentage_has_one_decimal(fraction: float, text: str) -> None:
    assert percent(fraction) == text


@pytest.mark.parametrize(
    ("fraction", "text"),
    [
        (0.9998, "99.98%"),
        (0.99996, "99.996%"),
        (0.0002, "0.02%"),
        (1 - 1e-9, ">99.9999%"),
        (1e-9, "<0.0001%"),
    ],
)
def test_a_fraction_short_of_certainty_never_reads_as_certain(fraction: float, text: str) -> None:
    assert percent(fraction) == text
