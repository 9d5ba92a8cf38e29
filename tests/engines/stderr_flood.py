"""Fault: writes megabytes of debug text to stderr at start-up and during every search; plays normally."""

import sys

from hub_base import Engine

MEGABYTES = 2


def spill() -> None:
    line = "debug: evaluating a very interesting position in great detail\n"
    sys.stderr.write(line * (MEGABYTES * 1024 * 1024 // len(line)))
    sys.stderr.flush()


class StderrFlood(Engine):
    def on_go(self, flags: set[str]) -> bool:
        spill()
        return super().on_go(flags)


if __name__ == "__main__":
    spill()
    StderrFlood().run()
