"""Writing the pages of a site: the static files, the event-wide pages, the games list (one page per
`GAMES_PER_PAGE` games) and the game pages, each from what it shows and nothing more.

The two ways of building a site share this: `build_site` (games held in memory) and `StoreSite`
(games read from a tournament database, a few at a time).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any

from arbiter.report import formatting
from arbiter.report.board_svg import board_svg
from arbiter.report.event_pages import (
    GAMES_PER_PAGE,
    first_mover,
    games_page_count,
    games_page_name,
    index_context,
    page_of_games,
    rest_rounds,
    rests_before,
    shared_ranks,
    sides,
)
from arbiter.report.files import page_key, write_atomic
from arbiter.report.game_page import EVENT_PDN, GameJob, write_game_page
from arbiter.report.lines import Line, variant_named
from arbiter.report.live import LIVE_DATA, live_script
from arbiter.report.summary import EventSummary
from arbiter.report.templating import environment, templates_dir

STATIC_FILES = ("site.css", "viewer.js", "live.js")
# Game pages are made in parallel from this many on (a whole site, not the refresh after a game).
PARALLEL_FROM = 400
CHUNK = 16


class PageWriter:
    """Renders the site's templates into `out`; `written` lists every file it wrote or kept."""

    def __init__(
        self,
        out: Path,
        summary: EventSummary,
        slugs: dict[str, str],
        has_openings: bool,
        games_per_page: int = GAMES_PER_PAGE,
    ) -> None:
        self.out = out
        self.per_page = games_per_page
        self.summary = summary
        self.event = summary.event
        self.slugs = slugs
        self.has_openings = has_openings
        self.directory = templates_dir()
        self.env = environment(self.directory)
        self.written: list[str] = []

    def common(self, root: str, page: str) -> dict[str, Any]:
        return {
            "root": root,
            "page": page,
            "event": self.event,
            "engine_slugs": self.slugs,
            "has_openings": self.has_openings,
            "pdn_name": EVENT_PDN,
            "first": first_mover(self.event),
            "side_names": sides(self.event),
        }

    def write(self, relative: str, data: str | bytes) -> None:
        write_atomic(self.out / relative, data)
        self.written.append(relative)

    def render(self, template: str, relative: str, context: dict[str, Any]) -> None:
        self.write(relative, self.env.get_template(template).render(context))

    def static(self) -> None:
        for name in STATIC_FILES:
            data = (self.directory / "static" / name).read_bytes()
            relative = f"static/{name}"
            target = self.out / relative
            if target.is_file() and target.read_bytes() == data:
                self.written.append(relative)
            else:
                self.write(relative, data)

    def event_pages(self, openings: Iterable[str] | None = None) -> None:
        """The index, every engine's page, the openings page and the pages of `openings` (all of
        them by default): what changes with every game."""
        updated = formatting.moment(datetime.now(UTC))
        summary = self.summary
        rests = rest_rounds(self.event.byes)
        places = shared_ranks(summary)
        for name, engine in summary.engines.items():
            context = self.common("../", "engine") | {
                "engine": engine,
                "summary": summary,
                "place": places.get(name),
                "rest_rounds": rests.get(name, []),
            }
            self.render("engine.html", f"engines/{self.slugs[name]}.html", context)
        if self.has_openings:
            pages = {opening.id: page_key(opening.id) for opening in summary.openings}
            context = self.common("", "openings") | {"summary": summary, "opening_pages": pages}
            self.render("openings.html", "openings.html", context)
            wanted = None if openings is None else set(openings)
            for opening in summary.openings:
                relative = f"openings/{pages[opening.id]}.html"
                if wanted is None or opening.id in wanted:
                    self.render("opening.html", relative, self.common("../", "openings") | {"o": opening})
                else:
                    self.written.append(relative)
        self.render("index.html", "index.html", self.common("", "index") | index_context(summary, updated))
        self.live_page()

    def live_page(self) -> None:
        """The live page, and its data file when there is none yet (the publisher of a running event
        writes it; a site built after the event shows no game being played)."""
        variant = variant_named(self.event.variant)
        board = None
        if variant is not None:
            board = board_svg(variant.geometry, "e" * variant.geometry.square_count, label="board")
        self.render("live.html", "live.html", self.common("", "live") | {"board": board})
        if not (self.out / LIVE_DATA).is_file():
            self.no_live_games()
        else:
            self.written.append(LIVE_DATA)

    def no_live_games(self) -> None:
        """The live page's data saying that no game is being played (and none will be)."""
        self.write(LIVE_DATA, live_script({"updated": None, "games": []}))

    def games_pages(self, lines: Sequence[Line], numbers: Iterable[int] | None = None) -> None:
        """Pages `numbers` (from 1; all of them by default) of the list of every game, in playing order."""
        count = games_page_count(len(lines), self.per_page)
        names = [games_page_name(number) for number in range(1, count + 1)]
        for number in range(1, count + 1) if numbers is None else sorted(set(numbers)):
            if number > count:
                continue
            rows = page_of_games(lines, number, self.per_page)
            start = (number - 1) * self.per_page
            previous = lines[start - 1] if start > 0 and self.event.byes else None
            context = self.common("", "games") | {
                "rows": rows,
                "rests_before": rests_before(rows, previous, self.event.byes),
                "page_number": number,
                "page_count": count,
                "page_names": names,
                "games_count": len(lines),
                "per_page": self.per_page,
            }
            self.render("games.html", names[number - 1], context)
        self.written.extend(names)


def write_game_pages(out: Path, jobs: Iterable[GameJob], workers: int, count: int) -> Iterator[str]:
    """Write each job's page and PDN file; yield each game's PDN, in order. With `workers` above 1 and
    many pages to make (`count`, at least `PARALLEL_FROM`), they are made in that many worker
    processes."""
    write = partial(write_game_page, out)
    if workers <= 1 or count < PARALLEL_FROM:
        yield from map(write, jobs)
        return
    # Workers are started afresh ("spawn"): forking a process that runs threads (an event loop with
    # engine readers) is not safe. A few chunks per worker are handed over at a time, so that the
    # games waiting for a worker, not the whole event, are what this process holds.
    context = multiprocessing.get_context("spawn")
    pending = iter(jobs)
    window = workers * CHUNK * 2
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        while batch := list(islice(pending, window)):
            yield from pool.map(write, batch, chunksize=CHUNK)
