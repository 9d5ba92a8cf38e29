"""Real PDN archives (../shared/data/pdn): every game replays, or its fault in the file is pinned here
with the reason it was found to fail.

The `fail/` files are rejected by another PDN parser's test suite. Each was read to find out why:
- 40Camp.DamaInternazionaleAssoluto.pdn: game 11 has no result before the next game's tags (move
  text `1. 34-29 19-23` and then `[Event ...]`). Not a fault here: the game ends at the next tag and
  takes its result from the Result tag, with a note. Everything else reads (UTF-8 `°` included).
- Cat.A1.pdn: game 30 writes its last Black move as a bare `.` (`3. 8-3 . 1-0`).
- Cat.C1.pdn: stray move text `36x27 1-0` after the last game, with no tags: read as a game of its
  own, whose first move is illegal from the start position.
- abatsiev.pdn: game 36 has no moves, only dashes (`1. - - 2. - - ...`). The rest is Russian in
  coordinates with Cyrillic tags, and replays.
- delfts.pdn: results are match points on a ten-point scale (`4-6`, `1-9`), in the Result tag and as
  the game terminator; the moves (with leading zeros, `01. 34-29 06-11`) replay.
- mrdrcd07.pdn, mrdrcd08.pdn: Czech draughts (men capture forward only) without a GameType tag; forfeits
  are written as a move number and a result (`1. 0-2`, `1. 1-0`) with a PlyCount of 1 or 0.
- nested_comment.pdn: braces nested inside a comment.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest

from arbiter.notation.pdn import ReadOptions, read_pdn
from arbiter.notation.pdn_model import FaultKind, PdnGame
from arbiter.rules import VARIANTS, Color, Position, get_variant

PDN_DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "pdn"


def data_file(name: str) -> Path:
    if not PDN_DATA.exists():
        pytest.skip(f"shared PDN data not present at {PDN_DATA.resolve()}")
    path = PDN_DATA / name
    assert path.exists(), f"{path} is missing from the shared data"
    return path


def read(name: str, variations: bool = False) -> list[PdnGame]:
    return list(read_pdn(data_file(name), ReadOptions(variations=variations)))


def faults(games: list[PdnGame]) -> list[tuple[int, FaultKind, int | None, str]]:
    return [(g.number, f.kind, f.ply, f.reason) for g in games for f in g.faults]


# --- English ---------------------------------------------------------------------------------------------


def test_tinsley_replays_every_game_but_three_with_real_faults() -> None:
    games = read("succeed/tinsley.pdn")
    assert len(games) == 724
    assert {g.variant_id for g in games} == {"english"}
    assert faults(games) == [
        # Black's king went from 32 to 28 at move 60; the record has it move from 32 again.
        (
            541,
            FaultKind.ILLEGAL_MOVE,
            123,
            "32-28 is not legal for Black in B:WK26,K27,K30:B16,K28,K29; "
            "legal moves: 16-19, 16-20, 28-24, 28-32, 29-25",
        ),
        # Comments glued to the last move, with no braces.
        (
            623,
            FaultKind.SYNTAX,
            31,
            "'8-11Redoversteppedthetimecontrolonthismove.' is not a PDN move, move number or result",
        ),
        (
            693,
            FaultKind.SYNTAX,
            34,
            "'26-22Whiteoversteppedthetimecontrolonthismove.' is not a PDN move, move number or result",
        ),
    ]
    places = [(g.number, f.line, f.column) for g in games for f in g.faults]
    assert places == [(541, 5588, 5), (623, 6434, 70), (693, 7170, 17)]
    assert sum(g.plies for g in games) == 36106


def test_oca_replays_every_game_and_reads_results_with_black_first() -> None:
    games = read("succeed/OCA_2.0.pdn")
    assert len(games) == 43 and all(g.ok for g in games), faults(games)
    assert sum(g.plies for g in games) == 2280
    first = games[0]  # Manchester 1841: Wyllie (White) beat Moorhead, recorded as 0-1
    assert (first.tags["White"], first.result, first.winner) == ("Wyllie, J.", "0-1", Color.WHITE)
    assert first.moves[-1].move.path == (26, 17, 10, 1)


# Problems whose FEN sets a man on the row where its side's men are crowned (its K left out, most
# likely): no position holds one, so the FEN is refused, naming the square.
MEN_ON_THEIR_CROWNING_ROW = {
    ("beginner", 10): "the white man on 1",
    ("goulds", 93): "the white man on 3",
    ("lpc", 36): "the black man on 30",
    ("lpc", 63): "the black man on 32",
    ("lpc", 65): "the black man on 31",
    ("lpc", 73): "the white man on 4",
}
# Bridges #14 sets up an empty board, White to move, and calls it a draw: White, with no piece left,
# has lost, so the result is a fault.
RESULT_RULED_OUT = {("bridges", 14)}


def test_english_problem_collections_replay() -> None:
    collections = ["inferno", "Principles of Strategy", "lpc"]
    collections += ["beginner", "borderclassics", "bridges", "gem", "goulds"]
    for name in collections:
        games = read(f"succeed/{name}.pdn")
        refused = MEN_ON_THEIR_CROWNING_ROW.keys() | RESULT_RULED_OUT
        sound = [g for g in games if (name, g.number) not in refused]
        assert sound and all(g.ok for g in sound), (name, faults(sound))
        assert {g.variant_id for g in games} == {"english"}


def test_a_problem_whose_result_the_board_rules_out_is_a_bad_result() -> None:
    faulty = [g for g in read("succeed/bridges.pdn") if g.faults]
    assert [(g.number, [(f.kind, f.line, f.reason) for f in g.faults]) for g in faulty] == [
        (
            14,
            [
                (
                    FaultKind.BAD_RESULT,
                    125,
                    "the result 1/2-1/2 does not fit the move text, whose last position is decided: "
                    "White has no pieces left (1-0)",
                )
            ],
        )
    ]


def test_problems_with_a_man_on_its_crowning_row_are_refused_naming_the_square() -> None:
    refused = {}
    for name in ("beginner", "goulds", "lpc"):
        for game in read(f"succeed/{name}.pdn"):
            for fault in game.faults:
                assert fault.kind is FaultKind.BAD_FEN, (name, game.number, fault)
                refused[(name, game.number)] = fault.reason.split(": ")[1].split(" stands on")[0]
    assert refused == MEN_ON_THEIR_CROWNING_ROW
    tricks = read("succeed/Tricks traps and shots.pdn")
    # Games 57 and 90 write a short capture that fits two sequences; only one lets the game go on.
    assert tricks and all(g.ok for g in tricks), faults(tricks)
    assert (
        "ply 37: 10x26 fits 2 capture sequences (10x17x26, 10x19x26); 10x17x26 is the one after which "
        "the rest of the game replays"
    ) in tricks[56].notes
    assert tricks[89].moves[21].move.path == (32, 23, 14, 7)


def test_eleven_man_ballots_are_english_start_positions() -> None:
    games = read("succeed/11_man_english.pdn")
    assert len(games) == 2400 and all(g.ok for g in games)
    assert all(g.variant_id == "english" and g.start_position().material().black_men == 11 for g in games)


# --- international ---------------------------------------------------------------------------------------

INTERNATIONAL_FILES = [
    "succeed/DUTCH96H.pdn",
    "succeed/nk2003-amsterdam.pdn",
    "succeed/wk2003.pdn",
    "succeed/PROF2.pdn",
    "succeed/candidate95.pdn",
    "succeed/nk ronde 01.pdn",
    "succeed/nk ronde 02.pdn",
    "succeed/rk ronde 12.pdn",
    "succeed/090417ronde12.pdn",
    "succeed/kurnik.pdn",
    "succeed/windragon.pdn",
    "succeed/Cat.B1.pdn",
    "succeed/Cat.D1.pdn",
    "succeed/PWCP 2a.pdn",
    "succeed/PWCP_2.pdn",
    "fail/40Camp.DamaInternazionaleAssoluto.pdn",
]


@pytest.mark.parametrize("name", INTERNATIONAL_FILES)
def test_international_files_replay(name: str) -> None:
    games = read(name, variations=True)
    assert games and all(g.ok for g in games), faults(games)
    assert {g.variant_id for g in games} == {"international"}


def test_schildpad_short_captures_that_fit_two_sequences_are_read_by_the_rest_of_the_game() -> None:
    games = read("succeed/schildpad.pdn")
    assert games and all(g.ok for g in games), faults(games)
    assert games[2].moves[68].move.path == (36, 13, 2, 16)
    assert games[6].moves[110].move.path == (4, 31, 42, 24)
    assert any("36x13x2x16 is the one after which the rest of the game replays" in n for n in games[2].notes)


# --- other variants ----------------------------------------------------------------------------------------


def test_russian_files_replay_or_are_reported_as_not_supported_yet() -> None:
    games = read("succeed/ussr1947.pdn")
    assert len(games) == 153 and {g.variant_id for g in games} == {"russian"}
    if "russian" in VARIANTS:
        assert all(g.ok for g in games), faults(games)
        assert sum(g.plies for g in games) == 8730
    else:
        assert {f.kind for g in games for f in g.faults} == {FaultKind.UNSUPPORTED_VARIANT}


def test_italian_file_is_read_as_italian() -> None:
    games = read("succeed/Campionato Assoluto 2005.pdn")
    assert len(games) == 53 and {g.variant_id for g in games} == {"italian"}
    if "italian" in VARIANTS:
        # Game 46 writes 3x26 where two captures of three men reach 26, and the game replays after
        # either: a true ambiguity, reported with both.
        assert [(n, k, p) for n, k, p, _ in faults(games)] == [(46, FaultKind.AMBIGUOUS_MOVE, 26)]
        assert "(3x10x17x26, 3x10x19x26); each of them lets the rest" in games[45].faults[0].reason
    else:
        assert {f.kind for g in games for f in g.faults} == {FaultKind.UNSUPPORTED_VARIANT}


# Czech draughts files (no GameType tag): (file, games, games that fail, variants of those that replay).
# A Czech man captures forward only, and no rule makes a player take the most pieces, so a game
# replays as Russian (or Brazilian) draughts until a man must capture backward there (or, in Brazilian
# draughts, take the most pieces). Games that never come to that, and forfeits written with no moves,
# are read as Russian or Brazilian games: their moves are legal in those variants.
CZECH_FILES = [
    ("succeed/mrcd2000kval.pdn", 40, 32, {"russian": 8}),
    ("succeed/mrcd2006.pdn", 44, 34, {"russian": 10}),
    ("succeed/mrcd2007.pdn", 102, 84, {"russian": 18}),
    ("fail/mrdrcd07.pdn", 72, 65, {"brazilian": 6, "russian": 1}),
    ("fail/mrdrcd08.pdn", 40, 35, {"russian": 5}),
]
CZECH_HINT = "it may be Czech draughts (GameType 29), not supported yet]"


def a_man_must_capture_backward(position: Position) -> bool:
    """Whether a legal move has a man capture toward its own side, which a Czech man may not do."""
    row = position.variant.geometry.row_col
    ahead = -1 if position.turn is Color.WHITE else 1  # White's men go up the board, to row 0
    for move in position.legal_moves():
        piece = position.piece_at(move.start)
        if not move.is_capture or piece is None or piece.is_king:
            continue
        if any((row(b)[0] - row(a)[0]) * ahead < 0 for a, b in pairwise(move.path)):
            return True
    return False


def rules_here_rule_out_a_czech_move(position: Position) -> bool:
    """Whether the variant read rules out moves that Czech rules allow: a man must capture backward,
    or (Brazilian draughts) a capture must take the most pieces."""
    if a_man_must_capture_backward(position):
        return True
    if position.variant.id != "brazilian":
        return False
    free_choice = Position.from_fen(get_variant("russian"), position.fen())
    fewest = min(len(m.captured) for m in free_choice.legal_moves())
    return fewest < min(len(m.captured) for m in position.legal_moves())


@pytest.mark.parametrize(("name", "count", "failing", "read_as"), CZECH_FILES)
def test_czech_draughts_files_fail_only_where_the_rules_read_differ_from_czech_ones(
    name: str, count: int, failing: int, read_as: dict[str, int]
) -> None:
    games = read(name)
    assert len(games) == count
    if "czech" in VARIANTS:
        assert all(g.ok for g in games), faults(games)
        return
    failed = [g for g in games if g.faults]
    assert len(failed) == failing
    assert Counter(g.variant_id for g in games if g.ok) == read_as
    for game in failed:
        (fault,) = game.faults
        assert (fault.kind, fault.ply) == (FaultKind.ILLEGAL_MOVE, game.plies + 1)
        assert fault.reason.endswith(CZECH_HINT), fault
        assert rules_here_rule_out_a_czech_move(game.end_position()), (game.number, fault.reason)


# mrdrcd08.pdn: each failing game, the ply of its fault, the move in the file, and the legal moves in
# Russian draughts there (each of which has a man capture backward, or go on capturing backward).
MRDRCD08_FAULTS = [
    (1, 12, "b6xd4", "b6xf6"),
    (2, 35, "g5xe7", "g5xc5"),
    (3, 24, "c5xe3", "c5xg5"),
    (4, 23, "f4xd6", "f4xb4"),
    (6, 29, "a3xc5", "a5xe5, a3xe3"),
    (8, 18, "d4xf2", "d4xh4"),
    (9, 20, "a7xc5", "a7xe7, c7xa5, c7xe5"),
    (10, 25, "a3-b4", "f6xh4"),
    (11, 24, "f6-e5", "b2xh4"),
    (12, 19, "e3xc5xe7", "e3xg5"),
    (13, 17, "e3xc5xe7", "e3xg5"),
    (14, 28, "f6-g5", "c5xa7"),
    (15, 25, "a3-b4", "c7xa5"),
    (16, 14, "c5xe3", "c5xg5"),
    (17, 25, "f4xd6", "f4xb4"),
    (18, 24, "b4xd2", "b4xd6"),
    (19, 5, "d4xf6", "d4xh4"),
    (21, 23, "d4-c5", "a5xc3"),
    (22, 18, "f6-g5", "a3xc5"),
    (23, 40, "a5xc3", "a5xg3"),
    (24, 16, "c5xe3", "c5xg5"),
    (25, 16, "c5xe3", "c5xg5"),
    (26, 20, "c5-d4", "h4xf6"),
    (27, 27, "g3-h4", "d4xf2"),
    (29, 27, "d4-e5", "h6xf4"),
    (30, 15, "e5xc7", "e5xa5"),
    (32, 32, "c7-d6", "f4xd6"),
    (33, 33, "g1-h2", "h4xf2"),
    (34, 29, "f2-e3", "e5xg3"),
    (35, 35, "f4-e5", "a5xc3"),
    (36, 24, "h6xf4", "h6xd6, c5xe3"),
    (37, 27, "c3-b4", "f6xh4"),
    (38, 14, "c5xe3", "c5xg5"),
    (39, 21, "e7-f8", "e7xg5"),
    (40, 25, "c3-d4", "d6xb4"),
]


def test_mrdrcd08_pins_the_fault_of_each_czech_game_and_reads_the_rest_as_russian() -> None:
    games = read("fail/mrdrcd08.pdn")
    if "czech" in VARIANTS:
        pytest.skip("Czech draughts is in the rules core: the Czech files test checks every game replays")
    assert [(g.number, f.ply) for g in games for f in g.faults] == [(n, p) for n, p, _, _ in MRDRCD08_FAULTS]
    for number, _, move, legal in MRDRCD08_FAULTS:
        game = games[number - 1]
        position = game.end_position()
        side = position.turn.name.capitalize()
        expected = f"{move} is not legal for {side} in {position.fen()}; legal moves: {legal} ["
        assert game.faults[0].reason.startswith(expected), game.faults[0].reason
    # The five games that replay: four Czech games whose moves are legal Russian ones, and a forfeit.
    assert [(g.number, g.variant_id, g.plies, g.result) for g in games if g.ok] == [
        (5, "russian", 46, "0-1"),
        (7, "russian", 12, "0-1"),
        (20, "russian", 36, "1/2-1/2"),
        (28, "russian", 2, "1-0"),
        (31, "russian", 0, "1-0"),
    ]
    assert games[30].tags["PlyCount"] == "0"  # written `1. 1-0`: no moves, only the result


# --- the files another parser rejects -------------------------------------------------------------------


def test_game_without_result_before_the_next_tags_is_read() -> None:
    games = read("fail/40Camp.DamaInternazionaleAssoluto.pdn")
    assert len(games) == 45 and all(g.ok for g in games)
    eleven = games[10]
    assert [m.text for m in eleven.moves] == ["34-29", "19-23"]
    assert eleven.result == "1/2-1/2"
    assert "no game terminator; the result 1/2-1/2 is taken from the Result tag" in eleven.notes
    assert games[0].tags["Event"] == "40\u00b0 Campionato Italiano di Dama Internazionale"


def test_cat_a1_writes_a_missing_move_as_a_dot() -> None:
    games = read("fail/Cat.A1.pdn")
    assert len(games) == 35
    assert faults(games) == [(30, FaultKind.SYNTAX, 6, "'.' is not a PDN move, move number or result")]
    assert [m.text for m in games[29].moves] == ["17-12", "14x45", "12-8", "6x17", "8-3"]


def test_cat_c1_ends_with_stray_move_text() -> None:
    games = read("fail/Cat.C1.pdn")
    assert len(games) == 46
    assert [(n, k, p) for n, k, p, _ in faults(games)] == [(46, FaultKind.ILLEGAL_MOVE, 1)]
    stray = games[45]
    assert (stray.tags, stray.rest, stray.result, stray.line) == ({}, ("36x27",), "1-0", 611)


def test_abatsiev_has_a_game_of_dashes() -> None:
    games = read("fail/abatsiev.pdn")
    assert len(games) == 56 and games[0].tags["White"] == "\u0410\u0431\u0430\u0443\u043b\u0438\u043d \u0412."
    syntax = [(n, k, p, r) for n, k, p, r in faults(games) if k is FaultKind.SYNTAX]
    assert syntax == [(36, FaultKind.SYNTAX, 1, "'-' is not a PDN move, move number or result")]
    if "russian" in VARIANTS:
        assert len(faults(games)) == 1


def test_delfts_scores_games_in_match_points() -> None:
    games = read("fail/delfts.pdn")
    assert [(g.result, g.plies) for g in games] == [("4-6", 128), ("1-9", 124)]
    assert [(n, k) for n, k, _, _ in faults(games)] == [(1, FaultKind.BAD_RESULT), (2, FaultKind.BAD_RESULT)]
    assert games[0].faults[0].reason == "'4-6' is not a PDN result (1-0, 0-1, 1/2-1/2, 2-0, 0-2, 1-1, 0-0, *)"


def test_czech_forfeits_are_written_as_a_number_and_a_result() -> None:
    games = read("fail/mrdrcd07.pdn")
    forfeit = games[11]
    assert (forfeit.tags["PlyCount"], forfeit.plies, forfeit.result, forfeit.rest) == ("1", 0, "0-2", ())
    assert "the PlyCount tag says 1 but the game has 0 plies" in forfeit.notes


def test_nested_comment_is_reported_where_the_inner_brace_opens() -> None:
    (game,) = read("fail/nested_comment.pdn")
    assert [m.text for m in game.moves] == ["33-29", "19-23", "35-30"]
    assert [(f.kind, f.line, f.column) for f in game.faults] == [(FaultKind.SYNTAX, 1, 34)]


# --- the small dialect samples ------------------------------------------------------------------------------


def test_dialect_samples_read_as_written() -> None:
    def moves(name: str, variations: bool = False) -> list[list[str]]:
        return [[m.text for m in g.moves] for g in read(name, variations)]

    assert moves("succeed/movestrength.pdn") == [["32-28", "19-23", "28x19"]]
    assert moves("succeed/linecomment.pdn") == [["32-28", "19-23"]]
    assert moves("succeed/unicode.pdn") == [["32-28", "19-23"]]
    assert moves("succeed/string.pdn") == [["32-28"]]
    assert moves("succeed/gameterminator.pdn") == [["32-28"]]
    assert read("succeed/gameterminator.pdn")[0].result == "1/2-1/2"
    (variation,) = read("succeed/variation.pdn", variations=True)
    assert [m.text for m in variation.moves] == ["32-28", "19-23", "28x19", "14x23"]
    (alternative,) = variation.moves[1].variations
    assert [m.text for m in alternative] == ["18-23", "38-32", "12-18"]
    assert [m.text for m in alternative[1].variations[0]] == ["37-32", "23-29"]
    assert alternative[1].variations[0][1].comments == ("Black wins",)
    fen_games = read("succeed/fen.pdn")
    assert [g.start_fen for g in fen_games] == [
        "B:W11,13,29:B2,4,22",
        "W:WK15,29,31:B9,12-14",
        "W:W31-50:B1-20",
    ]
    assert "taken as black, who starts a game" in " ".join(fen_games[0].notes)


def test_alphanumeric_sample_is_a_russian_move_in_coordinates() -> None:
    (game,) = read("succeed/alphanumeric.pdn")
    assert game.variant_id == "russian"
    if "russian" in VARIANTS:
        assert game.ok and game.moves[0].text == "a3-b4"
    else:
        assert game.faults[0].kind is FaultKind.UNSUPPORTED_VARIANT


# Reads one PDN file in a child process and prints, per game, its faults (kind, line, column), its
# plies and the count of its unread move texts, as JSON.
READ_ONE_FILE = """
import json, sys
from arbiter.notation.pdn import ReadOptions, read_pdn
games = [
    ([(f.kind.value, f.line, f.column) for f in game.faults], game.plies, len(game.rest))
    for game in read_pdn(sys.argv[1], ReadOptions(variations=True))
]
print(json.dumps(games))
"""
# The largest shared file reads in a few seconds; only a reader that never finishes takes this long.
HANG_LIMIT = 120.0


@pytest.mark.parametrize("folder", ["succeed", "fail"])
def test_no_file_makes_the_reader_crash_or_hang_and_every_fault_has_a_place(folder: str) -> None:
    paths = sorted((data_file(folder)).glob("*.pdn"))
    assert paths
    kinds: Counter[str] = Counter()
    for path in paths:
        try:
            child = subprocess.run(
                [sys.executable, "-c", READ_ONE_FILE, str(path)],
                capture_output=True,
                text=True,
                timeout=HANG_LIMIT,
                cwd=Path(__file__).resolve().parents[2],
            )
        except subprocess.TimeoutExpired:
            pytest.fail(f"reading {path.name} did not finish in {HANG_LIMIT:.0f} s")
        assert child.returncode == 0, (path.name, child.stderr)
        games = json.loads(child.stdout)
        assert games, path.name
        for game_faults, plies, unread in games:
            for kind, line, column in game_faults:
                assert line >= 1 and column >= 1, (path.name, kind, line, column)
                kinds[kind] += 1
            assert plies >= 0 and unread >= 0
    assert sum(kinds.values()) >= 1
