"""`arbiter perft`: count move-tree leaves, the first check of any move generator."""

from __future__ import annotations

import time

import typer

from arbiter.notation.movetext import format_pdn
from arbiter.rules import Position, UnknownVariantError, divide, get_variant, perft
from arbiter.rules.fen import FenError


def perft_command(
    variant: str = typer.Option(
        "english", "--variant", "-v", help="Variant id, e.g. english, international."
    ),
    depth: int = typer.Option(6, "--depth", "-d", min=0, help="Plies to search."),
    fen: str | None = typer.Option(
        None, "--fen", help="Start from this PDN FEN instead of the start position."
    ),
    show_divide: bool = typer.Option(False, "--divide", help="Show the count below each legal move."),
    count_paths: bool = typer.Option(
        False,
        "--count-paths",
        help="Count a capture once per path, not once per (start, end, captured set) (Aart Bik's tables).",
    ),
) -> None:
    """Count the leaves of the legal-move tree to DEPTH plies (perft), depth by depth."""
    try:
        rules = get_variant(variant)
        position = Position.from_fen(rules, fen) if fen else Position.start(rules)
    except (UnknownVariantError, FenError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"{rules.title}  {position.fen()}")
    if show_divide:
        if depth < 1:
            typer.echo("error: --divide needs --depth 1 or more", err=True)
            raise typer.Exit(2)
        started = time.perf_counter()
        total = 0
        for move, count in divide(position, depth, count_paths):
            typer.echo(f"{format_pdn(position, move):>12}  {count}")
            total += count
        elapsed = time.perf_counter() - started
        typer.echo(f"total {total} leaves at depth {depth} in {elapsed:.3f} s")
        return
    for d in range(1, depth + 1) if depth else [0]:
        started = time.perf_counter()
        count = perft(position, d, count_paths)
        elapsed = time.perf_counter() - started
        rate = f"{count / elapsed:,.0f} leaves/s" if elapsed > 0 else ""
        typer.echo(f"depth {d:>2}  {count:>14,}  {elapsed:8.3f} s  {rate}")


def variants_command() -> None:
    """List every variant with its board, who moves first, its start position and its rule options."""
    from rich.console import Console
    from rich.table import Table

    from arbiter.rules import VARIANTS
    from arbiter.rules.variants import OPTIONS

    table = Table(title="Variants", show_lines=False)
    for column in ("id", "board", "first", "rules", "start FEN"):
        table.add_column(column, overflow="fold")
    for v in VARIANTS.values():
        g = v.geometry
        squares = "all squares" if g.all_squares else "dark squares"
        options = [name for name, (ids, _, _) in OPTIONS.items() if v.id in ids]
        rules = v.summary + (f" (options: {', '.join('+' + o for o in options)})" if options else "")
        table.add_row(
            v.id, f"{g.width}x{g.height}, {squares}", v.first_to_move.name.lower(), rules, v.start_fen()
        )
    Console().print(table)


def register(app: typer.Typer) -> None:
    app.command("perft")(perft_command)
    app.command("variants")(variants_command)
