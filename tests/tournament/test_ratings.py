"""The rating list's maximum-likelihood fit and its intervals, against hand values and a second method
(Zermelo's iteration, as Hunter's MM algorithm writes it, with a draw as half a win)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.tournament.ratings import RatedGame, Rating, RatingError, expected_score, fit_ratings
from arbiter.tournament.stats import score_to_elo

C = math.log(10) / 400
Z95 = 1.959963984540054


def games_of(first: str, second: str, wins: int, draws: int, losses: int) -> list[RatedGame]:
    return (
        [RatedGame(first, second, 1.0)] * wins
        + [RatedGame(first, second, 0.5)] * draws
        + [RatedGame(first, second, 0.0)] * losses
    )


def zermelo(games: list[RatedGame]) -> dict[str, float]:
    """Ratings by Zermelo's fixed point: s_i = points_i / sum_j games_ij / (s_i + s_j)."""
    players = sorted({g.first for g in games} | {g.second for g in games})
    points = dict.fromkeys(players, 0.0)
    met: dict[tuple[str, str], int] = {}
    for g in games:
        points[g.first] += g.score
        points[g.second] += 1 - g.score
        for pair in ((g.first, g.second), (g.second, g.first)):
            met[pair] = met.get(pair, 0) + 1
    strength = dict.fromkeys(players, 1.0)
    for _ in range(20000):
        following = {
            p: points[p] / sum(n / (strength[p] + strength[q]) for (a, q), n in met.items() if a == p)
            for p in players
        }
        scale = math.exp(sum(math.log(v) for v in following.values()) / len(players))
        following = {p: v / scale for p, v in following.items()}
        change = max(abs(following[p] - strength[p]) for p in players)
        strength = following
        if change < 1e-14:
            break
    return {p: 400 * math.log10(s) for p, s in strength.items()}


def test_two_players_get_the_elo_of_their_score_and_its_delta_method_error() -> None:
    # 60 wins, 20 draws, 20 losses: score 0.7, 147.19 Elo. Per-game variance 0.16, so the score's
    # standard error is 0.04 and the rating's is 0.04 / (ln(10) / 400 * 0.7 * 0.3) = 33.089.
    rated = fit_ratings(games_of("A", "B", 60, 20, 20), anchor="B")
    a, b = rated.ratings
    assert (a.player, b.player) == ("A", "B")
    assert a.rating == pytest.approx(score_to_elo(0.7), abs=1e-6)
    assert a.rating == pytest.approx(147.19, abs=0.01)
    assert a.error == pytest.approx(0.04 / (C * 0.21), rel=1e-6)
    assert a.error == pytest.approx(33.089, abs=1e-3)
    assert a.upper - a.rating == pytest.approx(Z95 * a.error)
    assert (b.rating, b.error) == (0.0, 0.0)
    assert (a.games, a.wins, a.draws, a.losses) == (100, 60, 20, 20)


def test_games_of_a_pair_are_taken_together_as_the_pentanomial_model_does() -> None:
    # 20 pairs: LL 1, LD 3, WL 2, DD 8, WD 5, WW 1; mean score 0.525, variance of a pair's mean 0.049375.
    # The rating's error: sqrt(0.049375 / 20) / (C * 0.525 * 0.475) = 200.05, not the single-game figure.
    totals = [0.0] * 1 + [0.5] * 3 + [1.0] * 2 + [1.0] * 8 + [1.5] * 5 + [2.0] * 1
    splits = {0.0: (0.0, 0.0), 0.5: (0.5, 0.0), 1.5: (1.0, 0.5), 2.0: (1.0, 1.0)}
    games = []
    for number, total in enumerate(totals):
        first, second = splits.get(total, (1.0, 0.0) if number < 6 else (0.5, 0.5))  # WL, then DD
        games += [RatedGame("A", "B", first, unit=number), RatedGame("B", "A", 1 - second, unit=number)]
    paired = fit_ratings(games, anchor="B").ratings[0]
    assert paired.rating == pytest.approx(score_to_elo(0.525), abs=1e-6)
    assert paired.error == pytest.approx(math.sqrt(0.049375 / 20) / (C * 0.525 * 0.475), rel=1e-6)
    single = fit_ratings([RatedGame(g.first, g.second, g.score) for g in games], anchor="B").ratings[0]
    assert single.rating == pytest.approx(paired.rating)
    assert single.error != pytest.approx(paired.error, rel=1e-3)


THREE = (
    games_of("A", "B", 10, 6, 4)
    + games_of("B", "C", 7, 9, 4)
    + games_of("C", "A", 3, 10, 7)
    + games_of("D", "A", 1, 3, 2)
    + games_of("D", "C", 2, 2, 2)
)


def test_ratings_are_the_maximum_likelihood_found_by_another_method() -> None:
    rated = {r.player: r.rating for r in fit_ratings(THREE).ratings}
    other = zermelo(THREE)
    for player in rated:
        assert rated[player] - rated["A"] == pytest.approx(other[player] - other["A"], abs=1e-6)


def test_each_player_is_expected_to_score_what_it_scored() -> None:
    # The likelihood equations of the model: at the maximum, expected points equal points.
    rated = {r.player: r for r in fit_ratings(THREE).ratings}
    for player, row in rated.items():
        expected = 0.0
        for g in THREE:
            if player in (g.first, g.second):
                other = g.second if g.first == player else g.first
                expected += expected_score(row.rating - rated[other].rating)
        assert expected == pytest.approx(row.points, abs=1e-6)


def test_anchoring_moves_every_rating_by_the_same_amount() -> None:
    average = fit_ratings(THREE, anchor_rating=2000.0)
    assert sum(r.rating for r in average.ratings) / 4 == pytest.approx(2000.0)
    anchored = fit_ratings(THREE, anchor="C", anchor_rating=1500.0)
    by_name = {r.player: r for r in anchored.ratings}
    assert by_name["C"].rating == 1500.0 and by_name["C"].error == 0.0
    for row in average.ratings:
        assert by_name[row.player].rating - 1500.0 == pytest.approx(
            row.rating - next(r.rating for r in average.ratings if r.player == "C"), abs=1e-9
        )
    # Against the average every rating has an error, the anchored player's too.
    assert all(r.error > 0 for r in average.ratings)
    assert [r.player for r in average.ratings] == sorted(by_name, key=lambda name: -by_name[name].rating)


def test_a_player_who_won_every_game_gets_a_finite_rating_from_virtual_draws() -> None:
    games = games_of("A", "B", 5, 0, 0) + games_of("B", "C", 3, 2, 1)
    rated = fit_ratings(games)
    assert rated.prior == 1.0
    assert all(math.isfinite(r.rating) and math.isfinite(r.error) for r in rated.ratings)
    assert [r.player for r in rated.ratings] == ["A", "B", "C"]
    with pytest.raises(RatingError, match="would be infinite"):
        fit_ratings(games, prior=0.0)
    assert fit_ratings(THREE).prior == 0.0


@pytest.mark.parametrize("wins", [3, 5, 10, 24, 100, 1000])
def test_the_interval_of_straight_wins_reaches_below_their_exact_lower_bound(wins: int) -> None:
    # Clopper-Pearson: the lowest expected score p at which `wins` wins in a row still have a 2.5 %
    # chance is p^wins = 0.025; no 95 % interval of the difference may start above p's Elo.
    exact = 0.025 ** (1 / wins)
    winner = fit_ratings(games_of("A", "B", wins, 0, 0), anchor="B").ratings[0]
    assert winner.lower <= 400 * math.log10(exact / (1 - exact))


def test_the_interval_of_straight_wins_is_the_posterior_s_and_keeps_its_width() -> None:
    # n wins and one virtual draw: the expected score at the fit is e = (n + 1/2) / (n + 1), and the
    # posterior's information C^2 (n + 1) e (1 - e) tends to C^2 / 2, so the error to sqrt(2) / C.
    for wins in (5, 24, 1000):
        e = (wins + 0.5) / (wins + 1)
        winner = fit_ratings(games_of("A", "B", wins, 0, 0), anchor="B").ratings[0]
        assert winner.error == pytest.approx(1 / (C * math.sqrt((wins + 1) * e * (1 - e))), rel=1e-6)
        assert winner.margin > Z95 * math.sqrt(2) / C
    five, twenty_four = (fit_ratings(games_of("A", "B", n, 0, 0), anchor="B").ratings[0] for n in (5, 24))
    assert shown(five) == (416.6, -86.4, 919.5)
    assert shown(twenty_four) == (676.1, 189.7, 1162.5)


def shown(row: Rating) -> tuple[float, float, float]:
    """A rating and its interval to the tenth, as the docs quote them."""
    return round(row.rating, 1), round(row.lower, 1), round(row.upper, 1)


def test_players_who_never_met_cannot_be_rated_together() -> None:
    games = games_of("A", "B", 2, 1, 1) + games_of("C", "D", 1, 1, 2)
    with pytest.raises(RatingError, match="2 groups that never met.*: A, B; C, D"):
        fit_ratings(games)


def test_bad_requests_are_errors() -> None:
    with pytest.raises(RatingError, match="no finished games"):
        fit_ratings([])
    with pytest.raises(RatingError, match="the anchor 'Q' played no game here; players: A, B, C, D"):
        fit_ratings(THREE, anchor="Q")


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(0, 5), st.integers(1, 5)), min_size=3, max_size=3))
def test_a_cycle_of_three_agrees_with_zermelo(counts: list[tuple[int, int, int]]) -> None:
    (w1, d1, l1), (w2, d2, l2), (w3, d3, l3) = counts
    games = games_of("A", "B", w1, d1, l1) + games_of("B", "C", w2, d2, l2) + games_of("C", "A", w3, d3, l3)
    rated = {r.player: r.rating for r in fit_ratings(games).ratings}
    other = zermelo(games)
    for player in ("B", "C"):
        assert rated[player] - rated["A"] == pytest.approx(other[player] - other["A"], abs=1e-9)
