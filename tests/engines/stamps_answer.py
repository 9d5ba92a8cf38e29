"""Well-behaved, and it says when it answered: each `done` comes in one write with an `info` line
holding `sent=T`, T being its `time.monotonic()` just before the write (one clock for every process
on Linux), so a test can compare the moment the answer was sent with the moment it was charged."""

import sys
import time

from hub_base import Engine


class StampsAnswer(Engine):
    def on_go(self, flags: set[str]) -> bool:
        move = self.choose_move()
        sys.stdout.write(f"info sent={time.monotonic():.6f}\ndone move={move}\n")
        sys.stdout.flush()
        return True


if __name__ == "__main__":
    StampsAnswer().run()
