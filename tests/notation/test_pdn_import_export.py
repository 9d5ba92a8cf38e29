"""`arbiter pdn import` and `arbiter pdn export`: PDN files into the tournament store and back out.

Files are imported and exported as a user runs the commands, into real SQLite files; what comes back is
read with the project's PDN reader and compared with the file that went in, move for move.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from arbiter.notation.movetext import format_hub
from arbiter.notation.pdn import read_pdn, read_pdn_text
from arbiter.notation.pdn_model import PdnGame
from arbiter.notation.pdn_writer import format_game
from arbiter.publishing.pdn_export import record_pdn_game
from arbiter.publishing.pdn_import import pdn_game_record, player_names
from arbiter.referee.record import GameOutcome, GameRecord, Side, Termination, Winner
from arbiter.running.runner import QuietObserver, TournamentRunner
from arbiter.store import TournamentStore
from arbiter.tournament.config import load_tournament
from arbiter.tournament.schedule import PlannedGame
from arbiter.tournament.stored_standings import stored_standings

PDN_DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "pdn" / "succeed"
NOW = datetime(2026, 1, 2, 3, 4, tzinfo=UTC)


def arbiter(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arbiter.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def shared_file(name: str) -> Path:
    path = PDN_DATA / name
    if not path.exists():
        pytest.skip(f"shared PDN data not present at {path.resolve()}")
    return path


def hubs(game: PdnGame) -> list[str]:
    return [format_hub(move.move) for move in game.moves]


def one_game(text: str) -> PdnGame:
    (game,) = read_pdn_text(text, source="test.pdn")
    assert game.faults == (), game.faults
    return game


def stored_games(database: Path) -> list[GameRecord]:
    with TournamentStore.open(database, create=False) as store:
        return [game.record for game in store.games(store.find_tournament().id)]


# --- round trips through the database ------------------------------------------------------------------


def test_english_and_international_files_come_back_from_the_database_as_the_same_games(
    tmp_path: Path,
) -> None:
    database = tmp_path / "games.sqlite"
    for name in ("OCA_2.0.pdn", "DUTCH96H.pdn"):
        source = shared_file(name)
        run = arbiter("pdn", "import", source, "--db", database)
        assert run.returncode == 0, run.stdout + run.stderr
        original = list(read_pdn(source))
        assert f"{len(original)} game(s) read; {len(original)} stored in tournament {name!r}" in run.stdout
        exported = tmp_path / f"{name}.out.pdn"
        run = arbiter("pdn", "export", database, "--tournament", name, "--out", exported)
        assert run.returncode == 0, run.stderr
        back = list(read_pdn(exported))
        assert len(back) == len(original)
        for before, after in zip(original, back, strict=True):
            assert after.faults == ()
            assert after.variant_id == before.variant_id
            assert hubs(after) == hubs(before)
            assert after.winner == before.winner
            assert (after.result == "*") == (before.result == "*")
            for tag in ("Event", "Site", "Date", "Round"):
                assert after.tags.get(tag, "?") == before.tags.get(tag, "?"), tag
    # The international file's wins are written the FMJD way, the first mover's score first.
    assert {game.result for game in read_pdn(tmp_path / "DUTCH96H.pdn.out.pdn")} <= {"2-0", "0-2", "1-1"}


def test_importing_the_same_file_again_stores_nothing_twice(tmp_path: Path) -> None:
    source = shared_file("OCA_2.0.pdn")
    database = tmp_path / "games.sqlite"
    first = arbiter("pdn", "import", source, "--db", database)
    assert first.returncode == 0, first.stderr
    count = len(stored_games(database))
    again = arbiter("pdn", "import", source, "--db", database)
    assert again.returncode == 0, again.stderr
    assert f"0 stored in tournament 'OCA_2.0.pdn' (#1), {count} already there, 0 skipped" in again.stdout
    assert len(stored_games(database)) == count
    with TournamentStore.open(database, create=False) as store:
        assert [info.name for info in store.tournaments()] == ["OCA_2.0.pdn"]


def club_game(event: str, white: str, black: str, moves: str, result: str) -> str:
    return (
        f'[Event "{event}"]\n[White "{white}"]\n[Black "{black}"]\n[GameType "21"]\n1. {moves} {result}\n\n'
    )


G0 = club_game("g0", "Xan", "Yve", "10-14 24-20", "1/2-1/2")
G1 = club_game("g1", "Ann", "Bob", "11-15 23-19", "1-0")
G2 = club_game("g2", "Cid", "Dan", "9-13 22-18", "0-1")
G3 = club_game("g3", "Ann", "Cid", "12-16 24-19", "1-0")


def stored_events(database: Path) -> list[str]:
    return sorted(game.tags["Event"] for game in stored_games(database))


def imported_then_edited(
    tmp_path: Path, before: str, after: str
) -> tuple[Path, Path, subprocess.CompletedProcess[str]]:
    """The database, the file and the second import of a file imported as ``before``, then ``after``."""
    database = tmp_path / "games.sqlite"
    path = tmp_path / "club.pdn"
    path.write_text(before)
    assert arbiter("pdn", "import", path, "--db", database).returncode == 0
    path.write_text(after)
    return database, path, arbiter("pdn", "import", path, "--db", database)


def test_a_game_inserted_at_the_top_of_an_imported_file_is_stored_and_the_others_are_not_stored_again(
    tmp_path: Path,
) -> None:
    database, path, run = imported_then_edited(tmp_path, G1 + G2, G0 + G1 + G2)
    assert run.returncode == 0, run.stdout
    assert run.stdout.splitlines() == [
        f"{path}: 3 game(s) read; 1 stored in tournament 'club.pdn' (#1), 2 already there, 0 skipped"
    ]
    assert stored_events(database) == ["g0", "g1", "g2"]


def test_games_are_recognised_wherever_they_moved_in_the_file_and_appended_ones_are_stored(
    tmp_path: Path,
) -> None:
    database, _, run = imported_then_edited(tmp_path, G0 + G1 + G2, G2 + G0 + G1 + G3)
    assert run.returncode == 0, run.stdout
    assert "4 game(s) read; 1 stored in tournament 'club.pdn' (#1), 3 already there, 0 skipped" in run.stdout
    assert stored_events(database) == ["g0", "g1", "g2", "g3"]
    # The appended game takes its place in the file as its round, free after the earlier import.
    with TournamentStore.open(database, create=False) as store:
        keys = {game.record.tags["Event"]: str(game.key) for game in store.games(1)}
    assert keys == {"g0": "r1-b1-g1", "g1": "r2-b1-g1", "g2": "r3-b1-g1", "g3": "r4-b1-g1"}


def test_a_game_a_file_holds_twice_is_stored_twice_and_a_third_copy_added_later_once_more(
    tmp_path: Path,
) -> None:
    database = tmp_path / "games.sqlite"
    path = tmp_path / "club.pdn"
    path.write_text(G1 + G1)
    first = arbiter("pdn", "import", path, "--db", database)
    assert "2 stored in tournament 'club.pdn' (#1), 0 already there" in first.stdout
    again = arbiter("pdn", "import", path, "--db", database)
    assert "0 stored in tournament 'club.pdn' (#1), 2 already there" in again.stdout
    path.write_text(G1 + G2 + G1 + G1)
    third = arbiter("pdn", "import", path, "--db", database)
    assert "2 stored in tournament 'club.pdn' (#1), 2 already there" in third.stdout
    assert stored_events(database) == ["g1", "g1", "g1", "g2"]


def test_a_game_changed_in_the_file_is_stored_as_a_new_game_and_the_earlier_one_is_kept_and_counted(
    tmp_path: Path,
) -> None:
    database, path, run = imported_then_edited(tmp_path, G1 + G2, G1 + G2.replace("9-13", "9-14"))
    assert run.returncode == 0, run.stdout
    assert run.stdout.splitlines() == [
        f"{path}: 2 game(s) read; 1 stored in tournament 'club.pdn' (#1), 1 already there, 0 skipped; "
        "1 game(s) stored by an earlier import are no longer in the file (changed or removed there), "
        "and are kept"
    ]
    assert sorted(game.moves[0].text for game in stored_games(database)) == ["11-15", "9-13", "9-14"]


LIVE = club_game("live", "Eve", "Fay", "11-15 23-19 2. 8-11", "*")  # a game still being played
LIVE_ON = club_game("live", "Eve", "Fay", "11-15 23-19 2. 8-11 22-17 3. 9-13", "*")
LIVE_WON = club_game("live", "Eve", "Fay", "11-15 23-19 2. 8-11 22-17 3. 9-13 17-14", "1-0").replace(
    '[GameType "21"]', '[Termination "resignation"]\n[GameType "21"]'
)


def stored_keys_and_moves(database: Path) -> list[tuple[str, str, int, str]]:
    with TournamentStore.open(database, create=False) as store:
        return [
            (str(game.key), game.record.tags["Event"], game.record.plies, game.record.winner.value)
            for game in store.games(store.find_tournament().id)
        ]


def test_an_unfinished_game_continued_in_the_file_is_brought_up_to_date_in_its_place(tmp_path: Path) -> None:
    database, path, run = imported_then_edited(tmp_path, G1 + LIVE, G1 + LIVE_ON)
    assert run.returncode == 0, run.stdout
    assert run.stdout.splitlines() == [
        f"{path}: 2 game(s) read; 0 stored in tournament 'club.pdn' (#1), 1 already there, 0 skipped; "
        "1 unfinished game(s) stored by an earlier import continue in the file and were brought up to "
        "date (their moves and result)"
    ]
    assert stored_keys_and_moves(database) == [
        ("r1-b1-g1", "g1", 2, "black"),
        ("r2-b1-g1", "live", 5, "unfinished"),
    ]
    # Finished later (a Termination tag added with the result): the same game again, still in its place.
    path.write_text(G1 + LIVE_WON)
    finished = arbiter("pdn", "import", path, "--db", database)
    assert (
        "0 stored in tournament 'club.pdn' (#1), 1 already there, 0 skipped; 1 unfinished" in finished.stdout
    )
    assert stored_keys_and_moves(database) == [
        ("r1-b1-g1", "g1", 2, "black"),
        ("r2-b1-g1", "live", 6, "black"),
    ]
    (won,) = [record for record in stored_games(database) if record.tags["Event"] == "live"]
    assert won.outcome is not None and won.outcome.termination is Termination.RESIGNATION
    again = arbiter("pdn", "import", path, "--db", database)
    assert again.stdout.splitlines() == [
        f"{path}: 2 game(s) read; 0 stored in tournament 'club.pdn' (#1), 2 already there, 0 skipped"
    ]


def test_a_continued_game_is_stored_beside_an_unfinished_one_the_file_still_holds_or_a_finished_one(
    tmp_path: Path,
) -> None:
    # The file keeps the unfinished game as it was, and adds it continued: both are games of the file.
    database, path, run = imported_then_edited(tmp_path, LIVE, LIVE_ON + LIVE)
    assert "2 game(s) read; 1 stored in tournament 'club.pdn' (#1), 1 already there, 0 skipped" in run.stdout
    assert "unfinished" not in run.stdout
    assert stored_keys_and_moves(database) == [
        ("r1-b1-g1", "live", 3, "unfinished"),
        ("r2-b1-g1", "live", 5, "unfinished"),
    ]
    # A result once stored is never replaced: a finished game played on in the file is stored beside it.
    (tmp_path / "won").mkdir()
    database, path, run = imported_then_edited(tmp_path / "won", G1, G1.replace("1-0", "8-11 1-0"))
    assert "1 stored in tournament 'club.pdn' (#1), 0 already there, 0 skipped; 1 game(s)" in run.stdout
    assert stored_keys_and_moves(database) == [("r1-b1-g1", "g1", 2, "black"), ("r2-b1-g1", "g1", 3, "black")]


def test_an_unfinished_game_edited_in_the_file_is_stored_beside_it_not_taken_for_its_continuation(
    tmp_path: Path,
) -> None:
    # Another tag (the Event), or an earlier move changed: a game the tournament does not hold.
    edits = (
        LIVE_WON.replace("live", "cup"),
        club_game("live", "Eve", "Fay", "11-15 23-19 2. 9-14 22-17", "1-0"),
    )
    for number, edited in enumerate(edits):
        (tmp_path / str(number)).mkdir()
        database, path, run = imported_then_edited(tmp_path / str(number), LIVE, edited)
        assert run.returncode == 0, run.stdout
        assert run.stdout.splitlines() == [
            f"{path}: 1 game(s) read; 1 stored in tournament 'club.pdn' (#1), 0 already there, 0 skipped; "
            "1 game(s) stored by an earlier import are no longer in the file (changed or removed there), "
            "and are kept"
        ]
        assert [winner for *_, winner in stored_keys_and_moves(database)] == ["unfinished", "black"]


# A program's escape line, two clock readings (one with words), side lines, marks and a line comment.
ANNOTATED = """% written by a program
[Event "annotated"]
[White "Ann"]
[Black "Bob"]
[GameType "21"]
1. 11-15 {[%clock b0:04:59]} 23-19 {a quiet reply [%clock w0:04:58]}
2. 8-11! (2... 9-13 $2 (2... 10-14?) 22-18) 22-17 ; the usual
*
"""


def test_the_import_says_how_many_comments_side_lines_marks_and_escape_lines_it_does_not_keep(
    tmp_path: Path,
) -> None:
    path = tmp_path / "annotated.pdn"
    path.write_text(ANNOTATED)
    run = arbiter("pdn", "import", path, "--db", tmp_path / "games.sqlite")
    assert run.returncode == 0, run.stdout
    assert run.stdout.splitlines() == [
        f"{path}: 2 comments, 2 side lines, 3 marks ($n, !, ?) and 1 % line are not kept "
        "(only [%clock] readings are)",
        f"{path}: 1 game(s) read; 1 stored in tournament 'annotated.pdn' (#1), 0 already there, 0 skipped",
    ]
    (stored,) = stored_games(tmp_path / "games.sqlite")
    assert [(move.text, move.clock) for move in stored.moves] == [
        ("11-15", 299.0),
        ("23-19", 298.0),
        ("8-11", None),
        ("22-17", None),
    ]
    path.write_text('[GameType "21"]\n1. 11-15 {the one comment} *\n')
    single = arbiter("pdn", "import", path, "--db", tmp_path / "other.sqlite")
    assert single.stdout.splitlines()[0] == f"{path}: 1 comment is not kept (only [%clock] readings are)"


# --- faults ----------------------------------------------------------------------------------------------

FAULTY = """[Event "good"]
[White "Ann"]
[Black "Bob"]
[GameType "21"]
1. 11-15 23-19 1/2-1/2

[Event "illegal"]
[GameType "21"]
1. 11-15 23-19 2. 8-12 *

[Event "contradiction"]
[GameType "21"]
[FEN "B:W18:B14"]
1. 14x23 0-1

[Event "double loss"]
[GameType "21"]
1. 11-15 0-0

[Event "thai"]
[GameType "31"]
1. a3-b4 *
"""


def test_games_with_faults_are_skipped_and_reported_and_the_good_ones_are_stored(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_text(FAULTY)
    database = tmp_path / "games.sqlite"
    run = arbiter("pdn", "import", path, "--db", database)
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert lines[0].startswith(f"{path}:9:19: game 2 (illegal), ply 3: illegal move: 8-12 is not legal")
    assert lines[1] == (
        f"{path}:14:10: game 3 (contradiction): bad result: the result 0-1 does not fit the move text, "
        "whose last position is decided: White has no pieces left (1-0)"
    )
    assert lines[2] == (
        f"{path}:18:10: game 4 (double loss): result not stored: 0-0 (lost for both sides): a stored game "
        "has one winner, a draw, or no result"
    )
    assert lines[3].startswith(f"{path}:20:1: game 5 (thai): variant not supported yet: Thai draughts")
    assert (
        lines[4]
        == f"{path}: 5 game(s) read; 1 stored in tournament 'mixed.pdn' (#1), 0 already there, 4 skipped"
    )
    (kept,) = stored_games(database)
    assert (kept.white.name, kept.black.name, kept.winner) == ("Ann", "Bob", Winner.DRAW)


# Black has nothing left to move with, yet the file calls it a draw (as a problem collection does).
RULED_OUT = '[Event "empty board"]\n[GameType "21"]\n[FEN "W::."]\n1/2-1/2\n'


def test_a_result_the_rules_rule_out_is_the_same_fault_for_pdn_check_and_pdn_import(tmp_path: Path) -> None:
    path = tmp_path / "problems.pdn"
    path.write_text(G1 + RULED_OUT)
    fault = (
        f"{path}:10:1: game 2 (empty board): bad result: the result 1/2-1/2 does not fit the move text, "
        "whose last position is decided: White has no pieces left (1-0)"
    )
    checked = arbiter("pdn", "check", path)
    assert checked.returncode == 1
    assert checked.stdout.splitlines()[0] == fault
    imported = arbiter("pdn", "import", path, "--db", tmp_path / "games.sqlite")
    assert imported.returncode == 1
    assert imported.stdout.splitlines() == [
        fault,
        f"{path}: 2 game(s) read; 1 stored in tournament 'problems.pdn' (#1), 0 already there, 1 skipped",
    ]


def test_a_double_loss_result_is_the_same_fault_for_pdn_check_and_pdn_import_in_every_variant(
    tmp_path: Path,
) -> None:
    # PDN 3.0's 0-0 (lost for both players) as a terminator (English) and as a Result tag without one
    # (international): valid PDN, but no stored game holds it, so check names each game import skips.
    path = tmp_path / "forfeits.pdn"
    path.write_text(
        G1.replace("1-0\n", "0-0\n")
        + '[Event "intl"]\n[White "Cid"]\n[Black "Dan"]\n[Result "0-0"]\n[GameType "20"]\n1. 32-28 19-23\n\n'
        + G2
    )
    reason = (
        "result not stored: 0-0 (lost for both sides): a stored game has one winner, a draw, or no result"
    )
    faults = [
        f"{path}:5:16: game 1 (g1; White Ann; Black Bob): {reason}",
        f"{path}:10:1: game 2 (intl; White Cid; Black Dan): {reason}",
    ]
    checked = arbiter("pdn", "check", path)
    assert checked.returncode == 1, checked.stdout
    assert checked.stdout.splitlines()[:3] == [
        *faults,
        f"{path}: 3 game(s), 1 replayed without fault (6 plies), 2 with faults (2 result not stored)",
    ]
    imported = arbiter("pdn", "import", path, "--db", tmp_path / "games.sqlite")
    assert imported.returncode == 1
    assert imported.stdout.splitlines() == [
        *faults,
        f"{path}: 3 game(s) read; 1 stored in tournament 'forfeits.pdn' (#1), 0 already there, 2 skipped",
    ]
    # Read for anything but storing (an opening deck, the writer's round trip), 0-0 is a plain result.
    assert [game.faults for game in read_pdn(path)] == [(), (), ()]


def test_a_draw_the_rules_reached_before_the_players_played_on_stands_for_check_and_import(
    tmp_path: Path,
) -> None:
    # The kings repeat the position a third time at ply 8 (a draw); White then takes Black's last piece.
    path = tmp_path / "played-on.pdn"
    path.write_text(
        '[GameType "21"]\n[FEN "W:WK10:BK32"]\n1. 10-14 32-28 2. 14-10 28-32 3. 10-14 32-28 4. 14-10 28-32 '
        "5. 10-15 32-27 6. 15-18 27-23 7. 18x27 1/2-1/2\n"
    )
    checked = arbiter("pdn", "check", path)
    assert checked.returncode == 0, checked.stdout
    assert (
        checked.stdout.splitlines()[0]
        == f"{path}: 1 game(s), 1 replayed without fault (13 plies), 0 with faults"
    )
    imported = arbiter("pdn", "import", path, "--db", tmp_path / "games.sqlite")
    assert imported.returncode == 0, imported.stdout
    (stored,) = stored_games(tmp_path / "games.sqlite")
    assert stored.winner is Winner.DRAW


def test_a_game_a_variant_s_own_rule_ends_is_stored_with_that_rule(tmp_path: Path) -> None:
    # Breakthrough: White's man crowns on 1, which wins the game there.
    path = tmp_path / "breakthrough.pdn"
    path.write_text('[Variant "bt"]\n[FEN "W:W6,40:B45,15"]\n1. 6-1 2-0\n')
    run = arbiter("pdn", "import", path, "--db", tmp_path / "games.sqlite")
    assert run.returncode == 0, run.stdout + run.stderr
    (stored,) = stored_games(tmp_path / "games.sqlite")
    assert stored.outcome is not None
    assert (stored.winner, stored.outcome.termination, stored.outcome.rule) == (
        Winner.WHITE,
        Termination.VARIANT_RULE,
        "crowned first",
    )


def test_a_file_with_no_readable_game_creates_no_tournament(tmp_path: Path) -> None:
    path = tmp_path / "thai.pdn"
    path.write_text('[GameType "31"]\n1. a3-b4 *\n')
    database = tmp_path / "games.sqlite"
    run = arbiter("pdn", "import", path, "--db", database)
    assert run.returncode == 1
    with TournamentStore.open(database, create=False) as store:
        assert store.tournaments() == []


def test_a_missing_file_or_database_is_an_error_with_exit_two_and_creates_nothing(tmp_path: Path) -> None:
    run = arbiter("pdn", "import", tmp_path / "missing.pdn", "--db", tmp_path / "new.sqlite")
    assert run.returncode == 2
    assert f"{tmp_path / 'missing.pdn'}: no such PDN file" in run.stderr
    assert not (tmp_path / "new.sqlite").exists()
    run = arbiter("pdn", "export", tmp_path / "none.sqlite")
    assert run.returncode == 2
    assert "no such tournament database" in run.stderr


def test_an_export_that_cannot_be_written_is_refused_before_the_database_is_read(tmp_path: Path) -> None:
    games = tmp_path / "games.pdn"
    games.write_text('[GameType "21"]\n1. 11-15 23-19 1-0\n', encoding="utf-8")
    stored = arbiter("pdn", "import", games, "--db", tmp_path / "games.sqlite")
    assert stored.returncode == 0, stored.stderr
    out = games / "out.pdn"  # inside a file, not a folder
    run = arbiter("pdn", "export", tmp_path / "games.sqlite", "--out", out)
    assert run.returncode == 2
    assert f"error: --out {out}: {games} is a file, not a folder" in run.stderr
    assert "Traceback" not in run.stderr
    assert games.read_text(encoding="utf-8").startswith('[GameType "21"]')
    empty = arbiter("pdn", "export", tmp_path / "games.sqlite", "--out", "")
    assert empty.returncode == 2
    assert "error: --out .: a folder, not a file" in empty.stderr


# --- from a PDN game to a record -----------------------------------------------------------------------


def test_a_result_the_board_decides_is_stored_with_the_board_s_reason() -> None:
    record = pdn_game_record(one_game('[GameType "21"]\n[FEN "B:W18:B14"]\n1. 14x23 1-0\n'), "t.pdn", NOW)
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.BLACK, Termination.NO_PIECES)


def test_a_result_without_a_reason_is_stored_as_recorded_in_the_file() -> None:
    won = pdn_game_record(one_game('[GameType "21"]\n1. 11-15 23-19 0-1\n'), "club.pdn", NOW)
    assert won.outcome is not None
    assert (won.winner, won.outcome.termination) == (Winner.WHITE, Termination.AS_RECORDED)
    assert won.outcome.reason == "White wins: result as given in club.pdn, game 1, no reason stated"
    drawn = pdn_game_record(one_game('[GameType "20"]\n1. 32-28 1-1\n'), "club.pdn", NOW)
    assert drawn.outcome is not None
    assert (drawn.winner, drawn.outcome.termination) == (Winner.DRAW, Termination.AS_RECORDED)


def test_a_termination_tag_names_the_termination_where_the_result_allows_it() -> None:
    text = '[GameType "21"]\n[Termination "Time forfeit"]\n1. 11-15 0-1\n'
    record = pdn_game_record(one_game(text), "club.pdn", NOW)
    assert record.outcome is not None
    assert record.outcome.termination is Termination.TIME_FORFEIT
    assert record.outcome.reason == "White wins: Time forfeit (as given in club.pdn, game 1)"
    # Exported, the file's own words come back.
    assert '[Termination "Time forfeit"]' in format_game(record_pdn_game(record, imported=True))


def test_an_unfinished_game_is_stored_without_a_result_and_exported_with_a_star() -> None:
    record = pdn_game_record(one_game('[GameType "21"]\n1. 11-15 23-19 *\n'), "club.pdn", NOW)
    assert record.winner is Winner.UNFINISHED
    (back,) = read_pdn_text(format_game(record_pdn_game(record)))
    assert back.result == "*" and [move.text for move in back.moves] == ["11-15", "23-19"]


def test_moves_keep_their_side_hub_text_and_clock() -> None:
    text = '[GameType "21"]\n1. 11-15 {[%clock b0:04:59]} 23-19 {good [%clock w0:04:58.500]} *\n'
    record = pdn_game_record(one_game(text), "club.pdn", NOW)
    assert [(m.ply, m.side, m.hub, m.clock) for m in record.moves] == [
        (1, Side.BLACK, "11-15", 299.0),
        (2, Side.WHITE, "23-19", 298.5),
    ]
    written = format_game(record_pdn_game(record))
    assert "{[%clock b0:04:59]}" in written and "{[%clock w0:04:58.500]}" in written
    (back,) = read_pdn_text(written)
    assert [move.clock for move in back.moves] == [299.0, 298.5]


def test_a_move_s_time_is_written_to_the_millisecond_as_its_clock_is_kept() -> None:
    text = '[GameType "21"]\n1. 11-15 {[%clock b0:04:59.580]} *\n'
    record = pdn_game_record(one_game(text), "club.pdn", NOW)
    timed = record.model_copy(update={"moves": [record.moves[0].model_copy(update={"elapsed": 0.4204})]})
    written = format_game(record_pdn_game(timed))
    assert "{[%clock b0:04:59.580]} {0.420s}" in written


def test_how_the_game_ended_and_the_game_s_warnings_are_comments_before_the_result() -> None:
    played = pdn_game_record(one_game('[GameType "21"]\n1. 11-15 23-19 *\n'), "club.pdn", NOW)
    reason = "White wins: Black lost for improper delay: Time was called at the jump limit of 0.600 s"
    warning = "Black, ply 3: Time: called at the jump limit of 0.600 s; no move came"
    outcome = GameOutcome.of(Winner.WHITE, Termination.IMPROPER_DELAY, reason=reason)
    record = played.model_copy(update={"outcome": outcome, "warnings": [warning]})
    written = format_game(record_pdn_game(record))
    assert " ".join(written.split()).endswith(f"23-19 {{{reason}}} {{{warning}}} 0-1")
    (back,) = read_pdn_text(written)
    assert back.ok and back.result == "0-1"
    # The reason is longer than a line: it is wrapped, and its line break reads back as one.
    assert [" ".join(comment.split()) for comment in back.moves[-1].comments] == [reason, warning]
    # An imported game's reason is the arbiter's words about its file, not the file's: none is added.
    assert "{" not in format_game(record_pdn_game(record, imported=True))


def test_a_whole_date_becomes_the_start_and_a_partial_one_stays_a_tag() -> None:
    dated = pdn_game_record(one_game('[GameType "20"]\n[Date "13-01-1996"]\n1. 32-28 *\n'), "x.pdn", NOW)
    assert dated.started_at == datetime(1996, 1, 13, tzinfo=UTC)
    assert dated.tags["Date"] == "13-01-1996"
    vague = pdn_game_record(one_game('[GameType "21"]\n[Date "1841-??-??"]\n1. 11-15 *\n'), "x.pdn", NOW)
    assert vague.started_at == NOW
    assert '[Date "1841-??-??"]' in format_game(record_pdn_game(vague, imported=True))


def test_missing_or_equal_player_names_become_two_distinct_players(tmp_path: Path) -> None:
    assert player_names(one_game('[GameType "21"]\n1. 11-15 *\n')) == ("? (White)", "? (Black)")
    assert player_names(one_game('[White "?"]\n[Black "Bob"]\n[GameType "21"]\n1. 11-15 *\n')) == (
        "? (White)",
        "Bob",
    )
    same = '[White "Ann"]\n[Black "Ann"]\n[GameType "21"]\n1. 11-15 *\n'
    assert player_names(one_game(same)) == ("Ann (White)", "Ann (Black)")
    path = tmp_path / "anonymous.pdn"
    path.write_text(
        '[GameType "21"]\n1. 11-15 1-0\n\n[White "Ann"]\n[Black "Ann"]\n[GameType "21"]\n1. 9-13 0-1\n'
    )
    database = tmp_path / "games.sqlite"
    run = arbiter("pdn", "import", path, "--db", database)
    assert run.returncode == 0, run.stdout
    assert "1 game(s) without a player's name, stored as '? (White)'/'? (Black)'" in run.stdout
    with TournamentStore.open(database, create=False) as store:
        tid = store.find_tournament().id
        assert [e.name for e in store.engines(tid)] == [
            "? (White)",
            "? (Black)",
            "Ann (White)",
            "Ann (Black)",
        ]
        table = stored_standings(store, tid).table
        assert {(s.player, s.points) for s in table if s.points} == {("? (Black)", 1.0), ("Ann (White)", 1.0)}


def test_a_player_the_file_did_not_name_is_exported_as_pdn_s_unknown_name() -> None:
    record = pdn_game_record(one_game('[Black "Bob"]\n[GameType "21"]\n1. 11-15 *\n'), "club.pdn", NOW)
    assert (record.white.name, record.black.name) == ("? (White)", "Bob")
    written = format_game(record_pdn_game(record, imported=True))
    assert '[White "?"]' in written and '[Black "Bob"]' in written
    assert player_names(one_game(written)) == ("? (White)", "Bob")


# --- a database made by a real match -------------------------------------------------------------------


class StopAtThirdGame(QuietObserver):
    """Stops the run as its third game starts: that game is abandoned and stored without a result."""

    def __init__(self) -> None:
        self.runner: TournamentRunner | None = None
        self.started = 0

    def game_started(self, game: PlannedGame) -> None:
        self.started += 1
        if self.started == 3 and self.runner is not None:
            self.runner.request_stop()


def test_a_real_match_exports_every_stored_game_with_unfinished_ones_as_star(tmp_path: Path) -> None:
    (tmp_path / "tournament.toml").write_text(
        'name = "pdn match"\ndatabase = "match.sqlite"\nvariant = "english"\ntime_control = "depth=2"\n'
        'format = "match"\ngames_per_encounter = 3\nconcurrency = 1\n'
        "[adjudication]\nmax_plies = 80\n"
        '[[engines]]\nname = "random"\nbundled = "random"\n'
        '[[engines]]\nname = "greedy"\nbundled = "greedy"\n',
        encoding="utf-8",
    )
    config, engines = load_tournament(tmp_path / "tournament.toml")
    observer = StopAtThirdGame()
    runner = TournamentRunner(config, engines, observer=observer)
    observer.runner = runner
    with TournamentStore.open(config.database) as store:
        asyncio.run(runner.run(store, handle_signals=False))
        games = store.games(store.find_tournament().id)
    assert [game.finished for game in games] == [True, True, False]

    run = arbiter("pdn", "export", config.database)
    assert run.returncode == 0, run.stderr
    assert "exported 3 game(s) of tournament 'pdn match' (#1)" in run.stderr
    back = read_pdn_text(run.stdout)
    assert len(back) == 3
    for stored, pdn in zip(games, back, strict=True):
        record = stored.record
        assert pdn.faults == ()
        assert hubs(pdn) == [move.hub for move in record.moves]
        assert (pdn.tags["Event"], pdn.tags["White"], pdn.tags["Black"]) == (
            "pdn match",
            record.white.name,
            record.black.name,
        )
        assert pdn.tags["TimeControl"] == record.time_control
        if record.winner is Winner.UNFINISHED:
            assert pdn.result == "*"
            assert pdn.tags["Termination"] == "game abandoned"
        else:
            assert pdn.winner == (Side(record.winner.value).color if record.winner.decisive else None)

    # A name taken by a tournament that was played, not imported, is refused.
    other = tmp_path / "other.pdn"
    other.write_text('[GameType "21"]\n1. 11-15 *\n')
    refused = arbiter("pdn", "import", other, "--db", config.database, "--name", "pdn match")
    assert refused.returncode == 2
    assert "tournament 'pdn match' (#1) was not imported from PDN; choose another name" in refused.stderr
