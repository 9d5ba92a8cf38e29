"""Fault: exits as soon as it starts, before it reads anything (like an engine missing its data files).

`exit_at_start.py [ARGS...] --linger S` closes its output first and exits S seconds later (as a program
whose teardown takes a while): its output closes well before its exit status is known.
"""

import os
import sys
import time

if __name__ == "__main__":
    sys.stderr.write("fatal: cannot open evaluation weights\n")
    sys.stderr.flush()
    if "--linger" in sys.argv:
        linger = float(sys.argv[sys.argv.index("--linger") + 1])
        os.close(1)
        os.close(2)
        time.sleep(linger)
    sys.exit(3)
