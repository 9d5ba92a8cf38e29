"""What the event-wide pages show beyond the summary: the event in words, the dates, the latest
results, the ratings picture, and the result and ending of a game as the lists show them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from arbiter.report import formatting
from arbiter.report.inputs import EventInfo, GameEntry
from arbiter.report.pdn_export import pdn_result
from arbiter.report.rating_chart import RatedPlayer, rating_chart
from arbiter.report.replay import variant_of
from arbiter.report.summary import EventSummary

LATEST_RESULTS = 12
_FORMATS = {"round-robin": "round robin", "gauntlet": "gauntlet", "match": "match"}


def result_text(game: GameEntry) -> str:
    """The game's PDN result (``1-0``), or nothing for a game not played yet."""
    return "" if game.record is None else pdn_result(game.record)


def ending(game: GameEntry) -> str:
    """The ending in words, winner first (``Black wins: no legal move``): a result such as ``1-0``
    names the first mover first, which is Black in English draughts, so lists say it in words too."""
    record = game.record
    if record is None or record.outcome is None:
        return ""
    return record.outcome.reason


_BADGES = {"playing": "playing", "unfinished": "stopped", "planned": "to play"}


@dataclass(frozen=True)
class GameRow:
    """One line of a list of games, worked out in Python: lists can be 10,000 lines long."""

    key: str
    href: str | None
    """The game page, from the site's root; None for a game not played yet."""
    state: str
    round: str
    white: str
    black: str
    result: str
    badge: str
    """``playing``, ``stopped`` or ``to play`` for a game without a result; empty otherwise."""
    ending: str
    opening: str
    opening_moves: str
    plies: str


def game_rows(games: Sequence[GameEntry], pages: dict[str, str]) -> list[GameRow]:
    rows = []
    for game in games:
        record = game.record
        opening = game.opening
        rows.append(
            GameRow(
                key=game.key,
                href=None if record is None else f"games/{pages[game.key]}.html",
                state=game.state,
                round="" if game.round is None else str(game.round),
                white=game.white,
                black=game.black,
                result=result_text(game),
                badge=_BADGES.get(game.state, ""),
                ending=ending(game),
                opening="" if opening is None else opening.name or opening.id,
                opening_moves="" if opening is None else opening.text,
                plies="" if record is None else str(record.plies),
            )
        )
    return rows


def date_range(event: EventInfo, games: Sequence[GameEntry]) -> str:
    """``2025-03-01 to 2025-03-04``; ``from 2025-03-01`` while games remain; empty before the first."""
    records = [game.record for game in games if game.record is not None]
    start = event.started_at or min((r.started_at for r in records), default=None)
    end = event.ended_at
    if end is None and records and all(game.state == "finished" for game in games):
        end = max((r.ended_at for r in records if r.ended_at is not None), default=None)
    first, last = formatting.day(start), formatting.day(end)
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


def _finish_time(game: GameEntry) -> datetime:
    record = game.record
    assert record is not None
    return record.ended_at or record.started_at


def index_context(summary: EventSummary, updated: str) -> dict[str, Any]:
    """The index page's own template values."""
    event, games = summary.event, summary.games
    rated = [
        RatedPlayer(standing.player, estimate)
        for standing in summary.table
        if (estimate := summary.elo[standing.player]) is not None
    ]
    finished = sorted((game for game in games if game.state == "finished"), key=_finish_time)
    variant = variant_of(event.variant)
    return {
        "summary": summary,
        "variant_title": variant.title if variant is not None else event.variant,
        "format_text": format_text(event),
        "dates": date_range(event, games),
        "rating_chart": rating_chart(rated) if rated else None,
        "points_of": {standing.player: standing.points for standing in summary.table},
        # The crosstable lists players in standings order and numbers them by the same (shared) ranks.
        "rank_of": {standing.player: standing.rank for standing in summary.table},
        "latest": list(reversed(finished[-LATEST_RESULTS:])),
        "updated": updated,
    }
