"""Stands in for `wine HOST.exe ENGINE.dll` where Wine is not installed: speaks the Wine host's frames
(arbiter/engines/checkerboard/wine_host.c) for a pretend engine, with Wine-like noise on stdout first.

    fake_wine.py --version | wineboot --init | HOST ENGINE.dll

The engine's behaviour is chosen by FAKE_WINE_MODE: `think` (getmove waits for playnow, then hands the
board back with the man on (1, 5) moved to (0, 4)), `crash` (getmove raises an access violation),
`gone` (the host ends without a word)."""

from __future__ import annotations

import os
import struct
import sys
import time
from pathlib import Path

HEADER = struct.Struct("<4sII")


def send(kind: str, payload: bytes) -> None:
    sys.stdout.buffer.write(HEADER.pack(b"CBRL", ord(kind), len(payload)) + payload)
    sys.stdout.buffer.flush()


def read(count: int) -> bytes:
    data = sys.stdin.buffer.read(count)
    if len(data) < count:
        sys.exit(0)
    return data


def host(mode: str) -> None:
    sys.stdout.buffer.write(b"0024:err:ntdll:some Wine noise that is not a frame\n")
    send("H", b"64 getmove enginecommand")
    playnow = 0
    while True:
        _, kind, length = HEADER.unpack(read(HEADER.size))
        payload = read(length)
        if chr(kind) == "P":
            playnow = struct.unpack("<i", payload)[0]
            print(f"playnow {playnow}", file=sys.stderr, flush=True)
        elif chr(kind) == "E":
            text = payload.decode()
            reply = {"name": "Fake engine", "get gametype": "21"}.get(text)
            send("C", struct.pack("<i", reply is not None) + (reply or "?").encode())
        elif chr(kind) == "G":
            if mode == "crash":
                send("F", struct.pack("<I", 0xC0000005) + b"00000001deadbeef")
                sys.exit(0xC0000005 & 0xFF)
            if mode == "gone":
                sys.exit(3)
            while playnow == 0:  # the arbiter's side must get `P 1` through while this getmove runs
                _, kind, length = HEADER.unpack(read(HEADER.size))
                more = read(length)
                if chr(kind) == "P":
                    playnow = struct.unpack("<i", more)[0]
                    print(f"playnow {playnow} during getmove", file=sys.stderr, flush=True)
            cells = list(struct.unpack_from("<64i", payload))
            cells[1 * 8 + 5], cells[0 * 8 + 4] = 0, cells[1 * 8 + 5]
            sys.stdout.buffer.write(b"more noise between frames")
            move = [0] * 67
            send("R", struct.pack("<65i", 3, *cells) + struct.pack("<67i", *move) + b"depth 1")


def leave_a_daemon() -> None:
    """As Wine's boot does: a process (wineserver, a service) that outlives the boot, its parent gone, so
    it ends an orphan of the nearest subreaper. It keeps the boot's output open while it runs."""
    if os.fork() == 0:
        if os.fork() == 0:
            time.sleep(0.3)
        os._exit(0)
    os.wait()


def main() -> None:
    arguments = sys.argv[1:]
    if arguments == ["--version"]:
        print("wine-fake-1.0")
    elif arguments[:1] == ["wineboot"]:
        prefix = Path(os.environ["WINEPREFIX"])
        prefix.mkdir(parents=True, exist_ok=True)
        (prefix / "system.reg").write_text("")
        leave_a_daemon()
    else:
        host(os.environ.get("FAKE_WINE_MODE", "think"))


if __name__ == "__main__":
    main()
