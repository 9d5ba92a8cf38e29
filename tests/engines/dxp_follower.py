"""A small DXP follower for the tests, written independently of the arbiter's DXP code.

It plays no draughts: when it is its turn it sends the next move of --moves (with --answer-captures, a
game it is asked to begin from a position where it must capture gets a legal capture, found with the
arbiter's rules). Every message it receives
is written, decoded by its own reader, as one JSON line to --record, so tests can check what the
arbiter sent. Options make it misbehave: refuse games, never answer a game request, resign, claim a
draw, send garbage, crash, chat, ask for a take-back.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import time
from pathlib import Path


def encode_move(move: str, seconds: int) -> bytes:
    if "-" in move:
        source, target = move.split("-")
        captured: list[str] = []
    else:
        source, target, *captured = move.split("x")
    text = f"M{seconds:04d}{int(source):02d}{int(target):02d}{len(captured):02d}"
    text += "".join(f"{int(square):02d}" for square in captured)
    return text.encode() + b"\0"


def decode(text: str) -> dict[str, object]:
    kind = text[0]
    if kind == "R":
        return {
            "type": "R",
            "version": text[1:3],
            "initiator": text[3:35].rstrip(),
            "follower_colour": text[35],
            "minutes": int(text[36:39]),
            "moves": int(text[39:42]),
            "start": text[42],
            "position": text[43:],
        }
    if kind == "M":
        count = int(text[9:11])
        return {
            "type": "M",
            "seconds": int(text[1:5]),
            "from": int(text[5:7]),
            "to": int(text[7:9]),
            "captured": [int(text[11 + 2 * i : 13 + 2 * i]) for i in range(count)],
        }
    if kind == "E":
        return {"type": "E", "reason": int(text[1]), "stop": int(text[2])}
    if kind == "K":
        return {"type": "K", "code": int(text[1])}
    return {"type": kind, "text": text[1:]}


def due_capture(position: str) -> str | None:
    """The first legal capture, in Hub text, of an international position in DXP's letters, when the
    side to move must capture."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from arbiter.rules import Position, get_variant

    hub = ("W" if position[0] == "W" else "B") + position[1:].translate(str.maketrans("zZ", "bB"))
    board = Position.from_hub(get_variant("international"), hub)
    captures = [move for move in board.legal_moves() if move.is_capture]
    return captures[0].hub if captures else None


class Follower:
    def __init__(self, options: argparse.Namespace, connection: socket.socket) -> None:
        self.options = options
        self.connection = connection
        self.moves = options.moves.split(",") if options.moves else ["32-28"]
        self.black_moves = options.black_moves.split(",") if options.black_moves else self.moves
        self.played = 0
        self.colour = "W"
        self.to_move = "W"
        self.ended = False
        self.held: list[bytes] | None = None  # messages kept back to leave in one write
        self.record = open(options.record, "a") if options.record else None  # noqa: SIM115

    def send(self, data: bytes) -> None:
        if self.held is not None:
            self.held.append(data)
        else:
            self.connection.sendall(data)

    def note(self, message: dict[str, object]) -> None:
        if self.record is not None:
            self.record.write(json.dumps(message) + "\n")
            self.record.flush()

    def run(self) -> None:
        buffer = b""
        while True:
            data = self.connection.recv(4096)
            if not data:
                # Like Scan, it ends when the arbiter ends the connection; like Moby Dam, with
                # --stay-after-connection-end, it goes on until it is killed or told to stop.
                sys.stderr.write(f"dxp follower {self.options.name} saw the connection end\n")
                sys.stderr.flush()
                if self.options.stay_after_connection_end:
                    while True:
                        time.sleep(3600)
                return
            buffer += data
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = decode(raw.decode("ascii"))
                self.note(message)
                if not self.handle(message):
                    return

    def handle(self, message: dict[str, object]) -> bool:
        kind = message["type"]
        if kind == "R":
            if self.options.silent_on_request:
                return True
            if self.options.refuse:
                self.send(b"A" + self.options.name.ljust(32).encode() + b"2\0")
                return True
            self.colour = str(message["follower_colour"])
            position = str(message["position"])
            self.to_move = "W" if message["start"] == "A" else position[0]
            self.played = 0
            together = self.options.accept_with_first_move > 0 and self.to_move == self.colour
            if together:  # it thinks first, then writes its acceptance and its move at once
                time.sleep(self.options.accept_with_first_move)
                self.held = []
            self.send(b"A" + self.options.name.ljust(32).encode() + b"0\0")
            if self.to_move == self.colour:
                capture = due_capture(position) if self.options.answer_captures else None
                if capture is not None:
                    self.played += 1
                    self.send(encode_move(capture, seconds=self.played))
                    self.to_move = "Z" if self.colour == "W" else "W"
                else:
                    self.play()
            if self.held is not None:
                held, self.held = self.held, None
                self.send(b"".join(held))
        elif kind == "M":
            self.to_move = self.colour
            self.play()
        elif kind == "E":
            if message.get("stop") == 1 and not self.options.ignore_stop:
                sys.stderr.write(f"dxp follower {self.options.name} was told to stop\n")
                return False
            if not self.ended:  # an E that answers our own E needs no answer
                self.send(b"E00\0")
            self.ended = False
        return True

    def play(self) -> None:
        self.played += 1
        options = self.options
        if options.chat:
            self.send(b"C" + options.chat.encode() + b"\0")
        if options.ask_takeback:
            self.send(b"B001W\0")
        if self.played == options.crash_at:
            os._exit(5)
        if self.played == options.garbage_at:
            self.send(b"M12\0")
            return
        if self.played == options.resign_at:
            self.send(b"E10\0")
            self.ended = True
            return
        if self.played == options.draw_at:
            self.send(b"E20\0")
            self.ended = True
            return
        if self.played == options.hang_at:
            while True:
                time.sleep(3600)
        if self.played == options.disconnect_at and first_to_claim(options.once):
            self.connection.close()  # the connection drops; the program itself stays
            while True:
                time.sleep(3600)
        moves = self.black_moves if self.colour == "Z" else self.moves
        move = moves[(self.played - 1) % len(moves)]
        self.send(encode_move(move, seconds=self.played))
        self.to_move = "Z" if self.colour == "W" else "W"


def first_to_claim(marker: str) -> bool:
    """True without --once; with it, only for the first process that creates the marker file."""
    if not marker:
        return True
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser()
    side = parser.add_mutually_exclusive_group(required=True)
    side.add_argument("--listen", type=int, help="wait for the arbiter on this port")
    side.add_argument("--connect", type=int, help="connect to the arbiter on this port")
    parser.add_argument("--name", default="follower")
    parser.add_argument("--moves", default="")
    parser.add_argument("--black-moves", default="", help="its moves when it plays black (default: --moves)")
    parser.add_argument("--record", default="")
    parser.add_argument("--refuse", action="store_true")
    parser.add_argument("--silent-on-request", action="store_true", help="never answer a game request")
    parser.add_argument("--chat", default="")
    parser.add_argument("--ask-takeback", action="store_true")
    parser.add_argument("--once", default="", help="--disconnect-at only in the first process making it")
    parser.add_argument(
        "--no-reuse-address", action="store_true", help="listen without SO_REUSEADDR, as Scan does"
    )
    parser.add_argument(
        "--nagle",
        action="store_true",
        help="keep Nagle's algorithm on its socket, as Scan and Moby Dam do: a second small message waits "
        "for the first one's acknowledgement",
    )
    parser.add_argument("--ignore-stop", action="store_true", help="go on after a game end with stop code 1")
    parser.add_argument(
        "--answer-captures", action="store_true", help="begin a game where it must capture with a capture"
    )
    parser.add_argument(
        "--accept-with-first-move",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="when it moves first, think SECONDS, then write its acceptance and its move in one write",
    )
    parser.add_argument(
        "--stay-after-connection-end",
        action="store_true",
        help="keep running once the connection ends, as Moby Dam does",
    )
    for event in ("crash", "garbage", "resign", "draw", "hang", "disconnect"):
        parser.add_argument(f"--{event}-at", type=int, default=0, help=f"{event} at its Nth move")
    options = parser.parse_args()
    if options.listen is not None:
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if not options.no_reuse_address:
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", options.listen))
        server.listen(1)
        connection, _ = server.accept()
        server.close()
    else:
        connection = socket.create_connection(("127.0.0.1", options.connect))
    if not options.nagle:
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sys.stderr.write(f"dxp follower {options.name} connected\n")
    Follower(options, connection).run()


if __name__ == "__main__":
    main()
