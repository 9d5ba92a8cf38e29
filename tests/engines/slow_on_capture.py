"""A Hub engine that answers at once, except when it must capture: then it thinks SECONDS first.

    python tests/engines/slow_on_capture.py SECONDS [--honour-stop] [other scripted_player options]

Without ``--honour-stop`` it ignores ``stop`` and sleeps the full SECONDS, which is how an engine runs
into the ACF jump limits. It is ``scripted_player.py --capture-sleep SECONDS`` under a clearer name.
"""

from __future__ import annotations

import sys

from scripted_player import main

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: slow_on_capture.py SECONDS [scripted_player options]")
    main(["--name", "slow-on-capture", "--capture-sleep", sys.argv[1], *sys.argv[2:]])
