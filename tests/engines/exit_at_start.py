"""Fault: exits as soon as it starts, before it reads anything (like an engine missing its data files)."""

import sys

if __name__ == "__main__":
    sys.stderr.write("fatal: cannot open evaluation weights\n")
    sys.exit(3)
