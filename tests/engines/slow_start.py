"""Works, but slowly: sleeps before it answers `hub` (seconds in argv[1], default 0.5)."""

import sys
import time

from hub_base import Engine


class SlowStart(Engine):
    def on_hub(self) -> None:
        time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 0.5)
        super().on_hub()


if __name__ == "__main__":
    SlowStart().run()
