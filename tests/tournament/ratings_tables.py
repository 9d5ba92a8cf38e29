"""The ratings table of `arbiter standings` for A against B, as a wide terminal shows it."""

from __future__ import annotations

from io import StringIO

from rich.console import Console

from arbiter.commands.standings import ratings_table
from arbiter.tournament.scoring import FinishedGame


def ratings_text(games: list[FinishedGame]) -> str:
    table = ratings_table(["A", "B"], games)
    assert table is not None
    out = StringIO()
    Console(file=out, width=250).print(table)
    return out.getvalue()
