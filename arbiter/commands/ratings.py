"""`arbiter ratings DB [DB...]`: one rating list over every game of every tournament in the databases."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import typer
from rich.markup import escape
from rich.table import Table

from arbiter.commands.exit_status import store_error_status
from arbiter.commands.sprt_view import signed
from arbiter.commands.standings import output_console
from arbiter.engines.params import EngineIdentity
from arbiter.store import StoreError
from arbiter.tournament.ratings import RatedGame, RatingError, RatingList, fit_ratings


def ratings_command(
    databases: list[Path] = typer.Argument(
        ..., help="Tournament databases (SQLite files written by arbiter)."
    ),
    anchor: str | None = typer.Option(
        None, "--anchor", help="Give this engine the anchor rating (default: the average gets it)."
    ),
    anchor_rating: float = typer.Option(
        0.0, "--anchor-rating", help="The anchor's rating, or the average rating without --anchor."
    ),
    prior: float | None = typer.Option(
        None,
        "--prior",
        min=0.0,
        help="Virtual draws per pairing (default: none, or 1 when a rating would be infinite).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the list as JSON."),
) -> None:
    """Rate every engine from all its games in DATABASES: Bradley-Terry maximum likelihood, as Ordo.

    An engine is the same across tournaments if its name and announced identity are the same.

    Intervals take the two games of an opening pair together; with virtual draws (--prior) they are
    BayesElo's, from the model with the virtual draws in it.
    """
    try:
        collected = collect_games(databases)
        rated = fit_ratings(collected.games, anchor=anchor, anchor_rating=anchor_rating, prior=prior)
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(store_error_status(exc)) from None
    except RatingError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps(ratings_json(rated, collected), indent=2, ensure_ascii=False))
        return
    console = output_console()
    console.print(ratings_list_table(rated, collected))
    if rated.prior:
        console.print(
            f"[dim]each pairing counts {rated.prior:g} virtual draw(s) (--prior), so that an engine "
            "that won or lost every game still gets a finite rating[/dim]"
        )


@dataclass(frozen=True)
class CollectedGames:
    games: list[RatedGame]
    identities: dict[str, str]
    """Each engine's label and what it announced itself as (empty when it never started)."""
    tournaments: int
    databases: int


def identity_text(identity: EngineIdentity | None) -> str:
    if identity is None:
        return ""
    return f"{identity.name} {identity.version}".strip()


@dataclass(frozen=True)
class _Found:
    """A finished game as read, its engines as (name, identity)."""

    white: tuple[str, str]
    black: tuple[str, str]
    score: float
    unit: tuple[int, int, int] | None


def collect_games(paths: Sequence[Path]) -> CollectedGames:
    """The finished games of every tournament in `paths`, the players named by engine.

    An engine's label is its name; where one name stands for engines that announced different
    identities, the identity is added in brackets. A tournament entry that never started (no identity)
    counts as the engine of that name when there is only one.
    """
    found: list[_Found] = []
    seen: dict[str, set[str]] = {}
    from arbiter.store import TournamentStore  # the ORM, for the engines' identities

    tournaments = 0
    for number, path in enumerate(paths):
        with TournamentStore.open(path, create=False) as store:
            for info in store.tournaments():
                tournaments += 1
                known = {e.name: identity_text(e.identity) for e in store.engines(info.id)}
                for game in store.finished_results(info.id):
                    white = (game.white, known.get(game.white, ""))
                    black = (game.black, known.get(game.black, ""))
                    for name, ident in (white, black):
                        seen.setdefault(name, set()).add(ident)
                    unit = None if game.pair_index is None else (number, info.id, game.pair_index)
                    found.append(_Found(white, black, game.fraction_for(game.white), unit))
    labels: dict[tuple[str, str], str] = {}
    identities: dict[str, str] = {}
    for name, idents in seen.items():
        announced = sorted(i for i in idents if i)
        for ident in idents:
            if len(announced) <= 1:
                label, shown = name, (announced[0] if announced else "")
            else:
                label, shown = f"{name} [{ident or 'unidentified'}]", ident
            labels[(name, ident)] = label
            identities[label] = shown
    games = [RatedGame(labels[f.white], labels[f.black], f.score, f.unit) for f in found]
    return CollectedGames(games=games, identities=identities, tournaments=tournaments, databases=len(paths))


def ratings_list_table(rated: RatingList, collected: CollectedGames) -> Table:
    anchored = (
        f"{rated.anchor} = {rated.anchor_rating:g}" if rated.anchor else f"average = {rated.anchor_rating:g}"
    )
    table = Table(
        title=f"Rating list ({anchored}; {rated.games} games, {collected.tournaments} tournament(s), "
        f"{collected.databases} database(s))"
    )
    for name in ("#", "Engine", "Rating", "±", "95% interval", "Games", "Score", "W-D-L", "Identity"):
        table.add_column(name, justify="left" if name in ("Engine", "Identity") else "right", no_wrap=True)
    for rank, row in enumerate(rated.ratings, start=1):
        table.add_row(
            str(rank),
            escape(row.player),
            signed(row.rating),
            f"{row.margin:.1f}",
            f"[{signed(row.lower)}, {signed(row.upper)}]",
            str(row.games),
            f"{row.points / row.games:.1%}" if row.games else "-",
            f"{row.wins}-{row.draws}-{row.losses}",
            escape(collected.identities.get(row.player, "")),
        )
    return table


def ratings_json(rated: RatingList, collected: CollectedGames) -> dict[str, object]:
    return {
        "anchor": rated.anchor,
        "anchor_rating": rated.anchor_rating,
        "prior": rated.prior,
        "confidence": rated.confidence,
        "games": rated.games,
        "tournaments": collected.tournaments,
        "databases": collected.databases,
        "engines": [
            {
                "rank": rank,
                "name": row.player,
                "identity": collected.identities.get(row.player, ""),
                "rating": row.rating,
                "error": row.error,
                "lower": row.lower,
                "upper": row.upper,
                "games": row.games,
                "wins": row.wins,
                "draws": row.draws,
                "losses": row.losses,
                "score": row.points / row.games if row.games else None,
            }
            for rank, row in enumerate(rated.ratings, start=1)
        ],
    }


def register(app: typer.Typer) -> None:
    app.command("ratings")(ratings_command)
