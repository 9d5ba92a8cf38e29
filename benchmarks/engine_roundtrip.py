"""Engine round trip: what one `ping`/`pong` and one search (`pos` + `level` + `go think` -> `done`) cost,
measured against the bundled `random` engine, which answers at once.

Two figures for each kind of round trip:
- the wall time of the awaited call, as the referee sees it: the arbiter formatting and writing the
  command, the engine reading it and answering, and the arbiter reading and parsing the answer;
- the arbiter's own share of it, timed in-process around the arbiter's own steps: from the call until
  the request is written to the engine's pipe, the handling of each batch of the reply's lines on the
  event loop (parsing them; the reader thread has cut and stamped them), and the waking of the waiting
  call after the last batch. The wait for the engine, and for the operating system to run either
  process or the reader thread, is left out.

    python benchmarks/engine_roundtrip.py                      # the bundled `random` engine
    python benchmarks/engine_roundtrip.py --count 20000
    python benchmarks/engine_roundtrip.py -- ./my-engine --hub # any Hub engine (searched at depth 1)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import time

from arbiter.engines import Depth, EngineConfig, HubEngine, Timeouts
from arbiter.engines.process import EngineProcess

DEFAULT_ENGINE = [sys.executable, "-m", "arbiter.players.random"]  # the bundled `random` engine
ENGLISH_START = "B" + "b" * 12 + "e" * 8 + "w" * 12


class OwnShare:
    """Times the arbiter's own steps of each round trip with one engine, from inside the arbiter.

    The engine process's write and its handler of protocol output are wrapped, so the figure is the
    time from ``begin()`` until the request is written, plus the time spent handling the reply's bytes,
    plus the time from the last of them until ``end()`` (the waiting call has resumed).
    """

    def __init__(self, process: EngineProcess) -> None:
        self._started = 0.0
        self._written = 0.0
        self._handling = 0.0  # seconds spent handling the reply so far
        self._handled = 0.0  # when the handler last returned
        write, handle = process.write, process.lines_read

        def timed_write(data: bytes) -> bool:
            written = write(data)
            self._written = time.perf_counter()
            return written

        def timed_handle(lines: list[bytes], at: float) -> None:
            began = time.perf_counter()
            handle(lines, at)
            self._handled = time.perf_counter()
            self._handling += self._handled - began

        process.write = timed_write  # type: ignore[method-assign]
        process.lines_read = timed_handle  # type: ignore[method-assign]

    def begin(self) -> None:
        self._handling = 0.0
        self._started = time.perf_counter()

    def end(self) -> float:
        """The arbiter's own seconds in the round trip since ``begin()``; call it as the call returns."""
        resumed = time.perf_counter()
        return (self._written - self._started) + self._handling + (resumed - self._handled)


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def summary(label: str, samples: list[float]) -> str:
    micro = [sample * 1e6 for sample in samples]
    return (
        f"{label:<36} median {statistics.median(micro):8.1f} us   p99 {percentile(micro, 0.99):8.1f} us   "
        f"mean {statistics.fmean(micro):8.1f} us   ({len(samples)} round trips)"
    )


async def measure(command: list[str], count: int, warmup: int, variant: str | None) -> None:
    config = EngineConfig(name="benchmark", command=command, timeouts=Timeouts(search=30, ping=30))
    engine = HubEngine(config)
    await engine.open(variant)
    assert engine._process is not None  # the started process, whose steps are timed
    share = OwnShare(engine._process)
    try:
        level = Depth(1)
        for _ in range(warmup):
            await engine.ping()
            await engine.search(ENGLISH_START, [], level)
        pings, ping_shares = [], []
        for _ in range(count):
            started = time.perf_counter()
            share.begin()
            await engine.ping()
            ping_shares.append(share.end())
            pings.append(time.perf_counter() - started)
        searches, go_to_done, search_shares = [], [], []
        for _ in range(count):
            started = time.perf_counter()
            share.begin()
            result = await engine.search(ENGLISH_START, [], level)
            search_shares.append(share.end())
            searches.append(time.perf_counter() - started)
            go_to_done.append(result.elapsed)
    finally:
        await engine.quit()
    print(f"engine: {' '.join(command)}")
    machine = platform.processor() or platform.machine()
    print(f"machine: {machine}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(summary("ping -> pong", pings))
    print(summary("  of which the arbiter's own share", ping_shares))
    print(summary("pos + level + go think -> done", searches))
    print(summary("  of which go -> done (elapsed)", go_to_done))
    print(summary("  of which the arbiter's own share", search_shares))
    if engine.faults:
        print("faults:", ", ".join(fault.kind for fault in engine.faults))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=5000, help="round trips of each kind")
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument(
        "--variant", default="english", help="variant to set if the engine declares one; none: never"
    )
    parser.add_argument("command", nargs="*", help="a Hub engine's command (after --)")
    options = parser.parse_args()
    variant = None if options.variant in ("", "none") else options.variant
    asyncio.run(measure(options.command or DEFAULT_ENGINE, options.count, options.warmup, variant))


if __name__ == "__main__":
    main()
