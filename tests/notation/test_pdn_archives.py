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
  are written as a move number and a result (`1. 0-2`) with a PlyCount of 1.
- nested_comment.pdn: braces nested inside a comment.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from arbiter.notation.pdn import ReadOptions, read_pdn
from arbiter.notation.pdn_model import FaultKind, PdnGame
from arbiter.rules import VARIANTS, Color

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


def test_english_problem_collections_replay() -> None:
    for name in ("succeed/inferno.pdn", "succeed/Principles of Strategy.pdn", "succeed/lpc.pdn"):
        games = read(name)
        assert all(g.ok for g in games), (name, faults(games))
        assert {g.variant_id for g in games} == {"english"}
    tricks = read("succeed/Tricks traps and shots.pdn")
    assert [(n, k, p) for n, k, p, _ in faults(tricks)] == [
        (57, FaultKind.AMBIGUOUS_MOVE, 37),
        (90, FaultKind.AMBIGUOUS_MOVE, 22),
    ]
    assert "(10x17x26, 10x19x26); the full path is needed" in tricks[56].faults[0].reason


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


def test_schildpad_has_two_short_captures_that_fit_two_sequences() -> None:
    games = read("succeed/schildpad.pdn")
    assert [(n, k, p) for n, k, p, _ in faults(games)] == [
        (3, FaultKind.AMBIGUOUS_MOVE, 69),
        (7, FaultKind.AMBIGUOUS_MOVE, 111),
    ]
    assert "(36x13x2x16, 36x18x7x16)" in games[2].faults[0].reason


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
        # Game 46 writes 3x26 where two captures of three men reach 26.
        assert [(n, k, p) for n, k, p, _ in faults(games)] == [(46, FaultKind.AMBIGUOUS_MOVE, 26)]
    else:
        assert {f.kind for g in games for f in g.faults} == {FaultKind.UNSUPPORTED_VARIANT}


@pytest.mark.parametrize(
    "name", ["succeed/mrcd2000kval.pdn", "succeed/mrcd2006.pdn", "succeed/mrcd2007.pdn", "fail/mrdrcd07.pdn"]
)
def test_czech_draughts_files_say_which_variant_they_may_be(name: str) -> None:
    games = read(name)
    if "czech" in VARIANTS:
        assert all(g.ok for g in games), faults(games)
        return
    failed = [g for g in games if g.faults]
    assert len(failed) > len(games) // 2
    for game in failed:
        for fault in game.faults:
            assert fault.kind is FaultKind.ILLEGAL_MOVE
            assert fault.reason.endswith("it may be Czech draughts (GameType 29), not supported yet]"), fault


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


@pytest.mark.parametrize("folder", ["succeed", "fail"])
def test_no_file_makes_the_reader_crash_and_every_fault_has_a_place(folder: str) -> None:
    paths = sorted((data_file(folder)).glob("*.pdn"))
    assert paths
    kinds: Counter[str] = Counter()
    for path in paths:
        for game in read_pdn(path, ReadOptions(variations=True)):
            for fault in game.faults:
                assert fault.line >= 1 and fault.column >= 1, (path, fault)
                kinds[fault.kind.value] += 1
            assert game.plies + len(game.rest) >= 0
    assert sum(kinds.values()) >= 1
