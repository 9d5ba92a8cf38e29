"""Fault: reads its input but never answers `hub`."""

from hub_base import Engine


class Silent(Engine):
    def on_hub(self) -> None:
        pass


if __name__ == "__main__":
    Silent().run()
