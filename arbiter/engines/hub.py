"""The Hub (version 2) client: one object per engine process, speaking text lines over its stdin/stdout.

The protocol and the arbiter's extensions (draw offers, resignation, "Time" by `stop`) are described for
engine authors in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections import deque
from collections.abc import Mapping, Sequence
from logging import DEBUG
from pathlib import Path

from arbiter.engines.client import EngineClient, SearchHandle, SearchMode, logger
from arbiter.engines.comm_log import CommLog
from arbiter.engines.config import EngineConfig, score_scale
from arbiter.engines.faults import (
    BadMoveFormat,
    EngineFault,
    EngineReportedError,
    Garbage,
    HandshakeTimeout,
    PingTimeout,
    ProtocolError,
    ReadyTimeout,
    StopIgnored,
    Unresponsive,
)
from arbiter.engines.hub_wire import (
    HubLine,
    HubSyntaxError,
    check_position_text,
    format_line,
    is_move_text,
    parse_line,
    quote_value,
)
from arbiter.engines.inbox import Inbox
from arbiter.engines.level import Level, level_line
from arbiter.engines.params import (
    EngineIdentity,
    ParamDecl,
    configured_settings,
    parse_identity,
    parse_param,
)
from arbiter.engines.results import Info, SearchResult, parse_info
from arbiter.engines.stderr_budget import StderrBudget

_PREVIEW = 60
_SEARCH_MODES = frozenset({"think", "ponder", "analyze"})

# Hub version 1 (Scan 2.0) answers `hub` with bare `name ...`, `author ...`, `country ...` lines and no
# `id`: such an engine is recognised at the handshake and refused with a message that says so.
HUB1_IDENTITY = frozenset({"name", "author", "country", "version"})


def _preview(raw: bytes) -> str:
    text = repr(raw[:_PREVIEW])
    return text + ("..." if len(raw) > _PREVIEW else "")


class HubSearch(SearchHandle):
    """One `go` and the `done` that ends it."""

    # Class-level, as a handle is made for every move: most searches are never stopped, and many
    # moves have no info (the deque is made at the first).
    _infos: deque[Mapping[str, str]] | None = None
    _stop_sent = False

    def __init__(self, engine: HubEngine, started: float) -> None:
        super().__init__(started, engine._alarm, engine._loop)
        self._engine = engine

    @property
    def stop_sent(self) -> bool:
        return self._stop_sent

    # -- fed by the engine's reader -----------------------------------------------------------------

    def _add_info(self, fields: Mapping[str, str]) -> None:
        if self._infos is None:
            self._infos = deque(maxlen=self._engine.config.max_infos)
        self._infos.append(fields)  # read into Info only at the end: a flood of info costs little

    def _complete(self, line: HubLine, at: float) -> None:
        infos: tuple[Info, ...] = ()
        if self._infos:
            scale = score_scale(self._engine.config)
            infos = tuple(parse_info(fields, scale) for fields in self._infos)
        elapsed = self._elapsed(at)
        fields, flags = line.fields, line.flags
        move = fields.get("move")
        if flags and "resign" in flags:
            self._settle(SearchResult(None, True, False, None, infos, elapsed, self._stop_sent))
            return
        if move is None or not is_move_text(move):
            what = "no move" if move is None else f"move={move!r}"
            fault = BadMoveFormat(
                self._engine.name,
                f"ended its search with {what}; a move is squares joined by - or x (32-28, 28x19x23; "
                "no leading zeros, a lower-case x)",
            )
            self._engine._record(fault)
            self._abort(fault)
            return
        ponder = fields.get("ponder")
        if ponder is not None and not is_move_text(ponder):
            ponder = None
        board, stopped = fields.get("board"), self._stop_sent
        self._settle(SearchResult.moved(move, "draw" in flags, ponder, infos, elapsed, stopped, board))

    def _output_unread(self) -> bool:
        return self._engine._output_unread()

    # -- used by the referee ------------------------------------------------------------------------

    async def stop(self) -> None:
        if not self.finished and not self._stop_sent:
            self._stop_sent = True
            self._engine._send("stop")

    async def finish(self, timeout: float | None = None) -> SearchResult:
        grace = timeout if timeout is not None else self._engine.config.timeouts.stop
        await self.stop()
        result = await self.wait(grace)
        if result is not None:
            return result
        name = self._engine.name
        if await self._engine._round_trip(self._engine.config.timeouts.ping) is None:
            fault: EngineFault = Unresponsive(
                name, f"no done within {grace:g} s after stop, and no pong either"
            )
        else:
            fault = StopIgnored(name, f"no done within {grace:g} s after stop, though it still answers ping")
        self._engine._fail(fault)
        raise fault


class HubEngine(EngineClient):
    """An engine speaking Hub version 2 over its stdin/stdout."""

    protocol = "hub"
    # Whether `id` lines may come between `init` and `ready`, telling the identity anew. Hub has them
    # only in the handshake; the CheckerBoard adapter sends one when the library's set-up at `init`
    # changed what it says of itself (its `about`).
    identity_at_init = False

    def __init__(
        self,
        config: EngineConfig,
        *,
        stderr_log: Path | None = None,
        comm_log: CommLog | None = None,
        stderr_budget: StderrBudget | None = None,
    ) -> None:
        super().__init__(config, stderr_log=stderr_log, comm_log=comm_log, stderr_budget=stderr_budget)
        self._inbox: Inbox[HubLine] = Inbox()
        self._expected: frozenset[str] = frozenset()  # commands a waiting call wants to receive
        # Pongs carry no number: the n-th pong answers the n-th ping, even when that ping has given up.
        self._pings_sent = 0
        self._pongs_read = 0
        self._pongs: dict[int, asyncio.Future[float]] = {}  # by the number of the ping still waiting
        self._search: HubSearch | None = None
        self._moves_checked: list[str] = []  # the moves of the last search, each checked as Hub text
        self._position_checked: str | None = None  # the position of the last search, checked likewise

    # -- start-up -----------------------------------------------------------------------------------

    async def start(self) -> None:
        await self._spawn()

    async def handshake(self) -> EngineIdentity:
        self._check_usable()
        timeout = self.config.timeouts.handshake
        deadline = time.monotonic() + timeout
        id_fields: dict[str, str] = {}
        params: dict[str, ParamDecl] = {}
        self._expected = frozenset({"id", "param", "wait", *HUB1_IDENTITY})
        hub1_lines: list[str] = []
        self._send("hub")
        while True:
            line = await self._next(deadline)
            if line is None:
                if self.comm_log.heard_from():
                    said = "an id line" if id_fields else "no id line"
                    seen = f"; it sent {said} and {len(params)} param lines"
                else:
                    # The commonest cause by far: stdout buffered (C's stdio and most languages buffer
                    # it when it is not a terminal), so the answers wait in the engine for ever.
                    seen = (
                        "; nothing at all came from it: does it flush its output after every line? "
                        "(stdout that is not a terminal is buffered, so unflushed answers never leave it)"
                    )
                raise self._fail(HandshakeTimeout(self.name, f"no wait within {timeout:g} s after hub{seen}"))
            if line.command == "id":
                id_fields.update(line.fields)
            elif line.command in HUB1_IDENTITY:
                hub1_lines.append(line.command)
            elif line.command == "param":
                try:
                    decl = parse_param(line.fields)
                except ValueError as error:
                    raise self._fail(
                        ProtocolError(self.name, f"declared a broken parameter: {error}")
                    ) from None
                params[decl.name] = decl
            else:  # wait
                break
        self._expected = frozenset()
        if hub1_lines and not id_fields:
            said = ", ".join(dict.fromkeys(f"{word} ..." for word in hub1_lines))
            raise self._fail(
                ProtocolError(
                    self.name,
                    f"speaks Hub version 1 (Scan 2.0's protocol: it answered hub with {said} and no id "
                    "line); the arbiter speaks Hub version 2 (Scan 3 and later) and DXP: run a newer "
                    "version of the engine, or its DXP mode",
                )
            )
        self._handshake_done = True
        self.identity = parse_identity(id_fields, params)
        return self.identity

    async def configure(self, variant: str | None = None) -> None:
        if self.identity is None:
            raise RuntimeError(f"engine '{self.name}': configure() needs the handshake first")
        settings = configured_settings(self.config, self.identity.params, variant)
        await self.set_params(settings)
        await self.init()

    async def set_params(self, settings: Sequence[tuple[str, str]]) -> None:
        """Send `set-param` for each (name, value text); see ``params.resolve_settings``."""
        self._check_usable()
        for name, value in settings:
            self._send("set-param", {"name": name, "value": value})

    async def init(self) -> None:
        """`init`, then wait for `ready` within the ready timeout."""
        self._check_usable()
        timeout = self.config.timeouts.ready
        deadline = time.monotonic() + timeout
        self._expected = frozenset({"ready", "id"} if self.identity_at_init else {"ready"})
        self._send("init")
        while True:
            line = await self._next(deadline)
            if line is None or line.command == "ready":
                break
            self._update_identity(line.fields)
        self._expected = frozenset()
        if line is None:
            raise self._fail(ReadyTimeout(self.name, f"no ready within {timeout:g} s after init"))

    def _update_identity(self, fields: Mapping[str, str]) -> None:
        """An `id` line before `ready` (``identity_at_init``): its fields replace the handshake's."""
        if self.identity is None:
            return
        told = parse_identity(fields, {})
        self.identity = dataclasses.replace(
            self.identity,
            name=told.name or self.identity.name,
            version=told.version or self.identity.version,
            author=told.author or self.identity.author,
            country=told.country or self.identity.country,
            extra={**self.identity.extra, **told.extra},
        )

    # -- play ---------------------------------------------------------------------------------------

    async def new_game(self) -> None:
        """Start a game and wait until the engine has done what `new-game` asks (clearing its tables):
        its clock starts at the first `go`, so that work must be over by then, not charged to a move."""
        await self._settle_search()
        self._send("new-game")
        timeout = self.config.timeouts.ready
        if await self._round_trip(timeout) is None:
            raise self._fail(ReadyTimeout(self.name, f"no pong within {timeout:g} s after new-game and ping"))

    async def begin_search(
        self,
        position: str,
        moves: Sequence[str],
        level: Level,
        draw_offered: bool = False,
        mode: SearchMode = "think",
        *,
        mules: Sequence[int] = (),
    ) -> HubSearch:
        if position != self._position_checked:  # the same base position is sent move after move
            check_position_text(position)
            self._position_checked = position
        moves = list(moves)
        # The referee sends the moves since a position again and again, one more each time: only the
        # ones not checked at the last search are checked now.
        checked = self._moves_checked
        known = len(checked)
        fresh = moves[known:] if moves[:known] == checked else moves
        for move in fresh:
            if not is_move_text(move):
                raise ValueError(f"not a Hub move: {move!r}")
        self._moves_checked = moves
        search = self._search
        if search is not None and not search._finished:
            await self._settle_search()
        self._check_usable()
        # Put together directly: a checked position and checked moves hold nothing to quote but spaces.
        line = f"pos pos={position}"
        if moves:
            joined = " ".join(moves)
            line += f' moves="{joined}"' if len(moves) > 1 else f" moves={joined}"
        if mules:
            # The arbiter's extension for Mule checkers; engines that do not know the key ignore it.
            line += " mules=" + quote_value(" ".join(str(square) for square in sorted(mules)))
        if mode not in _SEARCH_MODES:
            raise ValueError(f"not a search mode: {mode!r}")
        go = f"go {mode} draw-offered" if draw_offered else f"go {mode}"
        text = f"{line}\n{level_line(level)}\n{go}"
        # Stamped by ``_put`` after its logging, just before the write: the answer, stamped on its
        # arrival, can never come earlier, and writing the comm log is not charged to the engine.
        started = self._put(text)  # checked usable above, with nothing awaited since
        search = self._search = HubSearch(self, started)
        return search

    async def ping(self) -> float:
        self._check_usable()
        timeout = self.config.timeouts.ping
        elapsed = await self._round_trip(timeout)
        if elapsed is None:
            raise self._fail(PingTimeout(self.name, f"no pong within {timeout:g} s"))
        return elapsed

    async def stop(self) -> None:
        if self._search is not None:
            await self._search.stop()

    async def end_game(self) -> None:
        """Hub has no end-of-game message: `new-game` starts the next one."""

    async def ponder_hit(self) -> None:
        """The opponent played the move the engine was pondering on."""
        if self._search is not None and not self._search.finished:
            self._send("ponder-hit")

    async def quit(self) -> None:
        if self._process is None or self._closed or self._closing:
            self._closed = self._closed or self._process is None
            return
        self._closing = True
        if self._process.running:
            await self._process.take_stock()
            if self._search is not None and not self._search.finished and not self._search.stop_sent:
                self.comm_log.sent("stop")
                self._process.write(b"stop\n")
            self.comm_log.sent("quit")
            self._process.write(b"quit\n")
        await self._close_process(quit_expected=self._process.running and self._broken is None)

    # -- internals ----------------------------------------------------------------------------------

    def _send(self, command: str, fields: Mapping[str, str] | None = None) -> None:
        self._write(format_line(command, fields))

    def _write(self, text: str) -> None:
        self._check_usable()
        self._put(text)

    def _put(self, text: str) -> float:
        """Write to an engine known to be usable; the monotonic time just before the write, once the
        text is logged (a search is charged from then: the comm log's file or echo is the arbiter's)."""
        process = self._process
        assert process is not None
        if logger.isEnabledFor(DEBUG):
            logger.debug("%s < %s", self.name, text)
        self.comm_log.sent(text)
        data = text.encode() + b"\n"
        at = time.monotonic()
        if not process.write(data):
            raise self._fail(self._gone_fault())
        return at

    async def _next(self, deadline: float) -> HubLine | None:
        return await self._inbox.get(deadline)

    async def _round_trip(self, timeout: float) -> float | None:
        """Seconds from `ping` to `pong`, or None after ``timeout``."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._pings_sent += 1
        number = self._pings_sent
        self._pongs[number] = future
        sent = time.monotonic()
        self._send("ping")
        try:
            async with asyncio.timeout(timeout):
                answered = await future
        except TimeoutError:
            # Its pong may still come: it is then counted, and not taken for the answer to a later ping.
            self._pongs.pop(number, None)
            return None
        return answered - sent

    async def _settle_search(self) -> None:
        """A search that ran past its deadline must end before anything else is sent."""
        self._check_usable()
        if self._search is not None and not self._search.finished:
            with contextlib.suppress(BadMoveFormat):  # the late move of an abandoned search
                await self._search.finish()

    def _search_running(self) -> bool:
        return self._search is not None and not self._search.finished

    def _wake_all(self, fault: EngineFault) -> None:
        self._inbox.fail(fault)
        while self._pongs:
            _, pong = self._pongs.popitem()
            if not pong.done():
                pong.set_exception(fault)
                pong.exception()  # mark as seen: nobody may be waiting any more
        if self._search is not None:
            self._search._abort(fault)

    # -- OutputListener: called by the process for what the engine prints ---------------------------

    def on_line(self, line: bytes, at: float) -> None:
        raw = line.rstrip(b"\r")
        try:
            text = raw.decode("utf-8")  # decoded once: for the log and for reading
        except UnicodeDecodeError:
            self.comm_log.received(raw.decode("utf-8", "backslashreplace"))
            if self._broken is None:
                self._fail(Garbage(self.name, f"printed bytes that are not UTF-8: {_preview(line)}"))
            return
        self.comm_log.received(text)
        if self._broken is not None:
            return
        try:
            message = parse_line(text)
        except HubSyntaxError as error:
            # parse_line refuses every blank line (white space only), which says nothing: looked for
            # only here, not for every line.
            if text.strip():
                self._fail(Garbage(self.name, f"printed {error}: {_preview(line)}"))
            return
        if logger.isEnabledFor(DEBUG):
            logger.debug("%s > %s", self.name, text)
        command = message.command
        search = self._search
        if search is not None and search._finished:  # the attribute, not the property: every line
            search = None
        if command == "info":
            if search is not None:
                search._add_info(message.fields)
        elif command == "done":
            if search is None:
                self._fail(ProtocolError(self.name, f"sent done while no search was running: {text!r}"))
            else:
                search._complete(message, at)
        elif command == "pong":
            if self._pongs_read < self._pings_sent:  # a pong nobody asked for answers nothing
                self._pongs_read += 1
                waiting = self._pongs.pop(self._pongs_read, None)
                if waiting is not None and not waiting.done():
                    waiting.set_result(at)
        elif command == "error":
            detail = message.fields.get("message", text)
            self._record(EngineReportedError(self.name, f"reported an error: {detail}"))
        elif command in self._expected:
            self._inbox.put(message)
        # Anything else is ignored, as the protocol asks: that is how it is extended.
