"""How games end by the rules and by the players: real engines, exact plies, the right result and reason."""

from __future__ import annotations

import re
from pathlib import Path

from referee_games import game_setup, play, received, replay, scripted

from arbiter.referee.record import Termination, Winner
from arbiter.referee.settings import DrawAdjudication, RefereeRules, WinAdjudication
from arbiter.rules import Piece, Position


def test_capturing_the_last_piece_wins_by_no_pieces() -> None:
    record = play(game_setup(fen="B:W18:B14"), scripted("white"), scripted("black", "--then", "first"))
    assert [move.text for move in record.moves] == ["14x23"]
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.BLACK, Termination.NO_PIECES)
    assert record.outcome.reason == "Black wins: White has no pieces left"


def test_blocking_the_last_man_wins_by_no_legal_move() -> None:
    record = play(game_setup(fen="B:W29:B17,25"), scripted("white"), scripted("black", "--moves", "17-22"))
    assert record.plies == 1
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.BLACK, Termination.NO_LEGAL_MOVES)
    assert record.outcome.reason == "Black wins: White has no legal move"


def test_in_anti_checkers_the_side_left_without_pieces_wins_and_is_named() -> None:
    record = play(
        game_setup(variant="anti", fen="B:W18:B14"), scripted("white"), scripted("black", "--then", "first")
    )
    assert [move.text for move in record.moves] == ["14x23"]
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.WHITE, Termination.NO_PIECES)
    assert record.outcome.reason == "White wins: White has no pieces left"


def test_a_mule_rule_ending_names_the_winner_once() -> None:
    record = play(game_setup(variant="mule", fen="B:WM14,30:BM1,10"), scripted("white"), scripted("black"))
    assert [move.text for move in record.moves] == ["10x17"]
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination, record.outcome.rule) == (
        Winner.WHITE,
        Termination.VARIANT_RULE,
        "all mules lost",
    )
    assert record.outcome.reason == "White wins: Black captured White's last mule"


def test_threefold_repetition_draws_at_the_eighth_ply_of_a_king_shuffle() -> None:
    white = scripted("white", "--moves", "1-6 6-1 1-6 6-1 1-6")
    black = scripted("black", "--moves", "32-27 27-32 32-27 27-32 32-27")
    record = play(game_setup(fen="W:WK1:BK32"), white, black)
    assert record.plies == 8
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.DRAW, Termination.REPETITION)
    positions = replay(record)
    assert positions.count(positions[-1]) == 3 and len(set(positions[:-1])) == 4


def test_forty_move_rule_draws_after_eighty_quiet_king_plies() -> None:
    record = play(game_setup(fen="W:WK1,K2:BK31,K32"), scripted("white"), scripted("black"))
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.DRAW, Termination.MOVE_COUNT_RULE)
    assert record.outcome.rule == "40-move rule"
    assert record.outcome.reason == "Draw: by the 40-move rule"
    assert record.plies == 80


def test_forty_move_rule_counts_from_the_last_man_move_or_capture_of_a_whole_game() -> None:
    record = play(game_setup(), scripted("white"), scripted("black"))
    assert record.outcome is not None
    assert (record.outcome.termination, record.outcome.rule) == (Termination.MOVE_COUNT_RULE, "40-move rule")
    positions = replay(record)
    irreversible = [
        ply
        for ply, move in enumerate(record.moves, start=1)
        if "x" in move.hub or not _piece_moved(positions[ply - 1], move.hub).is_king
    ]
    assert record.plies == irreversible[-1] + 80


def _piece_moved(position: Position, hub: str) -> Piece:
    piece = position.piece_at(int(re.split("[-x]", hub)[0]))
    assert piece is not None
    return piece


def test_an_accepted_draw_offer_ends_the_game_without_the_accepting_move(tmp_path: Path) -> None:
    log = tmp_path / "black.log"
    white = scripted("white", "--offer-draw-at", "2")
    black = scripted("black", "--accept-draws", "--log", str(log))
    record = play(game_setup(fen="W:WK1,K2:BK31,K32"), white, black)
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.DRAW, Termination.AGREEMENT)
    assert record.outcome.reason == "Draw: White offered a draw and Black accepted"
    assert record.plies == 3  # White's offer was its second move; Black's accepting answer is not played
    assert [move.draw_offered for move in record.moves] == [False, False, True]
    goes = received(log, "go")
    assert ["draw-offered" in line for line in goes] == [False, True]


def test_a_draw_offer_not_accepted_lapses_and_play_goes_on(tmp_path: Path) -> None:
    log = tmp_path / "black.log"
    white = scripted("white", "--offer-draw-at", "2", "--offer-draw-at", "3")
    black = scripted("black", "--log", str(log), "--offer-draw-at", "5")
    rules = RefereeRules(max_plies=12)
    record = play(game_setup(fen="W:WK1,K2:BK31,K32", rules=rules), white, black)
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.DRAW, Termination.MAX_LENGTH)
    assert record.plies == 12
    assert [ply.ply for ply in record.moves if ply.draw_offered] == [3, 5, 10]
    # Black was told of each of White's offers, on its next go only.
    assert ["draw-offered" in line for line in received(log, "go")] == [
        False,
        True,
        True,
        False,
        False,
        False,
    ]


def test_an_engine_that_answers_done_resign_loses_by_resignation() -> None:
    record = play(
        game_setup(fen="W:WK1,K2:BK31,K32"), scripted("white"), scripted("black", "--resign-at", "3")
    )
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.WHITE, Termination.RESIGNATION)
    assert record.outcome.reason == "White wins: Black resigned"
    assert record.plies == 5


def test_maximum_length_draws_at_exactly_the_limit() -> None:
    record = play(game_setup(rules=RefereeRules(max_plies=7)), scripted("white"), scripted("black"))
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.DRAW, Termination.MAX_LENGTH)
    assert record.plies == 7


def test_level_scores_from_both_engines_adjudicate_a_draw() -> None:
    # Hub scores are men, stored and compared in centi-men: 0.05 and -0.1 men are 5 and -10.
    rules = RefereeRules(draw_adjudication=DrawAdjudication(margin=10, moves=3))
    white = scripted("white", "--score", "0.05")
    black = scripted("black", "--score", "-0.1")
    record = play(game_setup(rules=rules, opening="11-15 23-19 8-11"), white, black)
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.DRAW, Termination.ADJUDICATION_DRAW)
    assert record.plies == 3 + 6  # the opening, then three scored moves of each engine
    assert record.moves[-1].info is not None and record.moves[-1].info.score == -10


def test_a_score_followed_by_a_closing_info_line_without_one_still_counts() -> None:
    """Each field of a move's info is the latest line that gave it, as cutechess-cli reads them: a last
    `info nodes= time=` line does not hide the score of the line before from the adjudication."""
    rules = RefereeRules(draw_adjudication=DrawAdjudication(margin=10, moves=3))
    white = scripted("white", "--score", "0.05", "--closing-info")
    black = scripted("black", "--score", "-0.1", "--closing-info")
    record = play(game_setup(rules=rules, opening="11-15 23-19 8-11"), white, black)
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.DRAW, Termination.ADJUDICATION_DRAW)
    last = record.moves[-1].info
    assert last is not None and (last.score, last.depth, last.nodes) == (-10, 1, 2)


def test_both_engines_agreeing_one_side_wins_adjudicates_a_win() -> None:
    rules = RefereeRules(win_adjudication=WinAdjudication(margin=1.0, moves=2))
    white = scripted("white", "--score", "-4")  # each engine scores from its own side: Black leads
    black = scripted("black", "--score", "4")
    record = play(game_setup(rules=rules), white, black)
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.BLACK, Termination.ADJUDICATION_WIN)
    assert record.plies == 4


def test_one_sided_an_engine_whose_own_scores_say_it_is_lost_resigns() -> None:
    """cutechess-cli's -resign: the losing engine's own scores decide, its opponent's are not asked."""
    rules = RefereeRules(win_adjudication=WinAdjudication(margin=1.0, moves=2, two_sided=False))
    white = scripted("white", "--score", "-4")  # White thinks it is lost...
    black = scripted("black", "--score", "-4")  # ...and so does Black, of itself
    record = play(game_setup(rules=rules), white, black)
    assert record.outcome is not None
    # Black moves first, so its second scored move (ply 3) ends it: White wins. Two-sided, these
    # engines disagree and play on.
    assert (record.winner, record.outcome.termination) == (Winner.WHITE, Termination.ADJUDICATION_WIN)
    assert record.plies == 3
    assert "Black's engine resigned" in record.outcome.reason


def test_an_engine_scoring_itself_exactly_the_margin_behind_resigns() -> None:
    """cutechess-cli's -resign score=300 takes a score of -300 as lost: Hub's -3 men are -300 centi-men."""
    rules = RefereeRules(win_adjudication=WinAdjudication(margin=300, moves=2, two_sided=False))
    white, black = scripted("white", "--score", "0"), scripted("black", "--score", "-3")
    record = play(game_setup(rules=rules), white, black)
    assert record.outcome is not None
    assert (record.winner, record.outcome.termination) == (Winner.WHITE, Termination.ADJUDICATION_WIN)
    assert record.plies == 3
    assert record.outcome.reason.endswith("its last 2 scores put it behind by at least 300")


def test_engines_that_disagree_are_not_adjudicated() -> None:
    rules = RefereeRules(
        max_plies=10,
        win_adjudication=WinAdjudication(margin=1.0, moves=2),
        draw_adjudication=DrawAdjudication(margin=0.5, moves=2),
    )
    white = scripted("white", "--score", "4")
    black = scripted("black", "--score", "4")  # both think they are winning
    record = play(game_setup(rules=rules), white, black)
    assert record.outcome is not None
    assert record.outcome.termination is Termination.MAX_LENGTH


def test_forced_moves_are_played_by_the_referee_only_when_asked(tmp_path: Path) -> None:
    fen = "W:W22,32:B18,1"  # White's only legal move is the capture 22x15
    log_on, log_off = tmp_path / "on.log", tmp_path / "off.log"
    rules = RefereeRules(auto_forced_moves=True, max_plies=4)
    on = play(game_setup(fen=fen, rules=rules), scripted("white", "--log", str(log_on)), scripted("black"))
    off = play(
        game_setup(fen=fen, rules=RefereeRules(max_plies=4)),
        scripted("white", "--log", str(log_off)),
        scripted("black"),
    )
    assert on.moves[0].text == off.moves[0].text == "22x15"
    assert on.moves[0].warnings == ["forced move, played by the referee"] and on.moves[0].elapsed == 0.0
    assert off.moves[0].warnings == [] and off.moves[0].elapsed is not None and off.moves[0].elapsed > 0
    # With automatic forced moves White is only asked for its second move.
    assert len(received(log_on, "go")) == len(received(log_off, "go")) - 1
