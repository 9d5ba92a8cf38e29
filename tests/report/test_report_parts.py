"""The small parts of the site: numbers in words, the ratings picture, the board picture."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arbiter.report.board_svg import board_svg
from arbiter.report.formatting import points, seconds
from arbiter.report.from_config import describe_openings
from arbiter.report.rating_chart import RatedPlayer, describe, rating_chart
from arbiter.report.replay import board_letters
from arbiter.rules import Position, get_variant
from arbiter.tournament.config import load_tournament
from arbiter.tournament.stats import elo_from_wdl


@pytest.mark.parametrize(
    ("value", "text"), [(0.0, "0"), (0.5, "\u00bd"), (2.5, "2\u00bd"), (3.0, "3"), (1.25, "1.25")]
)
def test_points_are_written_with_halves(value: float, text: str) -> None:
    assert points(value) == text


@pytest.mark.parametrize(
    ("value", "text"), [(None, ""), (0.4213, "0.42"), (12.34, "12.3"), (65.2, "1:05.2"), (3723.0, "1:02:03")]
)
def test_durations_read_as_seconds_minutes_and_hours(value: float | None, text: str) -> None:
    assert seconds(value) == text


def test_an_interval_without_end_is_drawn_as_an_arrow_and_names_are_escaped() -> None:
    bounded = elo_from_wdl(wins=6, draws=3, losses=3)
    nearly_perfect = elo_from_wdl(wins=9, draws=0, losses=1)  # its interval reaches a score of 1
    svg = str(rating_chart([RatedPlayer("<b>Bounded</b>", bounded), RatedPlayer("Nine", nearly_perfect)]))
    rows = svg.split('<g class="row">')[1:]
    assert len(rows) == 2
    assert rows[0].count('class="cap"') == 2 and 'class="arrow"' not in rows[0]
    assert rows[1].count('class="arrow"') == 1 and rows[1].count('class="cap"') == 1
    assert "&lt;b&gt;Bounded&lt;/b&gt;" in svg and "<b>" not in svg
    assert describe(nearly_perfect) == "+382 [+159, +\u221e]"
    assert describe(elo_from_wdl(wins=1, draws=0, losses=1)).startswith("0 [")


def test_a_player_whose_games_all_had_one_result_has_no_interval_and_the_chart_says_why() -> None:
    unbeaten = elo_from_wdl(wins=4, draws=0, losses=0)
    drawn = elo_from_wdl(wins=0, draws=6, losses=0)
    assert describe(unbeaten) == "+\u221e, no interval yet: every game won"
    assert describe(drawn) == "0, no interval yet: every game drawn"
    svg = str(rating_chart([RatedPlayer("Unbeaten", unbeaten), RatedPlayer("Drawn", drawn)]))
    for row, reason in zip(
        svg.split('<g class="row">')[1:], ("every game won", "every game drawn"), strict=True
    ):
        # A dot alone: no bar, cap or arrow claims an interval of no width.
        assert 'class="estimate"' in row
        assert all(f'class="{part}"' not in row for part in ("interval", "cap", "arrow"))
        assert f"no interval yet: {reason}</title>" in row and "no interval yet</text>" in row


@pytest.mark.parametrize("variant_id", ["english", "international"])
def test_the_board_picture_has_every_square_with_what_stands_on_it(variant_id: str) -> None:
    variant = get_variant(variant_id)
    position = Position.start(variant)
    svg = str(board_svg(variant.geometry, board_letters(position), label="<A> – <B>"))
    squares = re.findall(r'data-square="(\d+)" data-piece="(\w)"', svg)
    assert [int(square) for square, _ in squares] == list(range(1, variant.square_count + 1))
    for square, letter in squares:
        piece = position.piece_at(int(square))
        assert letter == (piece.value if piece else "e")
    assert 'aria-label="&lt;A&gt; – &lt;B&gt;"' in svg
    with pytest.raises(ValueError, match="letters for a board"):
        board_svg(variant.geometry, "e" * 5)


@pytest.mark.parametrize(
    ("openings", "words"),
    [
        ('deck = "pro-checkers"', "the Pro Checkers ballot rule, random order (seed 7)"),
        ('deck = "acf-144"\norder = "sequential"', "ACF deck acf-144, in order"),
    ],
)
def test_the_site_names_where_the_openings_come_from(tmp_path: Path, openings: str, words: str) -> None:
    path = tmp_path / "event.toml"
    path.write_text(
        'name = "e"\nvariant = "english"\ntime_control = "depth=1"\ngames_per_encounter = 2\nrepeat = true\n'
        f"[openings]\n{openings}\nseed = 7\n"
        '[[engines]]\nname = "a"\nbundled = "random"\n[[engines]]\nname = "b"\nbundled = "greedy"\n',
        encoding="utf-8",
    )
    config, _ = load_tournament(path)
    assert describe_openings(config) == f"{words}; each opening played twice, colours swapped"


def test_a_principal_variation_reads_in_the_variants_move_notation() -> None:
    from arbiter.report.replay import pv_text
    from arbiter.rules import Position, get_variant

    start = Position.start(get_variant("english"))
    # Hub names every captured square (15x22x18); PDN writes the capture from where to where (15x22).
    assert pv_text(start, ["10-15", "22-18", "15x22x18"]) == "10-15 22-18 15x22"
    # From the first move that does not read, the rest is shown as the engine sent it.
    assert pv_text(start, ["10-15", "9-14", "22-18"]) == "10-15 9-14 22-18"
