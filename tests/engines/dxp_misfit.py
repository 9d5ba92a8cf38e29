"""A DXP follower that plays legal international draughts badly and misbehaves on the wire the way real
DXP programs do, one way per run (--fault), at its Nth move (--at, default 1).

It keeps its own board through the arbiter's rules code only to find a legal move to send (the first
one); everything on the wire is written and read here, byte by byte, independently of the arbiter's DXP
code. Faults:

  wrong-length      a move message one character short
  unknown-type      a message with the type letter X
  bad-time          a move whose seconds field is not digits
  bad-count         a capture whose capture count says 0 (a quiet move's shape)
  capture-order     a capture with its captured squares in reverse order
  other-side        a move of the arbiter's side
  twice             its move, then a second move out of turn
  no-nul            its move without the terminating NUL (and nothing after it)
  split             each message written a byte at a time, 5 ms apart
  bundled           a chat, a take-back request and its move in one write
  chat-backreq      a chat and a take-back request before its move
  never-move        never sends its move (stays connected)
  disconnect        closes the connection instead of moving, and stays running
  exit-after-end    plays properly, but exits when a game ends (a stop code 0 `E`)
  exit-after-game   the same, once it has played a move (the name-learning game before a match passes)
  slow-accept       waits 2 s before it accepts a game request
  refuse-N          answers every game request with acceptance code N
  second-connection connects twice (with --connect) and plays on the second connection
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arbiter.notation.movetext import parse_hub  # noqa: E402
from arbiter.rules import Position, get_variant  # noqa: E402

CAPTURE_FAULTS = {"bad-count": 3, "capture-order": 4}  # squares (start, end, captured) they need


def move_text(seconds: int, squares: list[int], count: int | None = None) -> bytes:
    captured = squares[2:]
    text = f"M{seconds:04d}{squares[0]:02d}{squares[1]:02d}{len(captured) if count is None else count:02d}"
    return (text + "".join(f"{square:02d}" for square in captured)).encode()


def hub_squares(move: str) -> list[int]:
    return [int(square) for square in move.replace("-", "x").split("x")]


class Misfit:
    def __init__(self, options: argparse.Namespace, connection: socket.socket) -> None:
        self.options = options
        self.connection = connection
        self.variant = get_variant("international")
        self.position = Position.start(self.variant)
        self.fired = False
        self.colour = "W"
        self.played = 0

    def write(self, *messages: bytes) -> None:
        data = b"".join(message + b"\0" for message in messages)
        if self.options.fault == "split":
            for index in range(len(data)):
                self.connection.sendall(data[index : index + 1])
                time.sleep(0.005)
        else:
            self.connection.sendall(data)

    def run(self) -> None:
        buffer = b""
        while True:
            data = self.connection.recv(4096)
            if not data:
                return
            buffer += data
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                if not self.handle(raw.decode("ascii")):
                    return

    def handle(self, text: str) -> bool:
        fault = self.options.fault
        if text[0] == "R":
            if fault.startswith("refuse-"):
                self.write(b"A" + b"Misfit".ljust(32) + fault[-1].encode())
                return True
            if fault == "slow-accept":
                time.sleep(2.0)  # thinks before it accepts
            self.write(b"A" + b"Misfit".ljust(32) + b"0")
            self.colour = "W" if text[35] == "W" else "B"
            squares = text[44:].translate(str.maketrans("wzWZ", "wbWB"))
            self.position = Position.from_hub(self.variant, ("W" if text[43] == "W" else "B") + squares)
            if self.position.hub()[0] == self.colour:
                self.play()
        elif text[0] == "M":
            count = int(text[9:11])
            squares = [text[5:7], text[7:9]] + [text[11 + 2 * i : 13 + 2 * i] for i in range(count)]
            played = "x".join(str(int(square)) for square in squares)
            self.position = self.position.play(parse_hub(self.position, played))
            self.play()
        elif text[0] == "E":
            if fault == "exit-after-end" or (fault == "exit-after-game" and self.played) or text[2] == "1":
                sys.exit(0)
            self.write(b"E00")
        return True

    def play(self) -> None:
        self.played += 1
        move = self.position.legal_moves()[0]
        squares = hub_squares(move.hub)
        fault = self.options.fault if self.played >= self.options.at and not self.fired else ""
        if len(squares) < CAPTURE_FAULTS.get(fault, 0):
            fault = ""  # waits for a capture that can show it
        self.fired = self.fired or bool(fault)
        data = move_text(self.played, squares)
        if fault == "never-move":
            return
        if fault == "disconnect":
            self.connection.close()
            while True:
                time.sleep(3600)
        if fault == "wrong-length":
            data = data[:-1]
        elif fault == "unknown-type":
            data = b"X" + data[1:]
        elif fault == "bad-time":
            data = b"M00x1" + data[5:]
        elif fault == "bad-count":
            data = move_text(self.played, squares[:2], 0)
        elif fault == "capture-order":
            data = move_text(self.played, squares[:2] + squares[:1:-1])
        elif fault == "other-side":
            hub = self.position.hub()
            flipped = Position.from_hub(self.variant, ("B" if hub[0] == "W" else "W") + hub[1:])
            data = move_text(self.played, hub_squares(flipped.legal_moves()[0].hub))
        self.position = self.position.play(move)
        if fault == "twice":
            again = move_text(self.played, hub_squares(self.position.legal_moves()[0].hub))
            self.write(data, again)
        elif fault == "no-nul":
            self.connection.sendall(data)
        elif fault == "bundled":
            self.write(b"Chello", b"B001W", data)
        elif fault == "chat-backreq":
            self.write(b"Chello")
            self.write(b"B001W")
            self.write(data)
        else:
            self.write(data)


def main() -> None:
    parser = argparse.ArgumentParser()
    side = parser.add_mutually_exclusive_group(required=True)
    side.add_argument("--listen", type=int)
    side.add_argument("--connect", type=int)
    parser.add_argument("--fault", default="")
    parser.add_argument("--at", type=int, default=1)
    options = parser.parse_args()
    if options.listen is not None:
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", options.listen))
        server.listen(2)
        connection, _ = server.accept()
        server.close()
    else:
        connection = socket.create_connection(("127.0.0.1", options.connect))
        if options.fault == "second-connection":
            connection = socket.create_connection(("127.0.0.1", options.connect))
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    Misfit(options, connection).run()
    os._exit(0)


if __name__ == "__main__":
    main()
