"""Fault: answers `go` with bytes that are not text (invalid UTF-8, NUL, terminal escapes)."""

import sys

from hub_base import Engine


class Garbage(Engine):
    def on_go(self, flags: set[str]) -> bool:
        sys.stdout.buffer.write(b"\xff\xfe\x00\x1b[2J\x89PNG garbage\n")
        sys.stdout.flush()
        return True


if __name__ == "__main__":
    Garbage().run()
