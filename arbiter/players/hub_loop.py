"""The Hub engine loop shared by the bundled players: one reader thread, one thinking thread.

The reader thread reads stdin line by line. Because a search runs on the main thread and must not
be blocked by input, the reader answers the commands allowed during a search itself (``ping`` gets
``pong`` at once, ``stop`` and ``ponder-hit`` reach the search through its ``SearchControl``) and queues
everything else for the main thread, which handles commands one at a time in the order they came.
Unknown commands and keys are ignored, as Hub asks; known commands with bad arguments get an
``error message="..."`` line. ``quit`` or the end of stdin ends the program.
"""

from __future__ import annotations

import argparse
import gc
import io
import queue
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import TextIO

from arbiter.notation.movetext import MoveTextError, format_hub, parse_hub
from arbiter.players.control import GoMode, SearchControl
from arbiter.players.hub_text import HubLine, format_hub_line, parse_hub_line
from arbiter.players.level import DEFAULT_LEVEL, LevelError, parse_level
from arbiter.players.player import Decision, ParamError, ParamSpec, Player, ThinkRequest
from arbiter.rules import VARIANTS, HubPositionError, Move, Position, Variant, get_variant
from arbiter.rules.variants import move_option_variants


@dataclass
class _OpenSearch:
    """A ``go`` from the moment it is read until its ``done`` is written."""

    control: SearchControl = field(default_factory=SearchControl)
    read_at: float = field(default_factory=time.monotonic)  # when ``go`` was read: its clock starts then
    began: bool = False  # the main thread has reached it: every earlier reply is written
    early_pings: int = 0  # pings read before it began, answered when it begins


_QueueItem = tuple[HubLine, _OpenSearch | None] | None  # None: stdin is closed


def _variant_param() -> ParamSpec:
    # The variants, then those with an option that changes the moves (draw-rule options are told as
    # the base variant: the referee keeps them).
    ids = (*VARIANTS, *move_option_variants())
    default = "english" if "english" in VARIANTS else ids[0]
    return ParamSpec("variant", "enum", default, choices=ids, help="the variant to play")


def _variant_named(name: str) -> Variant | None:
    """A variant by its id, or by the name Scan-like engines use (international is 'normal')."""
    if name in VARIANTS:
        return VARIANTS[name]
    for variant in VARIANTS.values():
        if variant.hub_name == name:
            return variant
    if name in move_option_variants():
        return get_variant(name)
    return None


def _collect_while_idle() -> None:
    """Collect now, between searches, and freeze what survives (the transposition table's entries
    above all): the collections that still come during a search then look only at what that search
    made, a few milliseconds of CPU instead of tens for a full look at a large table."""
    gc.collect()
    gc.freeze()


class HubEngine:
    def __init__(self, player: Player, stdin: TextIO, stdout: TextIO) -> None:
        self.player = player
        self._in = stdin
        self._out = stdout
        self._lock = threading.Lock()  # guards output and ``_open``
        self._queue: queue.Queue[_QueueItem] = queue.Queue()
        self._open: list[_OpenSearch] = []  # one, unless a client sends ``go`` before the last ``done``
        self._output_closed = False
        self.variant_spec = _variant_param()
        self.variant: Variant = VARIANTS[str(self.variant_spec.default)]
        self.level = DEFAULT_LEVEL
        self.position: Position | None = None  # None: the variant's start position
        self.history: tuple[Position, ...] = ()
        self.moves: tuple[Move, ...] = ()  # the moves from each position of ``history`` to the next
        self.position_error: str | None = None
        self.moves_given = 0  # moves listed in the last ``pos`` command
        self.own_moves = 0  # searches answered since ``new-game``

    # ------------------------------------------------------------------ parameters

    def set_param(self, name: str, text: str) -> bool:
        """Apply one parameter; False if the engine has no such parameter (Hub says: ignore it).

        A bad value raises ParamError with the message for the ``error`` line."""
        if name == "variant":
            variant = _variant_named(text.strip())
            if variant is None:
                choices = " ".join(self.variant_spec.choices)
                raise ParamError(f"param variant: {text!r} is not one of {choices}")
            if variant.id != self.variant.id:
                self.variant = variant
                self._reset_position()
            return True
        for spec in self.player.params():
            if spec.name == name:
                self.player.set_param(name, spec.parse(text))
                return True
        return False

    def _reset_position(self) -> None:
        self.position = None
        self.history = ()
        self.moves = ()
        self.position_error = None
        self.moves_given = 0

    # ------------------------------------------------------------------ running

    def run(self) -> int:
        reader = threading.Thread(target=self._read, name="hub-reader", daemon=True)
        reader.start()
        tidying = True  # the player may have housekeeping for idle time (``Player.tidy``)
        collect = True  # the garbage collector's work is done while idle, see ``_collect_while_idle``
        while not self._output_closed:
            if tidying:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    if collect:
                        collect = False
                        _collect_while_idle()
                        continue
                    tidying = self.player.tidy()
                    continue
            else:
                item = self._queue.get()
            tidying = True
            if item is None:
                return 0
            line, search = item
            collect = collect or line.command == "go"
            try:
                if not self._handle(line, search):
                    return 0
            except Exception as exc:  # whatever went wrong, the engine stays up and says so
                self.error(f"{line.command}: internal error ({type(exc).__name__}: {exc})")
        return 0

    def _read(self) -> None:
        try:
            while True:
                raw = self._in.readline()
                if raw == "":
                    break
                line = parse_hub_line(raw)
                if line is not None:
                    self._route(line)
        except (OSError, ValueError):
            pass  # stdin broke: same as closed
        finally:
            with self._lock:
                for search in self._open:
                    search.control.stop()
            self._queue.put(None)

    def _route(self, line: HubLine) -> None:
        """Runs on the reader thread: handle what a search may not wait for, queue the rest."""
        with self._lock:
            command = line.command
            if command == "go":
                # Active from the moment it is read, so a ``stop`` right behind it is not lost.
                search = _OpenSearch()
                self._open.append(search)
                self._queue.put((line, search))
                return
            if self._open:
                latest = self._open[-1]
                if command == "ping":
                    # Answer now, unless replies to commands before the ``go`` are still to come.
                    if latest.began:
                        self._write_unlocked("pong")
                    else:
                        latest.early_pings += 1
                    return
                if command in ("stop", "quit"):
                    for search in self._open:
                        search.control.stop()
                    if command == "stop":
                        return
                if command == "ponder-hit":
                    latest.control.ponder_hit()
                    return
            self._queue.put((line, None))

    def _write_unlocked(self, text: str) -> None:
        if self._output_closed:
            return
        try:
            self._out.write(text + "\n")
            self._out.flush()
        except (OSError, ValueError):
            self._output_closed = True

    def write(self, text: str) -> None:
        with self._lock:
            self._write_unlocked(text)

    def error(self, message: str) -> None:
        self.write(format_hub_line("error", [("message", message)]))

    # ------------------------------------------------------------------ commands

    def _handle(self, line: HubLine, search: _OpenSearch | None) -> bool:
        """Handle one queued command; False means the program should end."""
        command = line.command
        if command == "quit":
            return False
        if command == "go" and search is not None:
            self._go(line, search)
        elif command == "hub":
            self._hello()
        elif command == "init":
            # Build the variant's move tables now, not in the first search, where the clock runs.
            Position.start(self.variant).legal_moves()
            self.write("ready")
        elif command == "ping":
            self.write("pong")
        elif command == "set-param":
            name, value = line.get("name"), line.get("value")
            if name is None or value is None:
                self.error("set-param needs name=... and value=...")
            else:
                try:
                    self.set_param(name, value)
                except ParamError as exc:
                    self.error(str(exc))
        elif command == "new-game":
            self.player.new_game()
            self._reset_position()
            self.own_moves = 0
        elif command == "pos":
            self._pos(line)
        elif command == "level":
            try:
                self.level = parse_level(line)
            except LevelError as exc:
                self.error(str(exc))
        # ``stop`` and ``ponder-hit`` with no search running, and unknown commands, are ignored.
        return True

    def _hello(self) -> None:
        p = self.player
        self.write(format_hub_line("id", [("name", p.name), ("version", p.version), ("author", p.author)]))
        for spec in [self.variant_spec, *p.params()]:
            self.write(format_hub_line("param", spec.hub_fields()))
        self.write("wait")

    def _pos(self, line: HubLine) -> None:
        self._reset_position()
        text = line.get("pos")
        try:
            position = Position.from_hub(self.variant, text) if text else Position.start(self.variant)
        except HubPositionError as exc:
            self.position_error = f"pos: {exc}"
            self.error(self.position_error)
            return
        mules = line.get("mules")
        if mules is not None and self.variant.has_mules:
            try:
                position = position.with_mules([int(token) for token in mules.split()])
            except ValueError as exc:
                self.position_error = f"pos: mules={mules!r}: {exc}"
                self.error(self.position_error)
                return
        history: list[Position] = []
        played: list[Move] = []
        tokens = (line.get("moves") or "").split()
        for index, token in enumerate(tokens, start=1):
            try:
                move = parse_hub(position, token)
            except MoveTextError as exc:
                self.position_error = f"pos: move {index} of moves: {exc}"
                self.error(self.position_error)
                return
            history.append(position)
            played.append(move)
            position = position.play(move)
        self.position = position
        self.history = tuple(history)
        self.moves = tuple(played)
        self.moves_given = len(tokens)

    def _go(self, line: HubLine, search: _OpenSearch) -> None:
        control = search.control
        mode = GoMode.THINK
        for candidate in (GoMode.PONDER, GoMode.ANALYZE):
            if line.has_flag(candidate.value):
                mode = candidate
        control.configure(self.level, mode, search.read_at)
        with self._lock:
            search.began = True
            for _ in range(search.early_pings):
                self._write_unlocked("pong")
        decision = Decision(None)
        try:
            decision = self._decide(line, control)
            control.wait_for_release()
        except Exception as exc:  # a bug must not leave the arbiter waiting for ``done``
            self.error(f"go: the search failed ({type(exc).__name__}: {exc})")
        finally:
            with self._lock:
                self._write_unlocked(_done_line(decision))
                self._open.remove(search)
            self.own_moves += 1

    def _decide(self, line: HubLine, control: SearchControl) -> Decision:
        position = self.position if self.position is not None else Position.start(self.variant)
        if self.position_error is not None:
            self.error(f"go: no position to search ({self.position_error})")
            return Decision(None)
        if not position.legal_moves():
            self.error(f"go: the side to move has no legal move in {position.hub()}")
            return Decision(None)
        request = ThinkRequest(
            position=position,
            history=self.history,
            level=self.level,
            draw_offered=line.has_flag("draw-offered"),
            game_ply=max(self.moves_given, 2 * self.own_moves),
            moves=self.moves,
        )
        moves = request.legal_moves()
        try:
            return self.player.think(request, control, self.write)
        except Exception as exc:  # a failing player still moves
            self.error(f"go: the search failed ({type(exc).__name__}: {exc}); playing the first legal move")
            return Decision(moves[0])


def _done_line(decision: Decision) -> str:
    if decision.resign:
        return format_hub_line("done", flags=["resign"])
    values: list[tuple[str, object]] = []
    if decision.move is not None:
        values.append(("move", format_hub(decision.move)))
    return format_hub_line("done", values, flags=["draw"] if decision.draw else [])


def run_player(
    player: Player, argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """The command-line entry of a bundled engine: read options, then speak Hub until quit or EOF."""
    parser = argparse.ArgumentParser(
        prog=f"python -m arbiter.players.{player.name}",
        description=f"The bundled '{player.name}' draughts engine, speaking Hub (version 2) on stdin/stdout.",
    )
    parser.add_argument(
        "--param",
        "-p",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a parameter before the first command, as 'set-param' would (repeatable)",
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help or a bad option: argparse has already printed why
        return exc.code if isinstance(exc.code, int) else 2
    if stdin is None:
        stdin = sys.stdin
        if isinstance(stdin, io.TextIOWrapper):
            stdin.reconfigure(errors="replace")  # garbage bytes are ignored like garbage words
    if stdout is None:
        stdout = sys.stdout
    engine = HubEngine(player, stdin, stdout)
    for item in args.param:
        name, sep, value = str(item).partition("=")
        try:
            if not sep or not name:
                raise ParamError(f"--param {item!r}: expected NAME=VALUE")
            if not engine.set_param(name, value):
                known = ", ".join(spec.name for spec in [engine.variant_spec, *player.params()])
                raise ParamError(f"--param {item!r}: no parameter {name!r}; parameters: {known}")
        except ParamError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    return engine.run()
