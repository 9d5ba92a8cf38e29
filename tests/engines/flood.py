"""Fault: floods stdout with megabytes of `info` lines before it moves."""

import sys

from hub_base import Engine

MEGABYTES = 16


class Flood(Engine):
    def on_go(self, flags: set[str]) -> bool:
        line = self.info_line(self.choose_move(), flags) + "\n"
        chunk = line * (65536 // len(line))
        for _ in range(MEGABYTES * 1024 * 1024 // len(chunk)):
            sys.stdout.write(chunk)
        sys.stdout.flush()
        return super().on_go(flags)


if __name__ == "__main__":
    Flood().run()
