"""The CheckerBoard engine builds, compiled once per session."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from checkerboard_builds import build


@pytest.fixture(scope="session")
def cb_library(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    directory = tmp_path_factory.mktemp("cb-builds")
    return lambda name: build(directory, name)
