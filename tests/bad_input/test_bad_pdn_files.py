"""PDN files with faults the reader must name, or readings it must leave out, rather than stop with a
traceback: `pdn check`, `pdn import` and `pdn export` of what was imported."""

from __future__ import annotations

from pathlib import Path

from bad_input_support import arbiter, assert_refused

GAME = (
    '[Event "clocks"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n1. 11-15 {CLOCK} 23-19 {[%clock w0:01:30]} *\n'
)


def test_a_clock_reading_no_clock_could_show_is_left_out_for_check_import_and_export(tmp_path: Path) -> None:
    # 40 digits of hours overflowed the division into seconds (OverflowError); 5,000 digits are more
    # than Python reads as a number by default (ValueError).
    for digits in (40, 5000):
        pdn = tmp_path / f"clock{digits}.pdn"
        pdn.write_text(GAME.replace("CLOCK", f"[%clock b{'9' * digits}:00:00]"), encoding="utf-8")
        check = arbiter("pdn", "check", pdn, cwd=tmp_path)
        assert check.code == 0 and "1 replayed without fault (2 plies)" in check.out, check.out + check.err
        database = tmp_path / f"clock{digits}.sqlite"
        imported = arbiter("pdn", "import", pdn, "--db", database, cwd=tmp_path)
        assert imported.code == 0 and "1 stored" in imported.out, imported.out + imported.err
        exported = arbiter("pdn", "export", database, cwd=tmp_path)
        assert exported.code == 0, exported.out + exported.err
        assert "1. 11-15 23-19 {[%clock w0:01:30]} *" in exported.out


def test_an_unclosed_variation_is_named_where_it_opens(tmp_path: Path) -> None:
    pdn = tmp_path / "open.pdn"
    pdn.write_text(
        '[Event "x"]\n\n1. 11-15 (23-19\n2. 22-18 ) 23-19 (24-20 (22-17)\n\n1-0\n', encoding="utf-8"
    )
    ran = arbiter("pdn", "check", pdn, cwd=tmp_path)
    assert_refused(ran, "open.pdn:4:18: game 1 (x): syntax: the variation opened here is not closed", code=1)


def test_pdn_import_of_a_folder_says_it_is_a_folder(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    ran = arbiter("pdn", "import", "games", "--db", "games.sqlite", cwd=tmp_path)
    assert_refused(ran, "games: a folder, not a PDN file", code=2)
    assert not (tmp_path / "games.sqlite").exists()
