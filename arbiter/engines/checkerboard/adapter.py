"""The CheckerBoard adapter: one CheckerBoard engine library behind a Hub engine's stdin and stdout.

    python -m arbiter.engines.checkerboard.adapter --library PATH [--param NAME ...] [--warm-up-limit S]

The arbiter starts this program as the engine's child process (``protocol = "checkerboard"``), so the
library runs outside the arbiter and the Hub client, referee, clocks, faults and logs are the usual
ones. getmove runs on a worker thread: `ping` is answered and `stop` (or the watchdog) sets
``*playnow`` while the engine thinks.

Engines written for CheckerBoard set themselves up in their first getmove (Cake and GuiNN load their
book and endgame databases there), which would put that time on the first move of the first game. So
`init` runs one short getmove of the start position before `ready` is answered, off every clock (a
warm-up, its move thrown away); the next getmove is told a new game as usual. `ready` is answered when
the warm-up ends or after ``--warm-up-limit`` seconds, whichever comes first: a set-up longer than
that goes on, and the first search waits for it, as it would without the warm-up. An engine's `about`
says what it loaded only once it has set itself up (Cake's says "Engine not initialized yet!" before):
when the warm-up ends in time, `about` is asked again and, if it changed, sent as an `id` line before
`ready`, so that the identity the arbiter keeps is the engine that plays.

Before the library is loaded the protocol stream is moved to a private descriptor and descriptor 1 is
pointed at stderr (the engine's log), so whatever the library prints can never be read as protocol.

This program reads the rules core to turn positions into boards and boards back into moves; the
referee still checks every move itself.
"""

from __future__ import annotations

import argparse
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from arbiter.engines.checkerboard.api import CLAIMS, RESET, STACK_SIZE, CheckerBoardLibrary
from arbiter.engines.checkerboard.board import BoardMap, cb_color
from arbiter.engines.checkerboard.decode import decode
from arbiter.engines.checkerboard.games import ENGLISH, parse_gametype, variants_for
from arbiter.engines.checkerboard.library import LibraryError
from arbiter.engines.checkerboard.loading import open_library
from arbiter.engines.checkerboard.timing import time_args
from arbiter.engines.hub_wire import HubLine, HubSyntaxError, format_line, parse_line
from arbiter.engines.process_group import become_subreaper, reap_ended_children
from arbiter.notation.movetext import MoveTextError, parse_hub
from arbiter.rules import HubPositionError, Position, UnknownVariantError, Variant, get_variant

# Options of the API that an engine may answer `get NAME` for; those it answers become parameters.
KNOWN_OPTIONS = (
    "hashsize",
    "book",
    "bookfile",
    "dbpath",
    "dbmbytes",
    "enable_wld",
    "enable_mtc",
    "mtcpath",
    "max_dbpieces",
    "searchthreads",
    "allscores",
    "solve",
)
# The warm-up's move time: the engine only has to set itself up, not to find a good move.
WARM_UP_MOVE_TIME = "0.1"
_NOT_PARAMS = frozenset({"variant", "gamehist", "gametype", "protocolversion", "movelist"})
_TEXT_LIMIT = 300
# An engine's `about` once set up lists what it loaded (Cake's runs to some 350 characters).
_ABOUT_LIMIT = 1000


def clean(text: str, limit: int = _TEXT_LIMIT) -> str:
    """Engine text made fit for a Hub value: one line, no double quotes, no control characters."""
    lines = [line.strip() for line in text.replace("\r", "\n").split("\n")]
    joined = " / ".join(line for line in lines if line).replace('"', "'").replace("\t", " ")
    visible = "".join(char for char in joined if char >= " " and char != "\x7f")
    return visible[:limit]


class Output:
    """The protocol stream: whole lines, one writer at a time (the reader thread and the worker)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._lock = threading.Lock()

    def line(self, command: str, fields: dict[str, str] | None = None, flags: Sequence[str] = ()) -> None:
        data = (format_line(command, fields, flags) + "\n").encode()
        with self._lock:
            while data:
                data = data[os.write(self._fd, data) :]


class Watchdog:
    """Calls ``fire`` once the armed monotonic deadline passes, unless disarmed first."""

    def __init__(self, fire: Callable[[], None]) -> None:
        self._fire = fire
        self._changed = threading.Condition()
        self._deadline: float | None = None
        threading.Thread(target=self._run, name="watchdog", daemon=True).start()

    def arm(self, deadline: float) -> None:
        with self._changed:
            self._deadline = deadline
            self._changed.notify()

    def disarm(self) -> None:
        with self._changed:
            self._deadline = None

    def _run(self) -> None:
        with self._changed:
            while True:
                if self._deadline is None:
                    self._changed.wait()
                    continue
                left = self._deadline - time.monotonic()
                if left > 0:
                    self._changed.wait(left)
                    continue
                self._deadline = None
                self._fire()


@dataclass
class _Search:
    position: str
    moves: list[str]
    level: dict[str, str]
    level_flags: frozenset[str]
    received: float  # monotonic time `go` was read
    warm_up: bool = False  # the adapter's own getmove before the first game: no answer is written
    stop: bool = False
    finished: threading.Event = field(default_factory=threading.Event)


class Adapter:
    """Hub on one side, one CheckerBoard library on the other."""

    def __init__(
        self,
        library: CheckerBoardLibrary,
        out: Output,
        library_path: Path,
        param_names: Sequence[str] = (),
        warm_up_limit: float = 0.0,
    ) -> None:
        self.library = library
        self.warm_up_limit = warm_up_limit  # 0: `ready` at once, no warm-up
        self.out = out
        self.library_path = library_path
        self.param_names = [name for name in dict.fromkeys((*KNOWN_OPTIONS, *param_names))]
        self.gametype = ENGLISH
        self.variant: Variant | None = None
        self.cells: BoardMap | None = None
        self.reset = True  # the next getmove starts a game
        self.send_gamehist = True  # until the engine says it does not handle it
        self.noted: set[str] = set()  # notes already sent as `error` lines
        self._position: dict[str, str] = {}
        self._level: HubLine = HubLine("level", {}, frozenset({"infinite"}))
        self._search: _Search | None = None
        self._about = ""  # the `about` told in the `id` line: told again when the warm-up changes it
        self._replayed: Replayed | None = None  # the last search's position, to pick up from
        self._flag = threading.Lock()  # orders *playnow's writes around the start of a search
        self._jobs: queue.SimpleQueue[_Search] = queue.SimpleQueue()
        self._watchdog = Watchdog(self._play_now)
        # A thread's stack is otherwise the process's stack limit (`ulimit -s`), which may be less.
        previous = threading.stack_size(STACK_SIZE)
        try:
            threading.Thread(target=self._work, name="getmove", daemon=True).start()
        finally:
            threading.stack_size(previous)

    # -- the reader's side: every Hub command ------------------------------------------------------

    def serve(self, stdin: Callable[[], bytes]) -> None:
        """Read and answer commands until `quit` or the end of input."""
        while True:
            raw = stdin()
            if not raw:
                return
            try:
                line = parse_line(raw.decode("utf-8", "replace").strip())
            except HubSyntaxError:
                continue
            if line.command == "quit":
                return
            self.handle(line)

    def handle(self, line: HubLine) -> None:
        command, fields = line.command, line.fields
        if command == "hub":
            self._identify()
        elif command == "set-param":
            self._set_param(fields.get("name", ""), fields.get("value", ""))
        elif command == "init":
            self._warm_up()
            self.out.line("ready")
        elif command == "new-game":
            self.reset = True
        elif command == "pos":
            self._position = dict(fields)
        elif command == "level":
            self._level = line
        elif command == "go":
            self._go()
        elif command == "stop":
            self._stop()
        elif command == "ping":
            self.out.line("pong")

    def _command(self, text: str) -> tuple[bool, str]:
        return self.library.enginecommand(text)

    def _identify(self) -> None:
        named, name = self._command("name")
        _, about = self._command("about")
        self._about = clean(about, _ABOUT_LIMIT)
        _, version = self._command("get protocolversion")
        answered, gametype_text = self._command("get gametype")
        self.gametype = (parse_gametype(gametype_text) if answered else None) or ENGLISH
        identity = {
            "name": clean(name) if named and clean(name) else self.library_path.stem,
            "about": self._about,
            "protocol-version": clean(version),
            "gametype": str(self.gametype),
            "library": clean(str(self.library_path), 1000),
        }
        self.out.line("id", {key: value for key, value in identity.items() if value})
        offered = variants_for(self.gametype) or [f"gametype-{self.gametype}"]
        self.out.line(
            "param", {"name": "variant", "type": "enum", "values": " ".join(offered), "value": offered[0]}
        )
        for option in self.param_names:
            if option in _NOT_PARAMS:
                continue
            handled, reply = self._command(f"get {option}")
            if handled:
                value = clean(reply)
                kind = "int" if value.lstrip("-").isdigit() else "text"
                self.out.line("param", {"name": option, "type": kind, "value": value})
        self.out.line("wait")

    def _set_param(self, name: str, value: str) -> None:
        if name == "variant":
            try:
                variant = get_variant(value)
                cells = BoardMap.of(variant)
            except (UnknownVariantError, ValueError) as error:
                self._error(f"cannot play variant {value!r}: {error}")
                return
            self.variant, self.cells = variant, cells
            return
        text = {"true": "1", "false": "0"}.get(value, value)
        handled, reply = self._command(f"set {name} {text}")
        if handled:
            return
        # CheckerBoard does not look at what `set` returns, and engines return 0 for settings they take
        # (Cake, for some of its options): whether the value was taken is read back.
        answered, now = self._command(f"get {name}")
        if answered and _same_setting(now, text):
            return
        said = f"; it replied {clean(reply)!r}" if clean(reply) else ""
        now_said = f"'get {name}' answers {clean(now)!r}" if answered else f"it does not answer 'get {name}'"
        self._error(f"the engine did not take 'set {name} {text}': {now_said}{said}")

    def _warm_up(self) -> None:
        """One getmove of the start position, waited for up to the warm-up limit (see the module's text)."""
        if self.warm_up_limit <= 0 or self._search is not None:
            return
        level = {"move-time": WARM_UP_MOVE_TIME}
        search = _Search("", [], level, frozenset(), time.monotonic(), warm_up=True)
        self._search = search
        self._jobs.put(search)
        if not search.finished.wait(self.warm_up_limit):
            self._note(
                f"the engine's first getmove (its set-up) is still running after {self.warm_up_limit:g} s: "
                "ready is answered now and the first search waits for it"
            )
            return  # no enginecommand while getmove runs: the identity stays as the handshake told it
        _, about = self._command("about")
        told = clean(about, _ABOUT_LIMIT)
        if told and told != self._about:
            self._about = told
            self.out.line("id", {"about": told})

    def _go(self) -> None:
        running = self._search
        if running is not None and not running.finished.is_set() and not running.warm_up:
            self._error("go while a search is running; ignored")
            return
        moves = self._position.get("moves", "").split()
        search = _Search(
            self._position.get("pos", ""),
            moves,
            dict(self._level.fields),
            self._level.flags,
            time.monotonic(),
        )
        self._search = search
        self._jobs.put(search)

    @property
    def idle(self) -> bool:
        """No getmove is running or waiting to run."""
        return self._search is None or self._search.finished.is_set()

    def _stop(self) -> None:
        with self._flag:
            if self._search is not None and not self._search.finished.is_set():
                self._search.stop = True
                self.library.set_play_now(True)

    def _play_now(self) -> None:
        self._stop()

    def _error(self, message: str) -> None:
        self.out.line("error", {"message": clean(message, 1000)})

    @staticmethod
    def _note(message: str) -> None:
        """A line in the engine's log (this process's stderr), not in the protocol."""
        print(f"checkerboard adapter: {message}", file=sys.stderr, flush=True)

    # -- the worker's side: one getmove at a time --------------------------------------------------

    def _work(self) -> None:
        while True:
            search = self._jobs.get()
            if search.warm_up:
                self._run_warm_up(search)
                continue
            answer: list[tuple[str, dict[str, str]]] = [("done", {})]
            try:
                answer = self._run(search)
            except Exception as error:  # the adapter's own mistake costs this search, not the engine
                text = clean(f"the adapter failed: {type(error).__name__}: {error}", 1000)
                answer = [("error", {"message": text}), ("done", {})]
            finally:
                # Finished before `done` is written: the next `go` may follow it at once.
                search.finished.set()
                for command, fields in answer:
                    self.out.line(command, fields)

    def _run_warm_up(self, search: _Search) -> None:
        began = time.monotonic()
        try:
            self._run(search)
        except Exception as error:  # the first real search will meet the same trouble and report it
            self._note(f"the warm-up getmove failed: {type(error).__name__}: {error}")
        else:
            took = time.monotonic() - began
            self._note(f"first getmove (the engine's set-up, off the clock): {took:.3f} s")
        finally:
            self.reset = True  # the first game's first getmove is told a new game all the same
            search.finished.set()

    def _run(self, search: _Search) -> list[tuple[str, dict[str, str]]]:
        """The lines that end the search: `info` and `done` (none for the warm-up)."""
        if self.variant is None or self.cells is None:
            self._set_param("variant", variants_for(self.gametype)[0] if variants_for(self.gametype) else "")
        variant, cells = self.variant, self.cells
        if variant is None or cells is None:
            return [("done", {})]
        if search.warm_up:
            search.position = Position.start(variant).hub()
        try:
            replayed = replay(variant, search.position, search.moves, self._replayed)
            args = time_args(search.level, search.level_flags)
        except (HubPositionError, MoveTextError, ValueError) as error:
            self._error(f"cannot search: {error}")
            return [("done", {})]
        if args.note is not None and args.note not in self.noted:
            self.noted.add(args.note)
            self._error(args.note)
        self._replayed, position = replayed, replayed.position
        if self.send_gamehist:
            self.send_gamehist, _ = self._command(f"set gamehist {replayed.history}")
        info = args.info | (RESET if self.reset else 0)
        self.reset = False
        with self._flag:
            self.library.set_play_now(search.stop)
        if args.watchdog is not None:
            self._watchdog.arm(search.received + args.watchdog)
        reply = self.library.getmove(
            cells.board(position), cb_color(position.turn), args.maxtime, info, args.moreinfo
        )
        self._watchdog.disarm()
        if search.warm_up:
            return []
        decoded = decode(position, reply.board, reply.move, cells)
        details = {"claim": CLAIMS.get(reply.result, str(reply.result))}
        if clean(reply.text):
            details["text"] = clean(reply.text)
        done = {"move": decoded.move}
        if decoded.board is not None:
            done["board"] = decoded.board
        return [("info", details), ("done", done)]


def _same_setting(answer: str, sent: str) -> bool:
    """Whether the engine's `get` answer is the value that was set (numbers by value: `064` is 64)."""
    answer, sent = answer.strip(), sent.strip()
    try:
        return float(answer) == float(sent)
    except ValueError:
        return answer == sent


@dataclass(frozen=True)
class Replayed:
    """A `pos` and its `moves` played out: the position to search, and the history `set gamehist` wants
    (the position after the last capture or man move, and the king moves since)."""

    variant: Variant
    text: str
    moves: tuple[str, ...]
    position: Position
    base: Position
    since: tuple[str, ...]

    @property
    def history(self) -> str:
        """`set gamehist`'s argument: a FEN in square numbers, then the king moves as `from-to`."""
        return " ".join([_numeric_fen(self.base), *self.since])


def replay(variant: Variant, text: str, moves: Sequence[str], last: Replayed | None = None) -> Replayed:
    """Play ``moves`` from the Hub position ``text``. Within a game each search repeats the last one's
    position and moves with a move or two more, so it picks up where ``last`` ended when it can: a long
    run of king moves is then not replayed from its start at every move."""
    moves = tuple(moves)
    done = len(last.moves) if last is not None else 0
    if last is None or last.variant is not variant or last.text != text or moves[:done] != last.moves:
        start = Position.from_hub(variant, text)
        last, done = Replayed(variant, text, (), start, start, ()), 0
    position, base, since = last.position, last.base, list(last.since)
    for move_text in moves[done:]:
        move = parse_hub(position, move_text)
        piece = position.piece_at(move.start)
        reversible = not move.is_capture and piece is not None and piece.is_king
        position = position.play(move)
        if reversible:
            since.append(f"{move.start}-{move.end}")
        else:
            base, since = position, []
    return Replayed(variant, text, moves, position, base, tuple(since))


def _numeric_fen(position: Position) -> str:
    """FEN with square numbers, as CheckerBoard writes it for every game type (``K`` for kings)."""
    sides = []
    for letter, man, king in (("W", "w", "W"), ("B", "b", "B")):
        squares = []
        for square in range(1, position.variant.square_count + 1):
            piece = position.piece_at(square)
            if piece is not None and piece.value in (man, king):
                squares.append(("K" if piece.value == king else "") + str(square))
        sides.append(letter + ",".join(squares))
    return f"{position.turn.letter}:{sides[0]}:{sides[1]}"


def _private_protocol_stream() -> int:
    """Move the protocol (descriptor 1) to a private descriptor and send 1 where 2 goes (the log)."""
    sys.stdout.flush()
    protocol = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return protocol


def _exit(library: CheckerBoardLibrary | None, code: int) -> NoReturn:
    if library is not None:
        library.flush_output()
    # What the library started and this process adopted (Wine's processes, ended with the library).
    reap_ended_children()
    sys.stderr.flush()
    os._exit(code)  # a getmove that never returns must not keep the process alive


def load_library(path: Path) -> CheckerBoardLibrary:
    """The library, loaded into this process (raises LibraryError). Any ``CheckerBoardLibrary`` can
    stand behind the adapter, one that relays the calls to another process too."""
    return open_library(path)  # a Windows DLL on another system: relayed to the Wine host


def main(argv: Sequence[str] | None = None) -> NoReturn:
    parser = argparse.ArgumentParser(
        prog="python -m arbiter.engines.checkerboard.adapter",
        description="Run one CheckerBoard engine library as a Hub engine on stdin/stdout.",
    )
    parser.add_argument("--library", required=True, type=Path, help="the engine's .so (or .dll)")
    parser.add_argument(
        "--param", action="append", default=[], help="an option to offer as a parameter (repeat)"
    )
    parser.add_argument(
        "--warm-up-limit",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="at init, run one getmove for the engine to set itself up, answering ready when it ends or "
        "after SECONDS (default 0: no warm-up)",
    )
    args = parser.parse_args(argv)
    # The processes the library starts that lose their parent (Wine's leave their session and their
    # launchers at once) come to this process, which reaps them as it ends (``_exit``). Handed to the
    # arbiter, a subreaper too, they would stay zombies there until it exits, with nothing to know them by.
    become_subreaper()
    protocol = _private_protocol_stream()
    path = args.library if args.library.is_absolute() else Path.cwd() / args.library
    try:
        library = load_library(path)
    except LibraryError as error:
        print(f"checkerboard adapter: {error}", file=sys.stderr)
        _exit(None, 2)
    adapter = Adapter(library, Output(protocol), path, args.param, args.warm_up_limit)
    adapter.serve(sys.stdin.buffer.readline)
    # A getmove still running may hold the C library's stream locks: then its buffers are left as they are.
    # A library run in another process (a DLL under Wine) holds none here, and is always ended.
    _exit(library if adapter.idle or getattr(library, "out_of_process", False) else None, 0)


if __name__ == "__main__":
    main()
