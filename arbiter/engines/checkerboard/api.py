"""The CheckerBoard engine API as the adapter calls it: constants, the move structure, and the small
interface (``CheckerBoardLibrary``) behind which a library is called, in this process or elsewhere.

See docs/checkerboard.md for what each value means to an engine.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Protocol

FREE = 0
WHITE = 1
BLACK = 2
MAN = 4
KING = 8

# getmove's return value: the engine's own claim about the game.
CLAIMS = {0: "draw", 1: "win", 2: "loss", 3: "unknown"}

# getmove's `info` bits.
RESET = 1
EXACT_TIME = 2
INCREMENT_SHIFT = 2  # bits 2-3: 0 no increment data; 1, 2, 3: units of 1 ms, 10 ms, 100 ms

# The stack getmove runs with. CheckerBoard's program reserves 8,000,000 bytes of stack for the thread
# it calls engines on, and engines are written for it: a deep search with large frames needs it.
STACK_SIZE = 8 << 20

BUFFER_SIZE = 1024  # for getmove's `str` and enginecommand's `reply`, whatever the engine declares
COMMAND_SIZE = 256

Board = ctypes.c_int * 8 * 8  # board[x][y]


class Coor(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]


class CBMove(ctypes.Structure):
    _fields_ = [
        ("jumps", ctypes.c_int),
        ("newpiece", ctypes.c_int),
        ("oldpiece", ctypes.c_int),
        ("from_", Coor),
        ("to", Coor),
        ("path", Coor * 12),
        ("del_", Coor * 12),
        ("delpiece", ctypes.c_int * 12),
    ]


@dataclass(frozen=True)
class EngineMove:
    """What the engine said in ``struct CBmove`` (coordinates as (x, y)); many engines leave it empty."""

    start: tuple[int, int]
    end: tuple[int, int]
    captured: tuple[tuple[int, int], ...]

    @classmethod
    def read(cls, move: CBMove) -> EngineMove | None:
        start, end = (move.from_.x, move.from_.y), (move.to.x, move.to.y)
        if start == end or not all(0 <= c < 8 for c in (*start, *end)):
            return None
        jumps = move.jumps if 0 <= move.jumps <= 12 else 0
        return cls(start, end, tuple((move.del_[i].x, move.del_[i].y) for i in range(jumps)))


@dataclass(frozen=True)
class GetMoveReply:
    """What one getmove call gave back."""

    result: int  # DRAW 0, WIN 1, LOSS 2, UNKNOWN 3 (anything else is kept as it came)
    board: tuple[tuple[int, ...], ...]  # board[x][y] after the engine's move
    text: str  # the `str` buffer: the engine's words about its search
    move: EngineMove | None


class CheckerBoardLibrary(Protocol):
    """One loaded engine. The calls block; ``getmove`` is made on a worker thread while another thread
    may call ``set_play_now`` (the engine's ``*playnow`` flag, which getmove leaves as it finds it)."""

    def getmove(
        self, board: tuple[tuple[int, ...], ...], color: int, maxtime: float, info: int, moreinfo: int
    ) -> GetMoveReply: ...

    def enginecommand(self, command: str) -> tuple[bool, str]:
        """(handled, reply): the return value 1 and the reply text."""
        ...

    def set_play_now(self, value: bool) -> None:
        """Set or clear ``*playnow``."""
        ...

    def flush_output(self) -> None:
        """Push out what the engine printed but its C library still buffers (before exit)."""
        ...
