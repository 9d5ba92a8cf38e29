"""Fault: writes megabytes of debug text to stderr at start-up and during every search; plays normally.

`stderr_flood.py [KIB]` writes KIB kibibytes each time instead of 2 MiB (a chatty engine that may stay
under its stderr limit).
"""

import sys

from hub_base import Engine

AMOUNT = int(sys.argv[1]) * 1024 if len(sys.argv) > 1 else 2 * 1024 * 1024


def spill() -> None:
    line = "debug: evaluating a very interesting position in great detail\n"
    sys.stderr.write(line * (AMOUNT // len(line)))
    sys.stderr.flush()


class StderrFlood(Engine):
    def on_go(self, flags: set[str]) -> bool:
        spill()
        return super().on_go(flags)


if __name__ == "__main__":
    spill()
    StderrFlood().run()
