"""Fault: writes its answers without flushing them, so its block-buffered stdout (not a terminal) keeps
them back: the arbiter hears nothing. The commonest mistake of a new engine."""

import io
import sys

import hub_base


def send_unflushed(text: str) -> None:
    sys.stdout.write(text + "\n")


if __name__ == "__main__":
    # Buffered whatever the environment says (PYTHONUNBUFFERED, python -u), as C's stdio is.
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False), 65536))
    hub_base.send = send_unflushed
    hub_base.Engine().run()
