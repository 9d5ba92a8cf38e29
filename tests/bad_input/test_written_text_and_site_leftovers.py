"""What is written from engine- or file-supplied text: control characters never reach a PDN file or a
page raw; a PDN whose Result tag contradicts its terminator is warned about, one whose result the
board rules out is a fault; temporary files a killed refresh left in the site go on the next refresh."""

from __future__ import annotations

import os
import time
from pathlib import Path

from bad_input_support import arbiter

# Game 1: its Result tag says one thing, its move text ends with another. Game 2: White has no piece
# left after Black's capture, so Black won, but the file says White did. Game 3: a player's name
# holds a NUL and an escape character.
TAG_AND_TERMINATOR = '[Event "tag and terminator"]\n[Result "1-0"]\n\n1. 11-15 23-19 0-1\n\n'
AGAINST_THE_BOARD = (
    '[Event "result against the board"]\n[GameType "21"]\n[FEN "B:W18:B14"]\n[Result "0-1"]\n\n'
    "1. 14x23 0-1\n\n"
)
ODD_NAMES = (
    '[Event "odd names"]\n[White "Nul\x00Name"]\n[Black "Esc\x1b[31mRed"]\n[Result "*"]\n\n1. 11-15 23-19 *\n'
)
PDN = TAG_AND_TERMINATOR + AGAINST_THE_BOARD + ODD_NAMES
IMPORTABLE = TAG_AND_TERMINATOR + ODD_NAMES


def test_pdn_check_warns_of_a_tag_against_the_terminator_and_faults_a_result_the_board_rules_out(
    tmp_path: Path,
) -> None:
    (tmp_path / "games.pdn").write_bytes(PDN.encode("utf-8"))
    ran = arbiter("pdn", "check", "games.pdn", cwd=tmp_path)
    assert "Traceback" not in ran.out + ran.err
    assert ran.code == 1
    assert (
        "games.pdn:1: game 1 (tag and terminator): warning: "
        "the Result tag says 1-0 but the move text ends 0-1" in ran.out
    )
    assert (
        "games.pdn:11:10: game 2 (result against the board): bad result: the result 0-1 does not fit the "
        "move text, whose last position is decided: White has no pieces left (1-0)"
    ) in ran.out
    assert ran.out.splitlines()[-1].endswith("1 with faults, 1 warning(s) (1 bad result)")


def test_control_characters_from_a_file_are_escaped_in_exported_pdn_and_on_the_site(tmp_path: Path) -> None:
    (tmp_path / "games.pdn").write_bytes(IMPORTABLE.encode("utf-8"))
    imported = arbiter("pdn", "import", "games.pdn", "--db", "games.sqlite", cwd=tmp_path)
    assert "Traceback" not in imported.out + imported.err
    assert imported.code == 0 and "2 stored" in imported.out, imported.out
    exported = arbiter("pdn", "export", "games.sqlite", cwd=tmp_path)
    assert exported.code == 0, exported.err
    assert "\x00" not in exported.out and "\x1b" not in exported.out
    assert '[White "Nul\\\\x00Name"]' in exported.out and '[Black "Esc\\\\x1b[31mRed"]' in exported.out
    site = arbiter("report", "games.sqlite", "--out", "site", cwd=tmp_path)
    assert site.code == 0, site.err
    for page in (tmp_path / "site").rglob("*"):
        if page.suffix in (".html", ".pdn"):
            text = page.read_text(encoding="utf-8")
            assert "\x00" not in text and "\x1b" not in text, f"a control character is in {page}"
    assert "Nul\\x00Name" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")


def test_temporary_files_left_by_a_killed_refresh_are_removed_by_the_next(tmp_path: Path) -> None:
    (tmp_path / "games.pdn").write_bytes(IMPORTABLE.encode("utf-8"))
    assert arbiter("pdn", "import", "games.pdn", "--db", "games.sqlite", cwd=tmp_path).code == 0
    assert arbiter("report", "games.sqlite", "--out", "site", cwd=tmp_path).code == 0
    site = tmp_path / "site"
    left = [site / ".index.html.k1l2.tmp", site / "games" / ".r1-b1-g1.html.a9z8.tmp"]
    for path in left:
        path.write_text("half a page", encoding="utf-8")
        old = time.time() - 3600
        os.utime(path, (old, old))
    in_flight = site / ".games.html.n0w1.tmp"  # as young as another build's file being written
    in_flight.write_text("being written", encoding="utf-8")
    assert arbiter("report", "games.sqlite", "--out", "site", cwd=tmp_path).code == 0
    assert not any(path.exists() for path in left)
    assert in_flight.exists()
