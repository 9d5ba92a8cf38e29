"""The `arbiter` command: a thin Typer application that gathers each area's commands."""

from __future__ import annotations

import gc
import importlib
import inspect
import sqlite3
import sys
from collections.abc import Sequence

import typer

from arbiter.commands.cutechess_args import CutechessArgsError, translate_command_line

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


def _root(
    version: bool = typer.Option(
        False, "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Tournament arbiter and match runner for checkers and draughts engines."""


# The module that adds each command. `arbiter match ...` imports only its own module: the others' imports
# (their models, readers and libraries) are start-up CPU a command does not use. `--help`, a command
# not listed here and `from arbiter.cli import app` get every command.
COMMAND_HOMES = {
    "perft": "arbiter.commands.rules",
    "variants": "arbiter.commands.rules",
    "engine": "arbiter.commands.engine",
    "play": "arbiter.commands.play",
    "run": "arbiter.commands.run",
    "match": "arbiter.commands.run",
    "standings": "arbiter.commands.standings",
    "pdn": "arbiter.commands.pdn",
    "report": "arbiter.commands.report",
    "stats": "arbiter.commands.stats",
    "ratings": "arbiter.commands.ratings",
    "db": "arbiter.commands.db",
    "serve": "arbiter.commands.serve",
}


def build_app(modules: Sequence[str] = COMMAND_MODULES) -> typer.Typer:
    """The Typer application with the commands of these modules."""
    application = typer.Typer(
        name="arbiter",
        help="Tournament arbiter and match runner for checkers and draughts engines.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    application.callback()(_root)
    for name in modules:
        importlib.import_module(name).register(application)
    flow_help(application)
    return application


def flow_help(application: typer.Typer) -> None:
    """Give every command taking its help from its docstring the docstring's paragraphs as single lines.

    Typer keeps the line breaks of a help text's later paragraphs as written, so a paragraph wrapped to
    the source's width came out ragged in an 80-column terminal; as one line, Typer wraps it to the
    terminal's width.
    """
    for command in application.registered_commands:
        if command.help is None and command.callback is not None and command.callback.__doc__:
            command.help = flowed(command.callback.__doc__)
    for group in application.registered_groups:
        if group.typer_instance is not None:
            flow_help(group.typer_instance)


def flowed(text: str) -> str:
    """``text`` with each paragraph (they are separated by blank lines) on one line."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(paragraph.split()) for paragraph in paragraphs)


def modules_for(args: Sequence[str]) -> list[str]:
    """The command modules a command line needs: the named command's own, or all of them."""
    home = COMMAND_HOMES.get(args[0]) if args else None
    return [home] if home is not None else list(COMMAND_MODULES)


def __getattr__(name: str) -> typer.Typer:
    # `app`, with every command, is built when first asked for (tests and scripts drive it directly).
    if name == "app":
        application = build_app()
        globals()["app"] = application
        return application
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def started(args: Sequence[str]) -> typer.Typer:
    """The application for this command line, its modules imported with the garbage collector paused.

    Importing makes some 80,000 objects that live as long as the process: collecting while importing
    (a hundred young collections) and once more before the games (`settle_for_timing`) would walk them
    all for nothing. They are frozen instead, out of the collector's sight; the few hundred objects of
    garbage imports leave in cycles are kept with them.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return build_app(modules_for(args))
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def main() -> None:
    # `arbiter match` also takes cutechess-cli/fastchess spellings (-engine cmd=... -each tc=...),
    # which Typer cannot parse: they are turned into its own options first.
    try:
        args = translate_command_line(sys.argv[1:])
    except CutechessArgsError as error:
        typer.echo(f"error: {error}", err=True)
        raise SystemExit(2) from None
    try:
        application = started(args)
    except KeyboardInterrupt:
        # Ctrl-C while the command's modules load (some 0.2 s): nothing has begun, so nothing to say.
        # Once the command runs, Ctrl-C is its own to handle.
        raise SystemExit(130) from None
    try:
        application(args=args, prog_name="arbiter")
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
