"""`arbiter stats sprt`: the SPRT calculator, from counts or from a stored match (docs/statistics.md)."""

from __future__ import annotations

from pathlib import Path

import typer
from pydantic import ValidationError

from arbiter.commands.exit_status import store_error_status
from arbiter.commands.sprt_view import count_text, estimate_text
from arbiter.store import StoreError
from arbiter.tournament.config import TournamentConfig, validation_problems
from arbiter.tournament.figures import percent
from arbiter.tournament.sprt_status import match_sprt_status, sprt_status
from arbiter.tournament.stats import (
    EloEstimate,
    Pentanomial,
    SprtResult,
    SprtSettings,
    elo_from_pentanomial,
    elo_from_wdl,
    elo_model_named,
    sprt_pentanomial,
    sprt_wdl,
)

stats_app = typer.Typer(help="Statistics calculators for engine testing.", no_args_is_help=True)

_DECISIONS = {"H0": "H0 accepted", "H1": "H1 accepted", "continue": "continue (undecided)"}


class _InputError(ValueError):
    """Options that do not make a test; the message names the option."""


@stats_app.command("sprt")
def sprt_command(
    database: Path | None = typer.Argument(
        None, help="A tournament database: test the counts of its match (instead of --wdl/--pentanomial)."
    ),
    tournament: str | None = typer.Option(
        None, "--tournament", "-t", help="Tournament id or name in DATABASE (default: the latest)."
    ),
    wdl: str | None = typer.Option(None, "--wdl", help="Counts of single games: WINS,DRAWS,LOSSES."),
    pairs: str | None = typer.Option(
        None, "--pentanomial", help="Counts of game pairs scoring 0, ½, 1, 1½, 2 points: P0,P1,P2,P3,P4."
    ),
    elo0: float | None = typer.Option(None, "--elo0", help="H0: the Elo difference is this (default 0)."),
    elo1: float | None = typer.Option(None, "--elo1", help="H1: the Elo difference is this (default 5)."),
    alpha: float | None = typer.Option(None, "--alpha", help="False positive rate (default 0.05)."),
    beta: float | None = typer.Option(None, "--beta", help="False negative rate (default 0.05)."),
    model: str | None = typer.Option(
        None, "--model", help="Elo model of elo0 and elo1: logistic (default) or normalized."
    ),
) -> None:
    """Test H0 (elo0) against H1 (elo1) with the generalized SPRT; print the LLR, bounds and decision.

    With a DATABASE: its match's counts (of pairs, if played in pairs) and its stored SPRT settings.
    """
    given = {"elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta, "model": model}
    try:
        if database is not None:
            if wdl is not None or pairs is not None:
                raise _InputError("give counts (--wdl or --pentanomial) or a database, not both")
            settings, counts, player = _from_database(database, tournament, given)
        else:
            if (wdl is None) == (pairs is None):
                raise _InputError("give the counts: --wdl W,D,L or --pentanomial P0,P1,P2,P3,P4")
            settings = _settings(None, given)
            counts = _counts("--wdl", wdl, 3) if wdl is not None else _counts("--pentanomial", pairs or "", 5)
            player = None
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(store_error_status(exc)) from None
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    result, estimate, described = _test(settings, counts)
    typer.echo(f"counts: {described}" + (f": {player}" if player else ""))
    typer.echo(f"test: {settings}")
    typer.echo(f"LLR {result.llr:.4f}")
    typer.echo(f"bounds: {result.lower_bound:.4f} (H0), {result.upper_bound:.4f} (H1)")
    typer.echo(f"decision: {_DECISIONS[result.decision.value]}")
    if estimate is not None:
        typer.echo(f"{estimate_text(estimate)}, LOS {percent(estimate.los)}")


def _counts(option: str, text: str, size: int) -> tuple[int, ...]:
    words = [word.strip() for word in text.split(",")]
    shape = "W,D,L" if size == 3 else "P0,P1,P2,P3,P4"
    if len(words) != size:
        raise _InputError(f"{option}: expected {size} counts {shape}, got {text!r}")
    try:
        counts = tuple(int(word) for word in words)
    except ValueError:
        raise _InputError(f"{option}: counts are whole numbers ({shape}), got {text!r}") from None
    if any(count < 0 for count in counts):
        raise _InputError(f"{option}: counts cannot be negative, got {text!r}")
    return counts


def _settings(stored: SprtSettings | None, given: dict[str, float | str | None]) -> SprtSettings:
    """The options given, over the stored settings, over the defaults (elo0 0, elo1 5)."""
    base = stored or SprtSettings(0.0, 5.0)
    model = given["model"]
    return SprtSettings(
        elo0=_number(given["elo0"], base.elo0),
        elo1=_number(given["elo1"], base.elo1),
        alpha=_number(given["alpha"], base.alpha),
        beta=_number(given["beta"], base.beta),
        model=base.model if model is None else elo_model_named(str(model)),
    )


def _number(value: float | str | None, default: float) -> float:
    return default if value is None else float(value)


def _from_database(
    path: Path, reference: str | None, given: dict[str, float | str | None]
) -> tuple[SprtSettings, tuple[int, ...], str]:
    from arbiter.store import TournamentStore  # the ORM, for the players

    with TournamentStore.open(path, create=False) as store:
        info = store.find_tournament(reference)
        players = [engine.name for engine in store.engines(info.id)]
        if len(players) != 2:
            raise _InputError(
                f"{path}: tournament {info.name!r} has {len(players)} players; the SPRT tests a match of two"
            )
        try:
            config: TournamentConfig | None = TournamentConfig.model_validate(info.config(), strict=False)
        except ValueError as exc:  # a pydantic ValidationError is one
            config = None
            why = validation_problems(exc, "settings") if isinstance(exc, ValidationError) else str(exc)
            # Its own test and whether its games were played in pairs are unknown: say so, not guess.
            typer.echo(
                f"warning: {path}: the stored settings of tournament {info.name!r} cannot be read "
                f"({why}): the test is the options' (or the defaults'), "
                "counted by single games",
                err=True,
            )
        stored = config.sprt if config is not None else None
        settings = _settings(stored, given)
        paired = config.repeat if config is not None else False
        if settings == stored:  # the match's own test: over the games it counted, as it decided
            status = match_sprt_status(store, info.id, settings, players[0], players[1], paired=paired)
        else:
            status = sprt_status(
                settings, store.finished_results(info.id), players[0], players[1], paired=paired
            )
    counts: tuple[int, ...]
    if status.pentanomial is not None:
        counts = status.pentanomial.bins
    else:
        counts = (status.wins, status.draws, status.losses)
    described = f"{players[0]} against {players[1]}, from {path}"
    if status.after_decision:
        later = count_text(status.after_decision, "game")
        described += f"; {later} finished after the test decided, not counted"
    return settings, counts, described


def _test(settings: SprtSettings, counts: tuple[int, ...]) -> tuple[SprtResult, EloEstimate | None, str]:
    """The test, the Elo estimate in its model (None without a game) and the counts in words."""
    if len(counts) == 3:
        wins, draws, losses = counts
        estimate = elo_from_wdl(wins, draws, losses, model=settings.model) if wins + draws + losses else None
        results = ", ".join(
            (count_text(wins, "win"), count_text(draws, "draw"), count_text(losses, "loss", "losses"))
        )
        games = wins + draws + losses
        ratio = f", draw ratio {100 * draws / games:.1f}%" if games else ""
        described = f"{results} ({count_text(games, 'game')}{ratio})"
        return sprt_wdl(settings, wins, draws, losses), estimate, described
    ll, ld, even, wd, ww = counts
    pairs = Pentanomial(ll=ll, ld=ld, dd=even, wd=wd, ww=ww)
    estimate = elo_from_pentanomial(pairs, model=settings.model) if pairs.pairs else None
    counted = f"{count_text(pairs.pairs, 'pair')}, {count_text(2 * pairs.pairs, 'game')}"
    described = f"pairs {ll}-{ld}-{even}-{wd}-{ww} ({counted})"
    return sprt_pentanomial(settings, pairs), estimate, described


def register(app: typer.Typer) -> None:
    app.add_typer(stats_app, name="stats")
