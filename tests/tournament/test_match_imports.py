"""A match loads only what it uses: the ORM, the site's templates, the cluster and the test-only rules
library stay out of the `arbiter match` process (they cost it most of its memory and start-up), and so
do the other commands' modules, the PDN reader, the DXP client and the site's code (each costs start-up
CPU, which a match of many short games pays once per run)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# Runs the command as `arbiter` does, and writes the modules loaded when the process exits.
HOOK = """
import atexit, sys
from pathlib import Path
import gc
out = Path(sys.argv.pop(1))
def written():
    out.write_text("\\n".join(sorted(sys.modules)))
    out.with_suffix(".gc").write_text(f"{gc.isenabled()} {gc.get_freeze_count()}")
atexit.register(written)
sys.argv[0] = "arbiter"
from arbiter.cli import main
main()
"""

# Packages a match must not load, and the arbiter's own modules that would bring them.
HEAVY = ("sqlalchemy", "sqlmodel", "jinja2", "distributed", "dask", "draughts")
ORM_AND_SITE = ("arbiter.store.store", "arbiter.store.tables", "arbiter.store.orm", "arbiter.report.site")
# What a match of Hub engines without a .pdn opening file or --report does not use.
NOT_IN_A_MATCH = (
    "arbiter.commands.rules",
    "arbiter.commands.engine",
    "arbiter.commands.play",
    "arbiter.commands.pdn",
    "arbiter.commands.report",
    "arbiter.commands.stats",
    "arbiter.commands.ratings",
    "arbiter.commands.db",
    "arbiter.commands.serve",
    "arbiter.notation.pdn",
    "arbiter.notation.pdn_openings",
    "arbiter.publishing",
    "arbiter.engines.dxp",
    "arbiter.engines.dxp_wire",
    "arbiter.report",
    "rich.live",
    "http.server",
    # Only a CheckerBoard engine, a tournament file, --sprt, or an engine that fails to start use these.
    "arbiter.engines.checkerboard.client",
    "arbiter.engines.checkerboard.wine_check",
    "tomllib",
    "arbiter.tournament.gsprt",
    "arbiter.tournament.sprt_status",
    "arbiter.referee.session",
    "rich._emoji_codes",  # names are printed as given, never looked up as emoji codes
)


def loaded_by(args: list[str], tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    modules = tmp_path / "modules.txt"
    done = subprocess.run(
        [sys.executable, "-c", HOOK, str(modules), *args],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
    )
    return done, set(modules.read_text().split()) if modules.exists() else set()


def heavy_among(modules: set[str]) -> list[str]:
    return sorted(
        name
        for name in modules
        if name.split(".")[0] in HEAVY or any(name == m or name.startswith(m + ".") for m in ORM_AND_SITE)
    )


def test_a_match_stores_its_games_without_loading_the_orm_the_templates_or_the_cluster(
    tmp_path: Path,
) -> None:
    database = tmp_path / "m.sqlite"
    done, modules = loaded_by(
        ["match", "random", "greedy", "--games", "2", "--max-plies", "20", "--db", str(database)], tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "finished: 2/2 games" in done.stdout
    assert "arbiter.store.run_store" in modules  # the hook saw the match's process
    assert heavy_among(modules) == []
    # What it stored reads back through the ORM, as every other command reads it.
    from arbiter.store import TournamentStore

    with TournamentStore.open(database, create=False) as store:
        info = store.find_tournament()
        assert len(list(store.games_since(info.id))) == 2


def test_the_standings_of_a_match_are_read_without_the_orm(tmp_path: Path) -> None:
    database = tmp_path / "m.sqlite"
    done, _ = loaded_by(
        ["match", "random", "greedy", "--games", "2", "--max-plies", "10", "--db", str(database)], tmp_path
    )
    assert done.returncode == 0, done.stderr
    done, modules = loaded_by(["standings", str(database)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "random vs greedy" in done.stdout
    assert heavy_among(modules) == []


def test_every_command_is_still_listed_and_a_report_loads_its_templates_but_not_the_orm(
    tmp_path: Path,
) -> None:
    done, modules = loaded_by(["--help"], tmp_path)
    assert done.returncode == 0, done.stderr
    for command in ("match", "run", "standings", "report", "pdn", "stats", "ratings", "db", "serve"):
        assert command in done.stdout
    assert heavy_among(modules) == []
    database = tmp_path / "m.sqlite"
    match = ["match", "random", "greedy", "--games", "2", "--max-plies", "10", "--db", str(database)]
    loaded_by(match, tmp_path)
    done, modules = loaded_by(["report", str(database), "--out", str(tmp_path / "site")], tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "index.html").is_file()
    assert {"jinja2", "arbiter.report.site"} <= modules
    # The site reads the store with sqlite3 alone, as the publisher of a running event does.
    assert "sqlalchemy" not in modules


def test_a_match_leaves_out_the_other_commands_the_pdn_reader_the_dxp_client_and_the_site(
    tmp_path: Path,
) -> None:
    database = tmp_path / "m.sqlite"
    done, modules = loaded_by(
        ["match", "random", "greedy", "--games", "2", "--max-plies", "10", "--db", str(database)], tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "arbiter.commands.run" in modules
    loaded = sorted(
        name for name in modules if any(name == m or name.startswith(m + ".") for m in NOT_IN_A_MATCH)
    )
    assert loaded == []


def test_each_command_is_found_in_the_module_that_adds_it() -> None:
    # `arbiter NAME` imports only COMMAND_HOMES[NAME]: the table must say where every command is.
    import typer.main

    from arbiter.cli import COMMAND_HOMES, COMMAND_MODULES, build_app

    for module in COMMAND_MODULES:
        group = typer.main.get_command(build_app([module]))
        assert isinstance(group, typer.main.TyperGroup)
        assert set(group.commands) == {name for name, home in COMMAND_HOMES.items() if home == module}
    assert set(COMMAND_HOMES.values()) == set(COMMAND_MODULES)


def test_a_match_in_cutechess_spelling_still_finds_its_module(tmp_path: Path) -> None:
    database = tmp_path / "m.sqlite"
    done, modules = loaded_by(
        [
            "match",
            "-engine",
            "cmd=random",
            "-engine",
            "cmd=greedy",
            "-games",
            "2",
            "-maxmoves",
            "5",
            "--db",
            str(database),
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "finished: 2/2 games" in done.stdout
    assert "arbiter.commands.pdn" not in modules


def test_start_up_leaves_the_collector_on_with_the_imported_objects_frozen(tmp_path: Path) -> None:
    database = tmp_path / "m.sqlite"
    loaded_by(
        ["match", "random", "greedy", "--games", "2", "--max-plies", "10", "--db", str(database)], tmp_path
    )
    done, _ = loaded_by(["standings", str(database)], tmp_path)
    assert done.returncode == 0, done.stderr
    enabled, frozen = (tmp_path / "modules.gc").read_text().split()
    assert enabled == "True"
    assert int(frozen) > 10_000  # the modules, classes and functions of start-up, never collected again
