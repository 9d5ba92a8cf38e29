"""The games being played, move by move, for the site's live page.

The runner's side is `LiveWatcher`, a referee `GameObserver` that keeps its game's latest move, and
`MessageBatch`, which hands the latest moves of the games on a few times a second as a few plain
values (the positions as their bitboards, not as text), so watching costs the engines' timing next to
nothing. The publisher's side is `LiveGames`: it keeps the running games and writes them to
``live-data.js`` in the site at most once a second, as a script that sets one global value. A page
opened from a folder on the disk may not fetch() a file, but it may load a script, so the live page
reloads that script every second: it works from the disk and from any web server alike. While the
event runs the file is written at least every couple of seconds (a heartbeat), so that the page can
tell data that stopped coming (a run killed together with its publisher) from games still thinking.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.notation.movetext import MoveTextError
from arbiter.referee.observer import GameObserver
from arbiter.referee.record import GameRecord, MoveRecord
from arbiter.report.embed import script_json
from arbiter.report.files import write_atomic
from arbiter.report.replay import board_letters, played_positions, pv_text
from arbiter.rules import Color, Position, UnknownVariantError, get_variant

LIVE_DATA = "live-data.js"
LIVE_GLOBAL = "arbiterLive"
WRITE_EVERY_SECONDS = 1.0
# A page calls the data stale after this many heartbeats without one (and the writer's longest pause).
STALE_BEATS = 5
PLAYED_KEPT = 1000
_NUMBERS = re.compile(r"\d+")

Message = tuple[Any, ...]
"""What the runner sends: ("start", key, white, black, variant, time control, start bitboards...),
("move", key, ply, side, text, hub, white's clock, black's clock, depth, score, nodes, pv, bitboards
before the move..., bitboards after it...), ("end", key, reason), ("played", key, positions) once a game
is over (every position the referee went through, `played_values` of each one after the other, for
the game's page: see `arbiter.report.replay`), ("refresh",) once games were stored, ("stop",) at the
end, and ("batch", messages) holding several. Plain tuples, cheap to pickle."""


class LiveWatcher(GameObserver):
    """Keeps one game's latest move as the referee tells it; `batch` hands it on a few times a second.

    A move costs the process that times the engines a few assignments: the live page shows only each
    game's latest move, written at most once a second, so the moves in between are never sent."""

    def __init__(self, key: str, batch: MessageBatch) -> None:
        self.key = key
        self.batch = batch
        self.start: Message | None = None
        """The game's start, until it is sent."""
        self.sent_start = False
        self.move: MoveRecord | None = None
        """The latest move, until it is sent."""
        self.position: Position | None = None
        self.before: Position | None = None
        self.clocks: dict[str, float | None] = {"white": None, "black": None}
        self.reason: str | None = None
        """Why the game ended, once it has."""
        self.played: list[Position] = []
        """Every position of the game so far, for its page once it is over."""

    def game_started(self, record: GameRecord, position: Position) -> None:
        self.start = (
            "start",
            self.key,
            record.white.name,
            record.black.name,
            record.variant,
            record.time_control,
        ) + _bitboards(position)
        self.position = position
        self.played = [position]
        self.batch.changed(self)

    def move_played(self, record: GameRecord, move: MoveRecord, position: Position) -> None:
        self.move = move
        self.before, self.position = self.position, position
        self.clocks[move.side.value] = move.clock
        self.played.append(position)
        self.batch.changed(self)

    def game_ended(self, record: GameRecord, position: Position) -> None:
        self.reason = record.outcome.reason if record.outcome else ""
        # With the batch: the runner stores the game next, and the note that it did (`game_stored`)
        # goes with this batch or a later one, so the publisher has the positions first.
        self.batch.changed(self)

    def messages(self) -> list[Message]:
        """What changed since the last call: once the game is over, its positions (for its page); the
        start (unless the game already ended), the latest move, the end (for the live page)."""
        out: list[Message] = []
        if self.reason is not None and self.played:
            out.append(("played", self.key, played_positions(self.played)))
            self.played = []
        if not self.sent_start:
            if self.reason is not None or self.start is None:
                return out  # over before it was shown: nothing to show
            out.append(self.start)
            self.sent_start, self.start = True, None
        move, position, before = self.move, self.position, self.before
        if move is not None and position is not None and before is not None:
            info = move.info
            out.append(
                (
                    "move",
                    self.key,
                    move.ply,
                    move.side.value,
                    move.text,
                    move.hub,
                    self.clocks["white"],
                    self.clocks["black"],
                    None if info is None else info.depth,
                    None if info is None else info.score,
                    None if info is None else info.nodes,
                    None if info is None else tuple(info.pv),
                )
                + _bitboards(before)
                + _bitboards(position)
            )
            self.move = None
        if self.reason is not None:
            out.append(("end", self.key, self.reason))
        return out


class MessageBatch:
    """Hands on the latest state of the games whose watchers changed, and whether games were stored
    meanwhile, together, `delay` seconds after the first change of a batch: one hand-over for the
    moves and games of a fraction of a second, not one per move or game (each hand-over wakes the
    queue's thread, and the publisher's process, on the two cores the engines need). Used on the
    event loop that plays the games (outside one, each change is handed on at once)."""

    def __init__(self, send: Callable[[Message], None], delay: float = 0.25) -> None:
        self.send = send
        self.delay = delay
        self.pending: dict[LiveWatcher, None] = {}
        """The watchers that changed, in the order they first did."""
        self.stored = False
        """Whether games were stored since the last hand-over (the site is to be refreshed)."""
        self.timer: asyncio.TimerHandle | None = None

    def game_stored(self) -> None:
        """A game was stored: ("refresh",) goes last in the next hand-over, after the positions of
        the games that ended (the runner stores a game after its watcher heard that it ended)."""
        self.stored = True
        self._schedule()

    def changed(self, watcher: LiveWatcher) -> None:
        self.pending[watcher] = None
        self._schedule()

    def _schedule(self) -> None:
        if self.timer is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.flush()
            return
        self.timer = loop.call_later(self.delay, self.flush)

    def flush(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        batch: tuple[Message, ...] = ()
        if self.pending:
            watchers, self.pending = self.pending, {}
            batch = tuple(message for watcher in watchers for message in watcher.messages())
        if self.stored:
            self.stored = False
            batch += (("refresh",),)
        if batch:
            self.send(("batch", batch))


def _bitboards(position: Position) -> tuple[int, int, int, int, str]:
    return (position.white, position.black, position.kings, position.mules, position.turn.letter)


@dataclass
class _Game:
    key: str
    white: str
    black: str
    variant: str
    time_control: str
    position: tuple[int, int, int, int, str]
    before: tuple[int, int, int, int, str] | None = None
    """The position before the last move: where the engine's principal variation starts."""
    ply: int = 0
    last: str = ""
    hub: str = ""
    side: str = ""
    clocks: dict[str, float | None] = field(default_factory=lambda: {"white": None, "black": None})
    info: tuple[Any, ...] | None = None


class LiveGames:
    """The running games of an event, written to ``live-data.js`` in `out` when they change and, with
    a `heartbeat`, at least every so many seconds: the data's time then tells the page whether its
    writer is still there (a run killed with its publisher writes no more), and `stale_after` says
    after how long without a new one the page should say so. Without a heartbeat (the run ended)
    the page expects no more data."""

    def __init__(self, out: Path, heartbeat: float | None = None) -> None:
        self.out = out
        self.heartbeat = heartbeat
        self.stale_after: float | None = None if heartbeat is None else STALE_BEATS * heartbeat
        self.games: dict[str, _Game] = {}
        self.played: dict[str, tuple[int, ...]] = {}
        """The positions of the games that ended, by key, until their pages take them (the oldest go
        beyond `PLAYED_KEPT`)."""
        self.dirty = True
        self.written_at = -float("inf")

    def apply(self, message: Message) -> None:
        kind, key = message[0], message[1]
        if kind == "batch":
            for each in key:
                self.apply(each)
            return
        if kind == "played":
            self.played[key] = message[2]
            if len(self.played) > PLAYED_KEPT:
                del self.played[next(iter(self.played))]
            return
        if kind == "start":
            _, _, white, black, variant, time_control, *board = message
            self.games[key] = _Game(key, white, black, variant, time_control, _board(board))
        elif kind == "move" and key in self.games:
            game = self.games[key]
            _, _, ply, side, text, hub, white_clock, black_clock, depth, score, nodes, pv, *boards = message
            game.before, game.position = _board(boards[:5]), _board(boards[5:])
            game.ply, game.side, game.last, game.hub = ply, side, text, hub
            game.clocks = {"white": white_clock, "black": black_clock}
            game.info = (depth, score, nodes, pv)
        elif kind == "end":
            self.games.pop(key, None)
        self.dirty = True

    def due(self, now: float) -> bool:
        since = now - self.written_at
        beat = self.heartbeat is not None and since >= self.heartbeat
        return beat or (self.dirty and since >= WRITE_EVERY_SECONDS)

    def ended(self) -> None:
        """The run is over: no game is being played, and no more data is to be expected."""
        self.games.clear()
        self.heartbeat = self.stale_after = None
        self.dirty = True

    def paused(self, seconds: float) -> None:
        """The writer was busy for `seconds` (a refresh of the site) without a heartbeat: the page
        waits that much longer before it calls the data stale."""
        if self.heartbeat is not None and self.stale_after is not None:
            self.stale_after = max(self.stale_after, STALE_BEATS * self.heartbeat + seconds)

    def write(self, now: float | None = None) -> None:
        data: dict[str, Any] = {
            "updated": time.time(),
            "games": [_game_data(game) for game in self.games.values()],
        }
        if self.heartbeat is not None:
            data["stale_after"] = self.stale_after
        write_atomic(self.out / LIVE_DATA, live_script(data))
        self.dirty = False
        self.written_at = time.monotonic() if now is None else now


def live_script(data: dict[str, Any]) -> str:
    """The data file the live page loads: one global value, the data as JSON."""
    return f"window.{LIVE_GLOBAL} = {script_json(data)};\n"


def _board(values: list[Any]) -> tuple[int, int, int, int, str]:
    white, black, kings, mules, turn = values
    return (int(white), int(black), int(kings), int(mules), str(turn))


def _position(variant_id: str, board: tuple[int, int, int, int, str]) -> Position | None:
    try:
        variant = get_variant(variant_id)
    except UnknownVariantError:
        return None
    white, black, kings, mules, turn = board
    colour = Color.WHITE if turn == Color.WHITE.letter else Color.BLACK
    return Position(variant, white, black, kings, colour, mules=mules)


def _game_data(game: _Game) -> dict[str, Any]:
    position = _position(game.variant, game.position)
    first = position.variant.first_to_move if position is not None else Color.WHITE
    players = [("white", game.white), ("black", game.black)]
    if first is Color.BLACK:
        players.reverse()
    info: dict[str, Any] | None = None
    if game.info is not None:
        depth, score, nodes, pv = game.info
        before = None if game.before is None else _position(game.variant, game.before)
        line = ""
        if pv:
            try:
                line = pv_text(before, list(pv)) if before is not None else " ".join(pv)
            except (MoveTextError, ValueError):
                line = " ".join(pv)
        info = {"depth": depth, "score": score, "nodes": nodes, "pv": line}
    squares = [int(number) for number in _NUMBERS.findall(game.hub)]
    return {
        "key": game.key,
        "players": [{"side": side, "name": name, "clock": game.clocks[side]} for side, name in players],
        "variant": game.variant,
        "board": board_letters(position) if position is not None else "",
        "ply": game.ply,
        "last": game.last,
        "side": game.side,
        "step": [squares[0], squares[-1]] if len(squares) >= 2 else None,
        "info": info,
        "time_control": game.time_control,
    }
