"""Every command's `--help` reads as prose in an 80-column terminal: a paragraph of its description is
wrapped to the terminal's width, not broken where the docstring's source line happened to end."""

from __future__ import annotations

import click
import pytest
import typer.main
from typer.testing import CliRunner

from arbiter.cli import app, flowed

WIDTH = 80
# A line Typer wrapped is filled to within a word of the width; a break kept from the source is not.
FILLED = 60


def command_paths() -> list[list[str]]:
    """Every command and subcommand of `arbiter` with a help of its own, as the words that name it (the
    bundled engines' runners pass `--help` on to the engine's own argument parser)."""
    paths: list[list[str]] = []

    def walk(command: click.Command, path: list[str]) -> None:
        if command.context_settings.get("help_option_names") == []:
            return
        paths.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return paths


def description_paragraphs(help_output: str) -> list[list[str]]:
    """The lines of the description (between the usage line and the first panel), by paragraph."""
    lines = help_output.splitlines()
    usage = next(i for i, line in enumerate(lines) if "Usage:" in line)
    end = next((i for i, line in enumerate(lines) if line.lstrip().startswith("╭")), len(lines))
    paragraphs: list[list[str]] = [[]]
    for line in lines[usage + 1 : end]:
        if line.strip():
            paragraphs[-1].append(line.rstrip())
        elif paragraphs[-1]:
            paragraphs.append([])
    return [paragraph for paragraph in paragraphs if paragraph]


@pytest.mark.parametrize("path", command_paths(), ids=lambda path: " ".join(["arbiter", *path]))
def test_help_description_paragraphs_are_wrapped_to_the_terminal_width(path: list[str]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": str(WIDTH)}, terminal_width=WIDTH)
    assert result.exit_code == 0, result.output
    for paragraph in description_paragraphs(result.output):
        for line in paragraph[:-1]:
            assert len(line) >= FILLED, f"a line broken short in `{' '.join(path)} --help`:\n{line!r}"


def test_flowed_joins_the_lines_of_each_paragraph_and_keeps_paragraphs_apart() -> None:
    doc = """First line
        goes on.

        Second paragraph,
        wrapped   twice
        in the source.
        """
    assert flowed(doc) == "First line goes on.\n\nSecond paragraph, wrapped twice in the source."
