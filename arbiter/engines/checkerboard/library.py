"""A CheckerBoard engine loaded into this process with ctypes: a Linux `.so` (the C convention) or a
Windows DLL (stdcall, as CheckerBoard itself loads them)."""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from pathlib import Path
from typing import Any

from arbiter.engines.checkerboard.api import (
    BUFFER_SIZE,
    COMMAND_SIZE,
    Board,
    CBMove,
    EngineMove,
    GetMoveReply,
)


class LibraryError(Exception):
    """The library cannot be loaded or lacks a function the API requires."""


class CtypesLibrary:
    """``CheckerBoardLibrary`` for a library loaded in this process (one per process: engines keep
    global state)."""

    def __init__(self, path: Path) -> None:
        loader: Any = ctypes.WinDLL if sys.platform == "win32" else ctypes.CDLL  # type: ignore[attr-defined]
        try:
            self._dll = loader(str(path))
        except OSError as error:
            raise LibraryError(f"cannot load {path}: {error}{_windows_hint(path)}") from None
        try:
            self._getmove = self._dll.getmove
            self._enginecommand = self._dll.enginecommand
        except AttributeError as error:
            raise LibraryError(f"{path} is not a CheckerBoard engine: {error}") from None
        self._getmove.restype = ctypes.c_int
        self._getmove.argtypes = [
            ctypes.POINTER(Board),
            ctypes.c_int,
            ctypes.c_double,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_int),
            ctypes.c_int,
            ctypes.c_int,
            ctypes.POINTER(CBMove),
        ]
        self._enginecommand.restype = ctypes.c_int
        self._enginecommand.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
        self._playnow = ctypes.c_int(0)
        self._board = Board()
        self._text = ctypes.create_string_buffer(BUFFER_SIZE)
        self._reply = ctypes.create_string_buffer(BUFFER_SIZE)
        self._command = ctypes.create_string_buffer(COMMAND_SIZE)
        self._move = CBMove()

    def getmove(
        self, board: tuple[tuple[int, ...], ...], color: int, maxtime: float, info: int, moreinfo: int
    ) -> GetMoveReply:
        cells = self._board
        for x, column in enumerate(board):
            cells[x][:] = list(column)
        ctypes.memset(self._text, 0, BUFFER_SIZE)
        ctypes.memset(ctypes.byref(self._move), 0, ctypes.sizeof(CBMove))
        # moreinfo is 32 bits with the remaining time in the upper half: passed as the C int it is.
        signed = moreinfo - (1 << 32) if moreinfo >= 1 << 31 else moreinfo
        result = self._getmove(
            ctypes.byref(cells),
            color,
            maxtime,
            self._text,
            ctypes.byref(self._playnow),
            info,
            signed,
            ctypes.byref(self._move),
        )
        after = tuple(tuple(column) for column in cells)
        text = self._text.value.decode("latin-1")
        return GetMoveReply(result, after, text, EngineMove.read(self._move))

    def enginecommand(self, command: str) -> tuple[bool, str]:
        data = command.encode("latin-1", "replace")
        # The API declares 256 bytes, but CheckerBoard sends a long `set gamehist` whole, and so does this.
        buffer = self._command if len(data) < COMMAND_SIZE else ctypes.create_string_buffer(len(data) + 1)
        ctypes.memset(buffer, 0, ctypes.sizeof(buffer))
        buffer.value = data
        ctypes.memset(self._reply, 0, BUFFER_SIZE)
        handled = self._enginecommand(buffer, self._reply)
        return handled != 0, self._reply.value.decode("latin-1")

    def set_play_now(self, value: bool) -> None:
        self._playnow.value = 1 if value else 0

    def flush_output(self) -> None:
        libc_name = ctypes.util.find_library("c")
        if sys.platform == "win32" or libc_name is None:
            return
        ctypes.CDLL(libc_name).fflush(None)


def _windows_hint(path: Path) -> str:
    """Why a Windows DLL under another name does not load: it is run under Wine by its .dll name."""
    if sys.platform == "win32":
        return ""
    try:
        with path.open("rb") as file:
            windows = file.read(2) == b"MZ"
    except OSError:
        return ""
    return "; it is a Windows DLL: name it NAME.dll to run it under Wine (docs/wine.md)" if windows else ""
