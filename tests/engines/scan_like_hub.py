"""A Hub engine that behaves like Scan where the arbiter must meet it:

- its `variant` parameter offers only Scan's names (`normal killer bt frisian losing`);
- it reports its scores in men (`score=1.5` is a man and a half ahead), as Scan does;
- like Scan, which loads `scan.ini` and `data/` from its working directory, it fails at `init` (an
  `error` line, a message on stderr, exit code 1) when `scan.ini` is not in the directory it was
  started in.
"""

from __future__ import annotations

import os
import sys

from hub_base import Engine, send


class ScanLike(Engine):
    name = "scanlike"
    params = [
        'param name=variant value=normal type=enum values="normal killer bt frisian losing"',
        "param name=book value=true type=bool",
        "param name=threads value=1 type=int min=1 max=16",
    ]

    def __init__(self) -> None:
        super().__init__()
        self.settings["variant"] = "normal"

    def on_init(self) -> None:
        if not os.path.exists("scan.ini"):
            send('error message="cannot open scan.ini"')
            print("cannot open scan.ini", file=sys.stderr, flush=True)
            sys.exit(1)
        send("ready")

    def info_line(self, move: str, flags: set[str]) -> str:
        return f'info depth=5 score=1.5 nodes=99 pv="{move}" variant={self.settings.get("variant", "")}'


if __name__ == "__main__":
    ScanLike().run()
