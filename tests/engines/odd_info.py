"""Plays normally, but its `info` holds numbers the arbiter cannot keep as numbers: a node count and a
depth beyond 64 bits, an infinite score, NaN and negative infinity for time and speed."""

from hub_base import Engine


class OddInfo(Engine):
    name = "oddinfo"

    def info_line(self, move: str, flags: set[str]) -> str:
        return (
            "info depth=99999999999999999999 score=inf nodes=99999999999999999999999999999 time=nan "
            f'nps=-inf pv="{move}"'
        )


if __name__ == "__main__":
    OddInfo().run()
