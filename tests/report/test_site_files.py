"""How the site's files are written: whole, readable by all, through temporaries a later build can clear."""

from __future__ import annotations

import itertools
import os
import stat
import time
from pathlib import Path

import pytest

from arbiter.report import files
from arbiter.report.files import remove_stale_temporaries, write_atomic


def test_a_written_file_is_whole_readable_by_all_and_leaves_no_temporary(tmp_path: Path) -> None:
    page = tmp_path / "games" / "r1-g1.html"
    write_atomic(page, "<p>first</p>")
    write_atomic(page, b"<p>second</p>")
    assert page.read_text(encoding="utf-8") == "<p>second</p>"
    assert stat.S_IMODE(page.stat().st_mode) == 0o644
    assert sorted(path.name for path in page.parent.iterdir()) == ["r1-g1.html"]


def test_a_taken_temporary_name_falls_back_to_a_fresh_one_and_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "_TEMPORARY_NUMBERS", itertools.count(7))
    taken = tmp_path / f".index.html.{os.getpid()}-7.tmp"
    taken.write_text("left by a killed build", encoding="utf-8")
    write_atomic(tmp_path / "index.html", "<p>page</p>")
    assert (tmp_path / "index.html").read_text(encoding="utf-8") == "<p>page</p>"
    assert taken.read_text(encoding="utf-8") == "left by a killed build"
    assert sorted(path.name for path in tmp_path.iterdir()) == [taken.name, "index.html"]


def test_a_temporary_left_by_a_killed_build_is_removed_once_it_is_old(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "_TEMPORARY_NUMBERS", itertools.count(3))
    left = tmp_path / f".index.html.{os.getpid()}-3.tmp"
    left.write_text("half a page", encoding="utf-8")
    assert remove_stale_temporaries(tmp_path) == 0
    old = time.time() - 120
    os.utime(left, (old, old))
    assert remove_stale_temporaries(tmp_path) == 1
    assert not left.exists()
