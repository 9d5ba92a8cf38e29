"""The rows of a game page's move list as HTML, made in Python rather than in the template.

A game has a hundred plies and each row shows a dozen values; through the template every value went
through jinja's finalize hook and markupsafe's escaping one call at a time, a third of the cost of a
page, and the publisher of a running event makes a page for every game. Here only the text that comes
from a record or an engine (the move, the engine's info, the referee's notes) is escaped, with control
characters made visible first, as the template's hook does; the rest are numbers and names of our own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from markupsafe import Markup, escape

from arbiter.notation.controls import visible_controls
from arbiter.report.formatting import score, seconds


@dataclass(slots=True)  # not frozen: a frozen one costs a call a field to make, a page makes a hundred
class MoveRow:
    ply: int
    number: str
    """``12.`` before the first mover's move, ``12…`` before the other side's."""
    number_cell: str
    """The move list's number: once per move, on its first row (a lone ``1…`` when the list starts
    with the second mover); the second ply's row leaves it blank, so no number reads as cut short."""
    side: str
    text: str
    book: bool
    elapsed: float | None
    clock: float | None
    depth: int | None
    score: float | None
    info: str
    warnings: tuple[str, ...]
    draw_offered: bool


_BOOK = ' <span class="tag" title="from the opening">book</span>'
_DRAW = ' <span class="tag" title="draw offered">=?</span>'


@lru_cache(maxsize=8192)
def _shown(text: str) -> str:
    # Kept: the moves, their numbers and an empty info repeat on every page.
    return str(escape(visible_controls(text)))


def move_table_rows(rows: Sequence[MoveRow]) -> Markup:
    """The ``<tr>`` of every ply, one a line (indented for the template's ``<tbody>``)."""
    lines = []
    for row in rows:
        ply = row.ply
        book = row.book
        notes = "".join(f'<span class="note">{_shown(note)}</span>' for note in row.warnings)
        lines.append(
            f'<tr id="ply-{ply}" class="{row.side}{" book" if book else ""}">'
            f"<td>{_shown(row.number_cell)}</td>"
            f'<td><a href="#ply-{ply}">{_shown(row.text)}</a>{_BOOK if book else ""}'
            f"{_DRAW if row.draw_offered else ''}</td>"
            f"<td>{seconds(row.elapsed)}</td><td>{seconds(row.clock)}</td>"
            f"<td>{'' if row.depth is None else row.depth}</td><td>{score(row.score)}</td>"
            f"<td>{_shown(row.info)}{notes}</td></tr>"
        )
    return Markup("\n      ".join(lines))
