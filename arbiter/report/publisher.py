"""Publishing a running event from a child process, so that building pages never delays the engines.

    publisher = Publisher(database, site, tournament_id)
    publisher.start()
    runner.game_stored = publisher.game_finished    # a game is stored: refresh the site
    runner.game_observer = publisher.watch           # its moves, for the live page
    ...
    publisher.close()                                # the last refresh, then the child ends

The process that times the engines only puts small messages on a queue, a few times a second (each
running game's latest move, the positions of the games that ended and a note that games were stored;
multiprocessing's queue hands them to the pipe from a thread of its own);
the child, started afresh and at a lower priority, reads the store and writes the pages. It refreshes the site
when games were stored, at most once every `refresh_every` seconds and thirty times as long as its
last refresh spent on the event-wide pages, but at least every ten seconds (games that end meanwhile
are published together), and the live page's data at most once a second, and at least every
`refresh_every` seconds (a heartbeat: the page says when the data stops coming, as when the run was
killed together with this process).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import signal
import sys
import time
from collections.abc import Iterator
from multiprocessing.context import SpawnProcess
from pathlib import Path

from arbiter.report.live import LiveGames, LiveWatcher, Message, MessageBatch
from arbiter.report.store_site import StoreSite
from arbiter.tournament.schedule import PlannedGame

REFRESH_EVERY_SECONDS = 2.0
# ...and at most once every so many times its last refresh took to write the event-wide pages, so
# that on a big event, whose standings and lists take longer, publishing keeps to a small share of a
# core (`next_gap`)...
REFRESH_SHARE = 30
# ...but at least this often while games are stored, so that the site stays close behind the event
# even on a busy machine, where the (niced) publisher's refreshes take longer.
REFRESH_WITHIN_SECONDS = 10.0
# The child is niced this much: on a busy machine the engines and the referee come first.
NICENESS = 10
CLOSE_TIMEOUT_SECONDS = 600.0


class Publisher:
    """The site of tournament `tournament_id` of `database`, kept up to date in `out` by a child."""

    def __init__(
        self, database: Path, out: Path, tournament_id: int, *, refresh_every: float = REFRESH_EVERY_SECONDS
    ) -> None:
        context = multiprocessing.get_context("spawn")
        self._queue: multiprocessing.Queue[Message] = context.Queue()
        self._batch = MessageBatch(self._queue.put)
        self._process: SpawnProcess = context.Process(
            target=publish,
            args=(self._queue, database, out, tournament_id, refresh_every),
            name="arbiter-publisher",
            daemon=True,
        )

    def start(self) -> None:
        # Ctrl-C at the terminal reaches the child too, which ignores it (`publish`) only once it has
        # started, a second or more of imports later: the child starts with it blocked, as
        # multiprocessing's resource tracker does, so that one pressed meanwhile waits, then is ignored.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self._process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    def game_finished(self, tournament_id: int) -> None:
        """A game was stored: the site is refreshed soon. Called on the event loop that plays the
        games (`TournamentRunner.game_stored`): the note goes with the next batch of moves."""
        self._batch.game_stored()

    def watch(self, game: PlannedGame) -> LiveWatcher:
        """An observer for `game`'s referee that shows its moves on the live page."""
        return LiveWatcher(str(game.key), self._batch)

    def close(self) -> int | None:
        """Ask for a last refresh, wait for the child to end and return its exit code."""
        if self._process.pid is None:
            return None
        with contextlib.suppress(ValueError, OSError):
            self._batch.flush()
            self._queue.put(("stop",))
        self._process.join(CLOSE_TIMEOUT_SECONDS)
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(5)
        self._queue.close()
        return self._process.exitcode


def publish(
    messages: multiprocessing.Queue[Message],
    database: Path,
    out: Path,
    tournament_id: int,
    refresh_every: float = REFRESH_EVERY_SECONDS,
) -> None:
    """The child's work: follow the messages until told to stop, then refresh one last time."""
    # Ctrl-C at the terminal reaches the whole process group: the runner stops the event, and then
    # tells this process to stop, so that the site shows how the event ended.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by `start`: now ignored
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    # A runner killed outright (SIGKILL) cannot say stop: its end is noticed here, within half a
    # second, and the site refreshed once more shows the event stopped; the process does not linger.
    runner = multiprocessing.parent_process()
    site = StoreSite(database, out, tournament_id, keep_open=True)
    live = LiveGames(out, heartbeat=refresh_every)
    site.played = live.played  # a game's page is made from the positions its referee went through
    wanted = True  # the site as it stands at the start (a resumed event)
    refreshed_at = -float("inf")
    gap = refresh_every
    stopping = False
    while not stopping:
        now = time.monotonic()
        waits = [0.5]
        if wanted:
            waits.append(refreshed_at + gap - now)
        if live.dirty:
            waits.append(live.written_at + 1.0 - now)
        try:
            batch = [messages.get(timeout=max(0.0, min(waits)))]
        except queue.Empty:
            batch = []
        with contextlib.suppress(queue.Empty):
            while len(batch) < 10_000:
                batch.append(messages.get_nowait())
        for message in _each(batch):
            if message[0] == "refresh":
                wanted = True
            elif message[0] == "stop":
                stopping = True
            else:
                live.apply(message)
        if runner is not None and not batch and not runner.is_alive():
            break
        now = time.monotonic()
        if wanted and now - refreshed_at >= gap:
            _refresh(site)  # one that failed is tried again after the next game
            wanted = False
            refreshed_at = time.monotonic()
            live.paused(refreshed_at - now)  # no heartbeat meanwhile: the page waits this long too
            gap = next_gap(refreshed_at - now, site.pages_seconds, refresh_every)
        if live.due(time.monotonic()):
            _write_live(live)
    live.ended()
    _write_live(live)
    written = _refresh(site)
    site.close()
    if not written:
        sys.exit(1)  # the runner says the site does not show the event as it ended


def _each(messages: list[Message]) -> Iterator[Message]:
    """The messages, those of a batch one by one."""
    for message in messages:
        if message[0] == "batch":
            yield from message[1]
        else:
            yield message


def next_gap(took: float, pages: float, every: float = REFRESH_EVERY_SECONDS) -> float:
    """Seconds from a refresh that took `took` seconds, `pages` of them on the pages of the games it
    wrote, to the next one. Only the rest, the event-wide pages that every refresh writes again, is
    spaced out (to one part in `REFRESH_SHARE`): a game's own page is written once whenever it is
    written, so waiting longer would not save it, only leave the site further behind and make the next
    refresh longer still. Never more than `REFRESH_WITHIN_SECONDS` (nor less than `every`)."""
    return min(max(every, REFRESH_WITHIN_SECONDS), max(every, REFRESH_SHARE * max(0.0, took - pages)))


def _refresh(site: StoreSite) -> bool:
    """Whether the site was written."""
    try:
        site.refresh()
    except Exception as error:  # a site that cannot be written must not stop the event
        print(f"arbiter: the site was not refreshed: {error}", file=sys.stderr)
        return False
    if site.left_note:
        print(f"arbiter: warning: {site.left_note}", file=sys.stderr)
    return True


def _write_live(live: LiveGames) -> None:
    try:
        live.write()
    except OSError as error:
        live.dirty = False
        live.written_at = time.monotonic()  # the next heartbeat tries again, not the next loop
        print(f"arbiter: the live page's data was not written: {error}", file=sys.stderr)
