"""An output folder that cannot be written is a wrong argument found before the work: exit status 2,
what is wrong with it named, nothing read or written."""

from __future__ import annotations

from pathlib import Path

from bad_input_support import arbiter, assert_refused, make_stored_event


def test_a_report_folder_under_a_file_is_refused_before_the_database_is_read(tmp_path: Path) -> None:
    # It was found when the first page was written: exit status 1, "Not a directory".
    database = make_stored_event(tmp_path / "stored")
    (tmp_path / "afile").write_text("not a folder\n", encoding="utf-8")
    ran = arbiter("report", database, "--out", "afile/site", cwd=tmp_path)
    assert_refused(ran, "--out afile/site: afile is a file, not a folder", code=2)
