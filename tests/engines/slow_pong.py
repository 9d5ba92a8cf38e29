"""Answers every `ping` SECONDS late (default 1), one after the other, and otherwise works.

So a `pong` may arrive after the arbiter has stopped waiting for it, and just before the answer to the
next `ping`.
"""

import sys
import time

from hub_base import Engine, send

DELAY = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0


class SlowPong(Engine):
    def handle(self, command: str, fields: dict[str, str], flags: set[str]) -> bool:
        if command == "ping":
            time.sleep(DELAY)
            send("pong")
            return True
        return super().handle(command, fields, flags)


if __name__ == "__main__":
    SlowPong().run()
