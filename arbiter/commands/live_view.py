"""The live terminal view of a running event: games done and left, running games, standings, faults,
and where a match's SPRT stands.

The standings are read from the database in a worker thread, at most once every few seconds: on a big
event reading them takes a while, and the event loop that runs the engines must never wait for it.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from arbiter.commands.sprt_view import sprt_line
from arbiter.commands.standings import standings_table
from arbiter.referee.record import GameRecord, Termination, Winner
from arbiter.store import Event, EventKind, RunStore
from arbiter.tournament.schedule import GameKey, PlannedGame
from arbiter.tournament.stored_standings import TournamentStandings, stored_standings

if TYPE_CHECKING:
    from rich.live import Live

    from arbiter.tournament.sprt_status import SprtStatus

TIME_LOSSES = frozenset({Termination.TIME_FORFEIT, Termination.IMPROPER_DELAY})
FORFEITS = frozenset(
    {
        Termination.ILLEGAL_MOVE,
        Termination.UNPARSABLE_OUTPUT,
        Termination.CRASH,
        Termination.NO_ANSWER,
        Termination.START_FAILURE,
    }
)
STANDINGS_EVERY_SECONDS = 2.0


class LiveView:
    """A rich view, redrawn as games start and end; plain lines when the output is not a terminal."""

    def __init__(
        self,
        store: RunStore,
        console: Console | None = None,
        *,
        standings_every: float = STANDINGS_EVERY_SECONDS,
    ) -> None:
        self.store = store
        self.console = console or Console()
        self.standings_every = standings_every
        self.tournament_id: int | None = None
        self.total = 0
        self.done = 0
        self.running: dict[GameKey, tuple[PlannedGame, float]] = {}
        self.time_losses = 0
        self.forfeits = 0
        self.faults = 0
        self.messages: list[str] = []
        self.standings: TournamentStandings | None = None
        self.sprt: SprtStatus | None = None
        self._live: Live | None = None
        self._standings_stale = False
        self._standings_reading = False
        self._standings_read_at = -math.inf
        self._standings_timer: asyncio.TimerHandle | None = None
        self.progress = ""  # a match's running score, Elo and time left (see run_extras.MatchProgress)

    def __enter__(self) -> LiveView:
        if self.console.is_terminal:
            from rich.live import Live  # only a terminal gets the live view (plain lines otherwise)

            self._live = Live(self._render(), console=self.console, refresh_per_second=4, transient=False)
            self._live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._standings_timer is not None:
            self._standings_timer.cancel()
            self._standings_timer = None
        if self._live is not None:
            if self.tournament_id is not None:
                # The run is over: the last frame shows the final standings.
                self.standings = stored_standings(self.store, self.tournament_id)
            self._live.update(self._render())
            self._live.__exit__(None, None, None)

    def attach(self, tournament_id: int) -> None:
        """Follow this tournament; a resumed event's time losses, forfeits and faults so far count too."""
        self.tournament_id = tournament_id
        endings = self.store.termination_counts(tournament_id)
        self.time_losses = sum(endings.get(termination, 0) for termination in TIME_LOSSES)
        self.forfeits = sum(endings.get(termination, 0) for termination in FORFEITS)
        self.faults = self.store.event_counts(tournament_id).get(EventKind.FAULT, 0)
        if self.console.is_terminal:
            self.standings = stored_standings(self.store, tournament_id)

    # ------------------------------------------------------------------ RunObserver

    def run_started(self, total: int, done: int, pending: int, *, abandoned: int, resumed: bool) -> None:
        self.total, self.done = total, done
        if not pending:
            pass  # a finished event: the command has said so, and shows its result
        elif resumed:  # also when the stopped run had finished no game yet
            again = ""
            if abandoned:
                again = f" ({abandoned} abandoned by the stop, played again from their start)"
            self._say(f"resuming: {done} of {total} games already played, {pending} to play{again}")
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
            if outcome.termination in TIME_LOSSES:
                self.time_losses += 1
            if outcome.termination in FORFEITS:
                self.forfeits += 1
        reason = outcome.reason if outcome else "unfinished"
        players = f"{game.white} (White) - {game.black} (Black)"
        # An abandoned game is kept with the moves it had, and played again from its start on the next run.
        if outcome is not None and outcome.termination is Termination.ABANDONED:
            length = "to be played again when the same command is run again"
            if record.plies:
                length = f"stopped at ply {record.plies}, {length}"
        else:
            length = f"{record.plies} ply" if record.plies == 1 else f"{record.plies} plies"
        self._say(f"[{self.done}/{self.total}] {game.key} {players}: {reason} ({length})")
        self._standings_stale = True
        self._read_standings()
        self._refresh()

    def events_recorded(self, events: Sequence[Event]) -> None:
        self.faults += sum(1 for event in events if event.kind is EventKind.FAULT)
        self._refresh()

    def message(self, text: str) -> None:
        self._say(text)
        self._refresh()

    def show_progress(self, text: str) -> None:
        """In the live view a line of its own under the counts; otherwise printed as one line."""
        if self._live is None:
            self._say(text)
        else:
            self.progress = text
            self._refresh()

    def sprt_updated(self, status: SprtStatus) -> None:
        self.sprt = status
        if self._live is None:
            self._say(sprt_line(status))
        self._refresh()

    # ------------------------------------------------------------------ standings, off the event loop

    def _read_standings(self) -> None:
        """Start reading the standings in a thread, unless a read is under way or one was started
        less than `standings_every` seconds ago (then a timer starts it when that time is up)."""
        if self._live is None or self.tournament_id is None:
            return
        if not self._standings_stale or self._standings_reading or self._standings_timer is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # not during a run: `__exit__` reads the final standings
        wait = self._standings_read_at + self.standings_every - time.monotonic()
        if wait > 0:
            self._standings_timer = loop.call_later(wait, self._timer_rang)
            return
        self._standings_stale = False
        self._standings_reading = True
        self._standings_read_at = time.monotonic()
        future = loop.run_in_executor(None, stored_standings, self.store, self.tournament_id)
        future.add_done_callback(self._standings_arrived)

    def _timer_rang(self) -> None:
        self._standings_timer = None
        self._read_standings()

    def _standings_arrived(self, future: asyncio.Future[TournamentStandings]) -> None:
        self._standings_reading = False
        if future.cancelled():
            return
        try:
            self.standings = future.result()
        except Exception as exc:  # a failed read must not stop the event
            self._say(f"standings not refreshed: {exc}")
        self._refresh()
        self._read_standings()  # games that finished during the read

    # ------------------------------------------------------------------ drawing

    def _say(self, text: str) -> None:
        if self._live is None and not self.console.is_terminal:
            # A log or a pipe: the line as it is (rich's rendering cost about a millisecond a line).
            self.console.file.write(text + "\n")
            self.console.file.flush()
        elif self._live is None:
            self.console.print(text, markup=False, highlight=False)
        else:
            self.messages = (self.messages + [text])[-6:]

    def _refresh(self) -> None:
        if self._live is not None:
            self._live.update(self._render())

    def _render(self) -> Group:
        left = self.total - self.done
        parts: list[Table | Text] = [
            Text(
                f"games done {self.done}/{self.total}, left {left}   running {len(self.running)}   "
                f"time losses {self.time_losses}   forfeits {self.forfeits}   faults {self.faults}",
                style="bold",
            )
        ]
        if self.progress:
            parts.append(Text(self.progress))
        if self.sprt is not None:
            parts.append(Text(sprt_line(self.sprt), style="bold"))
        if self.running:
            running = Table(title="running", show_edge=False)
            for column in ("game", "white", "black", "seconds"):
                running.add_column(column)
            now = time.monotonic()
            for key, (game, started) in sorted(self.running.items(), key=lambda item: str(item[0])):
                running.add_row(str(key), game.white, game.black, f"{now - started:.0f}")
            parts.append(running)
        if self.standings is not None:
            parts.append(standings_table(self.standings))
        parts.extend(Text(m) for m in self.messages)
        return Group(*parts)
