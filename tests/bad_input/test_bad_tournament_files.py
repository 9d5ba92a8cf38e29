"""Tournament files that cannot be played are refused before anything runs: a clear message naming the
file, the line and the key, a non-zero exit, no traceback, and the games already stored untouched."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from bad_input_support import ENGINE_LINES, ENGINES, arbiter, assert_refused, make_stored_event, stored_rows


@pytest.fixture(scope="module")
def stored_event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_stored_event(tmp_path_factory.mktemp("stored"))


@pytest.fixture
def event_folder(tmp_path: Path, stored_event: Path) -> Path:
    """A folder whose `event.sqlite` already holds a finished event."""
    shutil.copy(stored_event, tmp_path / "event.sqlite")
    return tmp_path


def refused_run(folder: Path, text: str, *expected: str, encoding: str = "utf-8") -> None:
    """`arbiter run` on a tournament file of `text` is refused, saying `expected`, the games kept."""
    database = folder / "event.sqlite"
    before = stored_rows(database)
    (folder / "bad.toml").write_text(text, encoding=encoding)
    assert_refused(arbiter("run", "bad.toml", cwd=folder), *expected, code=2)
    assert stored_rows(database) == before, "the stored games changed"


HEAD = 'name = "bad event"\ndatabase = "event.sqlite"\ntime_control = "depth=1"\n'

# (tournament file lines, what the message must say: the place and what is wrong)
BAD_SETTINGS = {
    "a billion cycles": ("cycles = 1000000000", ["bad.toml:1: cycles", "less than or equal to 1000000"]),
    "a twenty-digit count": (
        "games_per_encounter = 99999999999999999999",
        ["bad.toml:1: games_per_encounter", "less than or equal to 1000000"],
    ),
    "counts that multiply past what can be played": (
        "cycles = 2000\ngames_per_encounter = 1000",
        ["bad.toml:1: cycles", "would plan 2,000,000 games", "at most 1,000,000"],
    ),
    "a count given as text": (
        'games_per_encounter = "2"',
        ["bad.toml:1: games_per_encounter", "valid integer"],
    ),
    "a yes/no given as text": ('repeat = "yes"', ["bad.toml:1: repeat", "valid boolean"]),
    "a blank tournament name": ('name = "   "', ["bad.toml:1: name", "the tournament name is empty"]),
    "a NUL in an engine name": (
        '[[engines]]\nname = "rand\\u0000om"\nbundled = "random"',
        ["bad.toml:5: engines.0.name", "control character '\\x00'"],
    ),
    "jump limits that never apply": (
        'time_control = "st=0.1 jump"',
        ["bad.toml:1: time_control", "the jump limits (1 min for a capture) never apply"],
    ),
    "a margin without a clock": (
        'time_control = "depth=3 margin=5"',
        ["bad.toml:1: time_control", "margin= has nothing to act on: depth=3 has no time limit"],
    ),
    "a twenty-digit move count": (
        'time_control = "99999999999999999999/1"',
        ["bad.toml:1: time_control", "the move count must be at most 10,000"],
    ),
    "a week-long move": ('time_control = "st=9999999"', ["time_control", "st= must be at most 168 h"]),
    "cutechess-cli's tc= in an engine's table": (
        '[[engines]]\nname = "slow"\nbundled = "random"\ntc = "1:30+1"',
        [
            "bad.toml:7: engines.0.tc: engine 'slow': an engine's own time control goes in the event's "
            "time_controls table",
            'time_controls = { "slow" = "90+1" }',
        ],
    ),
    "cutechess-cli's tc=inf as an engine's own clock": (
        'time_controls = { random = "inf" }',
        ["bad.toml:1: time_controls.random", "'inf' is not a stage", "(no clock, only a limit: depth=N"],
    ),
    "more openings than the deck holds": (
        '[openings]\ndeck = "acf-156"\ncount = 500',
        ["bad.toml:12: openings.count: 500 is more than the 156 opening(s) acf-156 holds"],
    ),
    "more openings than the deck holds from its start": (
        '[openings]\ndeck = "acf-156"\nstart = 150\ncount = 10',
        [
            "bad.toml:13: openings.count: 10 is more than the 7 opening(s)",
            "acf-156 holds from its opening 150 on",
        ],
    ),
    "a first opening past the deck's end": (
        '[openings]\ndeck = "acf-156"\nstart = 200',
        ["bad.toml:12: openings.start: 200 is past the last of the 156 opening(s) acf-156 holds"],
    ),
    "an endless engine timeout": (
        '[[engines]]\nname = "slow"\nbundled = "random"\ntimeouts = { quit = inf }',
        ["bad.toml:7: engines.0.timeouts.quit", "inf seconds: give a finite wait"],
    ),
    "a misspelled command": (
        '[[engines]]\nname = "mine"\ncomand = ["/opt/engine"]',
        ["bad.toml:6: engines.0.comand: Extra inputs are not permitted"],
    ),
    "a memory limit given as text": (
        '[[engines]]\nname = "small"\nbundled = "random"\nmemory_limit_mb = "512"',
        ["bad.toml:7: engines.0.memory_limit_mb", "valid integer"],
    ),
}


def tournament_text(lines: str) -> str:
    """A tournament file: the case's top-level lines first (line 1 on), the usual settings it does not
    give, then its tables (a bad engine before a good one, the event needing two) or the engines."""
    settings = {"name": '"bad event"', "database": '"event.sqlite"', "time_control": '"depth=1"'}
    top = [] if lines.startswith("[") else lines.splitlines()
    for line in top:
        settings.pop(line.partition("=")[0].strip(), None)
    head = "\n".join([*top, *(f"{key} = {value}" for key, value in settings.items())]) + "\n"
    if lines.startswith("[[engines]]"):
        return head + lines + '\n[[engines]]\nname = "greedy"\nbundled = "greedy"\n'
    if lines.startswith("["):
        return head + ENGINE_LINES + lines + "\n"
    return head + ENGINE_LINES


@pytest.mark.parametrize("case", sorted(BAD_SETTINGS))
def test_a_bad_setting_is_refused_with_its_place_and_the_stored_games_kept(
    case: str, event_folder: Path
) -> None:
    lines, expected = BAD_SETTINGS[case]
    refused_run(event_folder, tournament_text(lines), *expected)


def test_a_utf16_tournament_file_is_refused_as_not_utf8(event_folder: Path) -> None:
    refused_run(
        event_folder,
        HEAD + ENGINE_LINES,
        "bad.toml:1: not UTF-8 text (it looks like UTF-16)",
        encoding="utf-16",
    )


def test_dev_null_as_the_database_is_refused_and_nothing_is_made_beside_it(tmp_path: Path) -> None:
    journal = Path("/dev/null-journal")
    existed = journal.exists()
    (tmp_path / "bad.toml").write_text(
        HEAD.replace('"event.sqlite"', '"/dev/null"') + ENGINE_LINES, encoding="utf-8"
    )
    assert_refused(
        arbiter("run", "bad.toml", cwd=tmp_path), "/dev/null: not an arbiter database", "not a regular file"
    )
    assert journal.exists() == existed


def test_run_s_concurrency_above_the_bound_is_refused_before_the_database_is_made(tmp_path: Path) -> None:
    # A tournament file's `concurrency` is bounded; `run -c` replaces it and must be bounded alike.
    (tmp_path / "event.toml").write_text(HEAD + ENGINE_LINES, encoding="utf-8")
    ran = arbiter("run", "event.toml", "-c", "100000", "--force-concurrency", cwd=tmp_path)
    assert_refused(ran, "--concurrency", "1024", code=2)
    assert not (tmp_path / "event.sqlite").exists()


@pytest.mark.parametrize(
    ("report", "expected"),
    [
        ("afile", "report folder afile: a file, not a folder"),
        ("afile/site", "report folder afile/site: afile is a file, not a folder"),
    ],
)
def test_a_report_folder_that_cannot_be_written_is_refused_before_the_first_game(
    event_folder: Path, report: str, expected: str
) -> None:
    (event_folder / "afile").write_text("not a folder\n", encoding="utf-8")
    text = (
        HEAD.replace('name = "bad event"', 'name = "stored event"') + f'report = "{report}"\n' + ENGINE_LINES
    )
    refused_run(event_folder, text, expected)


def test_an_unbalanced_quote_in_a_match_engine_is_refused(tmp_path: Path) -> None:
    ran = arbiter(
        "match", f'{sys.executable} "{ENGINES / "slow_start.py"}', "greedy", "--db", "m.sqlite", cwd=tmp_path
    )
    # The message names the engine by the text given for it.
    assert_refused(ran, "slow_start.py", "No closing quotation", code=2)
    assert not (tmp_path / "m.sqlite").exists()


def test_play_refuses_a_start_position_with_a_man_where_its_side_is_crowned(tmp_path: Path) -> None:
    ran = arbiter("play", "random", "greedy", "--fen", "B:W5:B30", cwd=tmp_path)
    assert_refused(ran, "start position 'B:W5:B30'", "the black man on 30 stands on the row", code=2)
    assert "Result:" not in ran.out


def test_play_refuses_a_start_position_without_pieces(tmp_path: Path) -> None:
    ran = arbiter("play", "random", "greedy", "--fen", "W:W:B", cwd=tmp_path)
    assert_refused(ran, "start position 'W:W:B'", "the game is already over", "no pieces", code=2)
    assert "Result:" not in ran.out


def test_a_tournament_file_with_a_byte_order_mark_is_refused_saying_so(event_folder: Path) -> None:
    # tomllib's own words were "Invalid statement (at line 1, column 1)", on a line that looks right.
    refused_run(
        event_folder, HEAD + ENGINE_LINES, "bad.toml:1: starts with a byte-order mark", encoding="utf-8-sig"
    )


MATCH_HEAD = HEAD + 'format = "match"\n' + ENGINE_LINES  # lines 1 to 10: [sprt] is line 11


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        (
            "elo0 = 0\nelo1 = 5\nelo_0 = 1",
            "bad.toml:14: sprt.elo_0: not an SPRT setting; the settings are elo0, elo1, alpha, beta, model",
        ),
        ('elo0 = "zero"\nelo1 = 5', "bad.toml:12: sprt.elo0: must be a number, not 'zero'"),
        ("elo1 = 5", "bad.toml:11: sprt: needs elo0 (the Elo of H0 and of H1)"),
    ],
)
def test_a_bad_sprt_table_is_refused_naming_the_key_and_its_line(
    event_folder: Path, table: str, expected: str
) -> None:
    # Python's own words came out: "SprtSettings.__init__() got an unexpected keyword argument".
    refused_run(event_folder, MATCH_HEAD + "[sprt]\n" + table + "\n", expected)


def test_an_event_of_one_engine_is_refused_at_the_line_of_its_engine(event_folder: Path) -> None:
    text = HEAD + '[[engines]]\nname = "random"\nbundled = "random"\n'
    refused_run(event_folder, text, "bad.toml:4: engines: List should have at least 2 items")


def test_an_opening_file_that_is_not_utf8_is_refused_with_its_line(event_folder: Path) -> None:
    (event_folder / "openings.txt").write_text("11-15 23-19\n", encoding="utf-16")
    text = HEAD + ENGINE_LINES + '[openings]\nfile = "openings.txt"\n'
    refused_run(
        event_folder, text, "openings.txt:1: not UTF-8 text (it looks like UTF-16)", "save it as UTF-8"
    )
