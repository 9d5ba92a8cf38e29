"""The live terminal view of a running event: games done and left, running games, standings, faults."""

from __future__ import annotations

import time

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from arbiter.commands.standings import standings_table
from arbiter.referee.record import GameRecord, Termination, Winner
from arbiter.store import TournamentStore
from arbiter.tournament.schedule import GameKey, PlannedGame

_TIME_LOSSES = {Termination.TIME_FORFEIT, Termination.IMPROPER_DELAY}
_FORFEITS = {
    Termination.ILLEGAL_MOVE,
    Termination.UNPARSABLE_OUTPUT,
    Termination.CRASH,
    Termination.NO_ANSWER,
    Termination.START_FAILURE,
}


class LiveView:
    """A rich view, redrawn as games start and end; plain lines when the output is not a terminal."""

    def __init__(self, store: TournamentStore, console: Console | None = None) -> None:
        self.store = store
        self.console = console or Console()
        self.tournament_id: int | None = None
        self.total = 0
        self.done = 0
        self.running: dict[GameKey, tuple[PlannedGame, float]] = {}
        self.time_losses = 0
        self.forfeits = 0
        self.messages: list[str] = []
        self._live: Live | None = None

    def __enter__(self) -> LiveView:
        if self.console.is_terminal:
            self._live = Live(self._render(), console=self.console, refresh_per_second=4, transient=False)
            self._live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self._live.update(self._render())
            self._live.__exit__(None, None, None)

    def attach(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id

    # ------------------------------------------------------------------ RunObserver

    def run_started(self, total: int, done: int, pending: int) -> None:
        self.total, self.done = total, done
        if done:
            self._say(f"resuming: {done} of {total} games already played, {pending} to play")
        else:
            self._say(f"{total} games to play")
        self._refresh()

    def game_started(self, game: PlannedGame) -> None:
        self.running[game.key] = (game, time.monotonic())
        self._refresh()

    def game_finished(self, game: PlannedGame, record: GameRecord) -> None:
        self.running.pop(game.key, None)
        outcome = record.outcome
        if outcome is not None and outcome.winner is not Winner.UNFINISHED:
            self.done += 1
            if outcome.termination in _TIME_LOSSES:
                self.time_losses += 1
            if outcome.termination in _FORFEITS:
                self.forfeits += 1
        reason = outcome.reason if outcome else "unfinished"
        players = f"{game.white} (White) - {game.black} (Black)"
        self._say(f"[{self.done}/{self.total}] {game.key} {players}: {reason} ({record.plies} plies)")
        self._refresh()

    def message(self, text: str) -> None:
        self._say(text)
        self._refresh()

    # ------------------------------------------------------------------ drawing

    def _say(self, text: str) -> None:
        if self._live is None:
            self.console.print(text, markup=False, highlight=False)
        else:
            self.messages = (self.messages + [text])[-6:]

    def _refresh(self) -> None:
        if self._live is not None:
            self._live.update(self._render())

    def _render(self) -> Group:
        parts: list[Table | Text] = [
            Text(
                f"games {self.done}/{self.total}   running {len(self.running)}   "
                f"time losses {self.time_losses}   forfeits {self.forfeits}",
                style="bold",
            )
        ]
        if self.running:
            running = Table(title="running", show_edge=False)
            for column in ("game", "white", "black", "seconds"):
                running.add_column(column)
            now = time.monotonic()
            for key, (game, started) in sorted(self.running.items(), key=lambda item: str(item[0])):
                running.add_row(str(key), game.white, game.black, f"{now - started:.0f}")
            parts.append(running)
        if self.tournament_id is not None:
            parts.append(standings_table(self.store.standings(self.tournament_id)))
        parts.extend(Text(m) for m in self.messages)
        return Group(*parts)
