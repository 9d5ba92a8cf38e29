"""The live page in a real browser: a move written by the publisher appears without a reload, from the
disk and over `arbiter serve`; and the site read on a phone (390 and 320 px wide).

Skipped like the other browser tests where Chromium or playwright is missing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from report_games import PlayedEvent, play_event
from site_checks import crawl
from test_report_browser import ARTIFACTS, Watch, board_on_page, browser, chromium, letters_of  # noqa: F401

from arbiter.commands.serve import site_server
from arbiter.notation.movetext import parse_hub
from arbiter.referee.record import EngineInfo
from arbiter.report import build_site
from arbiter.report.live import LiveGames, LiveWatcher, Message, MessageBatch
from arbiter.rules import Position, get_variant

PHONE = {"width": 390, "height": 844}
NARROWEST_PHONE = {"width": 320, "height": 640}  # the narrowest phone screens in use


def assert_fits_the_narrowest_phone(page: Any, name: object) -> None:
    """The page open in `page` is no wider than the narrowest phone: it does not scroll sideways."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROWEST_PHONE["width"], f"{name}: the page is {width} px wide"


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> tuple[PlayedEvent, Path]:
    played = play_event(["Alpha", "Bravo", "Charlie"], games_per_encounter=2, max_plies=80)
    site = tmp_path_factory.mktemp("live") / "site"
    build_site(site, played.event, played.games)
    return played, site


class LiveGame:
    """One of the event's games replayed move by move through a `LiveWatcher`, as the referee tells it."""

    def __init__(self, played: PlayedEvent, site: Path) -> None:
        self.game = next(g for g in played.games if g.record is not None and g.record.plies >= 6)
        record = self.game.record
        assert record is not None
        self.record = record
        self.position = Position.from_fen(get_variant(record.variant), record.start_fen)
        self.positions = [self.position]
        self.messages: list[Message] = []
        # Handed over when the test says (the runner's event loop does it a few times a second).
        self.batch = MessageBatch(self.messages.append)
        self.watcher = LiveWatcher(self.game.key, self.batch)
        self.live = LiveGames(site)
        self.watcher.game_started(record, self.position)
        self.batch.flush()
        self.ply = 0

    def play(self, plies: int = 1) -> None:
        """Play the next moves, with an engine line on each, and write the live data."""
        for _ in range(plies):
            move = self.record.moves[self.ply]
            self.position = self.position.play(parse_hub(self.position, move.hub))
            self.positions.append(self.position)
            shown = move.model_copy(update={"info": EngineInfo(depth=7, score=0.25, pv=[move.hub])})
            self.watcher.move_played(self.record, shown, self.position)
            self.ply += 1
        self.batch.flush()
        for message in self.messages:
            self.live.apply(message)
        self.messages.clear()
        self.live.write()


def watch_a_move_arrive(page: Any, game: LiveGame) -> None:
    game.play(2)
    page.wait_for_selector(f"article[data-game='{game.game.key}']")
    assert board_on_page(page) == letters_of(game.positions[2])
    page.evaluate("window.notReloaded = true")
    game.play()
    page.wait_for_function(
        "ply => document.querySelector('.live-move').textContent.startsWith('Ply ' + ply)", arg=3
    )
    assert page.evaluate("window.notReloaded") is True, "the page was reloaded"
    assert board_on_page(page) == letters_of(game.positions[3])
    third = game.record.moves[2]
    assert page.inner_text(".live-move") == f"Ply 3: {third.text} ({third.side.value})"
    # The principal variation is shown in the variant's own notation, as the move list writes it.
    assert f"pv {third.text}" in page.inner_text(".live-info")
    # The first mover (Black in English checkers) is named first.
    names = page.locator(".live-players .player").all_inner_texts()
    assert names == [game.record.black.name, game.record.white.name]


def test_a_move_appears_on_the_live_page_opened_from_the_disk_without_a_reload(
    browser: Any,  # noqa: F811
    event: tuple[PlayedEvent, Path],
) -> None:
    played, site = event
    game = LiveGame(played, site)
    page = browser.new_page()
    watch = Watch(page)
    page.goto((site / "live.html").as_uri())
    watch_a_move_arrive(page, game)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-live.png"), full_page=True)
    game.live.apply(("end", game.game.key, "Black wins"))
    game.live.write()
    page.wait_for_function("() => document.querySelectorAll('article.live-game').length === 0")
    assert "No game is being played" in page.inner_text("#live-state")
    assert watch.dialogs == [] and watch.errors == []


@pytest.fixture
def served(event: tuple[PlayedEvent, Path]) -> Iterator[str]:
    _, site = event
    server = site_server(site, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_move_appears_on_the_live_page_served_by_arbiter_serve(
    browser: Any,  # noqa: F811
    event: tuple[PlayedEvent, Path],
    served: str,
) -> None:
    played, site = event
    game = LiveGame(played, site)
    page = browser.new_page()
    watch = Watch(page)
    page.goto(f"{served}/live.html")
    watch_a_move_arrive(page, game)
    page.goto(f"{served}/index.html")
    assert page.locator("table.standings tbody tr").count() == 3
    assert watch.dialogs == [] and watch.errors == []


def test_on_a_phone_tables_scroll_sideways_and_rows_stay_one_line_high(
    browser: Any,  # noqa: F811
    event: tuple[PlayedEvent, Path],
) -> None:
    played, site = event
    page = browser.new_page()
    page.set_viewport_size(PHONE)
    watch = Watch(page)
    ARTIFACTS.mkdir(exist_ok=True)
    game = next(g for g in played.games if g.record is not None)
    for name in ("index.html", "games.html", f"games/{game.key}.html"):
        page.goto((site / name).as_uri())
        # The page itself never scrolls sideways: wide tables scroll inside their own box.
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{name}: the page is {width} px wide"
        tallest = page.evaluate(
            "Math.max(0, ...[...document.querySelectorAll('main tbody tr')].map(r => r.offsetHeight))"
        )
        assert tallest < 80, f"{name}: a table row is {tallest} px high"
        page.screenshot(path=str(ARTIFACTS / f"phone-{name.replace('/', '-')}.png"), full_page=False)
    page.goto((site / "games.html").as_uri())
    box = page.locator("main .scroll").first
    assert box.evaluate("e => e.scrollWidth > e.clientWidth"), "the games list should scroll sideways"
    assert watch.dialogs == [] and watch.errors == []


def test_on_the_narrowest_phone_no_page_of_the_site_scrolls_sideways(
    browser: Any,  # noqa: F811
    event: tuple[PlayedEvent, Path],
) -> None:
    # Every table wider than the page scrolls in its own box (the engine page's by-colour table did not).
    _, site = event
    page = browser.new_page()
    page.set_viewport_size(NARROWEST_PHONE)
    watch = Watch(page)
    pages = sorted(crawl(site).pages)
    for path in pages:
        page.goto(path.as_uri())
        assert_fits_the_narrowest_phone(page, path.relative_to(site.resolve()))
    assert watch.dialogs == [] and watch.errors == []


def test_on_the_narrowest_phone_a_name_of_one_long_word_wraps_rather_than_widening_the_page(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    # Engine and event names come from engines and files, and an engine's build name is often one
    # long word: headings, sentences and the live page's clocks wrap it inside the screen.
    long_engine = "KingsRowNN_v1.19f_avx2_x86_64_linux_gnu_build_20260101"
    played = play_event(
        [long_engine, "Bravo"], name="Checkers_Engine_Invitational_2026_Qualifier", games_per_encounter=4
    )
    build_site(tmp_path, played.event, played.games)
    game = LiveGame(played, tmp_path)
    page = browser.new_page()
    page.set_viewport_size(NARROWEST_PHONE)
    watch = Watch(page)
    engine_page = next((tmp_path / "engines").glob("kingsrownn*.html"))
    for path in (tmp_path / "index.html", engine_page, tmp_path / "games" / f"{game.game.key}.html"):
        page.goto(path.as_uri())
        assert_fits_the_narrowest_phone(page, path.relative_to(tmp_path))
    page.goto((tmp_path / "live.html").as_uri())
    game.play(2)
    page.wait_for_selector(f"article[data-game='{game.game.key}']")
    assert_fits_the_narrowest_phone(page, "live.html")
    assert watch.dialogs == [] and watch.errors == []


def test_on_a_phone_the_board_never_covers_the_move_list_below_it(
    browser: Any,  # noqa: F811
    event: tuple[PlayedEvent, Path],
) -> None:
    # Above the move list (one column) the board scrolls away with the page; it used to stay stuck at
    # the top of the screen, the moves sliding under it and their header drawn over it.
    played, site = event
    game = max((g for g in played.games if g.record is not None), key=lambda g: g.record.plies)  # type: ignore[union-attr]
    page = browser.new_page()
    page.set_viewport_size(PHONE)
    watch = Watch(page)
    page.goto((site / "games" / f"{game.key}.html").as_uri())
    overlap = """() => {
        const board = document.querySelector('.board-panel').getBoundingClientRect();
        const moves = document.querySelector('.moves-panel').getBoundingClientRect();
        return Math.max(0, Math.min(board.bottom, moves.bottom) - Math.max(board.top, moves.top));
    }"""
    for top in range(0, 1200, 100):
        page.evaluate(f"window.scrollTo(0, {top})")
        assert page.evaluate(overlap) == 0, f"scrolled {top} px: the board covers the move list"
    assert watch.dialogs == [] and watch.errors == []


def test_the_live_pages_announced_state_changes_only_when_what_it_says_changes(
    browser: Any,  # noqa: F811
    event: tuple[PlayedEvent, Path],
) -> None:
    # The state line is a live region: a screen reader reads it out whenever its text is replaced, so
    # the page's reload of its data every second must leave the same words alone.
    played, site = event
    game = LiveGame(played, site)
    page = browser.new_page()
    watch = Watch(page)
    page.goto((site / "live.html").as_uri())
    game.play(2)
    page.wait_for_selector(f"article[data-game='{game.game.key}']")
    page.evaluate(
        """() => {
            window.stateChanges = 0;
            const state = document.getElementById('live-state');
            new MutationObserver(changes => { window.stateChanges += changes.length; })
                .observe(state, {childList: true, characterData: true, subtree: true});
        }"""
    )
    game.play()  # a move: the data changes, the state line's words do not
    page.wait_for_function(
        "ply => document.querySelector('.live-move').textContent.startsWith('Ply ' + ply)", arg=3
    )
    page.wait_for_timeout(2500)
    assert page.evaluate("window.stateChanges") == 0
    assert page.inner_text("#live-state") == "1 game being played; updated every second."
    game.live.apply(("end", game.game.key, "Black wins"))
    game.live.write()
    page.wait_for_function("() => window.stateChanges > 0")
    assert page.inner_text("#live-state") == "No game is being played now."
    assert watch.dialogs == [] and watch.errors == []
