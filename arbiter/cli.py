"""The `arbiter` command: a thin Typer application that gathers each area's commands."""

from __future__ import annotations

import importlib
import sqlite3
import sys

import typer

from arbiter.commands.cutechess_args import CutechessArgsError, translate_command_line

app = typer.Typer(
    name="arbiter",
    help="Tournament arbiter and match runner for checkers and draughts engines.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Each module under arbiter.commands adds its own commands; listing them here keeps the order of --help.
COMMAND_MODULES = [
    "arbiter.commands.rules",
    "arbiter.commands.engine",
    "arbiter.commands.play",
    "arbiter.commands.run",
    "arbiter.commands.standings",
    "arbiter.commands.pdn",
    "arbiter.commands.report",
    "arbiter.commands.stats",
    "arbiter.commands.ratings",
    "arbiter.commands.db",
    "arbiter.commands.serve",
]


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"arbiter {package_version()}")
        raise typer.Exit()


def package_version() -> str:
    """The installed package's version (pyproject.toml's)."""
    from importlib import metadata  # about 60 ms of start-up: only for --version

    try:
        return metadata.version("arbiter")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Tournament arbiter and match runner for checkers and draughts engines."""


for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def main() -> None:
    # `arbiter match` also takes cutechess-cli/fastchess spellings (-engine cmd=... -each tc=...),
    # which Typer cannot parse: they are turned into its own options first.
    try:
        args = translate_command_line(sys.argv[1:])
    except CutechessArgsError as error:
        typer.echo(f"error: {error}", err=True)
        raise SystemExit(2) from None
    try:
        app(args=args, prog_name="arbiter")
    except Exception as exc:
        if not is_database_failure(exc):
            raise
        # SQLite failing under a command (damage beyond the check made on opening, an I/O error): a
        # message, not a traceback.
        reason = getattr(exc, "orig", None) or exc
        typer.echo(
            f"error: the database failed: {reason}; `arbiter db check DB` says whether the file is damaged",
            err=True,
        )
        raise SystemExit(1) from None


def is_database_failure(exc: BaseException) -> bool:
    """SQLite failing, straight from sqlite3 or through SQLAlchemy (loaded only by the commands that
    use the ORM: a match never imports it just to recognise its errors)."""
    if isinstance(exc, sqlite3.DatabaseError):
        return True
    orm_errors = sys.modules.get("sqlalchemy.exc")
    return orm_errors is not None and isinstance(exc, orm_errors.DBAPIError)


if __name__ == "__main__":
    main()
