"""What the event-wide pages show beyond the summary: the event in words, the dates, the ratings
picture, the order the two players of a game are named in, and the games list cut into pages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arbiter.report import formatting
from arbiter.report.inputs import EventInfo
from arbiter.report.lines import Line, variant_named
from arbiter.report.rating_chart import RatedPlayer, rating_chart
from arbiter.report.summary import EventSummary
from arbiter.rules import Color
from arbiter.tournament.schedule import Bye

GAMES_PER_PAGE = 250
_FORMATS = {"round-robin": "round robin", "gauntlet": "gauntlet", "match": "match"}
_BADGES = {"playing": "playing", "unfinished": "stopped", "planned": "to play"}


def first_mover(event: EventInfo) -> Color:
    """The side that moves first: Black in English checkers, White in international draughts."""
    variant = variant_named(event.variant)
    return variant.first_to_move if variant is not None else Color.WHITE


def sides(event: EventInfo) -> tuple[str, str]:
    """The colours in the order lists name them: the first mover first, so that a result such as
    ``1-0`` reads as a win for the first-named player."""
    return ("Black", "White") if first_mover(event) is Color.BLACK else ("White", "Black")


def badge(line: Line) -> str:
    """``playing``, ``stopped`` or ``to play`` for a game without a result; empty otherwise."""
    return _BADGES.get(line.state, "")


def games_page_name(number: int) -> str:
    """The file of the games list's page `number` (from 1): ``games.html``, ``games-2.html``, ..."""
    return "games.html" if number == 1 else f"games-{number}.html"


def games_page_count(games: int, per_page: int = GAMES_PER_PAGE) -> int:
    return max(1, -(-games // per_page))


def date_range(summary: EventSummary) -> str:
    """``2025-03-01 to 2025-03-04``; ``from 2025-03-01`` while games remain; empty before the first."""
    first, last = formatting.day(summary.started_at), formatting.day(summary.ended_at)
    if not first:
        return ""
    if not last:
        return f"from {first}"
    return first if first == last else f"{first} to {last}"


def format_text(event: EventInfo) -> str:
    """``round robin, 2 cycles, 2 games per encounter``."""
    parts = [_FORMATS.get(event.format, event.format)]
    if event.cycles > 1:
        parts.append(f"{event.cycles} cycles")
    if event.games_per_encounter > 1:
        parts.append(f"{event.games_per_encounter} games per encounter")
    return ", ".join(parts)


def shared_ranks(summary: EventSummary) -> dict[str, str]:
    """Each player's place, tied places as a range (``2-3``), the way tournament tables print them."""
    counts: dict[int, int] = {}
    for standing in summary.table:
        counts[standing.rank] = counts.get(standing.rank, 0) + 1
    places = {}
    for standing in summary.table:
        tied = counts[standing.rank]
        places[standing.player] = (
            str(standing.rank) if tied == 1 else f"{standing.rank}\u2013{standing.rank + tied - 1}"
        )
    return places


def index_context(summary: EventSummary, updated: str) -> dict[str, Any]:
    """The index page's own template values."""
    event = summary.event
    rated = [
        RatedPlayer(standing.player, estimate)
        for standing in summary.table
        if (estimate := summary.elo[standing.player]) is not None
    ]
    variant = variant_named(event.variant)
    return {
        "summary": summary,
        "variant_title": variant.title if variant is not None else event.variant,
        "format_text": format_text(event),
        "dates": date_range(summary),
        "rating_chart": rating_chart(rated) if rated else None,
        "points_of": {standing.player: standing.points for standing in summary.table},
        # The crosstable numbers its rows 1, 2, 3... and heads its columns with the same numbers, so
        # each number appears once; the places (shared by tied players) have a column of their own.
        "number_of": {player: number for number, player in enumerate(summary.crosstable.players, start=1)},
        "place_of": shared_ranks(summary),
        "latest": summary.latest,
        "updated": updated,
    }


def rest_rounds(byes: Sequence[Bye]) -> dict[str, list[int]]:
    """The rounds each player rests in (a bye: no game, and no points, as the scoring counts games)."""
    rounds: dict[str, list[int]] = {}
    for bye in byes:
        rounds.setdefault(bye.player, []).append(bye.round)
    return rounds


def rests_before(rows: Sequence[Line], previous: Line | None, byes: Sequence[Bye]) -> dict[str, list[str]]:
    """Who rests, by the key of the row their round starts at among `rows` (a page of the games list,
    after the row `previous`): the list names them before that round's games. A round begun on the
    page before was named there."""
    resting: dict[int, list[str]] = {}
    for bye in byes:
        resting.setdefault(bye.round, []).append(bye.player)
    named = set() if previous is None or previous.round is None else {previous.round}
    before: dict[str, list[str]] = {}
    for row in rows:
        if row.round is not None and row.round not in named:
            named.add(row.round)
            if row.round in resting:
                before[row.key] = resting[row.round]
    return before


def page_of_games(lines: Sequence[Line], number: int, per_page: int = GAMES_PER_PAGE) -> Sequence[Line]:
    """The games on page `number` (from 1) of the games list."""
    return lines[(number - 1) * per_page : number * per_page]
