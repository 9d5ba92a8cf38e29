"""Passes its handshake and `init`, then exits (code 0) when told `new-game`: an engine that can begin no
game, which the check before an event must find rather than let it forfeit every game."""

import sys

from hub_base import Engine


class ExitsOnNewGame(Engine):
    name = "exits-on-new-game"

    def handle(self, command: str, fields: dict[str, str], flags: set[str]) -> bool:
        if command == "new-game":
            sys.exit(0)
        return super().handle(command, fields, flags)


if __name__ == "__main__":
    ExitsOnNewGame().run()
