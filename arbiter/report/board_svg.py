"""The board as SVG: light and dark squares, pieces as discs, kings marked with a crown, mules (Mule
checkers) with an M.

Every playable square is a group carrying its number (``data-square``) and what stands on it
(``data-piece``: ``w W b B e`` as Hub writes them); the stylesheet shows the man or the king (a man
with a crown) that fits, in its colour.
The viewer changes only ``data-piece`` to move through a game, so the drawing itself is made once.
Row 0 is at the top, as the board is drawn from White's side.
"""

from __future__ import annotations

from collections.abc import Collection

from markupsafe import Markup

from arbiter.rules.geometry import Geometry

SQUARE = 60
_CROWN = "M19 39 L41 39 L43 25 L36 31 L30 20 L24 31 L17 25 Z"


def board_svg(
    geometry: Geometry,
    letters: str,
    label: str = "board",
    mules: Collection[int] | None = None,
    *,
    ply: int | None = None,
    last_move: tuple[int, int] | None = None,
) -> Markup:
    """The board with `letters` (one per square, square 1 first) standing on it.

    `label` is the accessible name of the picture; it is escaped here. `mules`, given for games of
    variants with mules, lists the squares whose man is a mule: every square then gets a mule mark,
    shown where the square has the class ``mule`` (as those squares do here). `ply`, for a game's
    board, is the ply it shows (``data-ply``, where the viewer starts from), and `last_move` the
    squares the move to it left and reached, marked ``from`` and ``to`` as the viewer marks them.
    """
    if len(letters) != geometry.square_count:
        raise ValueError(f"{len(letters)} letters for a board of {geometry.square_count} squares")
    width, height = geometry.width * SQUARE, geometry.height * SQUARE
    half = SQUARE // 2
    shown = "" if ply is None else f' data-ply="{ply}"'
    marks = dict(zip(last_move, (" from", " to"), strict=True)) if last_move is not None else {}
    parts = [
        f'<svg class="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{Markup.escape(label)}"{shown}>',
        # One drawing of a man and of a king; each square shows one of them (or none) by its data-piece.
        # The pieces take their colours from the square's <use> (fill, stroke and color are inherited).
        "<defs>"
        f'<g id="man"><circle cx="{half}" cy="{half + 2}" r="23" stroke-width="2"/>'
        f'<circle cx="{half}" cy="{half + 2}" r="16" fill="none" stroke="currentColor" stroke-width="2"/></g>'
        f'<g id="king"><use href="#man"/><path d="{_CROWN}" fill="#d4a72c" stroke="#7a5c00"/></g>'
        "</defs>",
        f'<rect class="light" x="0" y="0" width="{width}" height="{height}"/>',
    ]
    mark = f'<text class="mule-mark" x="{half}" y="{half + 10}">M</text>' if mules is not None else ""
    for square in range(1, geometry.square_count + 1):
        row, col = geometry.row_col(square)
        kind = ("sq mule" if mules is not None and square in mules else "sq") + marks.get(square, "")
        parts.append(
            f'<g class="{kind}" data-square="{square}" data-piece="{letters[square - 1]}" '
            f'transform="translate({col * SQUARE} {row * SQUARE})">'
            f'<rect width="{SQUARE}" height="{SQUARE}"/><text x="4" y="13">{square}</text>'
            f'<use class="man" href="#man"/><use class="king" href="#king"/>{mark}</g>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
