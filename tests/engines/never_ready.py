"""Fault: completes the handshake but never answers `init` with `ready`."""

from hub_base import Engine


class NeverReady(Engine):
    def on_init(self) -> None:
        pass


if __name__ == "__main__":
    NeverReady().run()
