"""A score, time or speed an engine sent as `inf` or `nan` is kept as text now (`parse_info`); a database
written before that holds them as SQLite reals. Such a database is read as if written now: the PDN
export, the site and the standings show no number for them, and nothing stops with a traceback."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bad_input_support import arbiter


def test_an_infinite_score_stored_by_an_earlier_version_is_read_as_text_not_a_traceback(
    tmp_path: Path,
) -> None:
    played = arbiter(
        "match", "alphabeta", "random", "--tc", "depth=2", "--games", "1", "--max-plies", "8",
        "--db", "old.sqlite", cwd=tmp_path,
    )  # fmt: skip
    assert played.code == 0, played.out + played.err
    with sqlite3.connect(tmp_path / "old.sqlite") as db:
        # SQLite reads 9e999 as infinity: what an earlier version stored for `score=inf`.
        changed = db.execute("UPDATE move SET score = 9e999, nps = -9e999 WHERE has_info").rowcount
    assert changed > 0, "alphabeta sends an info line with each move"
    exported = arbiter("pdn", "export", "old.sqlite", cwd=tmp_path)
    assert exported.code == 0 and "Traceback" not in exported.err, exported.err
    assert "inf" not in exported.out.lower(), "no infinite score written as a number"
    assert "[Result" in exported.out
    site = arbiter("report", "old.sqlite", "--out", "site", cwd=tmp_path)
    assert site.code == 0 and "Traceback" not in site.err, site.err
    pages = [page.read_text(encoding="utf-8") for page in (tmp_path / "site" / "games").rglob("*.html")]
    assert pages and not any("Infinity" in page for page in pages), "a page's data is JSON a browser reads"
