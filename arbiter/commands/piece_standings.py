"""`arbiter standings DB --scoring pieces`: each player's total under piece-count scoring."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from arbiter.rules import UnknownVariantError, get_variant
from arbiter.store import StoreError, TournamentStore
from arbiter.tournament.piece_scoring import PieceScoringError, piece_points, piece_scoring_refusal


def show_piece_standings(database: Path, tournament: str | None, console: Console) -> None:
    """Print the piece-count table of a stored tournament; a clear error (exit 1 or 2) otherwise."""
    try:
        with TournamentStore.open(database, create=False) as store:
            info = store.find_tournament(tournament)
            try:
                refusal = piece_scoring_refusal(get_variant(info.variant))
            except UnknownVariantError as error:
                refusal = str(error)
            if refusal is not None:
                typer.echo(f"error: --scoring pieces: {refusal}", err=True)
                raise typer.Exit(2)
            games = store.games(info.id, finished_only=True)
            players = [engine.name for engine in store.engines(info.id)]
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    try:
        totals = piece_points(game.record for game in games)
    except PieceScoringError as exc:
        typer.echo(f"error: --scoring pieces: {exc}", err=True)
        raise typer.Exit(1) from None
    for name in totals:
        if name not in players:
            players.append(name)
    table = Table(title=f"{info.name}: pieces left to the winner ({len(games)} finished games)")
    table.add_column("#", justify="right")
    table.add_column("player")
    table.add_column("pieces", justify="right")
    ranked = sorted(players, key=lambda name: (-totals.get(name, 0), name))
    for rank, name in enumerate(ranked, start=1):
        table.add_row(str(rank), name, str(totals.get(name, 0)))
    console.print(table)
