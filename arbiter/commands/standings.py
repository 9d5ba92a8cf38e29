"""`arbiter standings DB`: the table and crosstable of a tournament, read from its database."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from arbiter.commands.exit_status import store_error_status
from arbiter.commands.sprt_view import (
    count_text,
    estimate_figures,
    interval_ends,
    signed,
    sprt_line,
    stored_sprt_status,
)
from arbiter.rules import UnknownVariantError, get_variant
from arbiter.store import RunStore, StoreError, TournamentInfo
from arbiter.tournament.figures import percent
from arbiter.tournament.piece_scoring import PIECE_SCORING, piece_scoring_refusal
from arbiter.tournament.scoring import FinishedGame, scheme_named
from arbiter.tournament.standings import Tally, opening_results, tally
from arbiter.tournament.stats import (
    EloEstimate,
    EloModel,
    PairedGames,
    Pentanomial,
    elo_by_pairs_or_games,
    pentanomial,
)
from arbiter.tournament.stored_standings import TournamentStandings, stored_standings


def standings_command(
    database: Path = typer.Argument(..., help="The tournament database (an SQLite file written by arbiter)."),
    tournament: str | None = typer.Option(
        None, "--tournament", "-t", help="Tournament id or name (default: the latest in the database)."
    ),
    scoring: str | None = typer.Option(
        None,
        "--scoring",
        help="Score with this scheme instead of the tournament's (e.g. 2-1-0; 'pieces': each win is "
        "worth the winner's pieces left on the board).",
    ),
    list_only: bool = typer.Option(False, "--list", help="List the tournaments in the database and stop."),
) -> None:
    """Show the standings and crosstable of a tournament stored in DATABASE."""
    console = output_console()
    try:
        scheme = scheme_named(scoring) if scoring is not None else None
    except ValueError as exc:
        typer.echo(f"error: --scoring: {exc}", err=True)
        raise typer.Exit(2) from None
    try:
        with RunStore.open(database, read_only=True) as store:
            if list_only:
                console.print(tournament_list(store.tournaments()))
                return
            info = store.find_tournament(tournament)
            refusal = _piece_refusal(info.variant) if scheme is not None and scheme.by_pieces else None
            if refusal is not None:
                typer.echo(f"error: --scoring {PIECE_SCORING}: {refusal}", err=True)
                raise typer.Exit(2)
            result = stored_standings(store, info.id, scheme)
            finished = store.finished_results(info.id)
            ratings = ratings_table(result.players, finished)
            openings = openings_table(finished, store.opening_names(info.id))
            sprt = stored_sprt_status(store, info.id)
            others = len(store.tournaments()) - 1
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(store_error_status(exc)) from None
    console.print(heading(result.tournament, result))
    if tournament is None and others:
        console.print(
            f"[dim]{others} other tournament(s) in this database: see --list, choose with -t.[/dim]"
        )
    console.print(standings_table(result))
    console.print(crosstable_table(result))
    if ratings is not None:
        console.print(ratings)
    if openings is not None:
        console.print(openings)
    if sprt is not None:
        console.print(sprt_line(sprt), markup=False, highlight=False)


_UNLIMITED_WIDTH = 1000


def _piece_refusal(variant_id: str) -> str | None:
    """Why the stored event's variant cannot be scored by pieces, or None."""
    try:
        return piece_scoring_refusal(get_variant(variant_id))
    except UnknownVariantError as error:
        return str(error)


def output_console(*, stderr: bool = False) -> Console:
    """A console for tables: the terminal's width, or, when piped into a file or another program,
    no width to fit, so that nothing is cut. `stderr`: on stderr, when stdout carries data."""
    # Names are printed as given: an engine named `x:100:` is not turned into an emoji (nor rich's
    # table of 4,000 emoji codes loaded to look it up).
    console = Console(emoji=False, stderr=stderr)
    if console.is_terminal:
        return console
    # Without colours (a file, a pipe) highlighting shows nothing: its pattern matching is skipped.
    return Console(
        width=_UNLIMITED_WIDTH, emoji=False, highlight=console.color_system is not None, stderr=stderr
    )


def register(app: typer.Typer) -> None:
    app.command("standings")(standings_command)


def points_text(points: float) -> str:
    """Points as players write them: 3, 3½, ½."""
    whole, rest = divmod(points, 1)
    if rest == 0:
        return str(int(whole))
    if rest == 0.5:
        return f"{int(whole)}½" if whole else "½"
    return f"{points:.2f}"


def _wdl(tally: Tally) -> str:
    return f"{tally.wins}-{tally.draws}-{tally.losses}"


def heading(info: TournamentInfo, result: TournamentStandings) -> str:
    unfinished = f", {info.unfinished_games} unfinished" if info.unfinished_games else ""
    return (
        f"[bold]{escape(info.name)}[/bold] (#{info.id}): {info.variant}, {info.format}, {info.time_control}, "
        f"{info.status}; {result.games} games finished{unfinished}; scoring {result.scheme.name}"
    )


def standings_table(result: TournamentStandings) -> Table:
    table = Table(title="Standings")
    longest = max((len(standing.player) for standing in result.table), default=6)
    for name in ("#", "Player", "Points", "Games", "W", "D", "L"):
        if name == "Player":
            table.add_column(name, no_wrap=True, min_width=longest)
        else:
            table.add_column(name, justify="right", no_wrap=True)
    table.add_column("White W-D-L", justify="right", no_wrap=True)
    table.add_column("Black W-D-L", justify="right", no_wrap=True)
    table.add_column("S-B", justify="right", no_wrap=True)
    for standing in result.table:
        overall = standing.overall
        table.add_row(
            str(standing.rank),
            escape(standing.player),
            points_text(standing.points),
            str(standing.games),
            str(overall.wins),
            str(overall.draws),
            str(overall.losses),
            _wdl(standing.as_white),
            _wdl(standing.as_black),
            f"{standing.sonneborn_berger:.2f}",
        )
    return table


def crosstable_table(result: TournamentStandings) -> Table:
    """Each row is a player's score against each opponent, in standings order.

    When every pair has played the same number of games the cells hold points and the title says how
    many games; otherwise (a tournament still running) each cell says points/games.
    """
    order = result.crosstable.players
    cells = result.crosstable.cells
    games_per_pair = {cell.record.games for cell in cells.values()}
    every_pair_met = len(cells) == len(order) * (len(order) - 1)
    even = len(games_per_pair) == 1 and every_pair_met
    title = "Crosstable (points/games)"
    if even:
        games = games_per_pair.pop()
        title = f"Crosstable ({games} game{'s' if games != 1 else ''} per pair)"
    table = Table(title=title, min_width=len(title))
    table.add_column("#", justify="right")
    table.add_column("Player", no_wrap=True, min_width=max((len(name) for name in order), default=6))
    for number in range(1, len(order) + 1):
        table.add_column(str(number), justify="center", no_wrap=True)
    for number, player in enumerate(order, start=1):
        row: list[str] = []
        for opponent in order:
            cell = result.crosstable.cell(player, opponent)
            if opponent == player:
                row.append("[dim]×[/dim]")
            elif cell is None:
                row.append("[dim]·[/dim]")
            else:
                points = points_text(cell.points)
                row.append(points if even else f"{points}/{cell.record.games}")
        table.add_row(str(number), escape(player), *row)
    return table


def ratings_table(players_in_order: Sequence[str], games: Sequence[FinishedGame]) -> Table | None:
    """Elo differences with 95% intervals, LOS and normalized Elo, from the complete game pairs where
    the games were played in pairs (with the pentanomial counts), from single games otherwise.

    For two players the figures are the first player's against the second; for more, each player's
    against the field.
    """
    players = list(players_in_order)
    if len(players) < 2 or not games:
        return None
    duel = len(players) == 2
    table = Table(
        title="Ratings" + (f" ({players[0]} against {players[1]})" if duel else " (against the field)"),
        caption="Elo, interval, LOS and nElo come from what is Counted: single games, or the complete "
        "pairs where games were played in opening pairs.",
    )
    columns = ("Player", "Games", "Counted", "Elo", "95% interval", "LOS", "Pairs LL-LD-WL/DD-WD-WW", "nElo")
    for name in columns:
        table.add_column(name, justify="left" if name == "Player" else "right", no_wrap=True)
    for player in players[:1] if duel else players:
        opponent = players[1] if duel else None
        record = tally(games, player, opponent)
        if record.games == 0:
            continue
        paired = pentanomial(games, player, opponent)
        estimate = elo_by_pairs_or_games(record, paired.counts, paired.games)
        normalized = elo_by_pairs_or_games(record, paired.counts, paired.games, model=EloModel.NORMALIZED)
        table.add_row(
            escape(player),
            str(record.games),
            _counted(record, paired),
            "-" if estimate is None else signed(estimate.elo),
            "none yet: no complete pair" if estimate is None else interval_cell(estimate),
            "-" if estimate is None else percent(estimate.los),
            _pairs_text(paired.counts) if paired.games else "-",
            "-" if normalized is None else _normalized_cell(normalized),
        )
    return table


def _counted(record: Tally, paired: PairedGames) -> str:
    """``100 games``, ``50 pairs``, or ``49 pairs, 2 games left out``: what the figures count."""
    if not paired.games:
        return count_text(record.games, "game")
    left_out = record.games - 2 * paired.counts.pairs
    pairs = count_text(paired.counts.pairs, "pair")
    return f"{pairs}, {count_text(left_out, 'game')} left out" if left_out else pairs


def _pairs_text(counts: Pentanomial) -> str:
    """``1-3-2/8-5-1``: the pentanomial counts, WL and DD apart."""
    return f"{counts.ll}-{counts.ld}-{counts.wl}/{counts.dd}-{counts.wd}-{counts.ww}"


def _normalized_cell(estimate: EloEstimate) -> str:
    """``+27.6 ± 107.7``; the figure alone where there is no interval (the interval cell says why)."""
    return signed(estimate.elo) if estimate.no_interval_reason is not None else estimate_figures(estimate)


def interval_cell(estimate: EloEstimate) -> str:
    """``[-12.0, +35.5]``, or why there is no interval yet (``none yet: every game drawn``)."""
    reason = estimate.no_interval_reason
    if reason is not None:
        return f"none yet: {reason}"
    return interval_ends(estimate)


def openings_table(games: Sequence[FinishedGame], names: Mapping[str, str]) -> Table | None:
    """Per opening and pair of players, each side's wins, draws and losses with each colour (None when
    the games started from no openings). Openings come in playing order; `names` maps ids to names."""
    results = opening_results(games)
    if not results:
        return None
    table = Table(title="Openings (each side's wins-draws-losses with each colour)")
    table.add_column("Opening", no_wrap=True)
    table.add_column("Name")
    table.add_column("Player", no_wrap=True)
    for name in ("Games", "White W-D-L", "Black W-D-L", "Score"):
        table.add_column(name, justify="right", no_wrap=True)
    for result in results:
        for row, player in enumerate(result.players):
            record = result.by_player[player]
            overall = record.as_white + record.as_black
            table.add_row(
                escape(result.opening_id) if row == 0 else "",
                escape(_opening_name(names, result.opening_id)) if row == 0 else "",
                escape(player),
                str(overall.games),
                _wdl(record.as_white),
                _wdl(record.as_black),
                points_text(overall.score),
            )
        table.add_section()
    return table


def _opening_name(names: Mapping[str, str], opening_id: str) -> str:
    """An opening's name, or nothing where its games were stored with its id as name."""
    name = names.get(opening_id, "")
    return "" if name == opening_id else name


def tournament_list(infos: list[TournamentInfo]) -> Table:
    table = Table(title="Tournaments")
    for name in (
        "Id",
        "Name",
        "Variant",
        "Format",
        "Time control",
        "Status",
        "Finished",
        "Unfinished",
        "Updated",
    ):
        table.add_column(name, justify="right" if name in ("Id", "Finished", "Unfinished") else "left")
    for info in infos:
        table.add_row(
            str(info.id),
            escape(info.name),
            info.variant,
            info.format,
            info.time_control,
            str(info.status),
            str(info.finished_games),
            str(info.unfinished_games),
            info.updated_at.strftime("%Y-%m-%d %H:%M"),
        )
    return table
