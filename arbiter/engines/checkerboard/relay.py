"""A Windows CheckerBoard DLL on Linux: ``CheckerBoardLibrary`` calls relayed to the Wine host.

The adapter calls this object exactly as it calls a library loaded in its own process, so its time
mapping, `playnow`, move decoding, faults and logs are the same for a DLL under Wine. The host program
(``wine_host.c``, which describes the frames) runs as ``wine wine_host64.exe Z:\\...\\engine.dll`` in a
prefix of this engine's own. A crash in the DLL ends this process the way the same crash ends the
adapter on Linux (SIGSEGV for an access violation), after Wine is ended.
"""

from __future__ import annotations

import ctypes
import os
import signal
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

from arbiter.engines.checkerboard.api import CBMove, EngineMove, GetMoveReply
from arbiter.engines.checkerboard.library import LibraryError
from arbiter.engines.checkerboard.wine_prefix import new_instance, remove_instance
from arbiter.engines.checkerboard.wine_setup import WINE32_HINT, WineSetup, end_prefix, wine_environment
from arbiter.engines.process_group import reap_ended_children

SignalHandler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None
MAGIC = b"CBRL"
_HEADER = struct.Struct("<4sII")
_GETMOVE = struct.Struct("<64iidii")
_REPLY = struct.Struct("<65i")  # result, then board[8][8]
_MOVE_SIZE = ctypes.sizeof(CBMove)
_MAX_PAYLOAD = 1 << 16
_QUIT_SECONDS = 2.0

# Windows exception codes, and the signal the same fault gives a Linux library.
EXCEPTIONS: dict[int, tuple[str, signal.Signals]] = {
    0xC0000005: ("access violation", signal.SIGSEGV),
    0xC00000FD: ("stack overflow", signal.SIGSEGV),
    0xC0000006: ("in-page error", signal.SIGBUS),
    0xC000001D: ("illegal instruction", signal.SIGILL),
    0xC0000096: ("privileged instruction", signal.SIGILL),
    0xC0000094: ("integer division by zero", signal.SIGFPE),
    0xC0000095: ("integer overflow", signal.SIGFPE),
    0xC000008E: ("floating-point division by zero", signal.SIGFPE),
    0x80000003: ("breakpoint", signal.SIGTRAP),
}


def windows_path(path: Path) -> str:
    """The path as a Windows program names it (Wine's drive Z: is the Unix root)."""
    return "Z:" + str(path.absolute()).replace("/", "\\")


class RelayLibrary:
    """``CheckerBoardLibrary`` for a DLL run by the Wine host in a child process."""

    # The adapter calls flush_output before it exits even while a getmove runs: this process holds no
    # lock of the engine's, and Wine must be ended with the engine.
    out_of_process = True

    def __init__(self, library: Path, setup: WineSetup, env: Mapping[str, str]) -> None:
        self._setup = setup
        self._env = dict(env)
        self._prefix = new_instance(setup.template, setup.directory)
        self._calls = threading.Lock()  # one getmove or enginecommand at a time
        self._writes = threading.Lock()  # frames whole, `playnow` among them
        self._closing = False
        self._ended = False
        try:
            self._process = subprocess.Popen(
                [*setup.wine, str(setup.host), windows_path(library)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=wine_environment(self._env, self._prefix),
            )
        except OSError as error:
            self._end_wine()
            raise LibraryError(f"cannot start Wine ({' '.join(setup.wine)}): {error.strerror}") from None
        assert self._process.stdin is not None and self._process.stdout is not None
        self._sigterm: SignalHandler = None  # the handler this one replaced, given back at the end
        if threading.current_thread() is threading.main_thread():
            self._sigterm = signal.signal(signal.SIGTERM, self._terminated)
        self._in = self._process.stdin.fileno()
        self._out = self._process.stdout.fileno()
        kind, payload = self._frame()
        if kind == "H":
            self.identity = payload.decode("latin-1")  # pointer size and the names the functions had
            print(f"wine host ({self.identity}) in prefix {self._prefix}", file=sys.stderr, flush=True)
            return
        if kind == "X":
            reason = payload.decode("latin-1")
            if reason.endswith("Windows error 126"):  # ERROR_MOD_NOT_FOUND
                reason += " (a DLL it needs is missing: put it beside the engine's DLL)"
        elif kind == "":
            reason = f"Wine ended before the host loaded the DLL ({self._status()})"
            if setup.bits == 32:
                reason += f"; {WINE32_HINT}"
        else:
            reason = f"the Wine host answered {kind!r} instead of its greeting"
        self._process.kill()
        self._end_wine()
        raise LibraryError(reason)

    # -- CheckerBoardLibrary ------------------------------------------------------------------------

    def getmove(
        self, board: tuple[tuple[int, ...], ...], color: int, maxtime: float, info: int, moreinfo: int
    ) -> GetMoveReply:
        signed = moreinfo - (1 << 32) if moreinfo >= 1 << 31 else moreinfo
        cells = [value for column in board for value in column]
        with self._calls:
            self._send("G", _GETMOVE.pack(*cells, color, maxtime, info, signed))
            payload = self._reply("R", "getmove")
        if len(payload) < _REPLY.size + _MOVE_SIZE:
            self._die_lost(f"the Wine host's getmove reply is {len(payload)} bytes long")
        values = _REPLY.unpack_from(payload)
        after = tuple(tuple(values[1 + 8 * x : 9 + 8 * x]) for x in range(8))
        move = CBMove.from_buffer_copy(payload[_REPLY.size : _REPLY.size + _MOVE_SIZE])
        text = payload[_REPLY.size + _MOVE_SIZE :].decode("latin-1")
        return GetMoveReply(values[0], after, text, EngineMove.read(move))

    def enginecommand(self, command: str) -> tuple[bool, str]:
        with self._calls:
            # Whole, as CheckerBoard sends a long `set gamehist` (within the host's frame size).
            self._send("E", command.encode("latin-1", "replace")[: _MAX_PAYLOAD - 1])
            payload = self._reply("C", "enginecommand")
        if len(payload) < 4:
            self._die_lost("the Wine host's enginecommand reply is too short")
        handled = int.from_bytes(payload[:4], "little", signed=True)
        return handled != 0, payload[4:].decode("latin-1")

    def set_play_now(self, value: bool) -> None:
        self._send("P", struct.pack("<i", 1 if value else 0))

    def flush_output(self) -> None:
        """Called once before the adapter exits: the host flushes what the DLL printed and ends, then
        every Wine process of this engine's prefix is ended and the prefix removed."""
        self._closing = True
        try:
            self._send("Q", b"")
            self._process.wait(_QUIT_SECONDS)
        except (OSError, subprocess.TimeoutExpired):
            self._process.kill()
        self._end_wine()
        if self._sigterm is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, self._sigterm)

    # -- frames -------------------------------------------------------------------------------------

    def _send(self, kind: str, payload: bytes) -> None:
        data = _HEADER.pack(MAGIC, ord(kind), len(payload)) + payload
        with self._writes:
            try:
                while data:
                    data = data[os.write(self._in, data) :]
            except OSError:
                pass  # the host is gone: the reply's read says so

    def _reply(self, wanted: str, call: str) -> bytes:
        kind, payload = self._frame()
        if kind == wanted:
            return payload
        if kind == "F":
            self._die_fault(payload, call)
        if kind == "":
            self._die_lost(f"the Wine host ended during {call} ({self._status()})")
        self._die_lost(f"the Wine host answered {kind!r} to {call}")

    def _frame(self) -> tuple[str, bytes]:
        """The next frame ("" with no payload at the end of the stream). Bytes before a frame's magic
        (which only Wine itself could have written) go to the log, never into a reply."""
        header, skipped = self._read(_HEADER.size), b""
        while len(header) == _HEADER.size and not header.startswith(MAGIC):
            start = header.find(MAGIC[:1], 1)
            cut = start if start > 0 else len(header)
            skipped += header[:cut]
            header = header[cut:] + self._read(cut)
        if skipped:
            sys.stderr.write(f"wine (not the engine's reply): {skipped.decode('latin-1')!r}\n")
        if len(header) < _HEADER.size:
            return "", b""
        _, kind, length = _HEADER.unpack(header)
        if length > _MAX_PAYLOAD:
            self._die_lost(f"the Wine host sent a frame of {length} bytes")
        payload = self._read(length)
        if len(payload) < length:
            return "", b""
        return chr(kind) if kind < 0x110000 else "?", payload

    def _read(self, count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = os.read(self._out, count - len(data))
            if not chunk:
                break
            data += chunk
        return data

    # -- endings ------------------------------------------------------------------------------------

    def _status(self) -> str:
        try:
            code = self._process.wait(1.0)
        except subprocess.TimeoutExpired:
            return "it closed its output"
        return f"exit code {code}"

    def _end_wine(self) -> None:
        if self._ended:
            return
        self._ended = True
        end_prefix(self._setup.wineserver, self._prefix, self._env)
        remove_instance(self._prefix)

    def _terminated(self, signum: int, frame: object) -> None:
        """SIGTERM (the arbiter ending an engine that no longer answers): end Wine first, then die of it.
        A SIGKILL leaves the prefix behind; the next engine's start removes it."""
        self._closing = True
        self._process.kill()
        # Again even when an ending is under way: this handler may have interrupted it (the arbiter
        # terminates an engine it no longer trusts a quarter of a second after `quit`).
        end_prefix(self._setup.wineserver, self._prefix, self._env)
        remove_instance(self._prefix)
        reap_ended_children()  # Wine's processes, adopted by the adapter's process (see its ``main``)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)

    def _die_fault(self, payload: bytes, call: str) -> NoReturn:
        code = int.from_bytes(payload[:4], "little")
        name, sig = EXCEPTIONS.get(code, ("unhandled exception", signal.SIGABRT))
        where = payload[4:].decode("latin-1")
        self._die(f"the engine raised exception 0x{code:08X} ({name}) at {where} in {call}", sig)

    def _die_lost(self, message: str) -> NoReturn:
        self._die(message, None)

    def _die(self, message: str, sig: signal.Signals | None) -> NoReturn:
        """End as the adapter ends when a library in its own process crashes: at once, with the signal
        the same fault raises on Linux (exit code 1 when there is none)."""
        if self._closing:  # the adapter is exiting and ended the host itself
            threading.Event().wait()
        sys.stderr.write(f"checkerboard adapter: {message}\n")
        sys.stderr.flush()
        self._process.kill()
        self._end_wine()
        reap_ended_children()  # Wine's processes, adopted by the adapter's process (see its ``main``)
        if sig is not None:  # its default action (this may be any thread: the handler is left as is)
            os.kill(os.getpid(), sig)
            threading.Event().wait(1.0)
        os._exit(1)
