"""Standings, Sonneborn-Berger, head-to-head, the crosstable and per-opening results."""

from __future__ import annotations

import pytest
from ratings_tables import ratings_text

from arbiter.tournament.scoring import TWO_ONE_ZERO, FinishedGame, Outcome
from arbiter.tournament.standings import (
    ColourRecord,
    Tally,
    crosstable,
    head_to_head,
    opening_results,
    standings,
)
from arbiter.tournament.stats import Pentanomial, elo_from_pentanomial, elo_from_wdl

W, B, D = Outcome.WHITE_WINS, Outcome.BLACK_WINS, Outcome.DRAW

# A four-player round robin worked out by hand:
#   A beats D (A white), draws B (A white), beats C (A black)  -> 2.5
#   B draws C (B white), draws A, beats D (B white)            -> 2
#   C draws B, beats D (C black), loses to A                   -> 1.5
#   D loses everything                                         -> 0
ROUND_ROBIN = [
    FinishedGame("A", "D", W),
    FinishedGame("B", "C", D),
    FinishedGame("D", "C", B),
    FinishedGame("A", "B", D),
    FinishedGame("B", "D", W),
    FinishedGame("C", "A", B),
]


def test_points_and_order() -> None:
    table = standings(ROUND_ROBIN)
    assert [(s.rank, s.player, s.points, s.games) for s in table] == [
        (1, "A", 2.5, 3),
        (2, "B", 2.0, 3),
        (3, "C", 1.5, 3),
        (4, "D", 0.0, 3),
    ]


def test_wins_draws_losses_by_colour() -> None:
    a = standings(ROUND_ROBIN)[0]
    assert a.overall == Tally(wins=2, draws=1, losses=0)
    assert a.as_white == Tally(wins=1, draws=1, losses=0)
    assert a.as_black == Tally(wins=1, draws=0, losses=0)
    d = standings(ROUND_ROBIN)[3]
    assert d.as_white == Tally(losses=1)  # D - C
    assert d.as_black == Tally(losses=2)  # A - D, B - D


def test_sonneborn_berger_adds_beaten_opponents_points_and_half_of_drawn_ones() -> None:
    by_player = {s.player: s.sonneborn_berger for s in standings(ROUND_ROBIN)}
    # A: beat D (0) + half of B (2 / 2) + beat C (1.5) = 2.5
    # B: half of C (0.75) + half of A (1.25) + beat D (0) = 2
    # C: half of B (1) + beat D (0) = 1
    assert by_player == {"A": 2.5, "B": 2.0, "C": 1.0, "D": 0.0}


def test_two_one_zero_scheme_doubles_points_and_scales_sonneborn_berger() -> None:
    table = standings(ROUND_ROBIN, scheme=TWO_ONE_ZERO)
    assert [(s.player, s.points, s.sonneborn_berger) for s in table] == [
        ("A", 5.0, 5.0),
        ("B", 4.0, 4.0),
        ("C", 3.0, 2.0),
        ("D", 0.0, 0.0),
    ]


def test_sonneborn_berger_breaks_a_tie_on_points() -> None:
    # G 2 points; E and F 1.5 each; H 1.
    games = [
        FinishedGame("E", "G", W),
        FinishedGame("H", "E", W),
        FinishedGame("E", "F", D),
        FinishedGame("G", "F", W),
        FinishedGame("F", "H", W),
        FinishedGame("G", "H", W),
    ]
    table = standings(games)
    # E: beat G (2) + half of F (0.75) = 2.75;  F: half of E (0.75) + beat H (1) = 1.75
    # G: beat F (1.5) + beat H (1) = 2.5;       H: beat E (1.5) = 1.5
    assert [(s.rank, s.player, s.points, s.sonneborn_berger) for s in table] == [
        (1, "G", 2.0, 2.5),
        (2, "E", 1.5, 2.75),
        (3, "F", 1.5, 1.75),
        (4, "H", 1.0, 1.5),
    ]


def test_wins_break_a_tie_on_points_and_sonneborn_berger() -> None:
    # P and Q both score 1 with Sonneborn-Berger 1.5; P has a win, Q two draws.
    games = [
        FinishedGame("P", "R", W),
        FinishedGame("S", "P", W),
        FinishedGame("Q", "R", D),
        FinishedGame("Q", "S", D),
        FinishedGame("R", "S", W),
    ]
    table = {s.player: s for s in standings(games)}
    assert table["P"].points == table["Q"].points == 1.0
    assert table["P"].sonneborn_berger == table["Q"].sonneborn_berger == 1.5
    assert table["P"].rank < table["Q"].rank


def test_players_equal_on_everything_share_a_rank_and_are_listed_by_name() -> None:
    cycle = [FinishedGame("Z", "Y", W), FinishedGame("Y", "X", W), FinishedGame("X", "Z", W)]
    table = standings(cycle)
    assert [(s.rank, s.player, s.points, s.sonneborn_berger) for s in table] == [
        (1, "X", 1.0, 1.0),
        (1, "Y", 1.0, 1.0),
        (1, "Z", 1.0, 1.0),
    ]


def test_listed_players_without_games_appear_with_nothing() -> None:
    table = standings(ROUND_ROBIN, players=["A", "B", "C", "D", "E"])
    assert table[-1].player == "E"
    assert table[-1].games == 0 and table[-1].points == 0.0


def test_a_game_by_an_unlisted_player_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"game 2 \(B - C\): 'C' is not a player"):
        standings(ROUND_ROBIN, players=["A", "B", "D"])


def test_head_to_head() -> None:
    games = ROUND_ROBIN + [FinishedGame("B", "A", W), FinishedGame("A", "B", B)]
    assert head_to_head(games, "A", "B") == Tally(wins=0, draws=1, losses=2)
    assert head_to_head(games, "B", "A") == Tally(wins=2, draws=1, losses=0)
    assert head_to_head(games, "A", "Q") == Tally()


def test_crosstable_holds_each_pairs_score_in_standings_order() -> None:
    table = crosstable(ROUND_ROBIN, scheme=TWO_ONE_ZERO)
    assert table.players == ("A", "B", "C", "D")
    a_b = table.cell("A", "B")
    assert a_b is not None and a_b.points == 1.0 and a_b.record == Tally(draws=1)
    c_a = table.cell("C", "A")
    assert c_a is not None and c_a.points == 0.0 and c_a.record == Tally(losses=1)
    a_c = table.cell("A", "C")
    assert a_c is not None and a_c.points == 2.0
    assert table.cell("A", "A") is None


def test_crosstable_leaves_unplayed_pairs_empty() -> None:
    table = crosstable([FinishedGame("A", "B", W)], players=["A", "B", "C"])
    assert table.cell("A", "C") is None
    assert set(table.cells) == {("A", "B"), ("B", "A")}


def test_opening_results_show_who_won_each_opening_with_which_colour() -> None:
    games = [
        # acf-1: each side wins with white.
        FinishedGame("X", "Y", W, opening_id="acf-1", pair_index=1),
        FinishedGame("Y", "X", W, opening_id="acf-1", pair_index=1),
        # acf-2: a draw with X white, then X wins with black.
        FinishedGame("X", "Y", D, opening_id="acf-2", pair_index=2),
        FinishedGame("Y", "X", B, opening_id="acf-2", pair_index=2),
        # no opening: left out.
        FinishedGame("X", "Y", W),
    ]
    results = opening_results(games)
    assert [(r.opening_id, r.players) for r in results] == [("acf-1", ("X", "Y")), ("acf-2", ("X", "Y"))]
    first, second = results
    assert first.by_player["X"] == ColourRecord(as_white=Tally(wins=1), as_black=Tally(losses=1))
    assert first.by_player["Y"] == ColourRecord(as_white=Tally(wins=1), as_black=Tally(losses=1))
    assert second.by_player["X"] == ColourRecord(as_white=Tally(draws=1), as_black=Tally(wins=1))
    assert second.by_player["Y"] == ColourRecord(as_white=Tally(losses=1), as_black=Tally(draws=1))
    assert len(second.games) == 2


def test_opening_results_keep_pairs_of_players_apart() -> None:
    games = [
        FinishedGame("X", "Y", W, opening_id="acf-1"),
        FinishedGame("X", "Z", B, opening_id="acf-1"),
    ]
    results = opening_results(games)
    assert [r.players for r in results] == [("X", "Y"), ("X", "Z")]
    assert results[1].by_player["Z"].as_black == Tally(wins=1)


def test_tally_points_and_score() -> None:
    record = Tally(wins=3, draws=2, losses=1)
    assert record.games == 6
    assert record.score == 4.0
    assert record.points(TWO_ONE_ZERO) == 8.0


def test_an_even_score_s_ratings_show_no_minus_zero() -> None:
    # Four draws: Elo 0 with an interval of 0 on each side, which Python's formatting writes "-0.0".
    games = [FinishedGame("A", "B", Outcome.DRAW), FinishedGame("B", "A", Outcome.DRAW)] * 2
    text = ratings_text(games)
    assert "-0.0" not in text and "+0.0" in text, text


def opening_pairs(count: int, second: Outcome, start: int = 0) -> list[FinishedGame]:
    """`count` opening pairs of A and B: A wins with White, then the game with B White ends `second`."""
    games = []
    for index in range(start, start + count):
        games.append(FinishedGame("A", "B", W, pair_index=index))
        games.append(FinishedGame("B", "A", second, pair_index=index))
    return games


# 40 pairs won by whoever had White, 10 in which A won with White and drew with Black.
PAIRED_MATCH = opening_pairs(40, W) + opening_pairs(10, D, start=40)


def a_s_row(games: list[FinishedGame]) -> list[str]:
    """A's cells in the ratings of A against B, but the last (nElo)."""
    row = next(line for line in ratings_text(games).splitlines() if line.startswith("│ A "))
    return [cell.strip() for cell in row.strip("│").split("│")][:-1]


def test_games_played_in_pairs_are_rated_by_their_pairs() -> None:
    by_pairs, single = elo_from_pentanomial(Pentanomial(wl=40, wd=10)), elo_from_wdl(50, 10, 40)
    assert [round(v, 1) for v in (by_pairs.lower, by_pairs.upper)] == [15.5, 54.4]
    assert round(by_pairs.los, 4) == 0.9998
    assert [round(v, 1) for v in (single.lower, single.upper)] == [-29.6, 101.8]
    assert round(single.los, 3) == 0.854
    assert a_s_row(PAIRED_MATCH) == [
        "A",
        "100",
        "50 pairs",
        "+34.9",
        "[+15.5, +54.4]",
        "99.98%",
        "0-0-40/0-10-0",
    ]
    assert "Elo (pairs)" not in ratings_text(PAIRED_MATCH)  # the headline figures are the pairs' now


def test_a_game_whose_pair_is_not_complete_is_left_out_and_said_so() -> None:
    row = a_s_row([*PAIRED_MATCH, FinishedGame("A", "B", D, pair_index=99)])
    assert row[1:5] == ["101", "50 pairs, 1 game left out", "+34.9", "[+15.5, +54.4]"]
    first = a_s_row([FinishedGame("A", "B", D, pair_index=99)])
    assert first[1:6] == ["1", "0 pairs, 1 game left out", "-", "none yet: no complete pair", "-"]


def test_games_not_played_in_pairs_are_rated_one_by_one() -> None:
    estimate = elo_from_wdl(3, 1, 0)
    row = a_s_row([FinishedGame("A", "B", W)] * 3 + [FinishedGame("B", "A", D)])
    assert row[1:7] == ["4", "4 games", "+338.0", "[+117.4, +∞]", f"{estimate.los:.1%}", "-"]
    assert (round(estimate.elo, 1), round(estimate.lower, 1)) == (338.0, 117.4)
