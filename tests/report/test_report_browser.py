"""The site in a real browser (Debian's Chromium driven by Playwright): standings, stepping through a
game against the rules core, hostile engine text, and every page loading cleanly from the disk.

Skipped, with the reason, where /usr/bin/chromium or the playwright package is missing; CI installs
both (scripts/install-browser.sh). Screenshots are kept in test-artifacts/ at the repository root.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from report_games import (
    PlayedEvent,
    alpha_wins_the_others_draw,
    bundled,
    play_event,
    referee_event,
    scripted,
    with_winners,
)
from site_checks import crawl

from arbiter.notation.movetext import parse_hub
from arbiter.referee.record import GameRecord, Winner
from arbiter.report import GameEntry, build_site
from arbiter.report.rating_chart import describe
from arbiter.rules import Position, get_variant
from arbiter.tournament.standings import standings
from arbiter.tournament.stats import Pentanomial, elo_from_pentanomial, pentanomial

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
HOSTILE_NAME = "<script>alert(1)</script>"
HOSTILE_INFO = "<img src=x onerror=alert(2)>"

BOARD_LETTERS = "els => els.map(e => e.getAttribute('data-piece')).join('')"


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Playwright's Chromium launcher (one Playwright a module: a second one in a thread is refused)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright package is not installed (pip install playwright); browser tests skipped")
    if not CHROMIUM.is_file():
        pytest.skip(f"no Chromium at {CHROMIUM} (run scripts/install-browser.sh); browser tests skipped")
    with sync_playwright() as playwright:
        yield playwright.chromium


def open_browser(chromium: Any, profile: Path, **options: Any) -> Any:
    """Debian's Chromium with a profile of its own (`options`: Playwright's, as java_script_enabled)."""
    return chromium.launch_persistent_context(
        str(profile),
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_ARGS,
        viewport={"width": 1200, "height": 900},
        **options,
    )


@pytest.fixture(scope="module")
def browser(chromium: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    context = open_browser(chromium, tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield context
    finally:
        context.close()


class Watch:
    """What a page did that it should not: dialogs, console errors, failed requests, page errors."""

    def __init__(self, page: Any) -> None:
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        page.on("dialog", self._dialog)
        page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("requestfailed", lambda request: self.errors.append(f"request failed: {request.url}"))

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()


def letters_of(position: Position) -> str:
    count = position.variant.square_count
    return "".join((piece.value if (piece := position.piece_at(s)) else "e") for s in range(1, count + 1))


def positions_of(game: GameEntry) -> list[Position]:
    """The rules core's position before the first move and after each one."""
    assert game.record is not None
    position = Position.from_fen(get_variant(game.record.variant), game.record.start_fen)
    positions = [position]
    for move in game.record.moves:
        position = position.play(parse_hub(position, move.hub))
        positions.append(position)
    return positions


def board_on_page(page: Any) -> str:
    return str(page.eval_on_selector_all("svg.board g.sq", BOARD_LETTERS))


def shown(page: Any, selector: str) -> bool:
    return bool(page.eval_on_selector(selector, "e => getComputedStyle(e).display !== 'none'"))


@pytest.fixture(scope="module")
def event_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[PlayedEvent, Path]:
    """A round robin of the bundled engines, refereed game by game; the last game still to play."""
    engines = [bundled("greedy"), bundled("random"), bundled("alphabeta")]
    played = referee_event(engines, name="Bundled engines cup", leave_unplayed=1)
    site = tmp_path_factory.mktemp("browser") / "site"
    build_site(site, played.event, played.games)
    return played, site


@pytest.fixture(scope="module")
def crowning_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[PlayedEvent, Path]:
    """Games that are the same on every run (played in this process), some of them crowning kings."""
    played = play_event(["Alpha", "Bravo", "Charlie"], games_per_encounter=2, max_plies=200)
    site = tmp_path_factory.mktemp("crowning") / "site"
    build_site(site, played.event, played.games)
    return played, site


def test_a_visitor_opens_a_game_from_the_index_and_steps_through_it(
    browser: Any, event_site: tuple[PlayedEvent, Path]
) -> None:
    played, site = event_site
    page = browser.new_page()
    watch = Watch(page)
    page.goto((site / "index.html").as_uri())
    results = [r for r in (game.finished_game() for game in played.games) if r is not None]
    expected = [s.player for s in standings(results, played.event.players)]
    assert page.locator("table.standings tbody tr td:nth-child(2)").all_inner_texts() == expected
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-index.png"), full_page=True)

    page.locator("table.games a.game").first.click()
    page.wait_for_url("**/games/*.html")
    key = page.url.rsplit("/", 1)[1].removesuffix(".html")
    game = next(g for g in played.games if g.key == key)
    positions = positions_of(game)
    assert board_on_page(page) == letters_of(positions[0])
    assert page.inner_text("#status") == "Start position"

    # Forward with the button, then with the arrow key, checking the board after every ply.
    for ply in range(1, len(positions)):
        if ply <= 3:
            page.click("button[data-step=next]")
        else:
            page.keyboard.press("ArrowRight")
        assert board_on_page(page) == letters_of(positions[ply]), f"{key}: board after ply {ply}"
        assert game.record is not None
        assert game.record.moves[ply - 1].text in page.inner_text("#status")
    assert page.is_disabled("button[data-step=next]")
    page.keyboard.press("ArrowLeft")
    assert board_on_page(page) == letters_of(positions[-2])
    page.keyboard.press("Home")
    assert board_on_page(page) == letters_of(positions[0])
    page.keyboard.press("End")
    assert board_on_page(page) == letters_of(positions[-1])
    page.screenshot(path=str(ARTIFACTS / "report-game.png"), full_page=True)
    assert watch.dialogs == [] and watch.errors == []


def test_without_scripts_a_game_page_shows_its_moves_and_final_position_and_no_button_that_needs_one(
    chromium: Any, browser: Any, event_site: tuple[PlayedEvent, Path], tmp_path: Path
) -> None:
    played, site = event_site
    game = next(g for g in played.games if g.record is not None and g.record.outcome and g.record.moves)
    assert game.record is not None
    positions = positions_of(game)
    plies = len(positions) - 1
    address = (site / "games" / f"{game.key}.html").as_uri()
    context = open_browser(chromium, tmp_path / "profile", java_script_enabled=False)
    try:
        page = context.new_page()
        watch = Watch(page)
        page.goto(address)
        assert board_on_page(page) == letters_of(positions[-1]), "the final position"
        marked = page.eval_on_selector_all("svg.board g.sq.from, svg.board g.sq.to", "els => els.length")
        assert marked == 2, "the last move's squares"
        status = page.inner_text("#status")
        assert game.record.moves[-1].text in status and f"(ply {plies} of {plies})" in status, status
        assert page.locator("#moves a[href^='#ply-']").count() == plies + 1, "the start, then every move"
        # The replay and copy buttons do nothing without a script: none is shown; the download works.
        assert page.locator("button:visible").count() == 0
        assert page.is_visible(f"a[download='{game.key}.pdn']")
        page.screenshot(path=str(ARTIFACTS / "report-game-no-script.png"), full_page=True)
        assert watch.dialogs == [] and watch.errors == []
    finally:
        context.close()
    # With scripts the viewer opens at the start, the final move's marks gone, its buttons there.
    page = browser.new_page()
    page.goto(address)
    assert board_on_page(page) == letters_of(positions[0])
    assert page.inner_text("#status") == "Start position"
    assert page.eval_on_selector_all("svg.board g.sq.from, svg.board g.sq.to", "els => els.length") == 0
    assert page.is_visible("button[data-step=next]") and page.is_visible("#copy-pdn")


def test_kings_are_drawn_with_a_crown_and_a_move_in_the_list_opens_its_position(
    browser: Any, crowning_site: tuple[PlayedEvent, Path]
) -> None:
    played, site = crowning_site
    crowned = [
        (game, ply, position)
        for game in played.games
        if game.record is not None
        for ply, position in enumerate(positions_of(game))
        if position.kings
    ]
    assert crowned, "the test event should crown a man somewhere"
    game, ply, position = crowned[0]
    page = browser.new_page()
    watch = Watch(page)
    page.goto((site / "games" / f"{game.key}.html").as_uri())
    page.click(f"#moves a[href='#ply-{ply}']")
    assert board_on_page(page) == letters_of(position)
    assert page.url.endswith(f"#ply-{ply}")
    drawn = page.eval_on_selector_all(
        "svg.board g.sq",
        """els => els.map(e => {
            const man = getComputedStyle(e.querySelector('use.man'));
            const king = getComputedStyle(e.querySelector('use.king'));
            const piece = man.display !== 'none' ? man : king;
            return [man.display !== 'none' || king.display !== 'none', king.display !== 'none', piece.fill];
        })""",
    )
    fills: dict[str, set[str]] = {"w": set(), "b": set()}
    for square, (disc, crown, fill) in enumerate(drawn, start=1):
        piece = position.piece_at(square)
        assert disc == (piece is not None), f"square {square} ({piece}): disc shown {disc}"
        assert crown == (piece is not None and piece.is_king), (
            f"square {square} ({piece}): crown shown {crown}"
        )
        if piece is not None:
            fills[piece.value.lower()].add(fill)
    assert len(fills["w"]) == len(fills["b"]) == 1 and fills["w"] != fills["b"], fills
    # A page opened at a move's address shows that move's position.
    page.goto((site / "games" / f"{game.key}.html").as_uri() + f"#ply-{ply}")
    page.reload()
    assert board_on_page(page) == letters_of(position)
    page.screenshot(path=str(ARTIFACTS / "report-king.png"), full_page=False)
    assert watch.dialogs == [] and watch.errors == []


def test_mules_are_drawn_with_their_mark_as_the_game_steps_on(browser: Any, tmp_path: Path) -> None:
    played = play_event(["Alpha", "Bravo"], variant_id="mule", games_per_encounter=1, openings=False)
    build_site(tmp_path, played.event, played.games)
    (game,) = played.games
    positions = positions_of(game)
    page = browser.new_page()
    watch = Watch(page)
    page.goto((tmp_path / "games" / f"{game.key}.html").as_uri())
    marks = "els => els.map(e => getComputedStyle(e.querySelector('text.mule-mark')).display !== 'none')"
    for ply in (0, len(positions) // 2, len(positions) - 1):
        page.goto((tmp_path / "games" / f"{game.key}.html").as_uri() + f"#ply-{ply}")
        page.reload()
        position = positions[ply]
        assert board_on_page(page) == letters_of(position)
        shown_marks = page.eval_on_selector_all("svg.board g.sq", marks)
        expected = [position.is_mule(square) for square in range(1, len(shown_marks) + 1)]
        assert shown_marks == expected, f"ply {ply}"
    page.keyboard.press("Home")  # from the last board back to the first, by the viewer alone
    start = positions[0]
    start_marks = [start.is_mule(square) for square in range(1, start.variant.square_count + 1)]
    assert page.eval_on_selector_all("svg.board g.sq", marks) == start_marks
    page.screenshot(path=str(ARTIFACTS / "report-mules.png"), full_page=False)
    assert watch.dialogs == [] and watch.errors == []


def test_copy_pdn_puts_the_games_pdn_on_the_clipboard(
    browser: Any, crowning_site: tuple[PlayedEvent, Path]
) -> None:
    played, site = crowning_site
    game = next(g for g in played.games if g.record is not None)
    browser.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        page = browser.new_page()
        watch = Watch(page)
        page.goto((site / "games" / f"{game.key}.html").as_uri())
        page.evaluate("navigator.clipboard.writeText('nothing copied yet')")
        page.click("#copy-pdn")
        page.wait_for_function("document.getElementById('copy-state').textContent !== ''")
        assert page.inner_text("#copy-state") == "Copied."
        copied = page.evaluate("navigator.clipboard.readText()")
    finally:
        browser.clear_permissions()
    # The same text as the game's PDN file beside the page, which the writer made from the record.
    assert copied == (site / "games" / f"{game.key}.pdn").read_text(encoding="utf-8")
    assert f'[GameId "{game.key}"]' in copied
    assert watch.dialogs == [] and watch.errors == []


def test_hostile_engine_text_runs_no_script_and_reads_literally(browser: Any, tmp_path: Path) -> None:
    # A real engine process named like a script, printing an info line with markup in it on its first
    # move: as Black it moves first and plays on; as White its scripted move is illegal and it forfeits.
    hostile = scripted(
        HOSTILE_NAME,
        "--say-at",
        "1",
        "--say",
        f'info depth=3 score=5 note="{HOSTILE_INFO}"\\ndone move=11-15',
    )
    played = referee_event([hostile, bundled("random")], name=f"Cup {HOSTILE_NAME}", openings=False)
    build_site(tmp_path, played.event, played.games)
    page = browser.new_page()
    watch = Watch(page)
    page.goto((tmp_path / "index.html").as_uri())
    assert HOSTILE_NAME in page.locator("table.standings").inner_text()
    assert page.title() == f"Standings · Cup {HOSTILE_NAME}"
    page.locator("table.standings a.engine", has_text=HOSTILE_NAME).click()
    assert page.locator("h1").inner_text() == HOSTILE_NAME
    assert "illegal move" in page.locator("table.faults").inner_text()
    # The first game of the schedule: the hostile engine is Black, moves first and plays on.
    page.locator("table.games a.game", has_text=played.games[0].key).click()
    page.wait_for_url("**/games/*.html")
    page.click("button[data-step=last]")
    assert f"note {HOSTILE_INFO}" in page.locator("#moves").inner_text()
    assert HOSTILE_NAME in page.locator("h1").inner_text()
    assert HOSTILE_NAME in page.locator("#pdn-text").inner_text()
    assert page.locator("img").count() == 0
    assert page.evaluate("document.querySelectorAll('script').length") == 2  # the data and the viewer
    assert watch.dialogs == []
    assert watch.errors == []


def test_a_player_who_won_every_game_is_shown_with_no_interval_yet(browser: Any, tmp_path: Path) -> None:
    played = play_event(["Alpha", "Bravo", "Charlie"], games_per_encounter=2, openings=False)
    build_site(tmp_path, played.event, with_winners(played, alpha_wins_the_others_draw).games)
    page = browser.new_page()
    watch = Watch(page)
    page.goto((tmp_path / "index.html").as_uri())
    alpha = page.locator("table.standings tbody tr", has_text="Alpha")
    assert alpha.locator("td").last.inner_text() == "+∞, no interval yet: every game won"
    # In the chart a dot alone, without a bar that would claim an interval of no width.
    row = page.locator("svg.ratings g.row").first
    assert row.locator("text.name").text_content() == "Alpha"
    assert row.locator("circle.estimate").count() == 1
    assert row.locator("line.interval, line.cap, path.arrow").count() == 0
    assert row.locator("text.value").text_content() == "+∞, no interval yet"
    assert page.locator("svg.ratings g.row").nth(1).locator("line.interval").count() == 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("section:has(h2#ratings)").screenshot(path=str(ARTIFACTS / "report-no-interval.png"))
    page.locator("table.standings a.engine", has_text="Alpha").click()
    assert "+∞, no interval yet: every game won" in page.locator("dl.facts").inner_text()
    assert watch.dialogs == [] and watch.errors == []


def test_a_match_in_opening_pairs_is_rated_by_its_complete_pairs(browser: Any, tmp_path: Path) -> None:
    # Whoever has White wins, except on the first opening, whose both games Alpha wins; the last pair
    # has one game played, which is left out.
    played = play_event(["Alpha", "Bravo"], games_per_encounter=12, leave_unplayed=1)
    played = with_winners(played, first_movers_win_but_alpha_takes_the_first_opening)
    build_site(tmp_path, played.event, played.games)
    results = [r for r in (game.finished_game() for game in played.games) if r is not None]
    counts = pentanomial(results, "Alpha").counts
    assert (counts, len(results)) == (Pentanomial(wl=4, ww=1), 11)
    page = browser.new_page()
    watch = Watch(page)
    page.goto((tmp_path / "index.html").as_uri())
    assert page.locator("table.standings th").last.inner_text() == "Elo (95%, by pairs)"
    alpha = page.locator("table.standings tbody tr", has_text="Alpha")
    assert alpha.locator("td").last.inner_text() == describe(elo_from_pentanomial(counts))
    assert "from its complete game pairs" in page.locator("figure.chart figcaption").inner_text()
    assert "Elo" not in page.locator("table.pentanomial").inner_text()  # the standings show it
    page.locator("table.standings a.engine", has_text="Alpha").click()
    assert "from 5 complete game pairs" in page.locator("dl.facts").inner_text()
    assert watch.dialogs == [] and watch.errors == []


def first_movers_win_but_alpha_takes_the_first_opening(record: GameRecord) -> Winner:
    if record.opening is not None and record.opening.acf_number == 1:
        return Winner.WHITE if record.white.name == "Alpha" else Winner.BLACK
    return Winner.WHITE


def test_every_page_of_the_site_loads_cleanly_from_the_disk(
    browser: Any, event_site: tuple[PlayedEvent, Path]
) -> None:
    _, site = event_site
    page = browser.new_page()
    watch = Watch(page)
    pages = sorted(crawl(site).pages)
    assert len(pages) > 10
    for path in pages:
        page.goto(path.as_uri())
        assert page.locator("main h1").count() >= 1, path.name
        # The stylesheet is applied (its header colour), so no page lost its style on the way.
        colour = page.eval_on_selector(".site-header", "e => getComputedStyle(e).backgroundColor")
        assert colour == "rgb(23, 50, 77)", path.name
    assert watch.dialogs == [] and watch.errors == []


def test_the_ratings_chart_shows_every_name_from_its_first_letter(browser: Any, tmp_path: Path) -> None:
    # A name too long for the chart's label column is cut at its end, with an ellipsis, to what fits
    # drawn in a wide font (DejaVu Sans, the usual Linux one); it used to be cut at 24 characters
    # whatever their width, and the picture's left edge then cut off its first letters.
    names = ["alphabeta-depth8-no-book", "GuiNN_checkers_2.0_x64_avx2", "CAKE MANCHESTER 1.09.2 x64", "Bravo"]
    played = play_event(names, games_per_encounter=2, openings=False, max_plies=60)
    build_site(tmp_path, played.event, played.games)
    page = browser.new_page()
    watch = Watch(page)
    page.goto((tmp_path / "index.html").as_uri())
    shown = page.eval_on_selector_all(
        "svg.ratings text.name", "els => els.map(e => [e.textContent, e.getBBox().x])"
    )
    assert any(text.endswith("\u2026") for text, _ in shown), shown
    for text, left in shown:
        full = next(name for name in names if name.startswith(text.removesuffix("\u2026")))
        assert left >= 0, f"{full!r} shown as {text!r}: its first letters are cut off ({left:.0f} px)"
    assert watch.dialogs == [] and watch.errors == []
