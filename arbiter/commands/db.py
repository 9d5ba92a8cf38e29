"""`arbiter db check DB`: SQLite's full integrity check of a tournament database, read-only.

Every command that opens a database runs SQLite's quicker check first (`run` always, the reading
commands on files up to a size), and refuses a damaged file; this command lists all the damage.
"""

from __future__ import annotations

from pathlib import Path

import typer

from arbiter.commands.exit_status import store_error_status
from arbiter.store import StoreError
from arbiter.store.database import damage_report, stored_value_report

db_app = typer.Typer(help="Look after tournament databases.", no_args_is_help=True)


@db_app.command("check")
def check_command(
    database: Path = typer.Argument(..., help="The tournament database (SQLite file)."),
) -> None:
    """Check every page of DATABASE, and that every value is of the kind arbiter writes there (without
    changing it); exit 1 and list the damage if there is any."""
    try:
        problems = damage_report(database)
        values = [] if problems else stored_value_report(database)
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(store_error_status(exc)) from None
    if values:
        for value in values:
            typer.echo(f"{database}: {value}")
        typer.echo(
            f"{database}: {len(values)} value(s) arbiter never writes there (was the file edited?); every "
            "command refuses the file: restore a backup"
        )
        raise typer.Exit(1)
    if not problems:
        typer.echo(f"{database}: sound (SQLite integrity_check: ok, every value of the kind arbiter writes)")
        return
    for problem in problems:
        typer.echo(f"{database}: {problem}")
    typer.echo(
        f"{database}: damaged ({len(problems)} problem(s)); restore a backup, or recover what SQLite can "
        f"read with `sqlite3 {database} .recover`"
    )
    raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")
