"""An instant Hub engine for the referee benchmarks: a random legal move, at once, with its send time.

Each answer is written in one piece, ``info read=R sent=T`` followed by ``done move=...``, where T is
this process's ``time.monotonic()`` just before the write and R the moment the read that brought ``go``
returned. On Linux the monotonic clock is the same for every process, so the arbiter's side can subtract
T from the moment it stamped the line (the time added between the answer's sending and its being
charged), and T - R, the engine's own time, from the time charged (what the move was charged beyond it:
the arbiter's writing, the system waking the engine, the answer's way back).

    python benchmarks/instant_engine.py [SEED]
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Iterator

from arbiter.notation.movetext import format_hub, parse_hub
from arbiter.rules import Position, get_variant


def fields_of(line: str) -> dict[str, str]:
    """key=value and key="quoted value" pairs of a Hub line (enough for pos lines)."""
    found: dict[str, str] = {}
    rest = line.split(" ", 1)[1] if " " in line else ""
    while rest:
        rest = rest.lstrip()
        key, eq, rest = rest.partition("=")
        if not eq:
            break
        if rest.startswith('"'):
            value, _, rest = rest[1:].partition('"')
        else:
            value, _, rest = rest.partition(" ")
        found[key.strip()] = value
    return found


def commands() -> Iterator[tuple[str, float]]:
    """Each command line read, with the monotonic time the read that brought it returned (``pos``,
    ``level`` and ``go`` come in one write, so in one read)."""
    pending = b""
    while chunk := os.read(0, 65536):
        read_at = time.monotonic()
        *lines, pending = (pending + chunk).split(b"\n")
        for raw in lines:
            yield raw.decode().strip(), read_at


def main() -> None:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else os.getpid())
    variant = get_variant("english")
    position = Position.start(variant)
    out = sys.stdout.buffer
    for line, read_at in commands():
        command = line.split(" ", 1)[0]
        if command == "hub":
            out.write(
                b'id name=instant version=1\nparam name=variant value=english type=enum values="english"\n'
            )
            out.write(b"wait\n")
        elif command == "init":
            position.legal_moves()  # build the move tables before the first search
            out.write(b"ready\n")
        elif command == "ping":
            out.write(b"pong\n")
        elif command == "pos":
            fields = fields_of(line)
            position = Position.from_hub(variant, fields["pos"])
            for text in fields.get("moves", "").split():
                position = position.play(parse_hub(position, text))
        elif command == "go":
            move = format_hub(rng.choice(position.legal_moves()))
            out.write(f"info read={read_at:.6f} sent={time.monotonic():.6f}\ndone move={move}\n".encode())
        elif command == "quit":
            return
        out.flush()


if __name__ == "__main__":
    main()
