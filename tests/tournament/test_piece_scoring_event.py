"""An event scored by pieces (`scoring = "pieces"` in the tournament file): real bundled engines play
openings whose first move is a forced capture that ends the game, so each stored game ends with a known
number of pieces; the run's summary, `arbiter standings` (the stored default), the store's standings
and the site all score each win by the winner's pieces left. Where the scoring makes no sense, the
tournament file is refused with its file, line and key."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from tournament_files import ARBITER, bundled, write_tournament

from arbiter.rules import Position, get_variant
from arbiter.store import TournamentStore
from arbiter.tournament.config import ConfigError, load_tournament
from arbiter.tournament.stored_standings import stored_standings

# English openings (one FEN a line), each with its only legal first move and what it leaves:
# White's 22x15 takes Black's last man: White wins with 3 pieces (15, 29, 30).
WHITE_WINS_WITH_THREE = "W:W22,29,30:B18"
# Black's 18x27 takes White's last man: Black wins with 2 pieces (27, 1).
BLACK_WINS_WITH_TWO = "B:W23:B18,1"
# Two kings far apart: nothing can be taken in 4 plies, where the game is adjudicated a draw.
DRAWN_AT_FOUR_PLIES = "W:WK29:BK4"
PIECES_LEFT = {WHITE_WINS_WITH_THREE: ("white", 3), BLACK_WINS_WITH_TWO: ("black", 2)}


def canonical(fen: str) -> str:
    """The FEN as the store writes it (ranges where squares follow on)."""
    return Position.from_fen(get_variant("english"), fen).fen()


EVENT = (
    'variant = "english"\ntime_control = "depth=1"\nformat = "match"\ngames_per_encounter = 3\n'
    'scoring = "pieces"\nreport = "site"\n'
    '[openings]\nfile = "openings.txt"\n[adjudication]\nmax_plies = 4\n'
)


def expected_pieces(database: Path) -> dict[str, int]:
    """Each player's total, worked out from which opening each stored game started from."""
    totals = {"alpha": 0, "beta": 0}
    with TournamentStore.open(database, create=False) as store:
        games = store.games(store.find_tournament().id, finished_only=True)
    assert len(games) == 3
    starts = set()
    for game in games:
        record = game.record
        starts.add(record.start_fen)
        won = {canonical(fen): left for fen, left in PIECES_LEFT.items()}.get(record.start_fen)
        if won is None:
            assert record.winner.value == "draw", record.start_fen
            continue
        colour, pieces = won
        assert record.winner.value == colour and record.plies == 1
        totals[record.white.name if colour == "white" else record.black.name] += pieces
    assert starts == {
        canonical(fen) for fen in (WHITE_WINS_WITH_THREE, BLACK_WINS_WITH_TWO, DRAWN_AT_FOUR_PLIES)
    }
    return totals


def standings_rows(text: str) -> dict[str, tuple[str, str]]:
    """Player -> (points, games) from the rows of a printed standings table."""
    rows = {}
    for match in re.finditer(r"│\s*\d+\s*│\s*(alpha|beta)\s*│\s*(\S+)\s*│\s*(\d+)\s*│", text):
        rows.setdefault(match.group(1), (match.group(2), match.group(3)))
    return rows


def test_an_event_scored_by_pieces_scores_each_win_by_the_winners_pieces_left(tmp_path: Path) -> None:
    (tmp_path / "openings.txt").write_text(
        f"{WHITE_WINS_WITH_THREE}\n{BLACK_WINS_WITH_TWO}\n{DRAWN_AT_FOUR_PLIES}\n", encoding="utf-8"
    )
    path = write_tournament(tmp_path, EVENT, bundled("alpha", "random", seed=3) + bundled("beta", "greedy"))
    run = subprocess.run([*ARBITER, "run", str(path)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    database = tmp_path / "event.sqlite"
    expected = expected_pieces(database)
    assert sorted(expected.values()) == [2, 3] or sorted(expected.values()) == [0, 5]
    wanted = {name: (str(points), "3") for name, points in expected.items()}

    # The run's closing summary, and `arbiter standings` with the event's own (stored) scoring.
    assert standings_rows(run.stdout) == wanted
    shown = subprocess.run(
        [*ARBITER, "standings", str(database)], capture_output=True, text=True, timeout=120
    )
    assert shown.returncode == 0, shown.stderr
    assert "scoring pieces" in " ".join(shown.stdout.split())
    assert standings_rows(shown.stdout) == wanted

    with TournamentStore.open(database, create=False) as store:
        info = store.find_tournament()
        assert info.scoring.by_pieces
        result = stored_standings(store, info.id)
    assert {s.player: s.points for s in result.table} == expected
    cell = result.crosstable.cell("alpha", "beta")
    assert cell is not None and cell.points == expected["alpha"]

    # The site written after the run: its standings (games, then points) and its crosstable.
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "pieces left on the board; a draw or a loss nothing" in index
    for name, points in expected.items():
        row = re.search(rf'{name}</a></td>\s*<td class="num">3</td>\s*<td class="num strong">([^<]+)<', index)
        assert row is not None, index
        assert row.group(1) == str(points)
        opponent = "beta" if name == "alpha" else "alpha"
        assert f'title="{name} against {opponent}: ' in index
        cell = re.search(rf'title="{name} against {opponent}: [^"]*">([^<]+)<', index)
        assert cell is not None and cell.group(1) == str(points)


@pytest.mark.parametrize(
    ("extra", "line", "reason"),
    [
        ("", 2, "piece-count scoring makes no sense for anti"),
        ('format = "match"\n[sprt]\nelo0 = 0\nelo1 = 10\n', 2, "cannot go with an SPRT"),
    ],
)
def test_piece_scoring_is_refused_where_it_makes_no_sense(
    tmp_path: Path, extra: str, line: int, reason: str
) -> None:
    variant = "anti" if not extra else "english"
    path = tmp_path / "event.toml"
    path.write_text(
        f'variant = "{variant}"\nscoring = "pieces"\n{extra}'
        + bundled("alpha", "random")
        + bundled("beta", "greedy"),
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as refused:
        load_tournament(path)
    assert str(refused.value).startswith(f"{path}:{line}: scoring: ")
    assert reason in str(refused.value)
    # As the user meets it: a clear message, exit 2 or 1, no traceback, no database written.
    run = subprocess.run([*ARBITER, "run", str(path)], capture_output=True, text=True, timeout=120)
    assert run.returncode != 0 and "Traceback" not in run.stderr
    assert f"{path}:{line}: scoring:" in run.stderr and reason in run.stderr
    assert not (tmp_path / "tournament.sqlite").exists()


def test_ballot_pairs_may_be_scored_by_pieces(tmp_path: Path) -> None:
    # Pro Checkers plays each ballot twice, colours swapped; each game is still scored on its own.
    path = tmp_path / "event.toml"
    path.write_text(
        'scoring = "pieces"\nformat = "match"\n[openings]\ndeck = "pro-checkers"\n'
        + bundled("alpha", "random")
        + bundled("beta", "greedy"),
        encoding="utf-8",
    )
    config, _ = load_tournament(path)
    assert config.scoring == "pieces" and config.repeat
