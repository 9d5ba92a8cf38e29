"""`arbiter play`: one game between two engines, shown as it goes, with the result and why.

    arbiter play --variant english --tc "acf scale=0.01" --opening "11-15 23-19 8-11" random greedy

An engine is a bundled name (``random``, ``greedy``, ``alphabeta``: run as ``python -m
arbiter.players.<name>``), a CheckerBoard engine library (``cb:/path/engine.so``), a command line
(split like a shell would, never run through one), or cutechess-style settings such as
``"cmd=./scan arg=hub dir=/opt/scan option.book=false"`` (see ``arbiter.commands.engine_spec``).
ENGINE_A plays the side that moves first: Black in English draughts, White in international.
The exit code is 0 when the game was played (whatever its result), 1 when an engine could not be
started, 2 for bad options.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import typer
from pydantic import ValidationError

from arbiter.commands.engine_spec import command_line_engines
from arbiter.commands.output_files import why_unwritable
from arbiter.engines import CommLog, EngineConfigError
from arbiter.notation.pdn_model import result_text
from arbiter.notation.pdn_writer import write_pdn
from arbiter.publishing.pdn_export import record_pdn_game
from arbiter.referee.dxp_terms import dxp_clock_notes
from arbiter.referee.game import color_name
from arbiter.referee.observer import GameObserver
from arbiter.referee.record import GameRecord, MoveRecord, OpeningRecord, Side, Termination, Winner
from arbiter.referee.session import play_game_from_configs
from arbiter.referee.settings import DrawAdjudication, RefereeRules, WinAdjudication
from arbiter.referee.setup import GameSetup, GameSetupError
from arbiter.referee.timecontrol import TimeControlError, parse_time_control
from arbiter.rules import Color, Position, get_variant
from arbiter.running import event_loop
from arbiter.tournament.config import validation_problems


def _debug_echo(line: str) -> None:
    typer.echo(line, err=True)


_Rule = TypeVar("_Rule", DrawAdjudication, WinAdjudication)


def _adjudication(rule: type[_Rule], text: str | None, option: str) -> _Rule | None:
    """The adjudication rule MARGIN:MOVES gives, or None when the option is not given."""
    if text is None:
        return None
    margin, colon, moves = text.partition(":")
    try:
        numbers = float(margin), int(moves)
    except ValueError:
        raise typer.BadParameter(f"{option} expects MARGIN:MOVES such as 0.2:10, not {text!r}") from None
    try:
        return rule(margin=numbers[0], moves=numbers[1])
    except ValidationError as error:
        raise ValueError(f"{option} {text}: {validation_problems(error, option)}") from None


def board_text(position: Position) -> str:
    """The board as rows of text, from White's side: ``b``/``w`` men, ``B``/``W`` kings, ``.`` empty."""
    geometry = position.variant.geometry
    rows = []
    for row in range(geometry.height):
        cells = []
        for col in range(geometry.width):
            square = geometry.square_at(row, col)
            if square is None:
                cells.append(" ")
            else:
                piece = position.piece_at(square)
                cells.append("." if piece is None else piece.value)
        rows.append("   " + " ".join(cells))
    return "\n".join(rows)


class _Display(GameObserver):
    """Prints each move with its time and both clocks, and the board after it."""

    def __init__(self, show_board: bool) -> None:
        self.show_board = show_board
        self.clocks: dict[Side, float | None] = {Side.WHITE: None, Side.BLACK: None}
        # 1 when the variant's second mover starts (from a FEN): its move is the second half of move 1,
        # and the first mover's reply opens move 2, as PDN numbers them.
        self.second_mover_starts = 0

    def game_started(self, record: GameRecord, position: Position) -> None:
        first = position.variant.first_to_move
        self.second_mover_starts = 0 if position.turn is first else 1
        for color in (first, first.opponent):
            player = record.player(color)
            said = " ".join(player.identity.get(key, "") for key in ("name", "version")).strip()
            typer.echo(f"{color_name(color)}: {player.name}" + (f" ({said})" if said else ""))
        typer.echo(f"{position.variant.title}, time control {record.time_control}, from {record.start_fen}")
        if self.show_board:
            typer.echo(board_text(position))

    def move_played(self, record: GameRecord, move: MoveRecord, position: Position) -> None:
        if move.clock is not None:
            self.clocks[move.side] = move.clock
        number = (move.ply + self.second_mover_starts + 1) // 2
        if move.from_opening:
            timing = "opening"
        else:
            timing = f"{move.elapsed or 0.0:7.3f} s"
            clocks = [
                f"{side.value[0].upper()} {clock:.2f}"
                for side, clock in self.clocks.items()
                if clock is not None
            ]
            if clocks:
                timing += "   clocks " + " ".join(clocks)
            if move.info is not None and move.info.score is not None:
                timing += f"   score {move.info.score:+g}"
        typer.echo(f"{number:>4}. {move.side.value:<5} {move.text:<12} {timing}")
        for warning in move.warnings:
            typer.echo(f"      ! {warning}")
        if move.draw_offered:
            typer.echo("      ! offers a draw")
        if self.show_board:
            typer.echo(board_text(position))


def play_command(
    engine_a: str = typer.Argument(
        ...,
        help="The engine that moves first: random, greedy, alphabeta, cb:LIBRARY (a CheckerBoard "
        "engine), a command, or settings such as "
        "'cmd=./scan arg=hub dir=/opt/scan name=Scan option.book=false proto=hub'.",
    ),
    engine_b: str = typer.Argument(..., help="The other engine."),
    variant: str = typer.Option(
        "english", "--variant", "-v", help="Variant id, e.g. english, international."
    ),
    tc: str = typer.Option(
        "acf scale=0.01",
        "--tc",
        help="Time control, e.g. 'acf scale=0.01', 30/3600, 3600+5, st=1, depth=6. Add margin=S to accept "
        "a move up to S seconds late (the time margin; default 0: any overrun loses).",
    ),
    opening: str = typer.Option(
        "", "--opening", help="Opening moves in PDN, played before the engines move."
    ),
    fen: str | None = typer.Option(None, "--fen", help="Start from this FEN instead of the start position."),
    pdn: Path | None = typer.Option(None, "--pdn", help="Write the game to this PDN file."),
    max_plies: int | None = typer.Option(
        None, "--max-plies", min=1, help="Draw once this many plies are played."
    ),
    draw_adjudication: str | None = typer.Option(
        None,
        "--adjudicate-draw",
        metavar="MARGIN:MOVES",
        help="Draw when both scores stay within ±MARGIN (centi-men: scores are kept in centi-men).",
    ),
    win_adjudication: str | None = typer.Option(
        None,
        "--adjudicate-win",
        metavar="MARGIN:MOVES",
        help="Win when both scores agree on a lead of MARGIN or more (centi-men).",
    ),
    win_one_sided: bool = typer.Option(
        False,
        "--adjudicate-win-one-sided",
        help="...or when one engine's own scores put it behind by MARGIN for MOVES moves: it resigns.",
    ),
    auto_forced: bool = typer.Option(
        False, "--auto-forced", help="Play forced moves without asking the engine."
    ),
    show_board: bool = typer.Option(True, "--board/--no-board", help="Show the board after every move."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the result."),
    variant_name: list[str] = typer.Option(
        [],
        "--variant-name",
        metavar="ID=NAME",
        help="The engines' own name for a variant, e.g. international=normal (repeat). Scan's names are "
        "known without it. CheckerBoard engines take none: their game type decides.",
    ),
    debug: bool = typer.Option(
        False, "--debug", help="Print every line sent to and read from the engines, with its time."
    ),
) -> None:
    """Play one game between ENGINE_A (moving first) and ENGINE_B, then print the result and why."""
    try:
        control = parse_time_control(tc)
        rules_variant = get_variant(variant)
        win = _adjudication(WinAdjudication, win_adjudication, "--adjudicate-win")
        if win_one_sided:
            if win is None:
                raise ValueError("--adjudicate-win-one-sided needs --adjudicate-win MARGIN:MOVES")
            win = win.model_copy(update={"two_sided": False})
        rules = RefereeRules(
            max_plies=max_plies,
            draw_adjudication=_adjudication(DrawAdjudication, draw_adjudication, "--adjudicate-draw"),
            win_adjudication=win,
            auto_forced_moves=auto_forced,
        )
        specs = command_line_engines([engine_a, engine_b], variant_names=variant_name, debug=debug)
        first, second = (spec.config for spec in specs)
        # An engine's own tc= is its clock (cutechess -engine tc=); --tc is the other's. Its timemargin=
        # is the margin of whichever it plays under.
        own = {
            spec.config.name: parse_time_control(played)
            for spec in specs
            if (played := spec.control_played(tc)) != tc
        }
        # The clock a DXP engine cannot be told of is refused, or warned about, as `match` does.
        dxp_refusals, dxp_warnings = dxp_clock_notes(
            (spec.config, own.get(spec.config.name, control)) for spec in specs
        )
        if dxp_refusals:
            raise ValueError("\n".join(dxp_refusals))
        setup = GameSetup(
            variant=rules_variant.id,
            time_control=control,
            start_fen=fen,
            opening=OpeningRecord(moves=opening.split()) if opening.strip() else None,
            rules=rules,
        )
        start = setup.prepare().start
    except (TimeControlError, GameSetupError, ValidationError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    if pdn is not None and (why := why_unwritable(pdn)) is not None:
        typer.echo(f"error: --pdn {pdn}: {why}", err=True)  # said before the game, not after it
        raise typer.Exit(2)
    # The side to move in the start position is the one that moves first in this game.
    white, black = (first, second) if start.turn is Color.WHITE else (second, first)
    if own:
        setup = replace(setup, white_time_control=own.get(white.name), black_time_control=own.get(black.name))
    for warning in dxp_warnings:
        typer.echo(f"warning: {warning}", err=True)
    display = None if quiet else _Display(show_board)
    try:
        logs = {c.name: CommLog(c.name, echo=_debug_echo) for c in (white, black) if c.debug}
        record = event_loop.run(play_game_from_configs(setup, white, black, observer=display, comm_logs=logs))
    except EngineConfigError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    assert record.outcome is not None
    result = result_text(
        rules_variant,
        Side(record.winner.value).color if record.winner.decisive else None,
        finished=record.winner is not Winner.UNFINISHED,
    )
    plies = f"{record.plies} ply" if record.plies == 1 else f"{record.plies} plies"
    typer.echo(f"Result: {result}  {record.outcome.reason}  ({plies})")
    for warning in record.warnings:
        typer.echo(f"warning: {warning}", err=True)
    if pdn is not None:
        try:
            pdn.parent.mkdir(parents=True, exist_ok=True)  # checked above, made only now the game is over
            write_pdn(pdn, [record_pdn_game(record, defaults={"Event": "arbiter play"})])
        except OSError as error:
            typer.echo(f"error: cannot write {pdn}: {error.strerror or error}", err=True)
            raise typer.Exit(1) from None
        typer.echo(f"PDN written to {pdn}")
    if record.outcome.termination is Termination.START_FAILURE:
        raise typer.Exit(1)  # the game was played by nobody: most likely a mistyped engine


def register(app: typer.Typer) -> None:
    app.command("play")(play_command)
