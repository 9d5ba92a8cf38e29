"""What `arbiter run` and `arbiter match` add around the runner for people who test engines: where the
engines' logs go, a finished event recognised, progress (running score, Elo, time left), a JSON line per
game for scripts, and the games written as PDN at the end."""

from __future__ import annotations

import contextlib
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from arbiter.commands.output_files import why_not_replaceable, why_unwritable
from arbiter.commands.sprt_view import interval_ends, signed
from arbiter.referee.record import GameRecord, Termination, Winner
from arbiter.running.runner import RunObserver
from arbiter.store import Event, RunStore
from arbiter.tournament.schedule import PlannedGame
from arbiter.tournament.scoring import FinishedGame, Outcome
from arbiter.tournament.standings import Tally
from arbiter.tournament.stats import PAIR_KINDS, EloEstimate, Pentanomial, elo_by_pairs_or_games, pair_kind

if TYPE_CHECKING:
    from arbiter.tournament.sprt_status import SprtStatus


@dataclass(frozen=True)
class RunExtras:
    """What a run writes besides the database (PDN, JSON lines, the score every N games, debug logs),
    and whether more games at a time than CPUs were asked for knowingly (no warning then)."""

    pdn_out: Path | None = None
    json_out: Path | None = None
    rating_interval: int | None = None
    debug: bool = False
    force_concurrency: bool = False


def unwritable_outputs(extras: RunExtras, event: str) -> list[str]:
    """Why each of the files a run writes besides its database (--pdn-out, --json) cannot be written,
    found before the first game rather than at the end or at the first game's line. The PDN file is
    written whole, in place of what it holds: one holding games of other events is refused, not lost."""
    problems = []
    for option, path in (("--pdn-out", extras.pdn_out), ("--json", extras.json_out)):
        if path is not None and str(path) != "-" and (why := why_unwritable(path)) is not None:
            problems.append(f"{option} {path}: {why}")
    pdn_out = extras.pdn_out
    if pdn_out is not None and not problems and (why := why_not_replaceable(pdn_out, event)) is not None:
        problems.append(f"--pdn-out {pdn_out}: {why}")
    return problems


def logs_dir(database: Path) -> Path:
    """Where an event's engine logs live: beside its database (``match.sqlite`` -> ``match-logs/``)."""
    return database.parent / f"{database.stem}-logs"


class MatchProgress:
    """The running score of a match's first engine, its Elo and the time left, from the games so far.

    Its Elo is counted as the final table counts it: from complete game pairs when the games are
    played in pairs, from single games otherwise, so that the last line and the table agree."""

    def __init__(
        self, first: str, total: int, done: int, concurrency: int, earlier: Sequence[FinishedGame] = ()
    ) -> None:
        self.first = first
        self.total = total
        self.done = done
        self.concurrency = max(1, concurrency)
        self.wins = self.draws = self.losses = 0
        self.pairs = dict.fromkeys(PAIR_KINDS, 0)
        self.paired_games = 0
        self._half_pairs: dict[int, FinishedGame] = {}  # a pair's game finished first, by pair index
        # A resumed match's score and Elo count the games of its earlier runs, as `done` does.
        for game in earlier:
            if game.involves(first):
                self._count(game)
        self.played_now = 0
        self.started = time.monotonic()

    def add(self, game: PlannedGame, record: GameRecord) -> None:
        winner = record.winner
        if winner is Winner.UNFINISHED:
            return
        self.done += 1
        self.played_now += 1
        outcome = _OUTCOMES[winner]
        self._count(FinishedGame(game.white, game.black, outcome, pair_index=game.pair_index))

    def _count(self, game: FinishedGame) -> None:
        fraction = game.fraction_for(self.first)
        if fraction == 1.0:
            self.wins += 1
        elif fraction == 0.0:
            self.losses += 1
        else:
            self.draws += 1
        index = game.pair_index
        if index is None:
            return
        self.paired_games += 1
        partner = self._half_pairs.pop(index, None)
        if partner is None:
            self._half_pairs[index] = game
        else:
            self.pairs[pair_kind(index, (partner, game), self.first)] += 1

    def text(self) -> str:
        left = self.total - self.done
        games = self.wins + self.draws + self.losses
        parts = [f"done {self.done}/{self.total}, left {left}"]
        if games:
            points = self.wins + self.draws / 2
            parts.append(
                f"{self.first} +{self.wins} ={self.draws} -{self.losses} ({points:g}/{games}, "
                f"{100 * points / games:.1f}%)"
            )
            # Checkers is mostly draws: how drawn the match is says how far its Elo can be trusted yet.
            parts.append(f"draw ratio {100 * self.draws / games:.1f}%")
            record = Tally(self.wins, self.draws, self.losses)
            estimate = elo_by_pairs_or_games(record, Pentanomial(**self.pairs), self.paired_games)
            if estimate is None:  # in pairs, before the first pair is complete
                parts.append("Elo by pairs: none yet")
            else:
                by_pairs = " by pairs" if estimate.paired else ""
                parts.append(f"Elo{by_pairs} {signed(estimate.elo, 0)}{_interval(estimate)}")
        if self.played_now and left:
            per_game = (time.monotonic() - self.started) / self.played_now
            parts.append(f"ETA {_duration(per_game * left)}")
        return ", ".join(parts)


_OUTCOMES = {Winner.WHITE: Outcome.WHITE_WINS, Winner.BLACK: Outcome.BLACK_WINS, Winner.DRAW: Outcome.DRAW}


def _interval(estimate: EloEstimate) -> str:
    """`` ±35``, the interval's half width where it is finite, its ends where one is not (`` [+159,
    +∞]``), or why there is no interval yet."""
    reason = estimate.no_interval_reason
    if reason is not None:
        return f" (no interval yet: {reason})"
    if math.isfinite(estimate.margin):
        return f" ±{estimate.margin:.0f}"
    return f" {interval_ends(estimate, 0)}"


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m{secs:02d}s" if hours else f"{minutes}m{secs:02d}s"


class ExtrasObserver:
    """Passes everything on to the live view, and adds progress, rating lines and JSON lines."""

    def __init__(self, inner: RunObserver, extras: RunExtras, first: str | None, concurrency: int) -> None:
        self.inner = inner
        self.extras = extras
        self.first = first
        self.concurrency = concurrency
        self.progress: MatchProgress | None = None
        self.earlier: Sequence[FinishedGame] = ()
        self._json: TextIO | None = None
        if extras.json_out is not None:
            if str(extras.json_out) == "-":
                self._json = sys.stdout
            else:
                extras.json_out.parent.mkdir(parents=True, exist_ok=True)
                self._json = extras.json_out.open("a", encoding="utf-8", buffering=1)

    def close(self) -> None:
        if self._json is not None and self._json is not sys.stdout:
            with contextlib.suppress(OSError):  # a line that could not be written was said so already
                self._json.close()
        self._json = None

    def attach(self, store: RunStore, tournament_id: int) -> None:
        """Read the games the match's earlier runs finished, which its running score counts."""
        if self.first is not None:
            self.earlier = store.finished_results(tournament_id)

    def run_started(self, total: int, done: int, pending: int, *, abandoned: int, resumed: bool) -> None:
        if self.first is not None:
            self.progress = MatchProgress(self.first, total, done, self.concurrency, self.earlier)
        self.inner.run_started(total, done, pending, abandoned=abandoned, resumed=resumed)

    def game_started(self, game: PlannedGame) -> None:
        self.inner.game_started(game)

    def game_finished(self, game: PlannedGame, record: GameRecord) -> None:
        self.inner.game_finished(game, record)
        if self.progress is not None:
            self.progress.add(game, record)
            interval = self.extras.rating_interval
            if record.winner is not Winner.UNFINISHED and (
                interval is None or self.progress.played_now % interval == 0
            ):
                show = getattr(self.inner, "show_progress", self.inner.message)
                show(self.progress.text())
        if self._json is not None and not _abandoned(record):
            try:
                self._json.write(json.dumps(game_json(game, record)) + "\n")
                self._json.flush()
            except OSError as exc:  # named, for the run's error: the game itself is stored
                raise OSError(exc.errno, exc.strerror, str(self.extras.json_out)) from None

    def events_recorded(self, events: Sequence[Event]) -> None:
        self.inner.events_recorded(events)

    def message(self, text: str) -> None:
        self.inner.message(text)

    def sprt_updated(self, status: SprtStatus) -> None:
        self.inner.sprt_updated(status)


def _abandoned(record: GameRecord) -> bool:
    """A game a stop left unfinished: the next run plays it again, and its line is written then."""
    return record.outcome is not None and record.outcome.termination is Termination.ABANDONED


def game_json(game: PlannedGame, record: GameRecord) -> dict[str, object]:
    """One finished game for scripts: who played, the result and why."""
    outcome = record.outcome
    return {
        "game": str(game.key),
        "white": game.white,
        "black": game.black,
        "winner": record.winner.value,
        "termination": outcome.termination.value if outcome is not None else None,
        "reason": outcome.reason if outcome is not None else None,
        "plies": record.plies,
        "opening": record.opening.name if record.opening is not None else None,
        "start_fen": record.start_fen,
    }


def finished_event(database: Path, name: str) -> tuple[RunStore, int] | None:
    """The open store and id of a finished event of this name in ``database``, if there is one."""
    if not database.exists():
        return None
    store = RunStore.open(database, create=False)
    for info in reversed(store.tournaments()):
        if info.name == name:
            if info.status.value == "finished":
                return store, info.id
            break
    store.close()
    return None
