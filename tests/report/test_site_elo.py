"""The site's Elo figures: each player's complete game pairs where the games were played in pairs, a
game of an unfinished pair left out; counted pair by pair as a running event's games come and go."""

from __future__ import annotations

from arbiter.referee.record import Winner
from arbiter.report.inputs import EventInfo
from arbiter.report.lines import Line
from arbiter.report.summary import Tallies, summarize
from arbiter.tournament.stats import Pentanomial, elo_from_pentanomial, elo_from_wdl

EVENT = EventInfo(
    name="Pairs", variant="english", time_control="60", format="round-robin", players=("A", "B", "C")
)


def game(key: str, white: str, black: str, winner: Winner, pair: int | None = None) -> Line:
    return Line(key, white, black, pair_index=pair, played=True, winner=winner, ended=True)


def pair(number: int, first: str, second: str, winners: tuple[Winner, Winner]) -> list[Line]:
    """Pair `number`: `first` has White in its first game, `second` in its second."""
    return [
        game(f"p{number}a", first, second, winners[0], number),
        game(f"p{number}b", second, first, winners[1], number),
    ]


WHITE, BLACK, DRAW = Winner.WHITE, Winner.BLACK, Winner.DRAW
LINES = (
    pair(1, "A", "B", (WHITE, WHITE))  # each wins with White: WL for both
    + pair(2, "A", "B", (WHITE, DRAW))  # A: WD
    + pair(3, "A", "C", (DRAW, DRAW))  # DD
    + pair(4, "C", "A", (WHITE, BLACK))  # C wins both: A's LL
    + [game("p5a", "A", "B", WHITE, 5)]  # its partner not played yet
)


def test_each_player_s_elo_comes_from_its_complete_pairs_against_the_field_and_each_opponent() -> None:
    summary = summarize(EVENT, LINES)
    assert summary.in_pairs
    assert summary.elo["A"] == elo_from_pentanomial(Pentanomial(ll=1, wl=1, dd=1, wd=1))
    assert summary.elo["C"] == elo_from_pentanomial(Pentanomial(dd=1, ww=1))
    against = {record.opponent: record.elo for record in summary.engines["A"].opponents}
    assert against == {
        "B": elo_from_pentanomial(Pentanomial(wl=1, wd=1)),
        "C": elo_from_pentanomial(Pentanomial(ll=1, dd=1)),
    }
    # Not A's single games: 3 wins, 3 draws, 3 losses with the unfinished pair's game.
    assert summary.elo["A"] != elo_from_wdl(3, 3, 3)


def test_a_player_in_pairs_has_no_elo_until_its_first_pair_is_complete() -> None:
    summary = summarize(EVENT, [game("p1a", "A", "B", WHITE, 1)])
    assert summary.in_pairs and summary.elo["A"] is None and summary.elo["B"] is None
    unpaired = summarize(EVENT, [game("g1", "A", "B", WHITE)])
    assert not unpaired.in_pairs and unpaired.elo["A"] == elo_from_wdl(1, 0, 0)


def test_pairs_counted_game_by_game_agree_with_a_count_of_the_final_games() -> None:
    # A publisher keeps its counts between refreshes: a game's newer line replaces the one counted.
    tallies = Tallies(EVENT)
    for line in LINES:
        tallies.add(line)
    replayed = game("p2b", "B", "A", WHITE, 2)  # pair 2's second game, now won by B
    tallies.add(replayed, LINES[3])
    tallies.add(game("p5b", "B", "A", DRAW, 5))
    final = [*LINES[:3], replayed, *LINES[4:], game("p5b", "B", "A", DRAW, 5)]
    counted, fresh = tallies.summary(), summarize(EVENT, final)
    assert counted.elo == fresh.elo
    assert counted.elo["A"] == elo_from_pentanomial(Pentanomial(ll=1, wl=2, dd=1, wd=1))
