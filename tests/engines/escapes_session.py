"""Fault: starts a helper that leaves the engine's session and process group (setsid) and sleeps.

Ending the engine's process group does not reach the helper, so it would outlive the engine. Its pid is
announced in the `id` line as child-pid=; `hub` is answered only once the helper has its own session.
Options: --crash-on-go (segmentation fault in the first search), --ignore-quit (ignores `quit`, the end
of its input and SIGTERM, like ignore_quit.py), --like-wine (the helper is started through a launcher
that exits at once, so the arbiter adopts it, and at `quit` the engine kills it itself and waits until
it is dead before exiting, as Wine's processes are ended by `wineserver -k`).
"""

import argparse
import os
import resource
import signal
import subprocess
import sys
import time

from hub_base import Engine, send, sleep_forever

HELPER = "import os, time\nos.setsid()\nprint(os.getsid(0), flush=True)\nwhile True: time.sleep(3600)"
# Starts the helper and exits once it has its own session: the helper's parent is gone.
LAUNCHER = (
    "import subprocess, sys\n"
    f"helper = subprocess.Popen([sys.executable, '-c', {HELPER!r}], stdout=subprocess.PIPE)\n"
    "helper.stdout.readline()\n"
    "print(helper.pid, flush=True)\n"
)


class EscapesSession(Engine):
    def __init__(self, crash_on_go: bool, ignore_quit: bool, like_wine: bool) -> None:
        super().__init__()
        self.crash_on_go = crash_on_go
        self.ignore_quit = ignore_quit
        self.like_wine = like_wine
        program = LAUNCHER if like_wine else HELPER
        started = subprocess.Popen(
            [sys.executable, "-c", program], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE
        )
        assert started.stdout is not None
        line = started.stdout.readline()  # the helper has left the session
        if like_wine:
            started.wait()  # the launcher is gone: the helper is an orphan, adopted by the arbiter
            self.helper_pid = int(line)
        else:
            self.helper_pid = started.pid

    def identity_extra(self) -> str:
        return f"{super().identity_extra()} child-pid={self.helper_pid}"

    def on_go(self, flags: set[str]) -> bool:
        if not self.crash_on_go:
            return super().on_go(flags)
        send(self.info_line(self.choose_move(), flags))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file in the test's directory
        os.kill(os.getpid(), signal.SIGSEGV)
        return False

    def on_quit(self) -> bool:
        if self.like_wine:
            end_and_wait(self.helper_pid)
        return self.ignore_quit

    def on_eof(self) -> None:
        if self.ignore_quit:
            sleep_forever()


def end_and_wait(pid: int) -> None:
    """Kill a process this one cannot reap (not its child) and wait until it is dead: a zombie, or gone."""
    os.kill(pid, signal.SIGKILL)
    while True:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rpartition(")")[2].split()[0] in ("Z", "X"):
                    return
        except OSError:
            return
        time.sleep(0.01)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--crash-on-go", action="store_true")
    parser.add_argument("--ignore-quit", action="store_true")
    parser.add_argument("--like-wine", action="store_true")
    options = parser.parse_args()
    if options.ignore_quit:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    EscapesSession(options.crash_on_go, options.ignore_quit, options.like_wine).run()
