"""The `cluster` fixture: a real Dask scheduler on loopback, its workers started by each test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from dask_cluster import DaskCluster


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[DaskCluster]:
    folder = tmp_path / "cluster"
    folder.mkdir()
    running = DaskCluster(folder)
    try:
        running.start_scheduler()
        yield running
    finally:
        running.close()
