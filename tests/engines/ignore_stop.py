"""Fault: searches for ever: it answers `ping` but ignores `stop` (it still obeys `quit`)."""

import sys

from hub_base import Engine, parse, send


class IgnoreStop(Engine):
    def on_go(self, flags: set[str]) -> bool:
        send(self.info_line(self.choose_move(), flags))
        while True:
            line = sys.stdin.readline()
            command, _, _ = parse(line)
            if not line or command == "quit":
                return False
            if command == "ping":
                send("pong")


if __name__ == "__main__":
    IgnoreStop().run()
