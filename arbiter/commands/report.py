"""`arbiter report DB --out site/`: publish a tournament database as a static HTML site."""

from __future__ import annotations

import os
from pathlib import Path

import typer

from arbiter.commands.exit_status import store_error_status
from arbiter.commands.output_files import why_folder_unwritable
from arbiter.store import StoreError


def report_command(
    database: Path = typer.Argument(..., help="The tournament database (SQLite file) to publish."),
    folder: str = typer.Option(
        "site", "--out", "-o", metavar="FOLDER", help="Folder to write the site into."
    ),
    tournament: str | None = typer.Option(
        None, "--tournament", "-t", help="Tournament id or name (default: the latest in the database)."
    ),
    full: bool = typer.Option(False, "--full", help="Write every game page again, not only changed ones."),
) -> None:
    """Write the site of a tournament: standings, crosstable, ratings, every game to replay, PDN.

    Run again on the same folder, it writes what the games stored since its last run changed. Into a
    folder holding the site of another event, it removes that site's files its own lacks (only files
    an earlier build wrote: the folder's other files stay)."""
    # The site's modules (templates, the ORM) load only when a site is written.
    from arbiter.report import SiteError
    from arbiter.report.store_site import StoreSite

    if not folder.strip():  # an unset shell variable: not the current folder, among whatever is there
        typer.echo("error: --out is empty: give the site's folder", err=True)
        raise typer.Exit(2)
    out = Path(folder)
    if out.exists() and not out.is_dir():
        typer.echo(f"error: --out {out}: a file, not a folder (the site is a folder of pages)", err=True)
        raise typer.Exit(2)
    why = why_folder_unwritable(out)
    if why is not None:  # before the database is read: a folder under a file, or one not writable
        typer.echo(f"error: --out {out}: {why}", err=True)
        raise typer.Exit(2)
    site = StoreSite(database, out, tournament, workers=os.cpu_count() or 1, read_only=True)
    try:
        built = site.refresh(full=full)
    except StoreError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(store_error_status(error)) from None
    except SiteError as error:
        typer.echo(f"error: cannot write the site into {out}: {error}", err=True)
        raise typer.Exit(1) from None
    except OSError as error:
        typer.echo(f"error: cannot write the site into {out}: {error.strerror or error}", err=True)
        raise typer.Exit(1) from None
    if site.schedule_note:
        typer.echo(f"warning: {database}: {site.schedule_note}; only the stored games are listed", err=True)
    if site.left_note:
        typer.echo(f"warning: {site.left_note}", err=True)
    played, total = site.games
    removed = f"; {built.removed} files of the earlier site removed" if built.removed else ""
    typer.echo(
        f"{out / 'index.html'}: {site.event_name}, {played} of {total} games "
        f"({built.games_written} game pages written, {built.games_kept} unchanged{removed})"
    )


def register(app: typer.Typer) -> None:
    app.command("report")(report_command)
