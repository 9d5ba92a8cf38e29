"""An engine that cannot be started is refused before the first game with what is wrong with the
program given: a folder, a script without the line that names its interpreter, a folder given as a
CheckerBoard engine library. Nothing is played or stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from bad_input_support import arbiter, assert_refused


@pytest.mark.parametrize(
    ("engine", "expected"),
    [
        ("cmd={folder}", "cannot start '{folder}': it is a folder, not a program"),
        ("cmd=./engines dir={root}", "cannot start './engines' in working directory {root}: it is a folder"),
        (
            "cmd={script}",
            "a script needs a first line naming its interpreter, such as #!/usr/bin/env python3",
        ),
        ("cmd=cb:{folder}", "cannot load the library {folder}: a folder, not a library"),
    ],
)
def test_an_engine_program_that_cannot_run_is_named_for_what_it_is(
    tmp_path: Path, engine: str, expected: str
) -> None:
    folder = tmp_path / "engines"
    folder.mkdir()
    script = tmp_path / "engine.py"
    script.write_text('print("id name=no interpreter line")\n', encoding="utf-8")
    script.chmod(0o755)
    places = {"folder": folder, "root": tmp_path, "script": script}
    ran = arbiter(
        "match", "--engine", engine.format(**places), "--engine", "greedy", "--games", "1",
        "--tc", "depth=1", "--db", "m.sqlite", cwd=tmp_path,
    )  # fmt: skip
    assert_refused(ran, expected.format(**places), "nothing was played or stored", code=1)
