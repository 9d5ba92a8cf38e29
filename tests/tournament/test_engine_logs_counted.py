"""A resumed event's stderr budgets start from what each engine's logs beside the database hold: its
game and preflight logs, by their exact names, and no other engine's (not one whose name begins with
its own), nor its `--debug` log."""

from __future__ import annotations

from pathlib import Path

from arbiter.engines import EngineConfig
from arbiter.running.engine_logs import game_log, preflight_log, stderr_budgets


def config(name: str) -> EngineConfig:
    return EngineConfig(name=name, command=["engine"], stderr_event_limit_bytes=10_000)


def test_each_engine_s_budget_starts_from_its_own_logs_only(tmp_path: Path) -> None:
    folder = tmp_path / "event-logs"
    folder.mkdir()
    sizes = {
        game_log(folder, "chatty", "game r1-b1-g1"): 1000,
        game_log(folder, "chatty", "game r12-b3-g2"): 200,
        preflight_log(folder, "chatty"): 30,
        game_log(folder, "chatty-game", "game r1-b1-g1"): 4000,  # another engine, named like a log
        game_log(folder, "chatty x", "game r1-b1-g1"): 5000,
        folder / "chatty.debug.log": 6000,
        folder / "chatty-notes.txt": 7000,
    }
    for path, size in sizes.items():
        path.write_bytes(b"x" * size)
    (folder / "chatty-game-r2-b1-g1.stderr.log").mkdir()  # not a file: not counted
    budgets = stderr_budgets(
        folder, [config("chatty"), config("chatty-game"), config("chatty x"), config("new")]
    )
    assert {name: budget.spent for name, budget in budgets.items()} == {
        "chatty": 1230,
        "chatty-game": 4000,
        "chatty x": 5000,
        "new": 0,
    }
    assert budgets["chatty"].take(10_000) == 10_000 - 1230


def test_a_new_event_s_budgets_start_whole(tmp_path: Path) -> None:
    budgets = stderr_budgets(tmp_path / "no-such-folder", [config("chatty")])
    assert budgets["chatty"].spent == 0 and budgets["chatty"].limit == 10_000
    assert stderr_budgets(None, [config("chatty")])["chatty"].spent == 0


def test_engines_whose_names_a_file_name_would_blur_keep_logs_and_budgets_of_their_own(
    tmp_path: Path,
) -> None:
    long = "Kingsrow international 1.18 (64-bit) tuned"  # 42 characters
    names = ["Scan 3", "Scan_3", "Scan/3", long, long + " again", "a" * 41, "a" * 42]
    paths = {name: game_log(tmp_path, name, "game r1-b1-g1") for name in names}
    assert len(set(paths.values())) == len(names), paths
    for size, path in enumerate(paths.values(), start=1):
        path.write_bytes(b"x" * size)
    budgets = stderr_budgets(tmp_path, [config(name) for name in names])
    assert [budgets[name].spent for name in names] == list(range(1, len(names) + 1))
    assert all(len(path.name.split("-game-")[0]) <= 40 for path in paths.values())


def test_a_short_plain_name_is_its_log_files_name_as_it_was() -> None:
    assert game_log(Path("logs"), "Cake_1.9", "game r1-b1-g2").name == "Cake_1.9-game-r1-b1-g2.stderr.log"
    assert preflight_log(Path("logs"), "a" * 40).name == "a" * 40 + "-preflight.stderr.log"
