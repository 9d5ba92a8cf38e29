"""How often the publisher of a running event refreshes the site: the event-wide pages, which every
refresh writes again, are spaced out by what they cost; the pages of the new games, each written once,
are not, so that the site of a fast event does not fall further and further behind."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from test_store_site import new_event, record

from arbiter.report.publisher import (
    REFRESH_EVERY_SECONDS,
    REFRESH_SHARE,
    REFRESH_WITHIN_SECONDS,
    next_gap,
)
from arbiter.report.store_site import StoreSite


def test_a_refresh_that_went_on_new_games_pages_is_followed_by_the_least_wait() -> None:
    # Five seconds of game pages (a backlog of games) do not put off the next refresh.
    assert next_gap(took=5.0, pages=4.99) == REFRESH_EVERY_SECONDS
    assert next_gap(took=0.01, pages=0.0) == REFRESH_EVERY_SECONDS


def test_the_wait_after_a_refresh_grows_with_its_event_wide_pages_only() -> None:
    assert next_gap(took=0.2, pages=0.1) == pytest.approx(REFRESH_SHARE * 0.1)
    assert next_gap(took=2.2, pages=2.1) == pytest.approx(REFRESH_SHARE * 0.1)


def test_however_long_the_event_wide_pages_take_the_site_is_refreshed_within_a_few_seconds() -> None:
    assert next_gap(took=3.0, pages=0.5) == REFRESH_WITHIN_SECONDS
    assert REFRESH_EVERY_SECONDS < REFRESH_WITHIN_SECONDS <= 10.0


def test_a_refresh_measures_the_part_of_its_time_that_went_on_the_games_pages(tmp_path: Path) -> None:
    database, out = tmp_path / "event.sqlite", tmp_path / "site"
    tid, games = new_event(database)
    record(database, tid, games, range(3))
    site = StoreSite(database, out)
    began = time.perf_counter()
    assert site.refresh().games_written == 3
    took = time.perf_counter() - began
    assert 0.0 < site.pages_seconds < took
    record(database, tid, games, range(3, 4))
    began = time.perf_counter()
    assert site.refresh().games_written == 1
    assert 0.0 < site.pages_seconds < time.perf_counter() - began
