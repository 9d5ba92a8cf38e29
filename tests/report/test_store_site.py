"""The site of a tournament database, refreshed after each stored game at the cost of what changed:
the store's revisions say which games are new, the event's PDN grows by appending, the games list is
cut into pages and only the page holding a new game is written again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from report_games import play_record, store_running_event
from site_checks import crawl

from arbiter.notation.pdn import read_pdn_text
from arbiter.referee.record import GameOutcome, Termination, Winner
from arbiter.report.store_site import StoreSite
from arbiter.store import TournamentStore
from arbiter.tournament.config import EngineEntry, Openings, TournamentConfig
from arbiter.tournament.plan import plan_tournament
from arbiter.tournament.schedule import PlannedGame

PLAYERS = ["random", "greedy", "alphabeta"]


def new_event(path: Path) -> tuple[int, list[PlannedGame]]:
    """A double round robin of three players on ACF ballot pairs: 12 games, none played yet."""
    config = TournamentConfig(
        name="Revision cup",
        variant="english",
        format="round-robin",
        cycles=2,
        games_per_encounter=2,
        repeat=True,
        openings=Openings(deck="acf-156", order="random", seed=3),
        engines=[EngineEntry(name=name, bundled=name) for name in PLAYERS],
    )
    with TournamentStore.open(path) as store:
        tid = store_running_event(store, config)
    return tid, list(plan_tournament(config).schedule.games)


def record(path: Path, tid: int, games: list[PlannedGame], numbers: range) -> None:
    with TournamentStore.open(path) as store:
        for number in numbers:
            store.record_game(tid, games[number], play_record(games[number], seed=number, max_plies=40))


def record_stopped(path: Path, tid: int, game: PlannedGame) -> None:
    """Store `game` as stopped part-way, as an interrupted run leaves it."""
    stopped = play_record(game, seed=2, max_plies=10).model_copy(
        update={"outcome": GameOutcome.of(Winner.UNFINISHED, Termination.ABANDONED, reason="stopped")}
    )
    with TournamentStore.open(path) as store:
        store.record_game(tid, game, stopped)


def published_with_a_stopped_game(database: Path, out: Path) -> tuple[int, list[PlannedGame], StoreSite]:
    """An event with two games played and the third stopped by Ctrl-C, published once to ``out``."""
    tid, games = new_event(database)
    record(database, tid, games, range(2))
    record_stopped(database, tid, games[2])
    site = StoreSite(database, out)
    site.refresh()
    return tid, games, site


def snapshot(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def pdn_keys(site: Path) -> list[str]:
    return re.findall(r'\[GameId "([^"]+)"\]', (site / "event.pdn").read_text(encoding="utf-8"))


def test_a_refresh_writes_the_new_games_page_and_the_one_page_of_the_list_that_holds_it(
    tmp_path: Path,
) -> None:
    database, out = tmp_path / "event.sqlite", tmp_path / "site"
    tid, games = new_event(database)
    record(database, tid, games, range(5))
    site = StoreSite(database, out, games_per_page=4)
    first = site.refresh()
    assert first.games_written == 5
    assert [f"games-{n}.html" for n in (2, 3)] == sorted(p.name for p in out.glob("games-*.html"))
    before = snapshot(out)

    record(database, tid, games, range(5, 6))
    again = site.refresh()
    after = snapshot(out)
    changed = {name for name in after if before.get(name) != after[name]}
    new, previous = str(games[5].key), str(games[4].key)
    assert again.games_written == 1 and again.games_kept == 5
    # The new game's page and PDN, the event's PDN, the page of the games list holding the new game
    # (games 5 to 8), the event-wide pages; the other games' pages are left as they were.
    game_files = {name for name in changed if name.startswith("games/")}
    assert game_files == {f"games/{new}.html", f"games/{new}.pdn"}
    assert "games-2.html" in changed and "games.html" not in changed and "games-3.html" not in changed
    assert "event.pdn" in changed and "index.html" in changed
    assert f'rel="prev" href="{previous}.html"' in (out / "games" / f"{new}.html").read_text(encoding="utf-8")
    assert "6 of 12 games played" in (out / "index.html").read_text(encoding="utf-8")
    # Appended: every game once, in the order stored, and the file reads as PDN.
    assert pdn_keys(out) == [str(game.key) for game in games[:6]]
    assert len(read_pdn_text((out / "event.pdn").read_text(encoding="utf-8"))) == 6
    found = crawl(out)
    assert found.broken == [] and found.problems == []


def test_a_new_publisher_on_an_existing_site_writes_only_what_changed_since_its_last_build(
    tmp_path: Path,
) -> None:
    database, out = tmp_path / "event.sqlite", tmp_path / "site"
    tid, games = new_event(database)
    record(database, tid, games, range(3))
    StoreSite(database, out).refresh()
    record(database, tid, games, range(3, 4))
    built = StoreSite(database, out).refresh()
    assert (built.games_written, built.games_kept) == (1, 3)
    assert pdn_keys(out) == [str(game.key) for game in games[:4]]
    nothing = StoreSite(database, out).refresh()
    assert (nothing.games_written, nothing.games_kept) == (0, 4)
    assert pdn_keys(out) == [str(game.key) for game in games[:4]]


def test_a_stopped_game_played_again_replaces_its_text_in_the_event_pdn(tmp_path: Path) -> None:
    database, out = tmp_path / "event.sqlite", tmp_path / "site"
    tid, games, site = published_with_a_stopped_game(database, out)
    assert pdn_keys(out) == [str(game.key) for game in games[:3]]
    assert '[Result "*"]' in (out / "event.pdn").read_text(encoding="utf-8")
    record(database, tid, games, range(2, 3))
    site.refresh()
    assert pdn_keys(out) == [str(game.key) for game in games[:3]]
    assert '[Result "*"]' not in (out / "event.pdn").read_text(encoding="utf-8")


def test_a_stopped_game_played_again_links_to_the_game_stored_before_it_not_to_itself(
    tmp_path: Path,
) -> None:
    database, out = tmp_path / "event.sqlite", tmp_path / "site"
    tid, games, site = published_with_a_stopped_game(database, out)
    record(database, tid, games, range(2, 3))
    site.refresh()
    page = (out / "games" / f"{games[2].key}.html").read_text(encoding="utf-8")
    assert f'rel="prev" href="{games[1].key}.html"' in page
    fresh = StoreSite(database, tmp_path / "fresh")
    fresh.refresh()
    assert _without_times(page) == _without_times(
        (tmp_path / "fresh" / "games" / f"{games[2].key}.html").read_text(encoding="utf-8")
    )


def test_a_stopped_game_played_again_is_counted_once_by_the_publisher_that_counted_it_stopped(
    tmp_path: Path,
) -> None:
    database, out = tmp_path / "event.sqlite", tmp_path / "site"
    tid, games, site = published_with_a_stopped_game(database, out)
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "2 of 12 games played" in index
    record(database, tid, games, range(2, 4))
    built = site.refresh()
    assert (built.games_written, site.games) == (2, (4, 12))
    assert "4 of 12 games played" in (out / "index.html").read_text(encoding="utf-8")
    fresh = StoreSite(database, tmp_path / "fresh")
    fresh.refresh()
    for name in ("index.html", "games.html"):
        assert _without_times((out / name).read_text(encoding="utf-8")) == _without_times(
            (tmp_path / "fresh" / name).read_text(encoding="utf-8")
        )


def test_games_read_by_a_refresh_that_failed_are_listed_by_the_next_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database, out = tmp_path / "event.sqlite", tmp_path / "site"
    tid, games = new_event(database)
    record(database, tid, games, range(4))
    site = StoreSite(database, out, games_per_page=4)
    site.refresh()
    record(database, tid, games, range(4, 5))

    def fail(*_: object) -> None:
        raise OSError("disk full")

    with monkeypatch.context() as patched:
        patched.setattr(StoreSite, "_incremental", fail)
        with pytest.raises(OSError):
            site.refresh()
    assert f"{games[4].key}.html" not in (out / "games-2.html").read_text(encoding="utf-8")
    built = site.refresh()
    assert built.games_written == 1
    assert f"{games[4].key}.html" in (out / "games-2.html").read_text(encoding="utf-8")
    assert pdn_keys(out) == [str(game.key) for game in games[:5]]


def test_a_game_stored_while_a_refresh_writes_its_pages_is_published_once_by_the_next_refresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database, out = tmp_path / "event.sqlite", tmp_path / "site"
    tid, games = new_event(database)
    record(database, tid, games, range(2))
    site = StoreSite(database, out)
    site.refresh()
    record(database, tid, games, range(2, 3))
    counted = StoreSite._read_changes

    def runner_stores_a_game_meanwhile(self: StoreSite, *args: object) -> None:
        counted(self, *args)  # type: ignore[arg-type]
        record(database, tid, games, range(3, 4))

    with monkeypatch.context() as patched:
        patched.setattr(StoreSite, "_read_changes", runner_stores_a_game_meanwhile)
        assert site.refresh().games_written == 1
    assert pdn_keys(out) == [str(game.key) for game in games[:3]]
    assert site.refresh().games_written == 1
    assert pdn_keys(out) == [str(game.key) for game in games[:4]]
    assert "4 of 12 games played" in (out / "index.html").read_text(encoding="utf-8")


def test_a_publisher_that_keeps_the_database_open_sees_every_game_stored_since(tmp_path: Path) -> None:
    database, out = tmp_path / "event.sqlite", tmp_path / "site"
    tid, games = new_event(database)
    record(database, tid, games, range(2))
    site = StoreSite(database, out, keep_open=True)
    try:
        site.refresh()
        for number in (2, 3):
            record(database, tid, games, range(number, number + 1))
            assert site.refresh().games_written == 1
            index = (out / "index.html").read_text(encoding="utf-8")
            assert f"{number + 1} of 12 games played" in index
    finally:
        site.close()
    assert pdn_keys(out) == [str(game.key) for game in games[:4]]


def _without_times(page: str) -> str:
    """The page without the moment it was written."""
    return re.sub(r"updated \d{4}-\d\d-\d\d \d\d:\d\d UTC", "", page)


def test_the_games_list_is_cut_into_pages_that_link_to_each_other(tmp_path: Path) -> None:
    database, out = tmp_path / "event.sqlite", tmp_path / "site"
    tid, games = new_event(database)
    record(database, tid, games, range(7))
    StoreSite(database, out, games_per_page=5).refresh()
    first = (out / "games.html").read_text(encoding="utf-8")
    second = (out / "games-2.html").read_text(encoding="utf-8")
    third = (out / "games-3.html").read_text(encoding="utf-8")
    # 12 games, 5 a page: games 6 and 7 are played, 8 to 12 still to play (rows besides the games
    # say who rests in each round of the three players).
    game_rows = [
        page.count('<tr class="') - page.count('<tr class="rest"') for page in (first, second, third)
    ]
    assert game_rows == [5, 5, 2]
    assert 'href="games-2.html"' in first and 'href="games.html"' in second
    assert second.count("to play</span>") == 3 and third.count("to play</span>") == 2
    assert crawl(out).broken == []


def test_english_game_rows_name_black_first_so_one_nil_is_the_first_named_players_win(
    tmp_path: Path,
) -> None:
    database, out = tmp_path / "event.sqlite", tmp_path / "site"
    tid, games = new_event(database)
    record(database, tid, games, range(12))
    StoreSite(database, out).refresh()
    text = (out / "games.html").read_text(encoding="utf-8")
    assert "<th>Black</th><th>White</th>" in text
    with TournamentStore.open(database) as store:
        stored = {str(game.key): game.record for game in store.games(tid)}
    for key, first, second, result in re.findall(
        r'<a class="game" href="games/([^"]+)\.html">[^<]*</a></td><td class="num">\d*</td>'
        r"<td>([^<]*)</td><td>([^<]*)</td><td><span class=\"result\">([^<]*)</span>",
        text,
    ):
        game = stored[key]
        assert (first, second) == (game.black.name, game.white.name)
        expected = {Winner.BLACK: "1-0", Winner.WHITE: "0-1", Winner.DRAW: "1/2-1/2"}[game.winner]
        assert result == expected
    title = (out / "games" / f"{games[0].key}.html").read_text(encoding="utf-8")
    names = re.findall(r'<span class="player"><span class="dot (\w+)"', title)
    assert names == ["black", "white"]
