"""A Hub version 1 engine (the protocol of Scan 2.0): `hub` is answered with bare `name`, `author` and
`country` lines and `wait`, with no `id` line; positions, levels and moves use Hub 1's own commands.

It stands in for `scan hub` of Scan 2.0, which the arbiter must recognise at the handshake.
"""

from __future__ import annotations

import sys


def main() -> None:
    print("Hub1 test engine 2.0 by the arbiter tests", flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "hub":
            print("name Hub1Test 2.0", flush=True)
            print("author Arbiter tests", flush=True)
            print("country NL", flush=True)
            print("wait", flush=True)
        elif command == "init":
            print("ready", flush=True)
        elif command == "pos":
            # Hub 1 takes the position as a bare word, not pos=...
            if len(words) < 2 or "=" in words[1]:
                print("error bad position", flush=True)
        elif command == "ping":
            print("pong", flush=True)
        elif command == "go":
            print("move 32-28", flush=True)
        elif command == "quit":
            return


if __name__ == "__main__":
    main()
