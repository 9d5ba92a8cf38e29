"""Fault: does not exit on `quit`, nor when its stdin closes, and ignores SIGTERM (SIGKILL ends it)."""

import signal

from hub_base import Engine, sleep_forever


class IgnoreQuit(Engine):
    def on_quit(self) -> bool:
        return True

    def on_eof(self) -> None:
        sleep_forever()


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    IgnoreQuit().run()
