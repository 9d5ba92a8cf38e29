"""`arbiter run` (a whole event from a tournament file) and `arbiter match` (two engines, from flags)."""

from __future__ import annotations

import asyncio
import shlex
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from pydantic import ValidationError
from rich.console import Console

from arbiter.commands.live_view import LiveView
from arbiter.commands.standings import (
    crosstable_table,
    openings_table,
    output_console,
    ratings_table,
    standings_table,
)
from arbiter.engines import EngineConfig
from arbiter.store import StoreError, TournamentStore
from arbiter.tournament.config import (
    BUNDLED_ENGINES,
    Adjudication,
    ConfigError,
    EngineEntry,
    Openings,
    TournamentConfig,
    bundled_command,
    error_location,
    load_tournament,
)
from arbiter.tournament.openings import OpeningError
from arbiter.tournament.runner import RunError, RunSummary, TournamentRunner
from arbiter.tournament.stats import SprtSettings

if TYPE_CHECKING:
    from arbiter.report.publisher import Publisher


def run_command(
    tournament: Path = typer.Argument(
        ..., help="The tournament file (TOML); see data/sample_tournament.toml."
    ),
    database: Path | None = typer.Option(
        None, "--db", help="SQLite file to keep results in (default: the file's)."
    ),
    report: Path | None = typer.Option(
        None, "--report", help="Write the HTML site here and refresh it after every game."
    ),
    concurrency: int | None = typer.Option(None, "--concurrency", "-c", min=1, help="Games at a time."),
    scheduler: str | None = typer.Option(
        None,
        "--scheduler",
        help="Play the games on the workers of this Dask scheduler (tcp://HOST:8786); docs/distributed.md.",
    ),
) -> None:
    """Play a whole event. Run it again on the same database to continue where it stopped."""
    try:
        config, engines = load_tournament(tournament)
    except ConfigError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    updates: dict[str, object] = {}
    if database is not None:
        updates["database"] = database
    if report is not None:
        updates["report"] = report
    if concurrency is not None:
        updates["concurrency"] = concurrency
    if scheduler is not None:
        updates["scheduler"] = scheduler
    _execute(config.model_copy(update=updates), engines, None)


def match_command(
    ctx: typer.Context,
    first: str = typer.Argument(
        ..., help="An engine: a bundled name (random, greedy, alphabeta) or a command."
    ),
    second: str = typer.Argument(..., help="The other engine."),
    variant: str = typer.Option("english", "--variant", "-v", help="Variant id (see `arbiter variants`)."),
    tc: str = typer.Option("acf scale=0.01", "--tc", help="Time control, e.g. 'acf scale=0.01', 40/60+0.6."),
    openings: str | None = typer.Option(
        None,
        "--openings",
        help="An ACF deck (acf-144, acf-156, acf-174, pro-checkers), an openings file, or a .pdn file.",
    ),
    plies: int | None = typer.Option(
        None,
        "--plies",
        min=0,
        help="With a .pdn file: each game's start and this many plies make an opening.",
    ),
    order: str | None = typer.Option(
        None, "--order", help="Opening order: sequential (default) or random (pro-checkers: random)."
    ),
    seed: int = typer.Option(1, "--seed", help="Seed for random opening order."),
    games: int = typer.Option(2, "--games", "-n", min=1, help="Games per encounter (rounds = --rounds)."),
    rounds: int = typer.Option(1, "--rounds", "-r", min=1, help="How many encounters (cutechess -rounds)."),
    repeat: bool = typer.Option(
        False, "--repeat", help="Play each opening twice, colours swapped (pro-checkers always does)."
    ),
    concurrency: int = typer.Option(1, "--concurrency", "-c", min=1, help="Games at a time."),
    database: Path = typer.Option(Path("match.sqlite"), "--db", help="SQLite file to keep results in."),
    report: Path | None = typer.Option(None, "--report", help="Write the HTML site here after every game."),
    name: str | None = typer.Option(None, "--name", help="The event's name (default: 'A vs B')."),
    max_plies: int | None = typer.Option(
        None, "--max-plies", min=1, help="Adjudicate a draw at this length."
    ),
    sprt: list[str] | None = typer.Option(
        None,
        "--sprt",
        help="Stop when decided: --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 (or the same quoted).",
    ),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="Play the games on the workers of this Dask scheduler (tcp://HOST:8786)."
    ),
) -> None:
    """Play a two-engine match, with the flags engine testers know from cutechess-cli and fastchess."""
    entries = [_engine_entry(first, "A"), _engine_entry(second, "B")]
    if entries[0]["name"] == entries[1]["name"]:
        entries[1]["name"] = f"{entries[1]['name']}-2"
    try:
        sprt_settings = _parse_sprt(_sprt_tokens(sprt or [], ctx.args)) if sprt or ctx.args else None
        settings: dict[str, object] = {
            "name": name or f"{entries[0]['name']} vs {entries[1]['name']}",
            "variant": variant,
            "time_control": tc,
            "format": "match",
            "cycles": rounds,
            "games_per_encounter": games,
            "openings": _openings(openings, plies, order, seed),
            "concurrency": concurrency,
            "database": database,
            "report": report,
            "adjudication": Adjudication(max_plies=max_plies),
            "scheduler": scheduler,
            "engines": [EngineEntry.model_validate(e) for e in entries],
        }
        if repeat:  # without the flag a ballot rule (pro-checkers) still plays its ballots twice
            settings["repeat"] = True
        config = TournamentConfig.model_validate(settings)
        engines = [
            EngineConfig.model_validate({k: v for k, v in e.items() if k != "bundled"}) for e in entries
        ]
    except ValidationError as exc:
        typer.echo(f"error: {_option_errors(exc)}", err=True)
        raise typer.Exit(2) from None
    except (ValueError, OpeningError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    _execute(config, engines, sprt_settings)


def _engine_entry(text: str, fallback: str) -> dict[str, object]:
    if text in BUNDLED_ENGINES:
        return {"name": text, "bundled": text, "command": bundled_command(text)}
    command = shlex.split(text)
    if not command:
        raise typer.BadParameter(f"engine {fallback} is empty")
    return {"name": Path(command[0]).name or fallback, "command": command}


def _openings(text: str | None, plies: int | None, order: str | None, seed: int) -> Openings | None:
    if text is None:
        if plies is not None:
            raise ValueError("--plies cuts the games of a .pdn file given with --openings")
        return None
    spec: dict[str, object] = {"seed": seed}
    spec["file" if Path(text).exists() else "deck"] = text
    if plies is not None:
        spec["plies"] = plies
    if order is not None:  # otherwise the deck's own order: sequential, or a ballot rule's
        spec["order"] = order
    return Openings.model_validate(spec)


# The `arbiter match` option behind each setting of the tournament it builds.
_MATCH_OPTIONS = {
    "variant": "--variant",
    "time_control": "--tc",
    "cycles": "--rounds",
    "games_per_encounter": "--games",
    "repeat": "--repeat",
    "openings": "--openings",
    "deck": "--openings",
    "file": "--openings",
    "plies": "--plies",
    "order": "--order",
    "concurrency": "--concurrency",
}


def _option_errors(exc: ValidationError) -> str:
    """A validation error of the settings `arbiter match` built from its options, told by option."""
    lines = []
    for error in exc.errors():
        loc = error_location(error)
        key = str(loc[-1]) if loc else ""
        where = _MATCH_OPTIONS.get(key, ".".join(str(part) for part in loc) or "settings")
        lines.append(f"{where}: {str(error['msg']).removeprefix('Value error, ')}")
    return "\n".join(lines)


def _sprt_tokens(given: list[str], following: list[str]) -> str:
    """The SPRT settings as one text, from `--sprt "elo0=0 elo1=10 ..."`, from `--sprt elo0=0 elo1=10
    ...` as cutechess-cli takes them (the words after the first arrive as extra arguments), or from
    `--sprt` given once per setting."""
    if following and not given:
        raise ValueError(f"unexpected arguments: {' '.join(following)}")
    for word in following:
        if "=" not in word:
            raise ValueError(f"unexpected argument {word!r} (after --sprt, settings such as elo1=10)")
    return " ".join([*given, *following])


def _parse_sprt(text: str) -> SprtSettings:
    values: dict[str, float] = {}
    for part in text.replace(",", " ").split():
        key, _, value = part.partition("=")
        if key not in ("elo0", "elo1", "alpha", "beta") or not value:
            raise ValueError(f"--sprt: {part!r} is not one of elo0= elo1= alpha= beta=")
        values[key] = float(value)
    if "elo0" not in values or "elo1" not in values:
        raise ValueError("--sprt needs elo0= and elo1=")
    return SprtSettings(**values)


def _execute(config: TournamentConfig, engines: list[EngineConfig], sprt: SprtSettings | None) -> None:
    console = output_console()
    if config.scheduler is not None:
        from arbiter.distributed import DistributedMissingError, require_distributed

        try:
            require_distributed()
        except DistributedMissingError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
    report_dir = config.report
    try:
        # Planning reads and checks the openings: a bad deck stops the run before the database exists.
        runner = TournamentRunner(config, engines, sprt=sprt, log_dir=config.database.parent / "engine-logs")
    except (ValueError, OpeningError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    try:
        store = TournamentStore.open(config.database, create=True)
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    with store:
        view = LiveView(store, console)
        runner.observer = view
        publisher = None
        try:
            tournament_id = runner.open_tournament(store)
            view.attach(tournament_id)
            if report_dir is not None:
                publisher = _start_publisher(runner, store, report_dir, tournament_id)
            with view:
                summary = asyncio.run(_play(runner, store, config.scheduler))
        except RunError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        finally:
            if publisher is not None:
                publisher.close()  # the last refresh: the site shows the event as it ended
        _print_summary(console, store, summary, report_dir)
    if summary.stopped:
        raise typer.Exit(130)


async def _play(runner: TournamentRunner, store: TournamentStore, scheduler: str | None) -> RunSummary:
    """The run itself: here, or with the games played on a Dask cluster's workers."""
    if scheduler is None:
        return await runner.run(store)
    from arbiter.distributed.coordinator import run_on_cluster

    return await run_on_cluster(runner, store, scheduler)


def _start_publisher(
    runner: TournamentRunner, store: TournamentStore, out: Path, tournament_id: int
) -> Publisher:
    """The site is published by a child process (see `arbiter.report.publisher`): the runner only
    tells it that a game was stored, and hands it the moves of the games being played."""
    from arbiter.report.publisher import Publisher

    publisher = Publisher(store.path, out, tournament_id)
    publisher.start()
    runner.after_game = publisher.game_finished
    runner.game_observer = publisher.watch
    return publisher


def _print_summary(
    console: Console, store: TournamentStore, summary: RunSummary, report: Path | None
) -> None:
    result = store.standings(summary.tournament_id)
    console.print(standings_table(result))
    console.print(crosstable_table(result))
    finished = store.finished_results(summary.tournament_id)
    ratings = ratings_table(result.players, finished)
    if ratings is not None:
        console.print(ratings)
    openings = openings_table(finished, store.opening_names(summary.tournament_id))
    if openings is not None:
        console.print(openings)
    state = "stopped" if summary.stopped else "finished"
    console.print(
        f"{state}: {summary.finished}/{summary.planned} games in {store.path}"
        + (f", {summary.abandoned} abandoned (run again to resume)" if summary.abandoned else "")
    )
    if summary.sprt is not None:
        console.print(f"SPRT: {summary.sprt.decision.value} (LLR {summary.sprt.llr:.2f})")
    if report is not None:
        console.print(f"report: {report / 'index.html'}")


def register(app: typer.Typer) -> None:
    app.command("run")(run_command)
    # The words after `--sprt elo0=0` arrive as extra arguments (see `_sprt_tokens`).
    app.command("match", context_settings={"allow_extra_args": True})(match_command)
