"""The workers a cluster run plays on, as they join and leave, and how many games may be in flight.

Only workers that passed the preflight are on the roster, and each game is handed to the scheduler
restricted to them, so a worker that joins mid-run gets no game before its engines were checked. The
roster has one seat per game its workers play at once, plus one per worker for a game waiting at the
scheduler; a game is handed out only when a seat is free, so the number in flight follows the workers
as they come and go. A game whose allowed workers have all left is marked stranded, to be handed out
again to the workers present.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable

from arbiter.distributed.orders import ProbeReport
from arbiter.running.runner import RunFailed


class Flight:
    """One game handed to the scheduler: the workers it may run on, and a flag raised when it must be
    handed out again (its workers all left) or the run must stop (the roster failed)."""

    def __init__(self, allowed: frozenset[str]) -> None:
        self.allowed = allowed
        self.alarm = asyncio.Event()


class WorkerRoster:
    """The checked workers present, the games in flight, and why the run must stop, if it must."""

    def __init__(self) -> None:
        self.workers: dict[str, ProbeReport] = {}
        """Checked workers present, by address."""
        self.failure: str | None = None
        self._failure_told = False
        self._flights: list[Flight] = []
        self._changed = asyncio.Condition()

    def seats(self) -> int:
        """How many games may be in flight: the workers' games at once, plus one waiting per worker."""
        return int(sum(report.games for report in self.workers.values())) + len(self.workers)

    def in_flight(self) -> int:
        return len(self._flights)

    def addresses(self) -> frozenset[str]:
        return frozenset(self.workers)

    async def admit(self, reports: Iterable[ProbeReport]) -> None:
        """Checked workers join: their seats are free at once."""
        for report in reports:
            self.workers[report.worker.address] = report
        self._strand()
        await self._wake()

    async def remove(self, addresses: Iterable[str]) -> list[ProbeReport]:
        """Workers left: their seats go, and the games only they could play are stranded."""
        gone = [self.workers.pop(address) for address in addresses if address in self.workers]
        self._strand()
        await self._wake()
        return gone

    async def fail(self, message: str) -> None:
        """The run must stop: every game waiting for a seat or in flight hears it."""
        if self.failure is None:
            self.failure = message
        for flight in self._flights:
            flight.alarm.set()
        await self._wake()

    def take_failure(self) -> str | None:
        """Why the run must stop, to the first game that asks: that game stops the run with the reason,
        and the runner abandons the others as it does when one game fails."""
        if self.failure is None or self._failure_told:
            return None
        self._failure_told = True
        return self.failure

    async def rehome(self, flight: Flight) -> None:
        """A stranded game is to be handed out again, to the checked workers present (waiting for one if
        none is); ``RunFailed`` if the run must stop instead."""
        async with self._changed:
            await self._changed.wait_for(lambda: bool(self.workers) or self.failure is not None)
        if self.failure is not None:
            self._failure_told = True
            raise RunFailed(self.failure)
        flight.allowed = self.addresses()
        flight.alarm.clear()

    @contextlib.asynccontextmanager
    async def flight(self) -> AsyncIterator[Flight]:
        """Wait for a free seat (first come, first served), then hold it while the game is in flight."""
        async with self._changed:
            await self._changed.wait_for(self._seat_free_or_failure_untold)
            failure = self.take_failure()
            if failure is not None:
                raise RunFailed(failure)
            flight = Flight(self.addresses())
            self._flights.append(flight)
        try:
            yield flight
        finally:
            self._flights.remove(flight)
            await self._wake()

    def _seat_free_or_failure_untold(self) -> bool:
        if self.failure is not None:
            return not self._failure_told  # once told, the others wait here until the runner abandons them
        return bool(self.workers) and self.in_flight() < self.seats()

    def _strand(self) -> None:
        # Only when some worker is present: with none, the games wait at the scheduler as they are, and
        # are handed out again once a worker is checked.
        present = self.addresses()
        if present:
            for flight in self._flights:
                if not flight.allowed & present:
                    flight.alarm.set()

    async def _wake(self) -> None:
        async with self._changed:
            self._changed.notify_all()
