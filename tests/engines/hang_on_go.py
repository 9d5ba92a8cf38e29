"""Fault: on `go` it stops reading and answering anything (not `stop`, not `ping`, not `quit`)."""

from hub_base import Engine, sleep_forever


class Hang(Engine):
    def on_go(self, flags: set[str]) -> bool:
        sleep_forever()
        return False


if __name__ == "__main__":
    Hang().run()
