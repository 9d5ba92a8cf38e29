"""`arbiter run` (a whole event from a tournament file) and `arbiter match` (two engines, from flags)."""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Callable
from pathlib import Path

import typer
from rich.console import Console

from arbiter.commands.live_view import LiveView
from arbiter.commands.standings import crosstable_table, ratings_table, standings_table
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
    load_tournament,
)
from arbiter.tournament.openings import OpeningError
from arbiter.tournament.runner import RunError, RunSummary, TournamentRunner
from arbiter.tournament.stats import SprtSettings


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
    first: str = typer.Argument(
        ..., help="An engine: a bundled name (random, greedy, alphabeta) or a command."
    ),
    second: str = typer.Argument(..., help="The other engine."),
    variant: str = typer.Option("english", "--variant", "-v", help="Variant id (see `arbiter variants`)."),
    tc: str = typer.Option("acf scale=0.01", "--tc", help="Time control, e.g. 'acf scale=0.01', 40/60+0.6."),
    openings: str | None = typer.Option(
        None, "--openings", help="An ACF deck (acf-144, acf-156, acf-174, pro-checkers) or an openings file."
    ),
    order: str = typer.Option("sequential", "--order", help="Opening order: sequential or random."),
    seed: int = typer.Option(1, "--seed", help="Seed for random opening order."),
    games: int = typer.Option(2, "--games", "-n", min=1, help="Games per encounter (rounds = --rounds)."),
    rounds: int = typer.Option(1, "--rounds", "-r", min=1, help="How many encounters (cutechess -rounds)."),
    repeat: bool = typer.Option(False, "--repeat", help="Play each opening twice, colours swapped."),
    concurrency: int = typer.Option(1, "--concurrency", "-c", min=1, help="Games at a time."),
    database: Path = typer.Option(Path("match.sqlite"), "--db", help="SQLite file to keep results in."),
    report: Path | None = typer.Option(None, "--report", help="Write the HTML site here after every game."),
    name: str | None = typer.Option(None, "--name", help="The event's name (default: 'A vs B')."),
    max_plies: int | None = typer.Option(
        None, "--max-plies", min=1, help="Adjudicate a draw at this length."
    ),
    sprt: str | None = typer.Option(
        None, "--sprt", help="Stop when decided: 'elo0=0 elo1=10 alpha=0.05 beta=0.05'."
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
        sprt_settings = _parse_sprt(sprt) if sprt else None
        opening_spec = _openings(openings, order, seed)
        config = TournamentConfig(
            name=name or f"{entries[0]['name']} vs {entries[1]['name']}",
            variant=variant,
            time_control=tc,
            format="match",
            cycles=rounds,
            games_per_encounter=games,
            repeat=repeat,
            openings=opening_spec,
            concurrency=concurrency,
            database=database,
            report=report,
            adjudication=Adjudication(max_plies=max_plies),
            scheduler=scheduler,
            engines=[EngineEntry.model_validate(e) for e in entries],
        )
        engines = [
            EngineConfig.model_validate({k: v for k, v in e.items() if k != "bundled"}) for e in entries
        ]
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


def _openings(text: str | None, order: str, seed: int) -> Openings | None:
    if text is None:
        return None
    if Path(text).exists():
        return Openings(file=Path(text), order=order, seed=seed)  # type: ignore[arg-type]
    return Openings(deck=text, order=order, seed=seed)  # type: ignore[arg-type]


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
    console = Console()
    if config.scheduler is not None:
        from arbiter.distributed import DistributedMissingError, require_distributed

        try:
            require_distributed()
        except DistributedMissingError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
    report_dir = config.report
    try:
        store = TournamentStore.open(config.database, create=True)
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    with store:
        refresh = _report_refresher(store, report_dir) if report_dir is not None else None
        try:
            runner = TournamentRunner(
                config, engines, sprt=sprt, after_game=refresh, log_dir=config.database.parent / "engine-logs"
            )
        except (ValueError, OpeningError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        view = LiveView(store, console)
        runner.observer = view
        try:
            view.attach(runner.open_tournament(store))
            with view:
                summary = asyncio.run(_play(runner, store, config.scheduler))
        except RunError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if refresh is not None:
            refresh(summary.tournament_id)
        _print_summary(console, store, summary, report_dir)
    if summary.stopped:
        raise typer.Exit(130)


async def _play(runner: TournamentRunner, store: TournamentStore, scheduler: str | None) -> RunSummary:
    """The run itself: here, or with the games played on a Dask cluster's workers."""
    if scheduler is None:
        return await runner.run(store)
    from arbiter.distributed.coordinator import run_on_cluster

    return await run_on_cluster(runner, store, scheduler)


def _report_refresher(store: TournamentStore, out: Path) -> Callable[[int], None]:
    """Rebuild the HTML site from the database (incrementally: only changed pages are written).

    It runs in a thread beside the event loop, so it opens its own connection to the database.
    """
    from arbiter.report.from_store import load_event
    from arbiter.report.site import build_site

    def refresh(tournament_id: int) -> None:
        with TournamentStore.open(store.path, create=False) as reader:
            event = load_event(reader, tournament_id)
        build_site(out, event.event, event.games)

    return refresh


def _print_summary(
    console: Console, store: TournamentStore, summary: RunSummary, report: Path | None
) -> None:
    result = store.standings(summary.tournament_id)
    console.print(standings_table(result))
    console.print(crosstable_table(result))
    ratings = ratings_table(result.players, store.finished_results(summary.tournament_id))
    if ratings is not None:
        console.print(ratings)
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
    app.command("match")(match_command)
