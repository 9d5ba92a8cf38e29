"""Fault, once: at its first move it closes its stdout and sleeps, still running, in the first process
that creates the marker file given as its argument; otherwise it plays at once.

    python tests/engines/closes_stdout.py MARKER
"""

import sys

from scripted_player import main

if __name__ == "__main__":
    main(["--name", "closes-stdout", "--close-output-at", "1", "--once", sys.argv[1]])
