"""The pages the publisher of a running event writes, from the positions its referee went through,
are the pages a report built afterwards from the database writes, byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from arbiter.report.store_site import StoreSite

ARBITER = [sys.executable, "-m", "arbiter.cli"]


def test_the_games_pages_published_while_the_event_runs_are_those_of_a_report_built_afterwards(
    tmp_path: Path,
) -> None:
    database, live, after = tmp_path / "m.sqlite", tmp_path / "live", tmp_path / "after"
    result = subprocess.run(
        [
            *ARBITER,
            "match",
            "random",
            "greedy",
            "--tc",
            "depth=1",
            "--games",
            "2",
            "--rounds",
            "4",
            "--db",
            str(database),
            "--report",
            str(live),
            "--max-plies",
            "120",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    StoreSite(database, after).refresh(full=True)
    published = sorted(path.name for path in (live / "games").iterdir())
    assert len(published) == 16  # a page and a PDN file a game
    assert published == sorted(path.name for path in (after / "games").iterdir())
    for name in published:
        assert (live / "games" / name).read_bytes() == (after / "games" / name).read_bytes(), name
    assert (live / "event.pdn").read_bytes() == (after / "event.pdn").read_bytes()
