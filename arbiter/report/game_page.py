"""What a game page shows: the board, the move list with times and engine info, the PDN, and the data
the viewer steps through (the board after every ply, from the rules core)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from arbiter.notation.pdn_variant import tag_value
from arbiter.publishing.pdn_export import IMPORTED_FORMAT, tag_date
from arbiter.referee.record import GameRecord, MoveRecord, Side
from arbiter.report import formatting
from arbiter.report.board_svg import board_svg
from arbiter.report.embed import script_json
from arbiter.report.files import write_atomic
from arbiter.report.inputs import EventInfo, GameEntry
from arbiter.report.move_table import MoveRow, move_table_rows
from arbiter.report.replay import Replay, pv_text, replay
from arbiter.report.site_pdn import game_pdn, pdn_result
from arbiter.report.templating import environment, templates_dir
from arbiter.rules import Color, Position, Variant

EVENT_PDN = "event.pdn"


def info_text(move: MoveRecord, before: Position | None = None) -> str:
    """The rest of the engine's last info line: nodes, principal variation (in the variant's move
    notation, read from `before`, the position the engine searched), and any other field."""
    info = move.info
    if info is None:
        return ""
    parts = []
    if info.nodes is not None:
        parts.append(f"nodes {info.nodes}")
    if info.pv:
        parts.append("pv " + (pv_text(before, info.pv) if before is not None else " ".join(info.pv)))
    parts.extend(f"{key} {value}".strip() for key, value in info.extra.items())
    return " · ".join(parts)


def move_rows(
    record: GameRecord, first_turn_is_first_mover: bool, positions: tuple[Position, ...] = ()
) -> list[MoveRow]:
    offset = 0 if first_turn_is_first_mover else 1
    rows = []
    for index, move in enumerate(record.moves):
        counted = index + offset
        number = f"{counted // 2 + 1}." if counted % 2 == 0 else f"{counted // 2 + 1}\u2026"
        info = move.info
        before = positions[index] if info is not None and index < len(positions) else None
        rows.append(
            MoveRow(
                ply=move.ply,
                number=number,
                number_cell=number if counted % 2 == 0 or index == 0 else "",
                side=_SIDES[move.side],
                text=move.text,
                book=move.from_opening,
                elapsed=move.elapsed,
                clock=move.clock,
                depth=None if info is None else info.depth,
                score=None if info is None else info.score,
                info="" if info is None else info_text(move, before),
                warnings=tuple(move.warnings),
                draw_offered=move.draw_offered,
            )
        )
    return rows


_SIDES = {side: side.value for side in Side}  # an enum's value is a property: looked up a row


def place(game: GameEntry, variant: Variant | None) -> str:
    """``Round 3 · board 1 · game r3-b1-g1 · International draughts``."""
    parts = []
    if game.round is not None:
        parts.append(f"Round {game.round}")
    if game.board is not None:
        parts.append(f"board {game.board}")
    parts.append(f"game {game.key}")
    if variant is not None:
        parts.append(variant.title)
    return " · ".join(parts)


def status_text(labels: list[str], ply: int) -> str:
    """The line under the board at `ply`, as the viewer words it: ``After 12. 32-28 (ply 23 of 80)``."""
    return "Start position" if ply == 0 else f"After {labels[ply - 1]} (ply {ply} of {len(labels)})"


def standard_start(record: GameRecord, variant: Variant | None, start: Position | None = None) -> bool:
    """Whether the game starts from the variant's start position (`start`: the game's, when known)."""
    if variant is None:
        return False
    try:
        return (start or Position.from_fen(variant, record.start_fen)) == Position.start(variant)
    except ValueError:
        return False


def imported_date(record: GameRecord) -> str:
    """When an imported game was played, as its file says: the day of its Date tag, the tag as written
    when it gives less than a day (``1996.??.??``), else ``unknown``. Never the time it is stored with,
    which for a game without a date is when it was imported."""
    day = tag_date(record.tags)
    if day is not None:
        return formatting.day(day)
    written = " ".join((tag_value(record.tags, "Date") or "").split())
    return written if written.strip("?.-/ ") else "unknown"


@cache
def _game_template() -> jinja2.Template:
    """The game page's template, found once a process: a publisher renders one for every game, and
    finding the templates' folder resolves a path on the disk."""
    return environment(templates_dir()).get_template("game.html")


@dataclass(frozen=True)
class Neighbour:
    """The game before or after, for the page's links: its key and its page's file name."""

    key: str
    page: str


@dataclass(frozen=True)
class GameJob:
    """Everything one game page needs, and nothing more, so that it can be made in another process."""

    event: EventInfo
    game: GameEntry
    page: str
    """The page's file name without ``.html`` (the PDN file gets ``.pdn``)."""
    previous: Neighbour | None
    following: Neighbour | None
    slugs: dict[str, str]
    """The engine page of each of the two players."""
    has_openings: bool
    played: tuple[int, ...] | None = None
    """The positions the referee went through, when the publisher was handed them (see `replay`)."""


def page_context(
    event: EventInfo, game: GameEntry, pdn_file: str, played: tuple[int, ...] | None = None
) -> tuple[dict[str, Any], str]:
    """The page's own template values, and the game's PDN text (`played`: see `GameJob`)."""
    record = game.record
    assert record is not None, "only played games have a page"
    replayed: Replay = replay(record, played)
    variant = replayed.variant
    pdn = game_pdn(event, game, record, replayed)
    rows = move_rows(record, replayed.first_turn_is_first_mover, replayed.positions)
    labels = [f"{row.number} {row.text}" for row in rows[: len(replayed.steps)]]
    board: Markup | None = None
    last = len(replayed.boards) - 1
    if variant is not None and replayed.boards:
        # The final position, which a page read without scripts shows; the viewer starts from it.
        board = board_svg(
            variant.geometry,
            replayed.boards[last],
            f"{record.white.name} – {record.black.name}",
            replayed.mules[last] if replayed.mules else None,
            ply=last,
            last_move=replayed.steps[last - 1] if last > 0 else None,
        )
    data: dict[str, Any] = {"boards": list(replayed.boards), "steps": list(replayed.steps), "labels": labels}
    if replayed.mules:
        data["mules"] = [list(squares) for squares in replayed.mules]
    first = variant.first_to_move if variant is not None else Color.WHITE
    heading = [("white", record.white), ("black", record.black)]
    context = {
        "game": game,
        "heading": heading[::-1] if first is Color.BLACK else heading,
        "place": place(game, variant),
        "result": pdn_result(record),
        "board": board,
        # What the board shows, in the viewer's words (it rewrites them as it steps).
        "status": status_text(labels, max(last, 0)),
        "replay_fault": replayed.fault,
        "moves": rows,
        "move_rows": move_table_rows(rows),
        "standard_start": standard_start(
            record, variant, replayed.positions[0] if replayed.positions else None
        ),
        "pdn": pdn,
        "pdn_file": pdn_file,
        # An imported game has a date from its file, not a start the referee saw.
        "imported_date": imported_date(record) if event.format == IMPORTED_FORMAT else None,
        "data": script_json(data),
    }
    return context, pdn


def write_game_page(out_dir: Path, job: GameJob) -> str:
    """Write the game's page and PDN file into ``out_dir/games/``; return the PDN text."""
    context, pdn = page_context(job.event, job.game, f"{job.page}.pdn", job.played)
    context |= {
        "root": "../",
        "page": "game",
        "event": job.event,
        "engine_slugs": job.slugs,
        "has_openings": job.has_openings,
        "pdn_name": EVENT_PDN,
        "previous": job.previous,
        "next": job.following,
    }
    html = _game_template().render(context)
    write_atomic(out_dir / "games" / f"{job.page}.pdn", pdn)
    write_atomic(out_dir / "games" / f"{job.page}.html", html)
    return pdn
