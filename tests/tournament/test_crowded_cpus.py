"""More games at a time than CPUs: warned about before the first game (the engines thinking at once would
take turns on the CPUs and lose time they are charged for), played all the same, and silenced by
--force-concurrency as in fastchess."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

import pytest
from tournament_files import ARBITER, bundled, greedy_random_match, write_tournament

from arbiter.commands.cutechess_args import translate
from arbiter.running.preflight import available_cpus, crowding_warning

WARNING = "warning: 2 games at a time on 1 CPU:"


def on_one_cpu(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` run with this process's first CPU as the only one it (and its engines) may use."""
    cpu = min(os.sched_getaffinity(0))
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=240,
        cwd=cwd,
        preexec_fn=lambda: os.sched_setaffinity(0, {cpu}),
    )


def games_stored(database: Path) -> int:
    with sqlite3.connect(database) as db:
        return int(db.execute("select count(*) from game where finished = 1").fetchone()[0])


def test_no_more_games_at_a_time_than_cpus_is_no_warning() -> None:
    assert crowding_warning(1, 1) is None
    assert crowding_warning(4, 4) is None


def test_more_games_at_a_time_than_cpus_names_both_and_the_ways_out() -> None:
    text = crowding_warning(8, 2)
    assert text is not None
    assert text.startswith("8 games at a time on 2 CPUs:")
    assert "may lose on time" in text and "--concurrency 2" in text and "--force-concurrency" in text
    assert (crowding_warning(2, 1) or "").startswith("2 games at a time on 1 CPU:")


def test_the_cpus_counted_are_those_the_process_may_run_on() -> None:
    assert available_cpus() == len(os.sched_getaffinity(0))


def test_a_match_with_more_games_at_a_time_than_cpus_is_warned_about_and_played(tmp_path: Path) -> None:
    database = tmp_path / "m.sqlite"
    result = on_one_cpu(greedy_random_match(database, "--games", "2", "-c", "2"), tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert WARNING in result.stderr
    assert "--force-concurrency" in result.stderr
    assert games_stored(database) == 2


@pytest.mark.parametrize("flags", [("-c", "2", "--force-concurrency"), ("-c", "1")])
def test_a_match_forced_or_within_its_cpus_says_nothing_of_them(
    tmp_path: Path, flags: tuple[str, ...]
) -> None:
    database = tmp_path / "m.sqlite"
    result = on_one_cpu(greedy_random_match(database, "--games", "2", *flags), tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "CPU" not in result.stderr
    assert games_stored(database) == 2


def test_an_event_file_asking_more_games_at_a_time_than_cpus_is_warned_about(tmp_path: Path) -> None:
    body = 'variant = "english"\ntime_control = "depth=1"\nformat = "round-robin"\n'
    body += "games_per_encounter = 2\nconcurrency = 2\n"
    engines = bundled("greedy") + bundled("random")
    for folder, flags, warned in (
        (tmp_path / "a", (), True),
        (tmp_path / "b", ("--force-concurrency",), False),
    ):
        folder.mkdir()
        path = write_tournament(folder, body, engines)
        result = on_one_cpu([*ARBITER, "run", str(path), *flags], folder)
        assert result.returncode == 0, result.stdout + result.stderr
        assert (WARNING in result.stderr) is warned, result.stderr
        assert games_stored(folder / "event.sqlite") == 2


def test_fastchess_force_concurrency_is_the_match_flag() -> None:
    assert translate(["-concurrency", "4", "-force-concurrency"]) == [
        "--concurrency",
        "4",
        "--force-concurrency",
    ]
