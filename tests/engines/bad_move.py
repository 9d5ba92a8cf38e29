"""Fault: ends its search with a move written in a wrong format (chess-like squares)."""

from hub_base import Engine, send


class BadMove(Engine):
    def finish(self, move: str, flags: set[str]) -> None:
        send("done move=e3-d4")


if __name__ == "__main__":
    BadMove().run()
