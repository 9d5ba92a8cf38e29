"""What every engine connection offers the referee, whatever protocol it speaks."""

from __future__ import annotations

import asyncio
import logging
import os
import tempfile
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, Literal

from arbiter.engines.alarm import Alarm
from arbiter.engines.comm_log import CommLog
from arbiter.engines.config import EngineConfig
from arbiter.engines.faults import (
    Crashed,
    EngineFault,
    QuitTimeout,
    SearchTimeout,
    StartupExit,
    StrayProcesses,
)
from arbiter.engines.level import Level
from arbiter.engines.log_names import file_safe
from arbiter.engines.params import EngineIdentity
from arbiter.engines.process import EngineProcess, ShutdownReport
from arbiter.engines.results import SearchResult
from arbiter.engines.stderr_budget import StderrBudget

logger = logging.getLogger("arbiter.engines")

SearchMode = Literal["think", "ponder", "analyze"]

# Seconds a faulty engine gets to exit after `quit` before it is terminated.
_BROKEN_QUIT_GRACE = 0.25
# When an engine that is not searching closes its output, how long its exit status is waited for.
_EXIT_STATUS_WAIT = 0.5
# At a deadline, how long output already received may take to come through the reader thread, and how
# often that is looked at.
_CATCH_UP_SECONDS = 1.0
_CATCH_UP_POLL_SECONDS = 0.001


class SearchHandle(ABC):
    """A search under way. The referee waits with a deadline, may call "Time" with ``stop()``, and then
    waits again: that is how ACF's jump-limit warning is played out."""

    # Class-level defaults, set on the handle only when they change: a handle is made for every move.
    _result: SearchResult | None = None
    _fault: EngineFault | None = None
    _finished = False
    _own_alarm = False  # the alarm is the handle's own (see __init__)

    def __init__(
        self, started: float, alarm: Alarm | None = None, loop: asyncio.AbstractEventLoop | None = None
    ) -> None:
        self._started = started  # monotonic time the engine was told to move
        # The engine's loop, known to its client: asking asyncio for the running loop at every wait
        # costs a system call (a fork check) in each.
        self._loop = loop
        # The calls waiting for the end of the search (the referee's, usually alone).
        self._waiters: list[asyncio.Future[None]] = []
        # Wakes a wait at its timeout: the engine's, kept armed from one search to the next, or (a
        # handle made on its own) one of the handle's, disarmed when the search ends.
        if alarm is None:
            self._own_alarm = True
            alarm = Alarm()
        self._alarm = alarm

    @property
    def finished(self) -> bool:
        return self._finished

    @property
    def started(self) -> float:
        """The monotonic time the engine was told to move (taken just before the command was written):
        what the search is charged from."""
        return self._started

    def _elapsed(self, at: float) -> float:
        """Seconds charged for an answer that arrived at ``at``. A kernel stamp is put on the monotonic
        clock through the wall clock, which can land it a fraction of a microsecond before ``started``;
        an answer never comes before its command, so that is zero."""
        return max(at - self._started, 0.0)

    def _settle(self, result: SearchResult) -> None:
        if not self._finished:
            self._result = result
            self._end()

    def _abort(self, fault: EngineFault) -> None:
        if not self._finished:
            self._fault = fault
            self._end()

    def _end(self) -> None:
        self._finished = True
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        if self._own_alarm:
            self._alarm.cancel()

    async def wait(self, timeout: float) -> SearchResult | None:
        """The result, or None when ``timeout`` seconds pass first (the search goes on). Raises a fault."""
        return await self.wait_until(time.monotonic() + max(timeout, 0.0))

    async def wait_until(self, moment: float) -> SearchResult | None:
        """The result, or None at the monotonic ``moment`` if it has not come (the search goes on): the
        referee waits for each move until its deadline. Raises a fault."""
        loop = self._loop if self._loop is not None else asyncio.get_running_loop()
        while not self._finished:
            # One future, released by the end of the search or by the alarm at the moment, whichever
            # comes first: a wait every move, so lighter than an Event under ``asyncio.timeout`` (which
            # cancels the task to end the wait), and than a timer of its own (see ``alarm``).
            waiter: asyncio.Future[None] = loop.create_future()
            self._alarm.wake_at(loop, waiter, moment)
            self._waiters.append(waiter)
            try:
                await waiter
            finally:
                self._alarm.forget(waiter)
                self._waiters.remove(waiter)
            if not self._finished:
                await self._let_arrived_in()
                if not self._finished and time.monotonic() >= moment:
                    return None
                # Not finished and not yet the moment: a timer may fire a hair early; wait again.
        if self._fault is not None:
            raise self._fault
        assert self._result is not None
        return self._result

    async def _let_arrived_in(self) -> None:
        """At a deadline: an answer that arrived in time may still be unread in its socket, on its way
        through a reader thread (waiting for a core), or queued behind the timer. Its arrival stamp
        decides, so let it through first; a reader thread kept from its work for longer than
        ``_CATCH_UP_SECONDS`` is given up on."""
        give_up = time.monotonic() + _CATCH_UP_SECONDS
        await asyncio.sleep(0)
        while not self.finished and self._output_unread() and time.monotonic() < give_up:
            await asyncio.sleep(_CATCH_UP_POLL_SECONDS)
        await asyncio.sleep(0)  # lines the reader posted since the last look

    def _output_unread(self) -> bool:
        """Whether output the engine has sent is not yet with the event loop."""
        return False

    @abstractmethod
    async def stop(self) -> None:
        """Ask the engine to move now (Hub `stop`); the result still comes through ``wait``."""

    @abstractmethod
    async def finish(self, timeout: float | None = None) -> SearchResult:
        """Stop, then wait up to ``timeout`` (default: the configured stop timeout) for the result.

        Raises StopIgnored when the engine still answers `ping` but sends no result, and Unresponsive
        when it answers nothing.
        """


class EngineClient(ABC):
    """One connection to one engine process. Use ``open()`` before play and ``quit()`` after it."""

    protocol: ClassVar[str]
    # How an engine that stopped talking while still running is described.
    _closed_words: ClassVar[str] = "closed its output"

    def __init__(
        self,
        config: EngineConfig,
        *,
        stderr_log: Path | None = None,
        comm_log: CommLog | None = None,
        stderr_budget: StderrBudget | None = None,
    ) -> None:
        self.config = config
        self.name = config.name
        self.stderr_log = stderr_log if stderr_log is not None else _default_log_path(config.name)
        # What the engine's processes in this event may still keep of their stderr, shared with them.
        self.stderr_budget = stderr_budget
        # Every line sent and received (`--debug`); kept in memory even without a file, for reports.
        self.comm_log = comm_log if comm_log is not None else CommLog(config.name)
        self.faults: list[EngineFault] = []  # every fault seen, fatal or not, in order
        self.identity: EngineIdentity | None = None
        self._process: EngineProcess | None = None
        self._broken: EngineFault | None = None
        self._closed = False
        self._closing = False  # quit() has begun: the process ending is expected
        self._handshake_done = False
        self._gone_task: asyncio.Task[None] | None = None
        self._gone_early = False
        # Why the engine cannot be trusted with another game (it ran past a deadline), if it cannot.
        self.doubt: str | None = None
        # Wakes the waits for this engine's searches at their timeouts, one timer for all of them.
        self._alarm = Alarm()
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop the process was started on

    # -- the life of an engine ----------------------------------------------------------------------

    @property
    def pid(self) -> int:
        """The engine's process id, which is also its process group id (0 before start)."""
        return self._process.pid if self._process is not None else 0

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.running and not self._closed

    @property
    def reusable(self) -> bool:
        """Whether the engine may play another game as it is: running, talking (its output open), no
        fatal fault, no doubt."""
        return self.alive and self._broken is None and self._gone_task is None and self.doubt is None

    def distrust(self, why: str) -> None:
        """Note that the engine's state is in doubt (it hung, or answered past its deadline): its next
        game gets a freshly started process, and ending this one gets only a short grace."""
        if self.doubt is None:
            self.doubt = why

    @abstractmethod
    async def start(self) -> None:
        """Start the program (raises StartFailed)."""

    @abstractmethod
    async def handshake(self) -> EngineIdentity:
        """The opening exchange, within the handshake timeout."""

    @abstractmethod
    async def configure(self, variant: str | None = None) -> None:
        """Send the configured parameters and the variant, then wait until the engine is ready."""

    async def open(self, variant: str | None = None) -> None:
        """Start, handshake and configure; on any failure nothing is left running."""
        try:
            await self.start()
            await self.handshake()
            await self.configure(variant)
        except BaseException:
            await self.quit()
            raise

    @abstractmethod
    async def new_game(self) -> None:
        """Tell the engine a new game begins."""

    @abstractmethod
    async def begin_search(
        self,
        position: str,
        moves: Sequence[str],
        level: Level,
        draw_offered: bool = False,
        mode: SearchMode = "think",
        *,
        mules: Sequence[int] = (),
    ) -> SearchHandle:
        """Send the position and start a search; the answer comes through the handle.

        ``mules`` lists the squares of ``position`` that hold mules (Mule checkers), which a position
        string cannot show."""

    async def search(
        self,
        position: str,
        moves: Sequence[str],
        level: Level,
        draw_offered: bool = False,
        timeout: float | None = None,
    ) -> SearchResult:
        """Search and wait up to ``timeout`` seconds (default: the configured search timeout).

        Past the deadline the engine is told to stop: SearchTimeout when it then answers (it can play on),
        StopIgnored or Unresponsive when it does not.
        """
        limit = timeout if timeout is not None else self.config.timeouts.search
        handle = await self.begin_search(position, moves, level, draw_offered)
        result = await handle.wait(limit)
        if result is not None:
            return result
        late = await handle.finish()
        raise self._record(
            SearchTimeout(
                self.name, f"no move within {limit:g} s (after stop it moved at {late.elapsed:.3f} s)"
            )
        )

    @abstractmethod
    async def ping(self) -> float:
        """Round trip in seconds (raises PingTimeout)."""

    @abstractmethod
    async def stop(self) -> None:
        """Stop the running search, if any."""

    @abstractmethod
    async def end_game(self) -> None:
        """The referee's game is over (DXP tells the engine; Hub needs nothing)."""

    @abstractmethod
    async def quit(self) -> None:
        """End the engine and everything it started; never raises for the engine's behaviour.

        What went wrong on the way out (did not exit after `quit`, left processes behind) is added to
        ``faults``.
        """

    async def __aenter__(self) -> EngineClient:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.quit()

    # -- shared helpers -----------------------------------------------------------------------------

    def _check_usable(self) -> None:
        if self._broken is not None:
            raise self._broken
        if self._gone_task is not None and not self._closing:
            # Its output closed between searches and the exit status is still awaited: whatever it is
            # asked now can never be answered, so it has crashed now, not at its next deadline.
            raise self._fail(self._gone_fault())
        if self._process is None:
            raise RuntimeError(f"engine '{self.name}' has not been started")
        if self._closed or self._closing:
            raise RuntimeError(f"engine '{self.name}' has been closed")

    async def _check_usable_once_exited(self) -> None:
        """``_check_usable`` for a wait with no clock running (a DXP engine's connection): an engine whose
        output has closed first gets its moment to exit, so that its fault says how it ended."""
        gone = self._gone_task
        if gone is not None and not self._closing:
            await asyncio.shield(gone)
        self._check_usable()

    def _fail(self, fault: EngineFault) -> EngineFault:
        """The engine cannot be used any more: record why, and wake every call that waits on it."""
        if self._broken is None:
            self._broken = fault
            self._record(fault)
            self._wake_all(fault)
        return self._broken

    @abstractmethod
    def _wake_all(self, fault: EngineFault) -> None:
        """Make every waiting call raise ``fault``."""

    async def _spawn(self, **kwargs: Any) -> None:
        if self._process is not None:
            raise RuntimeError(f"engine '{self.name}' was already started")
        self._loop = asyncio.get_running_loop()
        try:
            self._process = await EngineProcess.spawn(
                self.config,
                stderr_log=self.stderr_log,
                listener=self,
                stderr_budget=self.stderr_budget,
                **kwargs,
            )
        except EngineFault as fault:
            self._record(fault)
            raise
        if self._gone_early:
            self.on_gone()

    async def _close_process(self, quit_expected: bool) -> None:
        """End the process and everything in its group; note what went wrong on the way out."""
        assert self._process is not None
        self._closing = True
        grace = self.config.timeouts.quit
        if self._broken is not None or self.doubt is not None:  # it cannot be relied on: a short courtesy
            grace = min(grace, _BROKEN_QUIT_GRACE)
        report = await self._process.shutdown(grace, self.config.timeouts.kill)
        self._note_shutdown(report, quit_expected)
        self._closed = True
        self._alarm.cancel()
        self.comm_log.close()
        self._wake_all(Crashed(self.name, "was closed by the arbiter"))
        if self._gone_task is not None:
            await self._gone_task

    # -- OutputListener: what the process reports besides protocol lines ----------------------------

    @abstractmethod
    def on_line(self, line: bytes, at: float) -> None:
        """One line of the engine's stdout (Hub reads its protocol there; DXP only logs it)."""

    def on_stream_fault(self, fault: EngineFault) -> None:
        if fault.fatal:
            self._fail(fault)
        else:
            self._record(fault)

    def on_gone(self) -> None:
        """The engine closed its output (or its connection) or exited.

        During a search that is a crash named at once, whatever the time control, so that it is never
        taken for a loss on time; the exit status is in the message when the engine had exited by then
        (the reader looks for it for a moment). When nothing is being timed, the message waits a little
        for the exit status.
        """
        if self._closing or self._gone_task is not None or self._broken is not None:
            return
        if self._process is None:  # it ended before spawning returned: reported once it has
            self._gone_early = True
            return
        if self._search_running():
            self._fail(self._gone_fault())
            return
        self._gone_task = asyncio.get_running_loop().create_task(self._report_gone())

    async def _report_gone(self) -> None:
        assert self._process is not None
        await self._process.wait_exit(_EXIT_STATUS_WAIT)  # for the exit status in the message
        if not self._closing:
            self._fail(self._gone_fault())

    def _search_running(self) -> bool:
        """Whether a search is under way, and so an engine's time is being counted."""
        return False

    def _output_unread(self) -> bool:
        """Whether the engine's process has protocol output not yet with the event loop."""
        return self._process is not None and self._process.output_unread()

    def _record(self, fault: EngineFault) -> EngineFault:
        self.faults.append(fault)
        logger.info("%s", fault)
        return fault

    def _gone_fault(self) -> EngineFault:
        """The fault for an engine whose process ended (or closed its output) on its own."""
        process = self._process
        status = process.status() if process is not None else "is gone"
        if process is not None and process.returncode is None:
            status = self._closed_words
        tail = process.stderr_tail() if process is not None else ""
        detail = f"{status}; stderr: {tail}" if tail else status
        if not self._handshake_done:
            return StartupExit(self.name, f"stopped during start-up: it {detail}")
        return Crashed(self.name, f"stopped unexpectedly: it {detail}")

    def _note_shutdown(self, report: ShutdownReport, quit_expected: bool) -> None:
        timeouts = self.config.timeouts
        if report.terminated and quit_expected:
            self._record(
                QuitTimeout(
                    self.name, f"still running {timeouts.quit:g} s after quit; terminated ({self.pid})"
                )
            )
        if report.strays:
            outside = ", outside its process group"
            listed = ", ".join(
                f"{entry.pid} ({entry.command}{'' if entry.pgid == self.pid else outside})"
                for entry in report.strays
            )
            self._record(
                StrayProcesses(self.name, f"left processes running after it exited: {listed}; ended")
            )
        if report.unkillable:
            listed = ", ".join(str(entry.pid) for entry in report.unkillable)
            self._record(StrayProcesses(self.name, f"processes {listed} could not be ended"))


def _default_log_path(name: str) -> Path:
    directory = Path(tempfile.gettempdir()) / "arbiter-engine-logs"
    directory.mkdir(parents=True, exist_ok=True)
    handle, path = tempfile.mkstemp(prefix=f"{file_safe(name)}-", suffix=".log", dir=directory)
    os.close(handle)
    return Path(path)
