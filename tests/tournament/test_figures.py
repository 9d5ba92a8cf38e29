"""Figures read as the terminal and the site show them: a percentage short of certainty never reads as
certain, an LLR short of a bound never reads as that bound."""

from __future__ import annotations

import pytest

from arbiter.tournament.figures import llr_figures, percent


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


def test_an_llr_has_two_decimals_like_its_bounds() -> None:
    assert llr_figures(-0.2861, -2.944438979, 2.944438979) == ("-0.29", "-2.94", "2.94")


@pytest.mark.parametrize(
    ("llr", "texts"),
    [
        (-2.9436, ("-2.9436", "-2.9444", "2.9444")),  # short of the lower bound: undecided
        (2.94441, ("2.94441", "-2.94444", "2.94444")),
        (2.9447, ("2.945", "-2.944", "2.944")),  # beyond the upper bound
    ],
)
def test_an_llr_that_is_not_a_bound_never_reads_as_the_bound(llr: float, texts: tuple[str, str, str]) -> None:
    assert llr_figures(llr, -2.944438979, 2.944438979) == texts


def test_an_llr_on_a_bound_reads_as_the_bound() -> None:
    assert llr_figures(2.944438979, -2.944438979, 2.944438979) == ("2.94", "-2.94", "2.94")
