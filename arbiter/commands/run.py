"""`arbiter run` (a whole event from a tournament file) and `arbiter match` (two engines, from flags)."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from pydantic import ValidationError
from rich.console import Console

from arbiter.commands.engine_spec import CLOCK_KEYS, EngineSpec, command_line_engines, parse_each
from arbiter.commands.exit_status import FAILED, store_error_status
from arbiter.commands.live_view import LiveView
from arbiter.commands.output_files import why_folder_unwritable
from arbiter.commands.run_extras import (
    ExtrasObserver,
    RunExtras,
    finished_event,
    logs_dir,
    unwritable_outputs,
)
from arbiter.commands.sprt_view import sprt_line
from arbiter.commands.standings import (
    crosstable_table,
    openings_table,
    output_console,
    ratings_table,
    standings_table,
)
from arbiter.engines import EngineConfig, EngineIdentity, StderrBudget
from arbiter.referee.timecontrol import TimeControlError, parse_time_control
from arbiter.running import event_loop
from arbiter.running.preflight import (
    PreflightError,
    available_cpus,
    check_dxp_settings,
    crowding_warning,
    preflight_engines,
)
from arbiter.running.runner import RunError, RunFailed, RunSummary, TournamentRunner
from arbiter.store import RunStore, StoreError, StoreMovedError
from arbiter.store.run_lock import RunLock
from arbiter.tournament.config import (
    MAX_CONCURRENCY,
    Adjudication,
    ConfigError,
    EngineEntry,
    Openings,
    TournamentConfig,
    check_scheduler_address,
    database_path,
    error_location,
    given_path,
    load_tournament,
    setting_place,
)
from arbiter.tournament.openings import DECK_NAMES, OpeningError, deck_named
from arbiter.tournament.plan import OpeningSettingError
from arbiter.tournament.stats import SPRT_KEYS, SprtSettings, parse_sprt
from arbiter.tournament.stored_standings import stored_standings

if TYPE_CHECKING:
    from arbiter.report.publisher import Publisher

FORCE_CONCURRENCY_HELP = (
    "Play more games at a time than there are CPUs without the warning (fastchess -force-concurrency)."
)


def run_command(
    tournament: Path = typer.Argument(
        ..., help="The tournament file (TOML); see data/sample_tournament.toml."
    ),
    database: str | None = typer.Option(
        None, "--db", metavar="FILE", help="SQLite file to keep results in (default: the file's)."
    ),
    report: str | None = typer.Option(
        None,
        "--report",
        metavar="FOLDER",
        help="Write the HTML site here, kept up to date as games end (each on it within seconds).",
    ),
    # Bounded here as in a tournament file: the value replaces the file's without being checked again.
    concurrency: int | None = typer.Option(
        None, "--concurrency", "-c", min=1, max=MAX_CONCURRENCY, help="Games at a time."
    ),
    force_concurrency: bool = typer.Option(
        False, "--force-concurrency", help=FORCE_CONCURRENCY_HELP, show_default=False
    ),
    scheduler: str | None = typer.Option(
        None,
        "--scheduler",
        help="Play the games on the workers of this Dask scheduler (tcp://HOST:8786); docs/distributed.md.",
    ),
    debug: bool = typer.Option(
        False, "--debug", help="Log every line sent to and read from the engines, beside the database."
    ),
    json_out: Path | None = typer.Option(
        None,
        "--json",
        help="Append each finished game's result to this file as one JSON line ('-': stdout, and the "
        "rest of the output goes to stderr).",
    ),
) -> None:
    """Play a whole event. Run it again on the same database to continue where it stopped.

    Exit status: 0 when the event is over; 1 when it could not go on (an engine that fails its check
    before the games, games left whose engines could not be started, a damaged, locked or read-only
    database, one that refused a write, a Dask cluster that failed: its scheduler lost or out of reach,
    no worker able to play); 2 for a configuration error (an engine's settings or variant
    included, a database file that is not an arbiter database); 130 when stopped.
    """
    try:
        config, engines = load_tournament(tournament)
    except ConfigError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    updates: dict[str, object] = {}
    try:
        if database is not None:
            updates["database"] = database_path(database)
        if report is not None:
            updates["report"] = given_path("--report", report)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if concurrency is not None:
        updates["concurrency"] = concurrency
    if scheduler is not None:
        try:
            check_scheduler_address(scheduler)  # the file's own is checked as it is read
        except ValueError as exc:
            typer.echo(f"error: --scheduler: {exc}", err=True)
            raise typer.Exit(2) from None
        updates["scheduler"] = scheduler
    if debug:
        engines = [engine.model_copy(update={"debug": True}) for engine in engines]
    extras = RunExtras(json_out=json_out, debug=debug, force_concurrency=force_concurrency)
    _execute(config.model_copy(update=updates), engines, None, extras, settings_file=tournament)


def match_command(
    ctx: typer.Context,
    first: str | None = typer.Argument(
        None,
        help="An engine: a bundled name (random, greedy, alphabeta), cb:LIBRARY (a CheckerBoard engine), "
        "a command, or settings such as 'cmd=./scan arg=hub dir=/opt/scan name=Scan option.threads=2' "
        "(or give both with --engine).",
    ),
    second: str | None = typer.Argument(None, help="The other engine."),
    variant: str = typer.Option("english", "--variant", "-v", help="Variant id (see `arbiter variants`)."),
    tc: str | None = typer.Option(
        None, "--tc", help="Time control, e.g. 'acf scale=0.01', 40/60+0.6 (default: acf scale=0.01)."
    ),
    openings: str | None = typer.Option(
        None,
        "--openings",
        help=f"A deck ({', '.join(DECK_NAMES)}), an openings file, or a .pdn file.",
    ),
    plies: int | None = typer.Option(
        None,
        "--plies",
        min=0,
        help="With a .pdn file: each game's start and this many plies make an opening.",
    ),
    order: str | None = typer.Option(
        None, "--order", help="Opening order: sequential (default) or random (pro-checkers: random)."
    ),
    opening_start: int = typer.Option(1, "--opening-start", min=1, help="Begin with the deck's Nth opening."),
    seed: int = typer.Option(1, "--seed", help="Seed for random opening order."),
    games: int = typer.Option(2, "--games", "-n", min=1, help="Games per encounter (rounds = --rounds)."),
    rounds: int = typer.Option(1, "--rounds", "-r", min=1, help="How many encounters (cutechess -rounds)."),
    repeat: bool = typer.Option(
        False, "--repeat", help="Play each opening twice, colours swapped (pro-checkers always does)."
    ),
    concurrency: int = typer.Option(1, "--concurrency", "-c", min=1, help="Games at a time."),
    force_concurrency: bool = typer.Option(
        False, "--force-concurrency", help=FORCE_CONCURRENCY_HELP, show_default=False
    ),
    database: str = typer.Option(
        "match.sqlite", "--db", metavar="FILE", help="SQLite file to keep results in."
    ),
    report: str | None = typer.Option(
        None,
        "--report",
        metavar="FOLDER",
        help="Write the HTML site here, kept up to date as games end (each on it within seconds).",
    ),
    name: str | None = typer.Option(None, "--name", help="The event's name (default: 'A vs B')."),
    max_plies: int | None = typer.Option(
        None, "--max-plies", min=1, help="Adjudicate a draw at this length."
    ),
    sprt: list[str] | None = typer.Option(
        None,
        "--sprt",
        help="Stop when decided: --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 (or the same quoted).",
    ),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="Play the games on the workers of this Dask scheduler (tcp://HOST:8786)."
    ),
    engine: list[str] = typer.Option(
        [], "--engine", metavar="'KEY=VALUE ...'", help="An engine as cutechess's -engine takes it (twice)."
    ),
    each: str | None = typer.Option(
        None, "--each", metavar="'KEY=VALUE ...'", help="Settings for both engines (cutechess -each)."
    ),
    variant_name: list[str] = typer.Option(
        [],
        "--variant-name",
        metavar="ID=NAME",
        help="The engines' name for a variant (repeat; not for CheckerBoard engines).",
    ),
    draw_adjudication: str | None = typer.Option(
        None,
        "--adjudicate-draw",
        metavar="SCORE:MOVES",
        help="Draw when both engines' scores stay within ±SCORE centi-men for MOVES moves each.",
    ),
    draw_from: int | None = typer.Option(
        None, "--adjudicate-draw-from", min=0, help="...but not before this move number."
    ),
    win_adjudication: str | None = typer.Option(
        None,
        "--adjudicate-win",
        metavar="SCORE:MOVES",
        help="Win when both engines agree for MOVES moves each that one side leads by SCORE centi-men.",
    ),
    win_one_sided: bool = typer.Option(
        False,
        "--adjudicate-win-one-sided",
        help="...or when one engine's own scores put it behind by SCORE for MOVES moves: it resigns "
        "(cutechess-cli's -resign without twosided=true).",
    ),
    pdn_out: Path | None = typer.Option(
        None, "--pdn-out", help="Write the finished games to this PDN file when the run ends."
    ),
    json_out: Path | None = typer.Option(
        None,
        "--json",
        help="Append each finished game's result to this file as one JSON line ('-': stdout, and the "
        "rest of the output goes to stderr).",
    ),
    rating_interval: int | None = typer.Option(
        None, "--rating-interval", min=1, help="Print the score and Elo every N games."
    ),
    recover: bool = typer.Option(
        False, "--recover", help="Accepted for cutechess: a crashed engine is always started afresh."
    ),
    debug: bool = typer.Option(
        False, "--debug", help="Log every line sent to and read from the engines, beside the database."
    ),
) -> None:
    """Play a two-engine match, with the flags engine testers know from cutechess-cli and fastchess.

    The cutechess-cli/fastchess spellings work too: -engine cmd=... name=... -each tc=... -rounds N
    -games N -repeat -concurrency N -force-concurrency -openings file=... -pgnout F (or -pdnout F)
    -draw ... -resign ... -sprt ... -ratinginterval N -variant V -event NAME -srand N -maxmoves N
    -recover -debug -log ... -tournament round-robin (the README's table says what each becomes).

    Exit status: 0 when the match is over; 1 when it could not go on (an engine that fails its check
    before the games, games left whose engines could not be started, a damaged, locked or read-only
    database, one that refused a write, a Dask cluster that failed: its scheduler lost or out of reach,
    no worker able to play); 2 for a configuration error (an engine's settings or variant
    included, a database file that is not an arbiter database); 130 when stopped.
    """
    try:
        first, second, following = _sprt_words_taken_for_engines(first, second, sprt, ctx.args)
        sprt_settings = parse_sprt(_sprt_tokens(sprt or [], following)) if sprt or following else None
        each_settings = parse_each(each) if each is not None else {}
        specs = _match_engines(first, second, engine, each_settings, variant_name, debug)
        _refuse_unplayed_each(specs, each_settings)
        if tc is not None:
            _refuse_unplayed_tc(tc, specs, each_settings)
        time_control, own_controls = _match_controls(tc, specs)
        entries = [spec.entry() for spec in specs]
        draw = _score_moves(draw_adjudication, "--adjudicate-draw", least_score=0)
        win = _score_moves(win_adjudication, "--adjudicate-win", least_score=1)
        if win_one_sided and win is None:
            raise ValueError("--adjudicate-win-one-sided needs --adjudicate-win SCORE:MOVES")
        adjudication = Adjudication(
            max_plies=max_plies,
            draw_score=draw[0] if draw else None,
            draw_moves=draw[1] if draw else 10,
            draw_min_plies=2 * (draw_from or 0),
            win_score=win[0] if win else None,
            win_moves=win[1] if win else 5,
            win_two_sided=not win_one_sided,
        )
        settings: dict[str, object] = {
            "name": name or f"{entries[0]['name']} vs {entries[1]['name']}",
            "variant": variant,
            "time_control": time_control,
            "time_controls": own_controls,
            "format": "match",
            "cycles": rounds,
            "games_per_encounter": games,
            "openings": _openings(openings, plies, order, seed, opening_start),
            "concurrency": concurrency,
            "database": database_path(database),
            "report": None if report is None else given_path("--report", report),
            "adjudication": adjudication,
            "scheduler": scheduler,
            "engines": [EngineEntry.model_validate(e) for e in entries],
            "sprt": sprt_settings,  # stored with the event, so standings and the site can show it
        }
        if repeat:  # without the flag a ballot rule (pro-checkers) still plays its ballots twice
            settings["repeat"] = True
        config = TournamentConfig.model_validate(settings)
        engines = [spec.config for spec in specs]
    except ValidationError as exc:
        typer.echo(f"error: {_option_errors(exc)}", err=True)
        raise typer.Exit(2) from None
    except (ValueError, OpeningError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    extras = RunExtras(
        pdn_out=pdn_out,
        json_out=json_out,
        rating_interval=rating_interval,
        debug=debug,
        force_concurrency=force_concurrency,
    )
    _execute(config, engines, sprt_settings, extras)


def _match_engines(
    first: str | None,
    second: str | None,
    flagged: list[str],
    each: dict[str, list[str]],
    variant_names: list[str],
    debug: bool,
) -> list[EngineSpec]:
    """The two engines of a match, from the arguments and/or `--engine` (with `--each` added to both)."""
    texts: list[str | list[str]] = [text for text in (first, second) if text is not None]
    texts += flagged
    if len(texts) != 2:
        raise ValueError(f"a match needs two engines (as arguments or --engine), got {len(texts)}")
    return command_line_engines(texts, variant_names=variant_names, debug=debug, each=each)


def _match_controls(tc: str | None, specs: list[EngineSpec]) -> tuple[str, dict[str, str]]:
    """The event's time control, and the engines that play under another one, by name.

    An engine's own tc= (cutechess -engine tc=) is its clock; the others play under --tc, or without
    it the first engine's own clock. Each engine's timemargin= is the margin of the clock it plays
    under; when both play under one control (an --each timemargin= on --tc's clock), that is the
    event's.
    """
    clock = (
        tc
        if tc is not None
        else next(  # an empty --tc is refused, not defaulted
            (spec.time_control for spec in specs if spec.time_control), "acf scale=0.01"
        )
    )
    played = {spec.config.name: spec.control_played(clock) for spec in specs}
    shared = set(played.values())
    event = shared.pop() if len(shared) == 1 else clock
    return event, {name: control for name, control in played.items() if control != event}


def _refuse_unplayed_each(specs: list[EngineSpec], each: dict[str, list[str]]) -> None:
    """Refuse a clock of --each that neither engine would play under, as each has one of its own (which
    outranks --each's): it would be dropped without a word."""
    each_clock = _clock_settings(each)
    if each_clock in ([], ["tc=inf"]) or any(spec.clock_from_each for spec in specs):
        return  # (tc=inf alone gives no clock: it goes with the engines' own depth= or nodes=)
    own = ", ".join(f"engine {spec.config.name!r}: {spec.clock_setting}" for spec in specs)
    raise ValueError(
        f"--each {' '.join(each_clock)} is played by neither engine: each has a time control of its own "
        f"({own}), which outranks --each's; leave it out of --each"
    )


def _clock_settings(each: dict[str, list[str]]) -> list[str]:
    """The clock settings of --each, as given (``tc=60``, ``st=1``)."""
    return [f"{key}={value}" for key in CLOCK_KEYS for value in each.get(key, [])]


def _refuse_unplayed_tc(tc: str, specs: list[EngineSpec], each: dict[str, list[str]]) -> None:
    """Refuse a --tc that neither engine would play under, as each has a clock of its own (from --each
    or its own settings): the event would be stored and shown under a clock no game was played under."""
    if any(spec.time_control is None or _same_clock(spec.time_control, tc) for spec in specs):
        return
    each_clock = _clock_settings(each)
    if each_clock:
        raise ValueError(
            f"--tc {tc!r} and --each {' '.join(each_clock)} disagree: the engines would play under "
            "--each's clock and none under --tc's; give the clock once (--each tc= alone, as in "
            "cutechess-cli, or --tc alone)"
        )
    raise ValueError(
        f"--tc {tc!r} is played by neither engine: both have a clock of their own "
        f"({', '.join(f'{key}=' for key in CLOCK_KEYS)}); leave --tc out"
    )


def _same_clock(first: str, second: str) -> bool:
    """Whether two time-control texts say the same (as written, when either cannot be read)."""
    try:
        return parse_time_control(first) == parse_time_control(second)
    except TimeControlError:
        return first == second


def _score_moves(text: str | None, option: str, least_score: int) -> tuple[int, int] | None:
    """SCORE:MOVES as whole numbers, SCORE at least ``least_score`` and MOVES at least 1."""
    if text is None:
        return None
    score, _, moves = text.partition(":")
    try:
        numbers = int(score), int(moves)
    except ValueError:
        raise ValueError(
            f"{option} expects SCORE:MOVES in whole numbers such as 20:10, not {text!r}"
        ) from None
    # A sign or a zero is refused, not taken for something else: -500 is no threshold of a lead.
    if numbers[0] < least_score:
        raise ValueError(f"{option} {text}: SCORE must be at least {least_score} (centi-men)")
    if numbers[1] < 1:
        raise ValueError(f"{option} {text}: MOVES must be at least 1")
    return numbers


def _openings(
    text: str | None, plies: int | None, order: str | None, seed: int, start: int = 1
) -> Openings | None:
    if text is None:
        if plies is not None:
            raise ValueError("--plies cuts the games of a .pdn file given with --openings")
        return None
    spec: dict[str, object] = {"seed": seed}
    if start != 1:
        spec["start"] = start
    if not text.strip():
        raise ValueError(f"--openings is empty; give a file or a deck ({', '.join(DECK_NAMES)})")
    if Path(text).exists():
        spec["file"] = text
    elif deck_named(text) is not None:
        spec["deck"] = text
    else:
        # Not a deck: most likely a file name mistyped, or one relative to another folder.
        raise ValueError(
            f"--openings {text}: no such file (from {Path.cwd()}), and no deck of that name "
            f"(decks: {', '.join(DECK_NAMES)})"
        )
    if plies is not None:
        spec["plies"] = plies
    if order is not None:  # otherwise the deck's own order: sequential, or a ballot rule's
        spec["order"] = order
    return Openings.model_validate(spec)


# The `arbiter match` option behind each setting of the tournament it builds.
_MATCH_OPTIONS = {
    "variant": "--variant",
    "time_control": "--tc",
    "cycles": "--rounds",
    "games_per_encounter": "--games",
    "repeat": "--repeat",
    "openings": "--openings",
    "deck": "--openings",
    "file": "--openings",
    "plies": "--plies",
    "order": "--order",
    "concurrency": "--concurrency",
    "scheduler": "--scheduler",
    "start": "--opening-start",
    "draw_score": "--adjudicate-draw",
    "draw_moves": "--adjudicate-draw",
    "win_score": "--adjudicate-win",
    "win_moves": "--adjudicate-win",
}


def _option_errors(exc: ValidationError) -> str:
    """A validation error of the settings `arbiter match` built from its options, told by option."""
    lines = []
    for error in exc.errors():
        loc = error_location(error)
        key = str(loc[-1]) if loc else ""
        where = _MATCH_OPTIONS.get(key, ".".join(str(part) for part in loc) or "settings")
        lines.append(f"{where}: {str(error['msg']).removeprefix('Value error, ')}")
    return "\n".join(lines)


def _sprt_words_taken_for_engines(
    first: str | None, second: str | None, sprt: list[str] | None, extra: list[str]
) -> tuple[str | None, str | None, list[str]]:
    """The engine arguments, and the words that followed `--sprt elo0=0`.

    With both engines given by `--engine`, the words after the first setting of `--sprt elo0=0 elo1=5
    alpha=0.05` land in the engine arguments (`elo1=5` as the first engine) before the extra
    arguments. A word of SPRT settings only is no engine: it goes back to the SPRT."""
    if not sprt:
        return first, second, extra
    taken = [word for word in (first, second) if word is not None and _is_sprt_setting(word)]
    engines: list[str | None] = [word for word in (first, second) if word is not None and word not in taken]
    engines += [None] * (2 - len(engines))
    return engines[0], engines[1], [*taken, *extra]


def _is_sprt_setting(word: str) -> bool:
    """``elo1=5`` (or ``elo1=5 alpha=0.05``, quoted): settings of the SPRT only, none of an engine."""
    settings = [part.partition("=") for part in word.replace(",", " ").split()]
    return bool(settings) and all(key in SPRT_KEYS and value for key, _, value in settings)


def _sprt_tokens(given: list[str], following: list[str]) -> str:
    """The SPRT settings as one text, from `--sprt "elo0=0 elo1=10 ..."`, from `--sprt elo0=0 elo1=10
    ...` as cutechess-cli takes them (the words after the first arrive as extra arguments), or from
    `--sprt` given once per setting."""
    if following and not given:
        raise ValueError(f"unexpected arguments: {' '.join(following)}")
    for word in following:
        if "=" not in word:
            raise ValueError(f"unexpected argument {word!r} (after --sprt, settings such as elo1=10)")
    return " ".join([*given, *following])


def _execute(
    config: TournamentConfig,
    engines: list[EngineConfig],
    sprt: SprtSettings | None,
    extras: RunExtras | None = None,
    settings_file: Path | None = None,
) -> None:
    """Play the event. `settings_file`: the tournament file it was read from (`arbiter run`), where a
    setting found wrong at planning is told at its line; without one (`arbiter match`) by its option."""
    extras = extras or RunExtras()
    # `--json -`: stdout holds the JSON lines alone, for the program reading them; the rest goes to stderr.
    json_on_stdout = extras.json_out is not None and str(extras.json_out) == "-"
    console = output_console(stderr=json_on_stdout)
    if config.scheduler is not None:
        from arbiter.distributed import DistributedMissingError, require_distributed

        try:
            require_distributed()
        except DistributedMissingError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
    report_dir = config.report
    log_dir = logs_dir(config.database)
    try:
        # Planning reads and checks the openings: a bad deck stops the run before the database exists.
        runner = TournamentRunner(config, engines, sprt=sprt, log_dir=log_dir)
    except OpeningSettingError as exc:
        where = (
            setting_place(settings_file, exc.key)
            if settings_file is not None
            else _MATCH_OPTIONS.get(exc.key[-1], ".".join(exc.key))
        )
        typer.echo(f"error: {where}: {exc}", err=True)
        raise typer.Exit(2) from None
    except (ValueError, OpeningError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    # Checked without making the folder: the site writes it once the games start, so a run refused
    # before them (an engine that cannot start) leaves no empty folder behind.
    if report_dir is not None and (why := why_folder_unwritable(report_dir)) is not None:
        typer.echo(f"error: report folder {report_dir}: {why}", err=True)
        raise typer.Exit(2)
    unwritable = unwritable_outputs(extras, config.name)
    if unwritable:
        typer.echo("\n".join(f"error: {problem}" for problem in unwritable), err=True)
        raise typer.Exit(2)
    lock = RunLock(config.database)
    # An empty file is a database yet to be made, as the store makes one (a run stopped just as SQLite
    # had created the file leaves it so): made below like a missing one, not refused here for reading.
    database = config.database
    checked = database.exists() and not (database.is_file() and database.stat().st_size == 0)
    if checked:
        # A database that cannot be written (or is damaged) is said so before any engine is started.
        try:
            RunStore.open(config.database, create=False).close()
        except StoreError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(store_error_status(exc)) from None
    finished = _said_finished(console, runner, config)
    if config.scheduler is None and not finished:
        crowded = crowding_warning(config.concurrency, available_cpus())
        if crowded is not None and not extras.force_concurrency:
            typer.echo(f"warning: {crowded}", err=True)
        runner.checked = _preflight(config, engines, log_dir, runner.stderr_budgets())
    try:
        # Checked for damage above already (a whole read of the file): not read through again.
        store = RunStore.open(config.database, create=True, check=not checked)
        lock.acquire()
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(store_error_status(exc)) from None
    with store, lock:
        view = LiveView(store, console)
        first = engines[0].name if config.format == "match" else None
        observer = ExtrasObserver(view, extras, first, config.concurrency)
        runner.observer = observer
        publisher = None
        site_unwritten = False
        try:
            tournament_id = runner.open_tournament(store)
            view.attach(tournament_id)
            observer.attach(store, tournament_id)
            if report_dir is not None:
                publisher = _start_publisher(runner, store, report_dir, tournament_id)
            with view:
                summary = event_loop.run(_play(runner, store, config.scheduler))
        except RunFailed as exc:
            # The cluster the games are played on failed (its scheduler lost, say): the games stored are
            # kept and the same command resumes; nothing given was wrong.
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(FAILED) from None
        except RunError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        except StoreMovedError as exc:
            typer.echo(f"error: {exc}", err=True)  # no games kept to speak of: the file is gone from here
            raise typer.Exit(1) from None
        except StoreError as exc:
            # A full disk, say: every game stored so far is kept, and a run of the same command resumes.
            typer.echo(f"error: {exc}\n{_resume_advice(config.database)}", err=True)
            raise typer.Exit(1) from None
        except OSError as exc:
            # A file the run writes beside the database (a new engine's log, a --json line): a full
            # disk, or a folder made unwritable while the run went on. The same command resumes.
            where = f"{exc.filename}: " if exc.filename else ""
            typer.echo(
                f"error: {where}cannot write: {exc.strerror or exc}\n{_resume_advice(config.database)}",
                err=True,
            )
            raise typer.Exit(1) from None
        finally:
            observer.close()
            if publisher is not None:
                # The last refresh: the site shows the event as it ended, unless it could not be written.
                site_unwritten = publisher.close() not in (0, None)
        _print_summary(console, store, summary, None if site_unwritten else report_dir)
        if site_unwritten:
            typer.echo(
                f"error: the site in {report_dir} does not show the event as it ended: it could not be "
                f"written (the reason is above); the games are stored, and `arbiter report "
                f"{config.database} --out {report_dir}` writes it",
                err=True,
            )
        if extras.pdn_out is not None:
            _write_pdn(store, summary.tournament_id, extras.pdn_out, to_stderr=json_on_stdout)
    if summary.stopped:
        raise typer.Exit(130)
    if not summary.complete:
        # Games whose engines could not be started stay unfinished: a script must not take this run for
        # a finished event.
        left = summary.planned - summary.finished
        again = shlex.join(["arbiter", *sys.argv[1:]])
        typer.echo(
            f"error: {left} of {summary.planned} games could not be played: neither of their engines could "
            f"be started (each game's line above says why, and its record keeps it); the games played are "
            f"kept, and the same command plays the rest: {again}",
            err=True,
        )
        raise typer.Exit(1)
    if site_unwritten:
        raise typer.Exit(1)


def _preflight(
    config: TournamentConfig,
    engines: list[EngineConfig],
    log_dir: Path,
    stderr_budgets: Mapping[str, StderrBudget],
) -> dict[str, EngineIdentity]:
    """Every engine started and handshaken once before the first game; the command stops, with nothing
    stored, when one cannot play."""
    try:
        for warning in check_dxp_settings(config, engines):
            typer.echo(f"warning: {warning}", err=True)
        return event_loop.run(preflight_engines(engines, config.variant, log_dir, stderr_budgets))
    except PreflightError as exc:
        typer.echo(f"error: {exc}", err=True)
        logs = f"; engine logs: {log_dir}" if log_dir.is_dir() else ""  # none when no engine was started
        typer.echo(f"nothing was played or stored{logs}", err=True)
        raise typer.Exit(2 if exc.configuration else 1) from None
    except OSError as exc:
        # The engines' logs live beside the database: a folder that cannot be written stops the run here.
        typer.echo(f"error: cannot write the engine logs in {log_dir}: {exc.strerror or exc}", err=True)
        raise typer.Exit(1) from None


def _said_finished(console: Console, runner: TournamentRunner, config: TournamentConfig) -> bool:
    """When this very event is already finished in the database: say so and how to start a new one (its
    result follows, as after any run: no engine is started and no game played)."""
    try:
        found = finished_event(config.database, config.name)
    except StoreError:
        return False  # opened again below, where its error is reported
    if found is None:
        return False
    store, tournament_id = found
    with store:
        try:
            same = runner.open_tournament(store) == tournament_id
        except RunError:
            return False  # another configuration under this name: refused below, with the reason
        if not same:
            return False
        console.print(
            f"{config.name!r} is already finished in {config.database}: its result is below. To play it "
            "again, give another database (--db) or another name (--name)."
        )
    return True


def _write_pdn(store: RunStore, tournament_id: int, out: Path, *, to_stderr: bool = False) -> None:
    from arbiter.publishing.pdn_export import export_tournament
    from arbiter.report.files import write_atomic

    # The finished games only, as fastchess writes its -pgnout (and cutechess-cli with `fi`): a game a
    # stop abandoned is played again from its start, so its `*` copy would never be the game.
    exported = export_tournament(store, tournament_id, finished_only=True)
    try:
        write_atomic(out, "".join(exported.texts))
    except OSError as exc:
        typer.echo(f"error: {out}: cannot write: {exc.strerror or exc}", err=True)
        raise typer.Exit(1) from None
    unfinished = exported.tournament.unfinished_games
    left_out = f"; {unfinished} unfinished left out, to be played again" if unfinished else ""
    typer.echo(f"{len(exported.games)} game(s) written to {out}{left_out}", err=to_stderr)


def _resume_advice(database: Path) -> str:
    """What to do after the database refused a write: the games stored are kept; the same command
    resumes the event once the cause (a full disk) is dealt with."""
    command = shlex.join(["arbiter", *sys.argv[1:]])
    return (
        f"the games stored before in {database} are kept (a game is stored whole or not at all); "
        f"free some disk space (or see to the cause above), then resume with: {command}"
    )


async def _play(runner: TournamentRunner, store: RunStore, scheduler: str | None) -> RunSummary:
    """The run itself: here, or with the games played on a Dask cluster's workers."""
    if scheduler is None:
        return await runner.run(store)
    from arbiter.distributed.coordinator import run_on_cluster

    return await run_on_cluster(runner, store, scheduler)


def _start_publisher(runner: TournamentRunner, store: RunStore, out: Path, tournament_id: int) -> Publisher:
    """The site is published by a child process (see `arbiter.report.publisher`): the runner only
    tells it that a game was stored, and hands it the moves of the games being played."""
    from arbiter.report.publisher import Publisher

    publisher = Publisher(store.path, out, tournament_id)
    publisher.start()
    runner.game_stored = publisher.game_finished
    runner.game_observer = publisher.watch
    return publisher


def _print_summary(console: Console, store: RunStore, summary: RunSummary, report: Path | None) -> None:
    result = stored_standings(store, summary.tournament_id)
    console.print(standings_table(result))
    console.print(crosstable_table(result))
    finished = store.finished_results(summary.tournament_id)
    ratings = ratings_table(result.players, finished)
    if ratings is not None:
        console.print(ratings)
    openings = openings_table(finished, store.opening_names(summary.tournament_id))
    if openings is not None:
        console.print(openings)
    state = "stopped" if summary.stopped else "finished"
    # Games abandoned once the event is over (a stop while the games running at the SPRT's decision
    # were finishing) are not played again: a run of the same command only shows the result.
    later = "not played again: the SPRT had decided" if summary.complete else "run again to resume"
    console.print(
        f"{state}: {summary.finished}/{summary.planned} games in {store.path}"
        + (f", {summary.abandoned} abandoned ({later})" if summary.abandoned else "")
    )
    if summary.sprt is not None:
        console.print(sprt_line(summary.sprt), markup=False, highlight=False)
    if report is not None:
        console.print(f"report: {report / 'index.html'}")


def register(app: typer.Typer) -> None:
    app.command("run")(run_command)
    # The words after `--sprt elo0=0` arrive as extra arguments (see `_sprt_tokens`).
    app.command("match", context_settings={"allow_extra_args": True})(match_command)
