"""`arbiter pdn check|export|import`: PDN files checked, written from a database, read into one.

`check FILE...` replays every game through the rules core. Each fault is one line: `file:line:column:
game N (tags), ply P: kind: reason`. Each file ends with a summary line, and a last line sums up every
file. The exit status is 1 when any game has a fault (a game of a variant not supported yet counts: it
could not be checked; so does a `0-0` result, which `pdn import` cannot store), 2 when a file cannot be
read.

`export DB` writes every game of a tournament as PDN (to standard output, or `--out FILE`); `import
FILE --db DB` stores every readable game of a PDN file as an imported tournament, reporting each game
it skips, and exits 1 when it skipped any.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import typer

from arbiter.commands.exit_status import store_error_status
from arbiter.commands.output_files import why_unwritable
from arbiter.notation.pdn import PdnError, PdnReader, ReadOptions
from arbiter.notation.pdn_model import FaultKind, PdnGame
from arbiter.publishing.pdn_export import export_tournament
from arbiter.report.files import write_atomic
from arbiter.rules import UnknownVariantError, get_variant
from arbiter.store import RunStore, StoreError

pdn_app = typer.Typer(help="Read, check and write PDN game files.", no_args_is_help=True)


@dataclass
class CheckTally:
    """What checking one file (or all of them) found."""

    files: int = 0
    games: int = 0
    whole: int = 0  # games that replayed with no fault
    plies: int = 0
    faulty_games: int = 0
    warnings: int = 0  # Result tags that contradict their game's terminator
    fault_kinds: Counter[str] = field(default_factory=Counter)
    unsupported: Counter[str] = field(default_factory=Counter)  # variant title -> games

    def add_game(self, game: PdnGame) -> None:
        self.games += 1
        self.plies += game.plies
        self.warnings += len(game.warnings)
        if game.faults:
            self.faulty_games += 1
            self.fault_kinds.update(fault.kind.value for fault in game.faults)
            for fault in game.faults:
                if fault.kind is FaultKind.UNSUPPORTED_VARIANT:
                    self.unsupported[game.variant_id or "?"] += 1
        else:
            self.whole += 1

    def add(self, other: CheckTally) -> None:
        self.files += other.files
        self.games += other.games
        self.whole += other.whole
        self.plies += other.plies
        self.faulty_games += other.faulty_games
        self.warnings += other.warnings
        self.fault_kinds.update(other.fault_kinds)
        self.unsupported.update(other.unsupported)

    def summary(self) -> str:
        text = (
            f"{self.games:,} game(s), {self.whole:,} replayed without fault ({self.plies:,} plies), "
            f"{self.faulty_games:,} with faults"
        )
        if self.warnings:
            text += f", {self.warnings:,} warning(s)"
        if self.fault_kinds:
            text += (
                " (" + ", ".join(f"{count} {kind}" for kind, count in sorted(self.fault_kinds.items())) + ")"
            )
        if self.unsupported:
            text += "; variant not supported yet: " + ", ".join(
                f"{variant} ({count})" for variant, count in sorted(self.unsupported.items())
            )
        return text


def check_file(path: Path, options: ReadOptions, show_notes: bool) -> CheckTally:
    """Check one file, printing its faults (and notes) and its summary line."""
    tally = CheckTally(files=1)
    reader = PdnReader(path, options)
    for game in reader:
        tally.add_game(game)
        for fault in game.faults:
            typer.echo(game.describe_fault(fault))
        for warning in game.warnings:
            typer.echo(f"{path}:{game.line}: {game.label()}: warning: {warning}")
        if show_notes:
            for note in game.notes:
                typer.echo(f"{path}:{game.line}: {game.label()}: note: {note}")
    decoding = reader.decoding.describe()
    if decoding:
        typer.echo(f"{path}: note: {decoding}")
    typer.echo(f"{path}: {tally.summary()}")
    return tally


def check_command(
    files: list[Path] = typer.Argument(..., help="PDN files to check."),
    variations: bool = typer.Option(
        False, "--variations", help="Replay the variations too, not only the games."
    ),
    variant: str | None = typer.Option(
        None, "--variant", "-v", help="Variant of games without a GameType tag (default: guess it)."
    ),
    notes: bool = typer.Option(False, "--notes", help="Also show notes: guessed variants, result oddities."),
) -> None:
    """Replay every game of the FILES and report each fault; exit 1 if there is any."""
    _check_variant(variant)
    # Every game `pdn import` would skip is a fault here too.
    options = ReadOptions(variations=variations, default_variant=variant, storable_results=True)
    total = CheckTally()
    unreadable = 0
    for path in files:
        try:
            total.add(check_file(path, options, notes))
        except PdnError as exc:
            unreadable += 1
            typer.echo(f"error: {exc}", err=True)
    read = f"checked {total.files} file(s)" + (f", {unreadable} unreadable" if unreadable else "")
    typer.echo(f"{read}: {total.summary()}")
    if unreadable:
        raise typer.Exit(2)
    if total.faulty_games:
        raise typer.Exit(1)


def _check_variant(variant: str | None) -> None:
    if variant is not None:
        try:
            get_variant(variant)
        except UnknownVariantError as exc:
            typer.echo(f"error: --variant: {exc}", err=True)
            raise typer.Exit(2) from None


def export_command(
    database: Path = typer.Argument(..., help="The tournament database (SQLite file)."),
    tournament: str | None = typer.Option(
        None, "--tournament", "-t", help="Tournament id or name (default: the latest in the database)."
    ),
    out: Path | None = typer.Option(
        None, "--out", "-o", help="Write the PDN to this file instead of standard output."
    ),
) -> None:
    """Write every stored game of a tournament as PDN; unfinished games have the result `*`."""
    if out is not None and (why := why_unwritable(out)) is not None:
        typer.echo(f"error: --out {out}: {why}", err=True)
        raise typer.Exit(2)
    try:
        with RunStore.open(database, read_only=True) as store:
            exported = export_tournament(store, tournament)
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(store_error_status(exc)) from None
    text = "".join(exported.texts)
    if out is None:
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except BrokenPipeError:
            # The reader stopped early (`| head`): say nothing more on a pipe nobody reads.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(1) from None
    else:
        try:
            write_atomic(out, text)
        except OSError as exc:
            typer.echo(f"error: {out}: cannot write: {exc.strerror or exc}", err=True)
            raise typer.Exit(1) from None
    for problem in exported.problems:
        typer.echo(f"warning: {problem}; the moves from there are written as stored", err=True)
    info = exported.tournament
    where = f" to {out}" if out is not None else ""
    typer.echo(
        f"exported {len(exported.games)} game(s) of tournament {info.name!r} (#{info.id}){where}", err=True
    )
    if exported.problems:
        raise typer.Exit(1)


def import_command(
    file: Path = typer.Argument(..., help="The PDN file to import."),
    database: Path = typer.Option(..., "--db", help="The tournament database (created if missing)."),
    name: str | None = typer.Option(
        None, "--name", "-n", help="The imported tournament's name (default: the file's name)."
    ),
    variant: str | None = typer.Option(
        None, "--variant", "-v", help="Variant of games without a GameType tag (default: guess it)."
    ),
) -> None:
    """Store every readable game of FILE in the database as a tournament of format `imported`.

    Games with faults are skipped and listed; the others are stored. Importing the same file again
    stores nothing twice: a game is recognised by its variant, start, players, moves and result,
    wherever it stands in the file, and only the games not stored yet are added; a game stored
    unfinished that the file now holds continued is brought up to date in its place. Of the annotations
    only [%clock] readings are stored; a line says how many comments, side lines, marks ($n, !, ?)
    and % lines the file holds. The exit status is 1 when any game was skipped (or the database is
    damaged or cannot be written), 2 when the file or the database given is not one this command reads.
    """
    _check_variant(variant)
    if not file.is_file():
        # Before the database is opened, so that a mistyped file name creates no empty database.
        what = "a folder, not a PDN file" if file.is_dir() else "no such PDN file"
        typer.echo(f"error: {file}: {what}", err=True)
        raise typer.Exit(2)
    from arbiter.publishing.pdn_import import ImportRefused, import_pdn
    from arbiter.store import TournamentStore  # the ORM: an import stores games in batches

    try:
        with TournamentStore.open(database) as store:
            report = import_pdn(store, file, name, ReadOptions(default_variant=variant))
    except (PdnError, ImportRefused) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(store_error_status(exc)) from None
    for line in report.skipped:
        typer.echo(line)
    not_kept = report.not_kept_line()
    if not_kept is not None:
        typer.echo(not_kept)
    typer.echo(report.summary())
    if report.skipped_games:
        raise typer.Exit(1)


pdn_app.command("check")(check_command)
pdn_app.command("export")(export_command)
pdn_app.command("import")(import_command)


def register(app: typer.Typer) -> None:
    app.add_typer(pdn_app, name="pdn")
