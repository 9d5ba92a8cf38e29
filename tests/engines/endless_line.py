"""Fault: answers `go` with one line that never ends."""

import sys

from hub_base import Engine


class EndlessLine(Engine):
    def on_go(self, flags: set[str]) -> bool:
        sys.stdout.write("info pv=")
        while True:
            sys.stdout.write("32-28 " * 1000)
            sys.stdout.flush()


if __name__ == "__main__":
    EndlessLine().run()
