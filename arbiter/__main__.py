"""`python -m arbiter`: the `arbiter` command, also where the environment's scripts are not on PATH."""

from arbiter.cli import main

if __name__ == "__main__":
    main()
