"""A tiny Hub engine for the tests, written independently of the arbiter's own Hub code.

It plays no draughts: it answers every search at once with a move from a fixed list. The engines that
misbehave on purpose are this engine with one behaviour changed. Each is a real program the arbiter
starts as a child process.

What it received is echoed in its `info` line (seen-moves, seen-level, seen-draw-offered, variant, ...)
so tests can check what the arbiter sent, read by a parser that is not the arbiter's.

With ``--answer-captures`` on its command line it answers a search where a capture is due with a legal
capture, found with the arbiter's rules (so it can pass `arbiter engine check`'s capture search); its
Hub is still its own.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from pathlib import Path

ENGLISH_MOVES = ["11-15", "23-19", "8-11", "22-17", "15x24x19"]
INTERNATIONAL_MOVES = ["32-28", "19-23", "28x19x23", "14x23x19", "33-28"]
OTHER_MOVES = ["1-2"]
# Scan's names of the variants, as engines declaring them receive them, and the arbiter's ids.
SCAN_NAMES = {"normal": "international", "losing": "antidraughts"}


def due_capture(variant_name: str, position: str, moves: list[str]) -> str | None:
    """The first legal capture, in Hub text, when the side to move must capture (None otherwise)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from arbiter.notation.movetext import parse_hub
    from arbiter.rules import Position, get_variant

    variant = get_variant(SCAN_NAMES.get(variant_name, variant_name))
    board = Position.from_hub(variant, position)
    for text in moves:
        board = board.play(parse_hub(board, text))
    captures = [move for move in board.legal_moves() if move.is_capture]
    return captures[0].hub if captures else None


def parse(line: str) -> tuple[str, dict[str, str], set[str]]:
    """Split `command key=value key="quoted value" flag` into its parts."""
    words: list[str] = []
    current = ""
    quoted = False
    for char in line.strip():
        if char == '"':
            quoted = not quoted
        elif char == " " and not quoted:
            if current:
                words.append(current)
            current = ""
        else:
            current += char
    if current:
        words.append(current)
    if not words:
        return "", {}, set()
    fields: dict[str, str] = {}
    flags: set[str] = set()
    for word in words[1:]:
        if "=" in word:
            key, value = word.split("=", 1)
            fields[key] = value
        else:
            flags.add(word)
    return words[0], fields, flags


def quote(value: str) -> str:
    return f'"{value}"' if (not value or " " in value or "=" in value) else value


# Some engines end their lines Windows-style; the arbiter must read them all the same.
LINE_END = "\r\n" if os.environ.get("ARBITER_TEST_CRLF") else "\n"


def send(text: str) -> None:
    sys.stdout.write(text + LINE_END)
    sys.stdout.flush()


class Engine:
    name = "instant"
    params = [
        'param name=variant value=english type=enum values="english international russian"',
        "param name=hash value=16 type=int min=1 max=1024",
        "param name=ponder value=false type=bool",
        "param name=contempt value=0 type=real min=-1 max=1",
        'param name=book value="" type=string',
        'param name=behaviour value=normal type=enum values="normal offer-draw resign accept-draw complain"',
    ]

    def __init__(self) -> None:
        self.settings = {"variant": "english", "hash": "16", "behaviour": "normal"}
        self.position = ""
        self.moves: list[str] = []
        self.level = ""
        self.games = 0
        self.searches = 0
        self.answer_captures = "--answer-captures" in sys.argv[1:]

    # -- the loop ---------------------------------------------------------------------------------------

    def run(self) -> None:
        while True:
            line = sys.stdin.readline()
            if not line:
                self.on_eof()
                return
            command, fields, flags = parse(line)
            if not self.handle(command, fields, flags):
                return

    def handle(self, command: str, fields: dict[str, str], flags: set[str]) -> bool:
        """False ends the program."""
        if command == "hub":
            self.on_hub()
        elif command == "set-param":
            self.settings[fields.get("name", "")] = fields.get("value", "")
        elif command == "init":
            self.on_init()
        elif command == "new-game":
            self.games += 1
        elif command == "pos":
            self.position = fields.get("pos", "")
            self.moves = fields.get("moves", "").split()
        elif command == "level":
            self.level = " ".join([f"{key}={value}" for key, value in fields.items()] + sorted(flags))
        elif command == "go":
            return self.on_go(flags)
        elif command == "ping":
            send("pong")
        elif command == "quit":
            return self.on_quit()
        return True

    def on_eof(self) -> None:
        """The protocol says: exit when stdin closes."""

    def on_quit(self) -> bool:
        return False

    # -- start-up ---------------------------------------------------------------------------------------

    def identity_extra(self) -> str:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        cpus = ",".join(str(cpu) for cpu in sorted(os.sched_getaffinity(0)))
        return f"pid={os.getpid()} rlimit-as={soft} affinity={cpus} cwd={quote(os.getcwd())}"

    def on_hub(self) -> None:
        send(f'id name={self.name} version=1.0 author="Arbiter tests" country=NL {self.identity_extra()}')
        for line in self.params:
            send(line)
        send("wait")

    def on_init(self) -> None:
        send("ready")

    # -- searching --------------------------------------------------------------------------------------

    def choose_move(self) -> str:
        if self.answer_captures:
            capture = due_capture(self.settings.get("variant", ""), self.position, self.moves)
            if capture is not None:
                return capture
        size = len(self.position) - 1
        table = ENGLISH_MOVES if size == 32 else INTERNATIONAL_MOVES if size == 50 else OTHER_MOVES
        return table[len(self.moves) % len(table)]

    def info_line(self, move: str, flags: set[str]) -> str:
        seen = {
            "seen-moves": str(len(self.moves)),
            "seen-last": self.moves[-1] if self.moves else "none",
            "seen-level": self.level,
            "seen-draw-offered": "yes" if "draw-offered" in flags else "no",
            "seen-mode": next((mode for mode in ("think", "ponder", "analyze") if mode in flags), "none"),
            "variant": self.settings.get("variant", ""),
            "hash": self.settings.get("hash", ""),
            "env-probe": os.environ.get("ARBITER_TEST_PROBE", "unset"),
            "games": str(self.games),
        }
        extra = " ".join(f"{key}={quote(value)}" for key, value in seen.items())
        return f'info depth=3 score=0.25 nodes=1234 time=0.001 nps=1234000 pv="{move} 9-14" {extra}'

    def on_go(self, flags: set[str]) -> bool:
        self.searches += 1
        move = self.choose_move()
        send(self.info_line(move, flags))
        if "infinite" in self.level or "ponder" in flags or "analyze" in flags:
            return self.wait_for_stop(move)
        self.finish(move, flags)
        return True

    def finish(self, move: str, flags: set[str]) -> None:
        behaviour = self.settings.get("behaviour", "normal")
        if behaviour == "resign":
            send("done resign")
        elif behaviour == "offer-draw" or (behaviour == "accept-draw" and "draw-offered" in flags):
            send(f"done move={move} draw")
        else:
            if behaviour == "complain":
                send('error message="this position looks odd to me"')
            send(f"done move={move} ponder=9-14")

    def wait_for_stop(self, move: str) -> bool:
        """An endless search: answer ping while waiting; stop (or ponder-hit) ends it."""
        while True:
            line = sys.stdin.readline()
            if not line:
                return False
            command, _, _ = parse(line)
            if command in ("stop", "ponder-hit"):
                send(f"done move={move}")
                return True
            if command == "ping":
                send("pong")
            elif command == "quit":
                return False


def sleep_forever() -> None:
    while True:
        time.sleep(3600)
