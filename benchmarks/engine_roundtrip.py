"""Engine round trip: what one `ping`/`pong` and one search (`pos` + `level` + `go think` -> `done`) cost
the arbiter, measured against a Hub engine that answers at once.

Each figure is the wall time of the awaited call, as the referee sees it: writing the command, the
engine reading it and answering, and the arbiter reading and parsing the answer. With an instant engine
this is the arbiter's overhead per message; with a real engine it includes the engine's own latency.

    python benchmarks/engine_roundtrip.py                      # the test engine tests/engines/instant_hub.py
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

DEFAULT_ENGINE = [sys.executable, "-m", "arbiter.players.random"]  # the bundled `random` engine
ENGLISH_START = "B" + "b" * 12 + "e" * 8 + "w" * 12


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def summary(label: str, samples: list[float]) -> str:
    micro = [sample * 1e6 for sample in samples]
    return (
        f"{label:<34} median {statistics.median(micro):8.1f} us   p99 {percentile(micro, 0.99):8.1f} us   "
        f"mean {statistics.fmean(micro):8.1f} us   ({len(samples)} round trips)"
    )


async def measure(command: list[str], count: int, warmup: int, variant: str | None) -> None:
    config = EngineConfig(name="benchmark", command=command, timeouts=Timeouts(search=30, ping=30))
    engine = HubEngine(config)
    await engine.open(variant)
    try:
        level = Depth(1)
        for _ in range(warmup):
            await engine.ping()
            await engine.search(ENGLISH_START, [], level)
        pings = []
        for _ in range(count):
            started = time.perf_counter()
            await engine.ping()
            pings.append(time.perf_counter() - started)
        searches, go_to_done = [], []
        for _ in range(count):
            started = time.perf_counter()
            result = await engine.search(ENGLISH_START, [], level)
            searches.append(time.perf_counter() - started)
            go_to_done.append(result.elapsed)
    finally:
        await engine.quit()
    print(f"engine: {' '.join(command)}")
    machine = platform.processor() or platform.machine()
    print(f"machine: {machine}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(summary("ping -> pong", pings))
    print(summary("pos + level + go think -> done", searches))
    print(summary("  of which go -> done (elapsed)", go_to_done))
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
