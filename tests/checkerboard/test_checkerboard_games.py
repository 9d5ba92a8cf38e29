"""CheckerBoard engines in whole games through `arbiter play`, `arbiter match` and `arbiter run`, in one
event with Hub engines; the referee checks every move they make."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from arbiter.referee.record import Termination
from arbiter.store import TournamentStore

ARBITER = [sys.executable, "-m", "arbiter.cli"]
Library = Callable[[str], Path]
# How a game ends when an engine misbehaves. A loss on time is not among them: on a loaded machine any
# engine can run out of a short clock, which is not what these tests are about.
ENGINE_FAULTS = {
    Termination.ILLEGAL_MOVE,
    Termination.CRASH,
    Termination.NO_ANSWER,
    Termination.UNPARSABLE_OUTPUT,
    Termination.START_FAILURE,
}


def arbiter(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ARBITER, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def stored_terminations(database: Path) -> tuple[int, dict[Termination, int]]:
    with TournamentStore.open(database, create=False) as store:
        info = store.find_tournament()
        counts = store.termination_counts(info.id)
        return sum(counts.values()), counts


def test_play_a_checkerboard_engine_against_a_hub_engine_in_english_and_russian(
    cb_library: Library, tmp_path: Path
) -> None:
    english = arbiter(
        "play", "--tc", "st=0.05", "--no-board", "--pdn", "e.pdn", f"cb:{cb_library('english')}", "alphabeta",
        cwd=tmp_path,
    )  # fmt: skip
    assert english.returncode == 0, english.stdout + english.stderr
    assert "Black: cb_english (Test engine (English))" in english.stdout
    assert "illegal move" not in english.stdout and "crashed" not in english.stdout
    assert '[Black "cb_english"]' in (tmp_path / "e.pdn").read_text()
    russian_library = f"cb:{cb_library('russian')}"
    for game in range(3):
        # The Russian build's moves (flying kings, men crowned mid-capture) through the referee, against
        # the random player, so each game takes another course.
        russian = arbiter(
            "play", "--variant", "russian", "--tc", "st=0.05", "--no-board", "random", russian_library,
            cwd=tmp_path,
        )  # fmt: skip
        assert russian.returncode == 0, russian.stdout + russian.stderr
        assert "illegal move" not in russian.stdout and "crashed" not in russian.stdout, game


def test_match_a_checkerboard_engine_against_a_hub_engine_on_ballots(
    cb_library: Library, tmp_path: Path
) -> None:
    result = arbiter(
        "match", f"cb:{cb_library('english')}", "greedy", "--tc", "st=0.05", "--openings", "acf-156",
        "--games", "2", "--repeat", "--rounds", "2", "--db", "m.sqlite", "--max-plies", "150",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    games, counts = stored_terminations(tmp_path / "m.sqlite")
    assert games == 4 and not set(counts) & ENGINE_FAULTS, counts


def test_run_an_event_mixing_checkerboard_and_hub_engines(cb_library: Library, tmp_path: Path) -> None:
    library = cb_library("english")
    (tmp_path / "event.toml").write_text(
        'name = "mixed"\nvariant = "english"\ntime_control = "acf scale=0.002"\nformat = "round-robin"\n'
        'games_per_encounter = 2\nrepeat = true\nconcurrency = 2\ndatabase = "event.sqlite"\n'
        '[openings]\ndeck = "acf-156"\n[adjudication]\nmax_plies = 150\n'
        f'[[engines]]\nname = "cb-one"\nprotocol = "checkerboard"\nlibrary = "{library}"\n'
        "params = { seed = 11, hashsize = 32 }\n"
        f'[[engines]]\nname = "cb-two"\nprotocol = "checkerboard"\nlibrary = "{library}"\n'
        "params = { seed = 5 }\n"
        '[[engines]]\nname = "alphabeta"\nbundled = "alphabeta"\n',
        encoding="utf-8",
    )
    result = arbiter("run", "event.toml", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    games, counts = stored_terminations(tmp_path / "event.sqlite")
    assert games == 6 and not set(counts) & ENGINE_FAULTS, counts


def test_a_run_refuses_a_checkerboard_engine_for_a_variant_its_game_type_does_not_play(
    cb_library: Library, tmp_path: Path
) -> None:
    (tmp_path / "event.toml").write_text(
        'name = "refused"\nvariant = "russian"\ntime_control = "st=0.05"\ndatabase = "event.sqlite"\n'
        f'[[engines]]\nname = "english-only"\nprotocol = "checkerboard"\n'
        f'library = "{cb_library("english")}"\n'
        '[[engines]]\nname = "random"\nbundled = "random"\n',
        encoding="utf-8",
    )
    result = arbiter("run", "event.toml", cwd=tmp_path)
    assert result.returncode != 0
    assert "english-only" in result.stderr + result.stdout
    assert "cannot play variant 'russian'" in result.stderr + result.stdout


def refused_event(tmp_path: Path, header: str, checkerboard_entry: str) -> str:
    """The error output of `arbiter run` on an event of a checkerboard engine and `random`, checked to be
    refused before anything is stored."""
    (tmp_path / "event.toml").write_text(
        f'name = "bad"\n{header}database = "event.sqlite"\n'
        f'[[engines]]\nname = "cb"\nprotocol = "checkerboard"\n{checkerboard_entry}'
        '[[engines]]\nname = "random"\nbundled = "random"\n',
        encoding="utf-8",
    )
    result = arbiter("run", "event.toml", cwd=tmp_path)
    assert result.returncode != 0 and not (tmp_path / "event.sqlite").exists()
    return result.stderr


def test_a_checkerboard_entry_without_its_library_is_refused_with_file_and_line(tmp_path: Path) -> None:
    stderr = refused_event(tmp_path, "", "")
    assert "event.toml:3" in stderr and "needs 'library'" in stderr, stderr


def test_a_library_that_cannot_start_is_named_in_the_refusal_by_its_path(tmp_path: Path) -> None:
    (tmp_path / "notes.so").write_text("not a library\n")
    result = arbiter(
        "match", "cb:notes.so", "random", "--tc", "st=0.05", "--games", "1", "--db", "m.sqlite", cwd=tmp_path
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "cannot load" in output and "library: notes.so" in output, output
    assert "command: \n" not in output, "no empty command is shown for an engine that is a library"


def test_a_checkerboard_engine_refused_a_variant_is_not_told_to_rename_it(
    cb_library: Library, tmp_path: Path
) -> None:
    # Its game type decides the variants it plays: a name mapping would only have it play English rules
    # in a Russian game, so the refusal must not suggest one.
    result = arbiter("engine", "check", "-v", "russian", "--", f"cb:{cb_library('english')}", cwd=tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "cannot play variant 'russian'" in output, output
    assert "--variant-name" not in output and "variant_names" not in output, output


def test_a_match_keeps_the_commands_variant_names_from_a_checkerboard_engine(
    cb_library: Library, tmp_path: Path
) -> None:
    # --variant-name russian=english would have the English library play its own rules in Russian games
    # (and lose each on an "illegal" move): the mapping is not applied to it, and the match is refused.
    result = arbiter(
        "match", f"cb:{cb_library('english')}", "random", "-v", "russian", "--variant-name",
        "russian=english", "--tc", "st=0.05", "--games", "2", "--db", "m.sqlite",
        cwd=tmp_path,
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "cannot play variant 'russian'" in output, output
    assert not (tmp_path / "m.sqlite").exists() or stored_terminations(tmp_path / "m.sqlite")[0] == 0


def test_a_checkerboard_engines_own_variant_name_is_refused(cb_library: Library, tmp_path: Path) -> None:
    spec = f"cmd=cb:{cb_library('english')} variant.russian=english"
    result = arbiter("match", "--engine", spec, "random", "-v", "russian", "--games", "2", cwd=tmp_path)
    assert result.returncode != 0
    assert "takes no 'variant_names'" in result.stderr + result.stdout, result.stderr


def test_variant_names_in_an_events_checkerboard_entry_are_refused_with_file_and_line(
    tmp_path: Path,
) -> None:
    entry = 'library = "engine.so"\nvariant_names = { russian = "english" }\n'
    stderr = refused_event(tmp_path, 'variant = "russian"\n', entry)
    assert "event.toml:4" in stderr and "takes no 'variant_names'" in stderr, stderr
