"""A well-behaved Hub engine that answers every search at once with a move from a fixed list."""

from hub_base import Engine

if __name__ == "__main__":
    Engine().run()
