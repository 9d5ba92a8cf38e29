"""`arbiter engine check -- CMD ...`: start an engine, talk to it, and say what it does and how fast."""

from __future__ import annotations

import asyncio
import importlib
import tempfile
import time
from collections.abc import Awaitable, Callable
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import TypeVar

import typer
from pydantic import ValidationError

from arbiter.commands.capture_position import capture_position
from arbiter.commands.engine_spec import EngineSpecError, default_engine_name, parse_variant_names
from arbiter.engines import (
    CommLog,
    DxpSettings,
    EngineClient,
    EngineConfig,
    EngineConfigError,
    EngineFault,
    EngineIdentity,
    MoveTime,
    SearchResult,
    Timeouts,
    create_engine,
)
from arbiter.engines.checkerboard import PREFIX as CB_PREFIX
from arbiter.engines.checkerboard import is_checkerboard_name
from arbiter.engines.config import ParamValue
from arbiter.engines.variant_names import engine_variant_name
from arbiter.notation.movetext import MoveTextError, parse_hub
from arbiter.players import PLAYER_MODULES
from arbiter.rules import VARIANTS, Position, UnknownVariantError, Variant, get_variant
from arbiter.rules.variants import engine_variant
from arbiter.tournament.config import BUNDLED_SCORE_UNIT, bundled_command, validation_problems

T = TypeVar("T")

# Without --variant: what most Hub engines play, and the only game DXP knows.
DEFAULT_VARIANT = {"hub": "english", "dxp": "international", "checkerboard": "english"}


class Protocol(StrEnum):
    hub = "hub"
    dxp = "dxp"
    checkerboard = "checkerboard"


class ScoreUnitChoice(StrEnum):
    men = "men"
    centi_men = "centi-men"
    milli_men = "milli-men"


class DxpMode(StrEnum):
    engine_listens = "engine_listens"
    engine_connects = "engine_connects"


class _Report:
    """Prints each step as it happens, with the time it took."""

    def __init__(self) -> None:
        self.failed = False
        self.illegal: list[str] = []  # moves the rules do not allow, as messages

    async def step(self, label: str, action: Callable[[], Awaitable[T]]) -> T:
        started = time.monotonic()
        try:
            value = await action()
        except EngineFault as fault:
            self.failed = True
            typer.echo(
                f"{label:<28} FAULT {fault.kind} after {time.monotonic() - started:.3f} s: {fault.message}"
            )
            raise
        typer.echo(f"{label:<28} {time.monotonic() - started:8.4f} s")
        return value


def _parse_settings(pairs: list[str]) -> dict[str, ParamValue]:
    settings: dict[str, ParamValue] = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        if not equals or not name:
            typer.echo(f"error: --set expects NAME=VALUE, not {pair!r}", err=True)
            raise typer.Exit(2)
        settings[name] = value
    return settings


def _describe_result(result: SearchResult) -> str:
    if result.resigned:
        answer = "resigns"
    elif result.move is None:
        answer = "claims a draw"
    else:
        answer = result.move + (" (offers a draw)" if result.offers_draw else "")
    info = result.final_info
    details = ""
    if info is not None:
        parts = [f"depth {info.depth}" if info.depth is not None else ""]
        parts.append(f"score {info.score:g}" if info.score is not None else "")
        parts.append(f"nodes {info.nodes}" if info.nodes is not None else "")
        parts.append(f"pv {' '.join(info.pv)}" if info.pv else "")
        parts.append(info.extra.get("text", ""))  # a CheckerBoard engine's own words about its search
        lines = f"{len(result.infos)} info lines"
        details = ", ".join(part for part in parts if part)
        details = f" [{details}; {lines}]" if details else f" [{lines}]"
    return f"{answer} in {result.elapsed:.4f} s{details}"


def _note_late(result: SearchResult, move_time: float) -> None:
    """Say so when the answer came after the move time. The check waits longer than a game would (it is
    looking for faults), but the same answer in a game under ``st=`` that time loses it on time: an engine
    that sets itself up during its first search, or sleeps there, shows it here."""
    if result.elapsed > move_time:
        typer.echo(
            f"  late: {result.elapsed:.3f} s for a {move_time:g} s move time; "
            f"in a game under st={move_time:g} this move would lose on time"
        )


def _print_identity(engine: EngineClient) -> None:
    identity = engine.identity
    if identity is None:
        return
    typer.echo(f"  {'name':<10} {identity.name or '(none)'}")
    for label, value in (
        ("version", identity.version),
        ("author", identity.author),
        ("country", identity.country),
    ):
        if value:
            typer.echo(f"  {label:<10} {value}")
    for key, value in identity.extra.items():
        typer.echo(f"  {key:<10} {value}")
    if identity.params:
        typer.echo("parameters")
        for decl in identity.params.values():
            typer.echo(f"  {decl.name:<16} {decl.describe():<32} default {decl.default!r}")


def _print_identity_changes(before: EngineIdentity | None, after: EngineIdentity | None) -> None:
    """What the engine says of itself anew once set up (a CheckerBoard library's `about` after its first
    getmove: the book and databases it loaded)."""
    if before is None or after is None:
        return
    for key, value in after.extra.items():
        if before.extra.get(key) != value:
            typer.echo(f"  {key:<10} {value}  (once set up)")


def _variants_offered(engine: EngineClient) -> list[str]:
    """The arbiter's ids of the variants a Hub engine's `variant` enum offers (none when it has none)."""
    decl = engine.identity.params.get("variant") if engine.identity is not None else None
    if decl is None or decl.type != "enum":
        return []
    return [vid for vid in VARIANTS if engine_variant_name(vid, decl.values) in decl.values]


def _board(variant: Variant) -> str:
    return f"{variant.geometry.width}x{variant.geometry.height}"


def _check_legal(report: _Report, position: Position, result: SearchResult) -> Position | None:
    """The position after the engine's move, or None (after saying why) when it is not a legal one."""
    if result.move is None:
        return None
    try:
        return position.play(parse_hub(position, result.move))
    except MoveTextError as error:
        report.illegal.append(f"illegal move {result.move} in {position.hub()}: {error}")
        typer.echo(f"  ILLEGAL: {error}")
        return None


async def _run_check(
    config: EngineConfig,
    variant: Variant,
    defaulted: bool,
    move_time: float,
    log: Path | None,
    *,
    keep: bool = True,
) -> int:
    comm = CommLog(config.name, echo=typer.echo if config.debug else None)
    engine = create_engine(config, stderr_log=log, comm_log=comm)
    report = _Report()
    program = " ".join(config.command) if config.library is None else f"library {config.library}"
    typer.echo(f"engine '{config.name}' ({config.protocol}): {program}")
    default_note = " (the default: no --variant given)" if defaulted else ""
    typer.echo(f"variant {variant.id}{default_note}, {_board(variant)} board")
    if keep:
        typer.echo(f"stderr log: {engine.stderr_log}")
    try:
        await report.step("start", engine.start)
        typer.echo(f"pid {engine.pid}")
        await report.step("handshake", engine.handshake)
        _print_identity(engine)
        told = engine.identity
        await report.step("configure (init/ready)", lambda: engine.configure(engine_variant(variant.id)))
        if config.protocol == "checkerboard":
            typer.echo("  (with the library's first getmove, where it sets itself up: off every clock)")
            _print_identity_changes(told, engine.identity)
        await report.step("ping", engine.ping)
        await report.step("new game", engine.new_game)
        # The variant's own start, from the rules; then the engine's reply to its own first move.
        start = Position.start(variant)
        level = MoveTime(move_time)
        limit = move_time + config.timeouts.stop + 5.0
        search = partial(engine.search, start.hub(), level=level, timeout=limit)
        first = await report.step("search start", partial(search, []))
        typer.echo(f"  -> {_describe_result(first)}")
        _note_late(first, move_time)
        if config.protocol == "dxp" and engine.identity is not None:
            # A DXP engine names itself only when it accepts a game: the handshake could not show it.
            typer.echo(f"  named itself {engine.identity.name!r} in its acceptance of the game")
        after = _check_legal(report, start, first)
        if first.move is not None and after is not None:
            await engine.new_game()
            reply = await report.step(f"search after {first.move}", partial(search, [first.move]))
            typer.echo(f"  -> {_describe_result(reply)}")
            _note_late(reply, move_time)
            _check_legal(report, after, reply)
            await engine.new_game()
        found = capture_position(variant)
        if found is not None:
            position, most = found
            search_capture = partial(engine.search, position.hub(), [], level=level, timeout=limit)
            capture = await report.step("search a capture", search_capture)
            typer.echo(
                f"  from {position.fen()}, where a capture takes {most} piece{'s' if most > 1 else ''}"
            )
            typer.echo(f"  -> {_describe_result(capture)}")
            _note_late(capture, move_time)
            _check_legal(report, position, capture)
            await engine.new_game()
    except EngineFault:
        pass
    except EngineConfigError as error:
        await engine.quit()
        typer.echo(f"error: {error}", err=True)
        offered = _variants_offered(engine) if defaulted else []
        if offered and variant.id not in offered:
            # Scan offers no English: the default variant of the check is no fault of the engine's.
            typer.echo(
                f"no --variant was given, so {variant.id} was checked; the engine plays "
                f"{', '.join(offered)}: name one with --variant",
                err=True,
            )
        return 2
    await report.step("quit", engine.quit)
    problems = [f"{fault.kind}: {fault.message}" for fault in engine.faults] + report.illegal
    if problems:
        typer.echo("faults")
        for problem in problems:
            typer.echo(f"  {problem}")
    else:
        typer.echo("faults: none")
    failed = bool(problems or report.failed)
    if failed and engine.stderr_log.exists() and engine.stderr_log.stat().st_size:
        tail = engine.stderr_log.read_text(encoding="utf-8", errors="replace").splitlines()[-10:]
        typer.echo("stderr (last lines)")
        for line in tail:
            typer.echo(f"  {line}")
    if failed and not config.debug:
        # What was said, the first thing an engine author needs when something went wrong.
        typer.echo(f"communication (last {len(comm.recent)} lines; > sent, < received)")
        for line in comm.recent:
            typer.echo(f"  {line}")
    return 1 if failed else 0


def check_command(
    command: list[str] = typer.Argument(..., help="The engine's program and its arguments (after --)."),
    variant: str | None = typer.Option(
        None,
        "--variant",
        "-v",
        help="Variant id to set and to search from its start (default: english; DXP: international).",
    ),
    protocol: Protocol = typer.Option(
        Protocol.hub, "--protocol", help="hub, dxp, or checkerboard (the command is then the library)."
    ),
    name: str | None = typer.Option(None, "--name", help="A name for the engine (default: the program)."),
    working_dir: Path | None = typer.Option(None, "--cwd", help="Working directory for the engine."),
    settings: list[str] = typer.Option([], "--set", help="NAME=VALUE: set an engine parameter (repeat)."),
    move_time: float = typer.Option(0.5, "--move-time", min=0.0, help="Seconds per search."),
    handshake_timeout: float = typer.Option(10.0, "--handshake-timeout", min=0.001, help="Seconds."),
    ready_timeout: float = typer.Option(30.0, "--ready-timeout", min=0.001, help="Seconds."),
    dxp_mode: DxpMode = typer.Option(DxpMode.engine_listens, "--dxp-mode", help="Who listens (DXP)."),
    port: int = typer.Option(0, "--port", min=0, max=65535, help="DXP port (0: pick one, use {port})."),
    log: Path | None = typer.Option(None, "--log", help="Where to write the engine's stderr."),
    variant_name: list[str] = typer.Option(
        [],
        "--variant-name",
        metavar="ID=NAME",
        help="The engine's name for a variant (repeat; not for CheckerBoard engines).",
    ),
    score_unit: ScoreUnitChoice | None = typer.Option(
        None, "--score-unit", help="The unit of the engine's scores (Hub: men)."
    ),
    debug: bool = typer.Option(
        False, "--debug", help="Print every line sent to and read from the engine, with its time."
    ),
) -> None:
    """Start an engine, run the handshake and a few searches, and report identity, timings and faults.

    Example: arbiter engine check --variant international -- ./my-engine --hub

    A CheckerBoard engine library is named cb:PATH (or --protocol checkerboard -- PATH); a bundled
    engine by its name (random, greedy, alphabeta), as play and match take it.
    """
    if is_checkerboard_name(command[0]) and len(command) == 1:
        command, protocol = [command[0][len(CB_PREFIX) :]], Protocol.checkerboard
    bundled = command[0] if len(command) == 1 and command[0] in PLAYER_MODULES else None
    if bundled is not None and protocol is Protocol.hub:
        command = bundled_command(bundled)
        name = name or bundled
        if score_unit is None:
            score_unit = ScoreUnitChoice(BUNDLED_SCORE_UNIT)
    try:
        rules = get_variant(variant or DEFAULT_VARIANT[protocol.value])
    except UnknownVariantError as error:
        typer.echo(f"error: --variant: {error}", err=True)
        raise typer.Exit(2) from None
    try:
        library = Path(command[0]) if protocol is Protocol.checkerboard else None
        if library is not None and len(command) > 1:
            raise typer.BadParameter("a CheckerBoard engine is one library path, with no arguments")
        program: dict[str, object] = {"command": command} if library is None else {"library": library}
        config = EngineConfig.model_validate(
            {
                "name": name or (library.stem if library is not None else default_engine_name(command)),
                **program,
                "protocol": protocol.value,
                "working_dir": working_dir,
                "params": _parse_settings(settings),
                "timeouts": Timeouts(handshake=handshake_timeout, ready=ready_timeout),
                "dxp": DxpSettings(mode=dxp_mode.value, port=port),
                "variant_names": parse_variant_names(variant_name),
                "score_unit": score_unit.value if score_unit is not None else None,
                "debug": debug,
            }
        )
    except EngineSpecError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    except ValidationError as error:
        typer.echo(f"error: {validation_problems(error, 'engine')}", err=True)
        raise typer.Exit(2) from None
    if log is not None:
        code = asyncio.run(_run_check(config, rules, variant is None, move_time, log))
        raise typer.Exit(code)
    # Without --log the stderr is kept only while the check runs (its end is shown with a failure).
    with tempfile.TemporaryDirectory(prefix="arbiter-check-") as scratch:
        scratch_log = Path(scratch) / "stderr.log"
        code = asyncio.run(_run_check(config, rules, variant is None, move_time, scratch_log, keep=False))
    raise typer.Exit(code)


def _bundled_runner(name: str) -> Callable[[typer.Context], None]:
    def run_bundled(context: typer.Context) -> None:
        module = importlib.import_module(PLAYER_MODULES[name])
        raise typer.Exit(module.main(list(context.args)))

    run_bundled.__doc__ = (
        f"Run the bundled `{name}` engine, speaking Hub on stdin/stdout "
        f"(the same as `python -m {PLAYER_MODULES[name]}`; --help lists its options)."
    )
    return run_bundled


def register(app: typer.Typer) -> None:
    engine_app = typer.Typer(help="Check engines, or run a bundled one.", no_args_is_help=True)
    engine_app.command("check")(check_command)
    for name in PLAYER_MODULES:
        engine_app.command(
            name,
            context_settings={
                "allow_extra_args": True,
                "ignore_unknown_options": True,
                "help_option_names": [],
            },
        )(_bundled_runner(name))
    app.add_typer(engine_app, name="engine")
