"""The site as files: standings, links, boards, PDN, escaping, incremental and atomic rebuilds."""

from __future__ import annotations

import html
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from markupsafe import escape
from report_games import PlayedEvent, alpha_wins_the_others_draw, play_event, with_winners
from site_checks import crawl, read_page

from arbiter.notation.movetext import parse_hub
from arbiter.notation.pdn import read_pdn_text
from arbiter.publishing.pdn_export import pdn_result
from arbiter.referee.record import GameOutcome, GameRecord, MoveRecord, Side, Termination, Winner
from arbiter.report import GameEntry, SiteError, build_site
from arbiter.report import pages as pages_module
from arbiter.report.embed import script_json
from arbiter.rules import Color, Position, get_variant
from arbiter.tournament.standings import opening_results, standings

HOSTILE_NAME = "<script>alert(1)</script>"
HOSTILE_INFO = '<img src=x onerror="alert(2)">'
HOSTILE_WARNING = "</script><script>alert(3)</script> & more"


def with_a_game_in_progress(played: PlayedEvent) -> PlayedEvent:
    """The last played game turned into one still being played (no outcome yet)."""
    games = list(played.games)
    index = max(i for i, game in enumerate(games) if game.record is not None)
    record = games[index].record
    assert record is not None
    games[index] = replace(games[index], record=record.model_copy(update={"outcome": None, "ended_at": None}))
    return PlayedEvent(played.event, games)


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> tuple[PlayedEvent, Path]:
    played = with_a_game_in_progress(play_event(["Alpha", "Bravo", "Charlie"], leave_unplayed=1))
    site = tmp_path_factory.mktemp("english") / "site"
    build_site(site, played.event, played.games)
    return played, site


@pytest.fixture(scope="module")
def international(tmp_path_factory: pytest.TempPathFactory) -> tuple[PlayedEvent, Path]:
    played = play_event(["Delta", "Echo"], variant_id="international", openings=False, max_plies=160)
    site = tmp_path_factory.mktemp("international") / "site"
    build_site(site, played.event, played.games)
    return played, site


def page_of(site: Path, game: GameEntry) -> Path:
    return site / "games" / f"{game.key}.html"


def game_data(page: Path) -> dict[str, list[object]]:
    text = page.read_text(encoding="utf-8")
    match = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', text, re.S)
    assert match, f"{page.name} has no game data"
    data: dict[str, list[object]] = json.loads(match.group(1))
    return data


def letters_of(position: Position) -> str:
    count = position.variant.square_count
    return "".join((piece.value if (piece := position.piece_at(s)) else "e") for s in range(1, count + 1))


def table_names(text: str, css_class: str) -> list[str]:
    table = text.split(f'<table class="{css_class}">', 1)[1].split("</table>", 1)[0]
    return [html.unescape(name) for name in re.findall(r'class="engine" href="[^"]*">([^<]*)</a>', table)]


def test_index_lists_the_standings_in_rank_order(english: tuple[PlayedEvent, Path]) -> None:
    played, site = english
    results = [r for r in (game.finished_game() for game in played.games) if r is not None]
    expected = [s.player for s in standings(results, played.event.players)]
    text = (site / "index.html").read_text(encoding="utf-8")
    assert table_names(text, "standings") == expected
    assert table_names(text, "crosstable") == expected
    assert f"{len(results)} of {len(played.games)} games played" in text


def table_ranks(text: str, css_class: str) -> tuple[list[str], list[str]]:
    """A table's rank column (its first cell in each body row) and its numbered column headings."""
    table = text.split(f'<table class="{css_class}">', 1)[1].split("</table>", 1)[0]
    head, body = table.split("<tbody>", 1)
    rows = re.findall(r'<tr>\s*<td class="num">([^<]*)</td>', body)
    return rows, re.findall(r'<th class="num" title="[^"]*">([^<]*)</th>', head)


def test_tied_players_share_their_place_and_the_crosstable_numbers_each_column_once(tmp_path: Path) -> None:
    played = play_event(["Alpha", "Bravo", "Charlie"], games_per_encounter=2, openings=False)
    # Alpha wins every game it plays; Bravo and Charlie draw both of theirs, so they tie for second.
    build_site(tmp_path, played.event, with_winners(played, alpha_wins_the_others_draw).games)
    text = (tmp_path / "index.html").read_text(encoding="utf-8")
    standing_ranks, _ = table_ranks(text, "standings")
    cross_ranks, cross_heads = table_ranks(text, "crosstable")
    # Tied players share their place, written as a range; the crosstable numbers its rows and
    # columns 1, 2, 3, so each number heads one column only.
    assert standing_ranks == ["1", "2\u20133", "2\u20133"]
    assert cross_ranks == cross_heads == ["1", "2", "3"]
    crosstable = text.split('<table class="crosstable">')[1].split("</table>")[0]
    places = re.findall(r'<td class="num">([^<]*)</td>\s*</tr>', crosstable)
    assert places == ["1", "2\u20133", "2\u20133"]
    assert table_names(text, "crosstable") == ["Alpha", "Bravo", "Charlie"]
    # Each engine's own page gives its place as the tables do, tied places as the range.
    pages = {
        re.findall(r"<h1>([^<]*)</h1>", text)[0]: text
        for text in (page.read_text(encoding="utf-8") for page in (tmp_path / "engines").glob("*.html"))
    }
    rank = re.compile(r"<dt>Rank</dt><dd>([^<]*)</dd>")
    ranks = [rank.findall(pages[name]) for name in ("Alpha", "Bravo", "Charlie")]
    assert ranks == [["1 of 3"], ["2\u20133 of 3"], ["2\u20133 of 3"]]


def test_the_move_list_numbers_each_move_once_on_the_row_of_its_first_ply(
    english: tuple[PlayedEvent, Path],
) -> None:
    played, site = english
    game = next(g for g in played.games if g.record is not None and g.record.plies > 30)
    assert game.record is not None
    text = page_of(site, game).read_text(encoding="utf-8")
    cells = re.findall(r'<tr id="ply-([1-9]\d*)" class="[^"]*"><td>([^<]*)</td>', text)
    assert [int(ply) for ply, _ in cells] == list(range(1, game.record.plies + 1))
    # English: Black moves first, so odd plies open a move and even plies complete it.
    assert all(number == (f"{(int(ply) + 1) // 2}." if int(ply) % 2 else "") for ply, number in cells), cells
    # The status line still names the move in full, "16… 21-17" style.
    labels = game_data(page_of(site, game))["labels"]
    assert labels[1] == f"1\u2026 {game.record.moves[1].text}"


def test_every_link_between_pages_leads_to_a_well_formed_page(english: tuple[PlayedEvent, Path]) -> None:
    played, site = english
    found = crawl(site)
    assert found.broken == []
    assert found.problems == []
    on_disk = {path.resolve() for path in site.rglob("*") if path.is_file() and not path.name.startswith(".")}
    assert on_disk == found.files, "every file of the site is reachable from the index"
    with_pages = [game for game in played.games if game.record is not None]
    assert {page_of(site, game).resolve() for game in with_pages} <= set(found.pages)


@pytest.mark.parametrize("event", ["english", "international"])
def test_game_pages_carry_the_board_after_every_ply(event: str, request: pytest.FixtureRequest) -> None:
    played, site = request.getfixturevalue(event)
    for game in played.games:
        if game.record is None:
            continue
        data = game_data(page_of(site, game))
        position = Position.from_fen(get_variant(game.record.variant), game.record.start_fen)
        assert data["boards"][0] == letters_of(position)
        for ply, move in enumerate(game.record.moves, start=1):
            legal = parse_hub(position, move.hub)
            position = position.play(legal)
            assert data["boards"][ply] == letters_of(position), f"{game.key} ply {ply}"
            assert data["steps"][ply - 1] == [legal.start, legal.end]
        assert len(data["boards"]) == game.record.plies + 1


def test_a_mule_game_page_replays_the_game_and_marks_its_mules(tmp_path: Path) -> None:
    played = play_event(["Alpha", "Bravo"], variant_id="mule", openings=False, max_plies=200)
    build_site(tmp_path, played.event, played.games)
    for game in played.games:
        assert game.record is not None
        page = page_of(tmp_path, game)
        data = game_data(page)
        position = Position.from_fen(get_variant("mule"), game.record.start_fen)
        mules = [sorted(position.mule_squares(Color.WHITE) + position.mule_squares(Color.BLACK))]
        for ply, move in enumerate(game.record.moves, start=1):
            position = position.play(parse_hub(position, move.hub))
            assert data["boards"][ply] == letters_of(position), f"{game.key} ply {ply}"
            mules.append(sorted(position.mule_squares(Color.WHITE) + position.mule_squares(Color.BLACK)))
        assert data["mules"] == mules
        assert len(set(map(tuple, mules))) > 1, "a mule should be taken in the game"
        # The final board is drawn (what a page read without scripts shows) with its mules marked; every
        # square can show the mark.
        assert mules[0] == [1, 2, 3, 4, 29, 30, 31, 32]
        text = page.read_text(encoding="utf-8")
        marked = [int(n) for n in re.findall(r'<g class="sq mule[^"]*" data-square="(\d+)"', text)]
        assert marked == mules[-1]
        assert text.count('class="mule-mark"') == 32
        (back,) = read_pdn_text((tmp_path / "games" / f"{game.key}.pdn").read_text(encoding="utf-8"))
        assert back.ok and back.variant_id == "mule" and back.end_position() == position


def first_record(played: PlayedEvent) -> GameRecord:
    """The record of the event's first played game."""
    return next(game.record for game in played.games if game.record is not None)


def with_first_record(played: PlayedEvent, record: GameRecord) -> tuple[list[GameEntry], int]:
    """The event's games with the first played one's record replaced by ``record``, and its place."""
    games = list(played.games)
    index = next(i for i, game in enumerate(games) if game.record is not None)
    games[index] = replace(games[index], record=record)
    return games, index


def test_a_game_s_pdn_keeps_its_own_round_tag_as_pdn_export_writes_it(
    english: tuple[PlayedEvent, Path], tmp_path: Path
) -> None:
    # The referee tags each game's Round as round.board ("3.2"); the site wrote the round alone ("3").
    played, _ = english
    record = first_record(played)
    games, index = with_first_record(
        played, record.model_copy(update={"tags": {**record.tags, "Round": "3.2"}})
    )
    build_site(tmp_path, played.event, games)
    (pdn,) = read_pdn_text((tmp_path / "games" / f"{games[index].key}.pdn").read_text(encoding="utf-8"))
    assert pdn.tags["Round"] == "3.2"


def test_a_game_s_pdn_ends_with_how_it_ended_and_its_warnings_as_pdn_export_writes_them(
    english: tuple[PlayedEvent, Path], tmp_path: Path
) -> None:
    played, _ = english
    record = first_record(played)
    assert record.outcome is not None
    warning = "Black: engine 'Bravo': still running 2 s after quit; terminated"
    games, index = with_first_record(played, record.model_copy(update={"warnings": [warning]}))
    build_site(tmp_path, played.event, games)
    ending = f"{{{record.outcome.reason}}} {{{warning}}} {pdn_result(record)}"
    for pdn in (tmp_path / "games" / f"{games[index].key}.pdn", tmp_path / "event.pdn"):
        assert " ".join(pdn.read_text(encoding="utf-8").split()).count(ending) == 1


def test_games_without_mules_carry_no_mule_marks(english: tuple[PlayedEvent, Path]) -> None:
    played, site = english
    game = next(g for g in played.games if g.record is not None)
    text = page_of(site, game).read_text(encoding="utf-8")
    assert "mule" not in text and "mules" not in game_data(page_of(site, game))


def test_game_and_event_pdn_read_back_move_for_move(english: tuple[PlayedEvent, Path]) -> None:
    played, site = english
    with_records = [game for game in played.games if game.record is not None]
    whole = read_pdn_text((site / "event.pdn").read_text(encoding="utf-8"))
    assert len(whole) == len(with_records)
    for game, from_event in zip(with_records, whole, strict=True):
        assert game.record is not None
        (alone,) = read_pdn_text((site / "games" / f"{game.key}.pdn").read_text(encoding="utf-8"))
        for pdn in (alone, from_event):
            assert pdn.faults == ()
            assert [m.text for m in pdn.moves] == [m.text for m in game.record.moves]
            assert pdn.tags["White"] == game.record.white.name
            assert pdn.tags["GameId"] == game.key
            assert pdn.tags["Round"] == game.record.tags.get("Round", str(game.round))
            winner = game.record.winner
            if winner is Winner.UNFINISHED:
                assert pdn.result == "*"
            else:
                assert pdn.winner == (Side(winner.value).color if winner.decisive else None)


def test_openings_page_scores_each_pairing_by_colour(english: tuple[PlayedEvent, Path]) -> None:
    played, site = english
    listed = html.unescape((site / "openings.html").read_text(encoding="utf-8"))
    results = [r for r in (game.finished_game() for game in played.games) if r is not None]
    for result in opening_results(results):
        assert f'href="openings/{result.opening_id}.html">{result.opening_id}</a>' in listed
        text = html.unescape((site / "openings" / f"{result.opening_id}.html").read_text(encoding="utf-8"))
        section = text.split(f'<span class="opening-id">{result.opening_id}</span>', 1)[1].split(
            "</section>"
        )[0]
        rows = re.findall(
            r'class="engine"[^>]*>([^<]*)</a></td>\s*<td[^>]*>([^<]*)</td>\s*<td[^>]*>([^<]*)</td>', section
        )
        for player, as_white, as_black in rows:
            record = result.by_player[player]
            assert as_white == f"+{record.as_white.wins} ={record.as_white.draws} -{record.as_white.losses}"
            assert as_black == f"+{record.as_black.wins} ={record.as_black.draws} -{record.as_black.losses}"
        assert {player for player, _, _ in rows} == set(result.players)


def test_names_and_engine_text_are_escaped_on_every_page(tmp_path: Path) -> None:
    played = play_event(
        [HOSTILE_NAME, "Plain"],
        name=f"Cup {HOSTILE_NAME}",
        games_per_encounter=2,
        info_extra={"string": HOSTILE_INFO},
        warnings=[HOSTILE_WARNING],
    )
    build_site(tmp_path, played.event, played.games)
    pages = sorted(tmp_path.rglob("*.html"))
    assert len(pages) >= 4
    for path in pages:
        text = path.read_text(encoding="utf-8")
        assert "<script>alert" not in text, path.name
        assert "<img" not in text, path.name
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text, path.name
        for script in read_page(path).scripts:
            kind, _, body = script.partition("\n")
            assert kind == "application/json", f"{path.name} runs an inline script"
            assert "<" not in body and ">" not in body and "&" not in body
    game_page = next(iter(sorted((tmp_path / "games").glob("*.html"))))
    text = game_page.read_text(encoding="utf-8")
    assert str(escape(HOSTILE_INFO)) in text
    assert "&lt;/script&gt;&lt;script&gt;alert(3)&lt;/script&gt; &amp; more" in text
    assert crawl(tmp_path).broken == []


def test_script_json_keeps_hostile_text_as_data() -> None:
    value = {"name": HOSTILE_WARNING, "line": "a\u2028b\u2029c", "quote": "it's"}
    text = str(script_json(value))
    for character in "<>&'\u2028\u2029":
        assert character not in text
    assert json.loads(text) == value


def test_rebuilding_writes_only_the_game_pages_that_changed(tmp_path: Path) -> None:
    complete = play_event(["Alpha", "Bravo"], games_per_encounter=4)
    partial = [*complete.games[:-1], replace(complete.games[-1], record=None)]
    first = build_site(tmp_path, complete.event, partial)
    assert (first.games_written, first.games_kept) == (3, 0)
    again = build_site(tmp_path, complete.event, partial)
    assert (again.games_written, again.games_kept) == (0, 3)
    # The last game is played: its page is new, and the page before it gains a link to it.
    after = build_site(tmp_path, complete.event, complete.games)
    assert (after.games_written, after.games_kept) == (2, 2)
    assert "4 of 4 games played" in (tmp_path / "index.html").read_text(encoding="utf-8")
    # A game that disappears from the inputs takes its page and PDN file with it.
    gone = complete.games[-1]
    build_site(tmp_path, complete.event, complete.games[:-1])
    assert not page_of(tmp_path, gone).exists()
    assert not (tmp_path / "games" / f"{gone.key}.pdn").exists()
    assert crawl(tmp_path).broken == []
    full = build_site(tmp_path, complete.event, complete.games, incremental=False)
    assert (full.games_written, full.games_kept) == (4, 0)


def test_pages_are_replaced_whole_so_a_reader_never_sees_half_a_page(tmp_path: Path) -> None:
    played = play_event(["Alpha", "Bravo"], games_per_encounter=2, leave_unplayed=1)
    build_site(tmp_path, played.event, played.games)
    index = tmp_path / "index.html"
    before = index.read_bytes()
    with index.open("rb") as reader:  # a reader that opened the page before the refresh
        complete = play_event(["Alpha", "Bravo"], games_per_encounter=2)
        build_site(tmp_path, complete.event, complete.games)
        assert reader.read() == before
    assert index.read_bytes() != before
    assert index.read_text(encoding="utf-8").rstrip().endswith("</html>")
    assert not [path for path in tmp_path.rglob("*.tmp")]


def test_faults_and_time_losses_show_on_the_engine_page(tmp_path: Path) -> None:
    played = play_event(["Alpha", "Bravo"], games_per_encounter=2, openings=False)
    first, second = played.games
    assert first.record is not None and second.record is not None
    # Alpha loses the first game on time and crashes in the second.
    games = [
        replace(
            first,
            record=first.record.model_copy(
                update={"outcome": GameOutcome.of(_winner_against(first, "Alpha"), Termination.TIME_FORFEIT)}
            ),
        ),
        replace(
            second,
            record=second.record.model_copy(
                update={
                    "outcome": GameOutcome.of(
                        _winner_against(second, "Alpha"),
                        Termination.CRASH,
                        reason="Alpha exited with status 11",
                    )
                }
            ),
        ),
    ]
    build_site(tmp_path, played.event, games)
    alpha = html.unescape((tmp_path / "engines" / "alpha.html").read_text(encoding="utf-8"))
    assert re.search(r"<dt>Faults</dt><dd>1</dd>", alpha)
    assert re.search(r"<dt>Time losses</dt><dd>1</dd>", alpha)
    assert "loss on time" in alpha and "Alpha exited with status 11" in alpha
    bravo = (tmp_path / "engines" / "bravo.html").read_text(encoding="utf-8")
    assert re.search(r"<dt>Faults</dt><dd>0</dd>", bravo)
    assert re.search(r"<dt>Time per move</dt><dd>[0-9.]+ s on average over \d+ moves", bravo)


def _winner_against(game: GameEntry, loser: str) -> Winner:
    assert game.record is not None
    return Winner.BLACK if game.record.white.name == loser else Winner.WHITE


def test_a_record_that_stops_replaying_keeps_its_page_and_says_why(tmp_path: Path) -> None:
    played = play_event(["Alpha", "Bravo"], games_per_encounter=2, openings=False)
    game = played.games[0]
    assert game.record is not None
    moves = list(game.record.moves)
    moves[4] = MoveRecord(ply=5, side=moves[4].side, text="1-2", hub="1-2")
    broken = replace(game, record=game.record.model_copy(update={"moves": moves}))
    build_site(tmp_path, played.event, [broken, *played.games[1:]])
    text = page_of(tmp_path, broken).read_text(encoding="utf-8")
    assert "ply 5 (1-2) does not replay" in text
    assert len(game_data(page_of(tmp_path, broken))["boards"]) == 5


def test_two_games_with_one_key_are_refused(tmp_path: Path) -> None:
    played = play_event(["Alpha", "Bravo"], games_per_encounter=2, openings=False)
    twin = replace(played.games[1], key=played.games[0].key)
    with pytest.raises(SiteError, match="appears twice"):
        build_site(tmp_path, played.event, [played.games[0], twin])


def test_game_pages_made_by_worker_processes_are_the_same_as_made_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played = play_event(["Alpha", "Bravo", "Charlie"], games_per_encounter=2)
    build_site(tmp_path / "here", played.event, played.games, workers=1)
    monkeypatch.setattr(pages_module, "PARALLEL_FROM", 2)
    built = build_site(tmp_path / "workers", played.event, played.games, workers=2)
    assert built.games_written == len(played.games)
    here = sorted(path.relative_to(tmp_path / "here") for path in (tmp_path / "here" / "games").iterdir())
    there = sorted(
        path.relative_to(tmp_path / "workers") for path in (tmp_path / "workers" / "games").iterdir()
    )
    assert here == there and len(here) == 2 * len(played.games)
    for relative in [*here, Path("event.pdn")]:
        assert (tmp_path / "here" / relative).read_bytes() == (tmp_path / "workers" / relative).read_bytes()


def test_players_and_games_get_their_own_pages_whatever_their_names(tmp_path: Path) -> None:
    # Names that differ only in case or punctuation, and a key that is no file name.
    played = play_event(["Alpha", "alpha", "al/pha"], games_per_encounter=1, openings=False)
    renamed = [replace(played.games[0], key="round 1 / board 1"), *played.games[1:]]
    build_site(tmp_path, played.event, renamed)
    engine_pages = sorted(path.name for path in (tmp_path / "engines").iterdir())
    assert len(engine_pages) == 3
    for name in ("Alpha", "alpha", "al/pha"):
        assert any(f"<h1>{name}</h1>" in (tmp_path / "engines" / page).read_text() for page in engine_pages)
    assert not (tmp_path / "round 1").exists()
    found = crawl(tmp_path)
    assert found.broken == [] and found.problems == []
    assert len(list((tmp_path / "games").glob("*.html"))) == len(renamed)


def test_a_game_of_a_variant_this_version_does_not_know_keeps_its_moves_as_text(tmp_path: Path) -> None:
    played = play_event(["Alpha", "Bravo"], games_per_encounter=1, openings=False)
    game = played.games[0]
    assert game.record is not None
    foreign = replace(game, record=game.record.model_copy(update={"variant": "no-such-variant"}))
    build_site(tmp_path, played.event, [foreign])
    text = page_of(tmp_path, foreign).read_text(encoding="utf-8")
    assert "the variant &#39;no-such-variant&#39; is not known to this version" in text
    assert '<svg class="board"' not in text and ">None<" not in text
    pdn = (tmp_path / "games" / f"{foreign.key}.pdn").read_text(encoding="utf-8")
    assert " ".join(move.text for move in game.record.moves[:3]) in " ".join(pdn.split())
    assert crawl(tmp_path).broken == []


def test_a_rebuild_removes_only_its_own_old_files(tmp_path: Path) -> None:
    played = play_event(["Alpha", "Bravo"], games_per_encounter=2, openings=False)
    site = tmp_path / "site"
    build_site(site, played.event, played.games)
    outside = tmp_path / "keep.txt"
    outside.write_text("not the site's")
    mine = site / "notes.txt"
    mine.write_text("the user's own file in the site folder")
    manifest = json.loads((site / ".arbiter-site.json").read_text())
    manifest["files"]["../keep.txt"] = ""
    (site / ".arbiter-site.json").write_text(json.dumps(manifest))
    gone = played.games[-1]
    build_site(site, played.event, played.games[:-1], incremental=False)
    assert not page_of(site, gone).exists()
    assert outside.read_text() == "not the site's" and mine.exists()
