"""A Dask scheduler's address that cannot be one (empty, no port) is refused before anything is made,
by the option or the file line that gave it: Dask itself refused it only once the run had made its
database, with warnings of its own after the message, and exit 0."""

from __future__ import annotations

from pathlib import Path

import pytest
from bad_input_support import QUICK_EVENT, arbiter, assert_refused

from arbiter.tournament.config import check_scheduler_address


@pytest.mark.parametrize("address", ["", "  ", "tcp://localhost", "localhost", "tcp://:8786", "tcp://host:x"])
def test_run_refuses_a_scheduler_option_that_is_no_address_before_making_the_database(
    tmp_path: Path, address: str
) -> None:
    (tmp_path / "event.toml").write_text(QUICK_EVENT, encoding="utf-8")
    ran = arbiter("run", "event.toml", "--scheduler", address, cwd=tmp_path)
    assert_refused(ran, "--scheduler:", "tcp://HOST:", code=2)
    assert "RuntimeWarning" not in ran.err
    assert not (tmp_path / "event.sqlite").exists()


def test_match_refuses_a_scheduler_without_a_port_by_its_option(tmp_path: Path) -> None:
    ran = arbiter("match", "random", "greedy", "--games", "2", "--scheduler", "tcp://localhost", cwd=tmp_path)
    assert_refused(ran, "--scheduler: 'tcp://localhost' has no HOST:PORT", code=2)
    assert not (tmp_path / "match.sqlite").exists()


def test_a_tournament_file_s_empty_scheduler_is_told_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "event.toml").write_text('scheduler = ""\n' + QUICK_EVENT, encoding="utf-8")
    ran = arbiter("run", "event.toml", cwd=tmp_path)
    assert_refused(ran, "event.toml:1: scheduler: no address given", code=2)
    assert not (tmp_path / "event.sqlite").exists()


@pytest.mark.parametrize(
    "address", ["tcp://192.168.1.5:8786", "127.0.0.1:8786", "tls://scheduler.lan:8786", "tcp://[::1]:8786"]
)
def test_the_addresses_dask_takes_are_accepted(address: str) -> None:
    check_scheduler_address(address)
