"""Fault, once: at its first move it hangs (answers nothing, not even `ping`), in the first process that
creates the marker file given as its argument. Started again, it plays normally: so only a fresh process
after the hang plays the next game.

    python tests/engines/hang_once.py MARKER
"""

import sys

from scripted_player import main

if __name__ == "__main__":
    main(["--name", "hang-once", "--hang-at", "1", "--once", sys.argv[1]])
