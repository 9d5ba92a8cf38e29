"""Fault: starts a helper process that would outlive it (and that keeps its stdout and stderr open).

The helper's pid is announced in the `id` line as child-pid=, so a test can look for it afterwards.
"""

import subprocess
import sys

from hub_base import Engine

HELPER = "import time\nwhile True: time.sleep(3600)"


class LeavesChild(Engine):
    def __init__(self) -> None:
        super().__init__()
        self.helper = subprocess.Popen([sys.executable, "-c", HELPER], stdin=subprocess.DEVNULL)

    def identity_extra(self) -> str:
        return f"{super().identity_extra()} child-pid={self.helper.pid}"


if __name__ == "__main__":
    LeavesChild().run()
