"""Slow to start a game: `new-game` takes SECONDS (default 1) to handle, as an engine clearing a large
hash table does; its `pong` comes after that, in the order of its input. Every search is answered at
once.

    python tests/engines/slow_new_game.py [SECONDS]
"""

import sys
import time

from hub_base import Engine


class SlowNewGame(Engine):
    name = "slow-new-game"

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    def handle(self, command: str, fields: dict[str, str], flags: set[str]) -> bool:
        if command == "new-game":
            time.sleep(self.seconds)
        return super().handle(command, fields, flags)


if __name__ == "__main__":
    SlowNewGame(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0).run()
