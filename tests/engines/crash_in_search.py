"""Fault: dies of a segmentation fault in the middle of a search, after one `info` line."""

import os
import resource
import signal

from hub_base import Engine, send


class Crasher(Engine):
    def on_go(self, flags: set[str]) -> bool:
        send(self.info_line(self.choose_move(), flags))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file in the test's directory
        os.kill(os.getpid(), signal.SIGSEGV)
        return False


if __name__ == "__main__":
    Crasher().run()
