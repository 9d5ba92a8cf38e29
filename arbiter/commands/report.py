"""`arbiter report DB --out site/`: publish a tournament database as a static HTML site."""

from __future__ import annotations

import os
from pathlib import Path

import typer

from arbiter.report import SiteError, build_site
from arbiter.report.from_store import load_event
from arbiter.store import StoreError, TournamentStore


def report_command(
    database: Path = typer.Argument(..., help="The tournament database (SQLite file) to publish."),
    out: Path = typer.Option(Path("site"), "--out", "-o", help="Folder to write the site into."),
    tournament: str | None = typer.Option(
        None, "--tournament", "-t", help="Tournament id or name (default: the latest in the database)."
    ),
    full: bool = typer.Option(False, "--full", help="Write every game page again, not only changed ones."),
) -> None:
    """Write the site of a tournament: standings, crosstable, ratings, every game to replay, PDN."""
    try:
        with TournamentStore.open(database, read_only=True) as store:
            loaded = load_event(store, tournament)
    except StoreError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    if loaded.schedule_note:
        typer.echo(f"warning: {database}: {loaded.schedule_note}; only the stored games are listed", err=True)
    try:
        built = build_site(out, loaded.event, loaded.games, incremental=not full, workers=os.cpu_count() or 1)
    except (SiteError, OSError) as error:
        typer.echo(f"error: cannot write the site into {out}: {error}", err=True)
        raise typer.Exit(1) from None
    played = sum(1 for game in loaded.games if game.record is not None)
    typer.echo(
        f"{out / 'index.html'}: {loaded.event.name}, {played} of {len(loaded.games)} games "
        f"({built.games_written} game pages written, {built.games_kept} unchanged)"
    )


def register(app: typer.Typer) -> None:
    app.command("report")(report_command)
