"""The `arbiter` command: a thin Typer application that gathers each area's commands."""

from __future__ import annotations

import importlib

import typer

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
    "arbiter.commands.serve",
]


@app.callback()
def _root() -> None:
    """Tournament arbiter and match runner for checkers and draughts engines."""


for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
