"""Fault, once: its first move comes SECONDS late (default 1), in the first process that creates the
marker file given as its argument; otherwise it plays at once.

    python tests/engines/late_once.py MARKER [SECONDS]
"""

import sys

from scripted_player import main

if __name__ == "__main__":
    seconds = sys.argv[2] if len(sys.argv) > 2 else "1"
    main(["--name", "late-once", "--late-at", "1", "--late", seconds, "--once", sys.argv[1]])
