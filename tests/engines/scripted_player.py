"""A Hub engine for referee tests: plays a script of moves, then a fixed policy, and misbehaves on cue.

Everything it does is set on the command line, so a test can reach an exact position, offer or accept
a draw, resign, sleep, crash, hang or print any line at a chosen move. "Move K" below counts the
searches this engine has answered since ``new-game`` (its own moves, from 1).

    python tests/engines/scripted_player.py --moves "11-15 8-11" --then fresh --accept-draws
    python tests/engines/scripted_player.py --capture-sleep 0.4            # slow only when it must capture
    python tests/engines/scripted_player.py --say-at 3 --say "done move=9-14"   # an illegal move at move 3
    python tests/engines/scripted_player.py --spend-clock 0.9   # 0.9 x (time + inc) a move, as Scan budgets
    python tests/engines/scripted_player.py --exit-at-restart F  # passes the check, then cannot start
    python tests/engines/scripted_player.py --captures-as-pdn   # its captures in PDN text: never legal Hub

Policies after the script runs out: ``first`` (the first legal move), ``fresh`` (the first legal move
to a position that has not occurred since the last man move or capture, preferring one that leaves the
opponent no capture: games never repeat and run long, deterministically), and ``random`` (seeded with
``--seed``). Script moves are PDN text resolved against the position.
With ``--log FILE`` every line received is appended to FILE, so a test can check what it was told.
With ``--once FILE`` the misbehaviours (crash, hang, late answer, closed output) happen in one process
only: the first one that creates FILE. A process started after it plays normally, so a test can tell a
freshly started engine from one kept after its fault.
"""

from __future__ import annotations

import argparse
import codecs
import os
import random
import sys
import threading
import time
from pathlib import Path

from arbiter.notation.movetext import format_hub, parse_hub, parse_pdn
from arbiter.rules import VARIANTS, Move, Position, get_variant


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--name", default="scripted")
    parser.add_argument("--moves", default="", help="PDN moves to play first, in order")
    parser.add_argument("--then", choices=("first", "fresh", "random"), default="fresh")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sleep", type=float, default=0.0, help="seconds to think on every move")
    parser.add_argument("--sleep-from", type=int, default=1, help="--sleep applies from this move on")
    parser.add_argument(
        "--spend-clock",
        type=float,
        default=0.0,
        help="think this share of `time + inc` on every move (Scan: time is before the increment)",
    )
    parser.add_argument(
        "--capture-sleep", type=float, default=0.0, help="seconds to think when it must capture"
    )
    parser.add_argument("--honour-stop", action="store_true", help="cut a sleep short when told to stop")
    parser.add_argument(
        "--offer-draw-at", type=int, action="append", default=[], help="offer a draw at move K"
    )
    parser.add_argument("--accept-draws", action="store_true", help="answer a draw offer with 'draw'")
    parser.add_argument("--resign-at", type=int, default=0)
    parser.add_argument("--crash-at", type=int, default=0, help="exit with code 3 when asked for move K")
    parser.add_argument("--hang-at", type=int, default=0, help="from move K, answer nothing at all")
    parser.add_argument("--late-at", type=int, default=0, help="answer move K --late seconds late")
    parser.add_argument("--late", type=float, default=0.0)
    parser.add_argument(
        "--close-output-at", type=int, default=0, help="at move K close stdout and sleep (still running)"
    )
    parser.add_argument(
        "--close-output-after", type=int, default=0, help="close stdout right after answering move K"
    )
    parser.add_argument("--once", type=Path, default=None, help="misbehave only in the process that makes it")
    parser.add_argument("--say-at", type=int, default=0, help="at move K print --say instead of a move")
    parser.add_argument("--say", default="", help="the line printed at --say-at (backslash escapes allowed)")
    parser.add_argument("--score", type=float, default=None, help="report this score in an info line")
    parser.add_argument(
        "--closing-info", action="store_true", help="after the scored info line, one of nodes and time alone"
    )
    parser.add_argument(
        "--captures-as-pdn",
        action="store_true",
        help="write a capture as PDN does (28x19), not as Hub (28x19x23): the mistake engine authors make",
    )
    parser.add_argument("--exit-at-start", action="store_true", help="exit before answering 'hub'")
    parser.add_argument(
        "--exit-at-restart",
        type=Path,
        default=None,
        help="start normally in the first process that makes this file, exit at start in every later one",
    )
    parser.add_argument("--log", type=Path, default=None)
    return parser.parse_args(argv)


class ScriptedEngine:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.script = args.moves.split()
        self.rng = random.Random(args.seed)
        self.variant = get_variant("english")
        self.position = Position.start(self.variant)
        self.history: list[Position] = []
        self.level_line = ""
        self.move_number = 0
        self.stop = threading.Event()
        self.deaf = threading.Event()
        self.lock = threading.Lock()
        self.pending: list[str] = []
        self.wake = threading.Condition(self.lock)
        self.closed = False
        self._misbehaves: bool | None = None  # decided at the first misbehaviour (see --once)

    # -- output ------------------------------------------------------------------------------------

    def write(self, line: str) -> None:
        if self.deaf.is_set():
            return
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def log(self, line: str) -> None:
        if self.args.log is not None:
            with self.args.log.open("a", encoding="utf-8") as log:
                log.write(line + "\n")

    # -- input: a reader thread answers ping and stop at once, the main thread does the rest ----------

    def read(self) -> None:
        for raw in sys.stdin:
            line = raw.strip()
            if not line:
                continue
            self.log(line)
            command = line.split()[0]
            if command == "ping":
                with self.lock:
                    self.write("pong")
                continue
            if command == "stop":
                self.stop.set()
                continue
            with self.wake:
                self.pending.append(line)
                self.wake.notify()
        with self.wake:
            self.closed = True
            self.stop.set()
            self.wake.notify()

    def next_command(self) -> str | None:
        with self.wake:
            while not self.pending and not self.closed:
                self.wake.wait()
            return self.pending.pop(0) if self.pending else None

    def run(self) -> None:
        if self.args.exit_at_start:
            sys.exit(4)
        if self.args.exit_at_restart is not None and not _first_to_make(self.args.exit_at_restart):
            sys.exit(4)
        threading.Thread(target=self.read, daemon=True).start()
        while True:
            line = self.next_command()
            if line is None or line == "quit":
                return
            words = line.split()
            command = words[0]
            if command == "hub":
                with self.lock:
                    self.write(f"id name={self.args.name} version=1.0 author=tests")
                    values = " ".join(VARIANTS)
                    self.write(f'param name=variant value=english type=enum values="{values}"')
                    self.write("wait")
            elif command == "set-param" and "name=variant" in words:
                value = next(w for w in words if w.startswith("value="))[len("value=") :]
                self.variant = get_variant(value)
                self.position = Position.start(self.variant)
            elif command == "init":
                with self.lock:
                    self.write("ready")
            elif command == "new-game":
                self.move_number = 0
                self.script = self.args.moves.split()
            elif command == "pos":
                self.set_position(line)
            elif command == "level":
                self.level_line = line
            elif command == "go":
                self.stop.clear()
                self.move_number += 1
                self.go("draw-offered" in words)

    def set_position(self, line: str) -> None:
        fields = dict(_fields(line))
        self.position = Position.from_hub(self.variant, fields["pos"])
        self.history = []
        for text in fields.get("moves", "").split():
            self.history.append(self.position)
            self.position = self.position.play(parse_hub(self.position, text))

    # -- one search ----------------------------------------------------------------------------------

    def go(self, draw_offered: bool) -> None:
        args, number = self.args, self.move_number
        if number == args.crash_at and self.misbehaves():
            os._exit(3)
        if args.hang_at and number >= args.hang_at and self.misbehaves():
            self.deaf.set()
            return
        if number == args.close_output_at and self.misbehaves():
            os.close(sys.stdout.fileno())
            while True:
                time.sleep(3600)
        move = self.choose()
        delay = args.sleep if number >= args.sleep_from else 0.0
        if args.spend_clock:
            level = dict(_fields(self.level_line))
            if "time" in level:
                delay = max(delay, args.spend_clock * (float(level["time"]) + float(level.get("inc", "0"))))
        if number == args.late_at and self.misbehaves():
            delay = max(delay, args.late)
        if move is not None and move.is_capture:
            delay = max(delay, args.capture_sleep)
        if delay:
            if args.honour_stop:
                self.stop.wait(delay)
            else:
                time.sleep(delay)
        with self.lock:
            if number == args.say_at:
                self.write(codecs.decode(args.say, "unicode_escape"))
                return
            if args.score is not None:
                self.write(f"info depth=1 score={args.score:g} nodes=1")
            if args.closing_info:
                self.write("info nodes=2 time=0.001")
            if number == args.resign_at:
                self.write("done resign")
                return
            assert move is not None
            text = move.pdn if args.captures_as_pdn and move.is_capture else format_hub(move)
            words = [f"done move={text}"]
            if number in args.offer_draw_at or (draw_offered and args.accept_draws):
                words.append("draw")
            self.write(" ".join(words))
            if number == args.close_output_after and self.misbehaves():
                os.close(sys.stdout.fileno())
                self.deaf.set()  # nothing more can be written: the rest of its life it only reads

    def misbehaves(self) -> bool:
        """Whether this process plays its misbehaviours: always, or (``--once``) if it is the first."""
        if self._misbehaves is None:
            once = self.args.once
            if once is None:
                self._misbehaves = True
            else:
                self._misbehaves = _first_to_make(once)
        return self._misbehaves

    def choose(self) -> Move | None:
        legal = self.position.legal_moves()
        if not legal:
            return None
        if self.script:
            return parse_pdn(self.position, self.script.pop(0))
        policy = self.args.then
        if policy == "random":
            return self.rng.choice(legal)
        if policy == "fresh":
            seen = set(self.history) | {self.position}
            fresh = None
            for move in legal:
                after = self.position.play(move)
                if after in seen:
                    continue
                if not after.has_capture():
                    return move
                fresh = fresh or move
            if fresh is not None:
                return fresh
        return legal[0]


def _first_to_make(marker: Path) -> bool:
    """Whether this process is the first to create ``marker``."""
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def _fields(line: str) -> list[tuple[str, str]]:
    """key=value and key="a value" pairs of a Hub line (enough for pos lines)."""
    out: list[tuple[str, str]] = []
    rest = line.split(" ", 1)[1] if " " in line else ""
    while rest:
        rest = rest.lstrip()
        key, eq, rest = rest.partition("=")
        if not eq:
            break
        if rest.startswith('"'):
            value, _, rest = rest[1:].partition('"')
        else:
            value, _, rest = rest.partition(" ")
        out.append((key.strip(), value))
    return out


def main(argv: list[str] | None = None) -> None:
    ScriptedEngine(parse_args(sys.argv[1:] if argv is None else argv)).run()


if __name__ == "__main__":
    main()
