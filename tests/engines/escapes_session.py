"""Fault: starts a helper that leaves the engine's session and process group (setsid) and sleeps.

Ending the engine's process group does not reach the helper, so it would outlive the engine. Its pid is
announced in the `id` line as child-pid=; `hub` is answered only once the helper has its own session.
Options: --crash-on-go (segmentation fault in the first search), --ignore-quit (ignores `quit`, the end
of its input and SIGTERM, like ignore_quit.py).
"""

import argparse
import os
import resource
import signal
import subprocess
import sys

from hub_base import Engine, send, sleep_forever

HELPER = "import os, time\nos.setsid()\nprint(os.getsid(0), flush=True)\nwhile True: time.sleep(3600)"


class EscapesSession(Engine):
    def __init__(self, crash_on_go: bool, ignore_quit: bool) -> None:
        super().__init__()
        self.crash_on_go = crash_on_go
        self.ignore_quit = ignore_quit
        self.helper = subprocess.Popen(
            [sys.executable, "-c", HELPER], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE
        )
        assert self.helper.stdout is not None
        self.helper.stdout.readline()  # it has left the session

    def identity_extra(self) -> str:
        return f"{super().identity_extra()} child-pid={self.helper.pid}"

    def on_go(self, flags: set[str]) -> bool:
        if not self.crash_on_go:
            return super().on_go(flags)
        send(self.info_line(self.choose_move(), flags))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file in the test's directory
        os.kill(os.getpid(), signal.SIGSEGV)
        return False

    def on_quit(self) -> bool:
        return self.ignore_quit

    def on_eof(self) -> None:
        if self.ignore_quit:
            sleep_forever()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--crash-on-go", action="store_true")
    parser.add_argument("--ignore-quit", action="store_true")
    options = parser.parse_args()
    if options.ignore_quit:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    EscapesSession(options.crash_on_go, options.ignore_quit).run()
