"""The DXP client: the arbiter plays the initiator against a DXP engine (the follower) over loopback TCP.

Either the engine listens and the arbiter connects, or the arbiter listens and the engine connects; the
port is chosen by the configuration or by the arbiter, and given to the engine through `{port}` in its
command. DXP keeps the game on the engine's side, so ``begin_search`` works out what the engine has not
seen yet: it proposes a game (`R`) when a new one starts, relays the opponent's move (`M`) otherwise,
and waits for the engine's move. DXP has no `stop` and no `ping`: see docs/protocol.md.

Once connected, the engine's messages are read as a Hub engine's output is (``loop_reader``): each one
is charged at the kernel's stamp of its arrival; the arbiter writes through asyncio.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arbiter.engines.arrival import enable_stamps
from arbiter.engines.client import EngineClient, SearchHandle, SearchMode, logger
from arbiter.engines.comm_log import CommLog
from arbiter.engines.config import PORT_PLACEHOLDER, EngineConfig
from arbiter.engines.dxp_clock import announced_minutes
from arbiter.engines.dxp_wire import (
    ACCEPTED,
    GAME_END_DRAW,
    GAME_END_RESIGN,
    GAME_END_UNKNOWN,
    MAX_MESSAGE,
    BackAccept,
    BackRequest,
    Chat,
    Colour,
    DxpMessage,
    DxpSyntaxError,
    GameAccept,
    GameEnd,
    GameRequest,
    Move,
    decode,
    encode,
    move_from_hub,
    move_to_hub,
    position_from_hub,
)
from arbiter.engines.faults import (
    BadMoveFormat,
    EngineFault,
    GameRefused,
    Garbage,
    HandshakeTimeout,
    OutputFlood,
    ProtocolError,
    ReadyTimeout,
    Unresponsive,
    VariantUnsupported,
)
from arbiter.engines.hub_wire import check_position_text, is_move_text
from arbiter.engines.inbox import Inbox
from arbiter.engines.level import Clock, Level
from arbiter.engines.loop_reader import OutputReader, open_reader
from arbiter.engines.output_lines import ReadLimits
from arbiter.engines.params import EngineIdentity
from arbiter.engines.results import SearchResult
from arbiter.engines.stderr_budget import StderrBudget

_HOST = "127.0.0.1"
_REFUSALS = {1: "version not supported", 2: "refused this game", 3: "refuses all games"}
_TAKE_BACK_REFUSED = 2
_CONNECT_RETRY_SECONDS = 0.02
_QUICKACK: int | None = getattr(socket, "TCP_QUICKACK", None)  # Linux only; elsewhere ACKs as they come


@dataclass
class _Game:
    start: str  # Hub position the game started from
    engine_side: str  # "W" or "B"
    played: int = 0  # moves exchanged since the start
    over: bool = False


class DxpSearch(SearchHandle):
    """Waiting for the engine's `M` (or its `E`: resignation or draw claim)."""

    def __init__(self, engine: DxpEngine, started: float) -> None:
        super().__init__(started, engine._alarm, engine._loop)
        self._engine = engine

    def _output_unread(self) -> bool:
        return self._engine._output_unread()

    def _complete(self, message: Move | GameEnd, at: float) -> None:
        elapsed = self._elapsed(at)
        if isinstance(message, GameEnd):
            if message.reason == GAME_END_RESIGN:
                self._settle(SearchResult(None, resigned=True, elapsed=elapsed))
            elif message.reason == GAME_END_DRAW:
                self._settle(SearchResult(None, offers_draw=True, elapsed=elapsed))
            else:
                self._engine._fail(
                    ProtocolError(
                        self._engine.name, f"ended the game instead of moving (reason {message.reason})"
                    )
                )
            return
        move = move_to_hub(message)
        if not is_move_text(move):
            fault = BadMoveFormat(self._engine.name, f"sent a move with impossible squares: {move!r}")
            self._engine._record(fault)
            self._abort(fault)
            return
        self._settle(SearchResult(move, elapsed=elapsed, reported_time=float(message.seconds)))

    async def stop(self) -> None:
        """DXP has no stop: the engine moves when it decides to."""

    async def finish(self, timeout: float | None = None) -> SearchResult:
        grace = timeout if timeout is not None else self._engine.config.timeouts.stop
        result = await self.wait(grace)
        if result is not None:
            return result
        late = f"no move {grace:g} s past the deadline (DXP has no stop){self._engine._unfinished_message()}"
        fault = Unresponsive(self._engine.name, late)
        self._engine._fail(fault)
        raise fault


class DxpEngine(EngineClient):
    """A DXP engine, started by the arbiter and played as the follower."""

    protocol = "dxp"
    _closed_words = "closed its connection"

    def __init__(
        self,
        config: EngineConfig,
        *,
        stderr_log: Path | None = None,
        comm_log: CommLog | None = None,
        stderr_budget: StderrBudget | None = None,
    ) -> None:
        super().__init__(config, stderr_log=stderr_log, comm_log=comm_log, stderr_budget=stderr_budget)
        self.port = config.dxp.port
        self.chats: deque[str] = deque(maxlen=100)  # what the engine said in `C` messages
        self._inbox: Inbox[DxpMessage] = Inbox()
        self._server: asyncio.Server | None = None
        self._incoming: asyncio.Future[tuple[asyncio.StreamReader, asyncio.StreamWriter]] | None = None
        self._messages: OutputReader | None = None  # reads the connection once the game can begin
        # The reader's own descriptor of the connection: while it is open, closing asyncio's writer
        # alone does not end the connection, so ``quit`` shuts it down through this one.
        self._connection: socket.socket | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._game: _Game | None = None
        self._search: DxpSearch | None = None
        self._last_move_at = time.monotonic()
        self._engine_moves_first = False  # in the game being requested
        self._requested_at = 0.0  # when the game request was written
        self._accepted_at: float | None = None  # the acceptance's arrival, while the first move is awaited
        self._engine_to_move = False

    # -- start-up -----------------------------------------------------------------------------------

    async def start(self) -> None:
        if self._process is not None:
            raise RuntimeError(f"engine '{self.name}' was already started")
        settings = self.config.dxp
        if settings.mode == "engine_connects":
            loop = asyncio.get_running_loop()
            self._incoming = loop.create_future()
            self._server = await asyncio.start_server(
                self._accepted, _HOST, settings.port, limit=4 * MAX_MESSAGE
            )
            self.port = self._server.sockets[0].getsockname()[1]
        elif self.port == 0:
            self.port = _free_port()
        port = str(self.port)
        argv = [arg.replace(PORT_PLACEHOLDER, port) for arg in self.config.command]
        env = {key: value.replace(PORT_PLACEHOLDER, port) for key, value in self.config.env.items()}
        await self._spawn(stdout_is_protocol=False, argv=argv, extra_env=env)

    async def _accepted(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._incoming is not None and not self._incoming.done():
            self._incoming.set_result((reader, writer))
        else:  # only the engine's first connection is the game's
            writer.close()

    async def handshake(self) -> EngineIdentity:
        """Connect (or be connected to) within the handshake timeout."""
        self._check_usable()
        timeout = self.config.timeouts.handshake
        deadline = time.monotonic() + timeout
        if self._incoming is not None:
            streams = await self._wait_for_connection(deadline)
        else:
            streams = await self._connect(deadline)
        if streams is None:
            how = (
                "connect to the arbiter"
                if self._incoming is not None
                else f"accept a connection on {self.port}"
            )
            raise self._fail(HandshakeTimeout(self.name, f"did not {how} within {timeout:g} s"))
        _, self._writer = streams
        connection = self._writer.get_extra_info("socket")
        assert connection is not None
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # tiny moves, each one awaited
        if self._server is not None:
            self._server.close()
        self._handshake_done = True
        # The engine has been sent nothing yet, so it has sent nothing: the reader takes every message,
        # from a descriptor of its own, while asyncio only writes.
        transport = self._writer.transport
        assert isinstance(transport, asyncio.ReadTransport)
        transport.pause_reading()
        limits = ReadLimits(MAX_MESSAGE, self.config.output_limit_bytes)
        enable_stamps(connection)  # each message's arrival is the kernel's stamp (see ``arrival``)
        own = self._connection = socket.socket(fileno=os.dup(connection.fileno()))
        self._messages = open_reader(own, self, limits, separator=b"\0", name=f"{self.name}-dxp")
        self.identity = EngineIdentity(name=self.name)
        return self.identity

    async def _connect(self, deadline: float) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        while True:
            await self._check_usable_once_exited()
            try:
                return await asyncio.open_connection(_HOST, self.port, limit=4 * MAX_MESSAGE)
            except OSError:
                pass  # not listening yet
            if time.monotonic() >= deadline:
                return None
            await asyncio.sleep(_CONNECT_RETRY_SECONDS)

    async def _wait_for_connection(
        self, deadline: float
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        assert self._incoming is not None and self._process is not None
        while not self._incoming.done():
            await self._check_usable_once_exited()
            if time.monotonic() >= deadline:
                return None
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(0.1, max(deadline - time.monotonic(), 0.0))):
                    await asyncio.shield(self._incoming)
        return self._incoming.result()

    async def configure(self, variant: str | None = None) -> None:
        """DXP declares nothing: the variants it plays come from the configuration (dxp.variants)."""
        if variant is not None and variant not in self.config.dxp.variants:
            offered = ", ".join(self.config.dxp.variants)
            raise VariantUnsupported(
                self.name,
                f"cannot play variant {variant!r}: its configuration (dxp.variants) lists {offered}",
            )

    # -- play ---------------------------------------------------------------------------------------

    async def new_game(self) -> None:
        await self._settle_search()
        await self.end_game()
        self._game = None

    async def begin_search(
        self,
        position: str,
        moves: Sequence[str],
        level: Level,
        draw_offered: bool = False,
        mode: SearchMode = "think",
        *,
        mules: Sequence[int] = (),
    ) -> DxpSearch:
        """Bring the engine's game up to ``moves`` and wait for its move. ``draw_offered`` cannot be told
        in DXP and is ignored; only `think` is possible, and DXP has no mules."""
        if mode != "think":
            raise ValueError(f"DXP engines cannot {mode}")
        if mules:
            raise ValueError("DXP cannot tell an engine which pieces are mules")
        check_position_text(position)
        await self._settle_search()
        engine_side = position[0] if len(moves) % 2 == 0 else ("B" if position[0] == "W" else "W")
        game = self._game
        continues = (
            game is not None
            and not game.over
            and game.start == position
            and game.engine_side == engine_side
            and len(moves) == game.played + 1
        )
        if not continues:
            if len(moves) > 1:
                raise ValueError(
                    "a DXP game can only start from a position with at most one move after it: "
                    "give the position after the opening moves"
                )
            await self.end_game()
        self._check_usable()
        search = DxpSearch(self, time.monotonic())
        self._search = search
        if not continues:
            await self._request_game(position, engine_side, level)
            game = self._game
        assert game is not None
        if len(moves) > game.played:
            seconds = round(time.monotonic() - self._last_move_at)
            self._engine_to_move = True
            # Stamped by ``_send`` after its logging, just before the write: the answer cannot come
            # earlier, and writing the comm log is not charged to the engine.
            search._started = self._send(move_from_hub(moves[-1], max(seconds, 0)))
            game.played += 1
        return search

    async def _request_game(self, position: str, engine_side: str, level: Level) -> None:
        dxp_position = position_from_hub(position)
        settings = self.config.dxp
        # DXP's move count is the length of the whole game, at which either side may end it (Scan
        # does, with its own adjudication), not the moves of a clock period: the arbiter ends games by
        # its own rules, so none is announced.
        moves = 0
        # Rounded down: the engine must never believe it has more time than it has.
        minutes = announced_minutes(level.time) if isinstance(level, Clock) else settings.default_minutes
        colour: Colour = "W" if engine_side == "W" else "Z"
        self._engine_moves_first = engine_side == position[0]
        # The game exists from the request on: the engine's first move may come right behind its `A`.
        self._game = _Game(position, engine_side)
        self._accepted_at = None
        self._requested_at = self._send(
            GameRequest(settings.initiator_name, colour, minutes, moves, dxp_position)
        )
        timeout = self.config.timeouts.ready
        deadline = time.monotonic() + timeout
        answer = await self._inbox.get(deadline)
        while isinstance(answer, GameEnd):  # a late answer to the end of the previous game
            answer = await self._inbox.get(deadline)
        if answer is None:
            raise self._fail(ReadyTimeout(self.name, f"did not answer the game request within {timeout:g} s"))
        if not isinstance(answer, GameAccept):
            raise self._fail(ProtocolError(self.name, f"answered the game request with {answer}"))
        if answer.code != ACCEPTED:
            why = _REFUSALS.get(answer.code, f"code {answer.code}")
            raise self._fail(GameRefused(self.name, f"refused the game request: {why}"))
        if answer.follower:
            self.identity = EngineIdentity(name=answer.follower)
        self._last_move_at = time.monotonic()

    async def introduce(self, position: str) -> EngineIdentity:
        """Propose a game from ``position`` in which the arbiter moves first, then end it at once: the
        engine's acceptance carries its own name, which DXP gives nowhere else (the preflight's use)."""
        await self._settle_search()
        engine_side = "B" if position[0] == "W" else "W"
        await self._request_game(position, engine_side, Clock(time=60.0 * self.config.dxp.default_minutes))
        await self.end_game()
        self._game = None
        assert self.identity is not None
        return self.identity

    async def end_game(self) -> None:
        """Tell the engine the game is over (`E`) and wait briefly for its own `E`."""
        game = self._game
        if game is None or game.over or self._broken is not None or self._writer is None:
            return
        game.over = True
        self._engine_to_move = False
        self._send(GameEnd(GAME_END_UNKNOWN, 0))
        deadline = time.monotonic() + self.config.timeouts.ping
        while (answer := await self._inbox.get(deadline)) is not None:
            if isinstance(answer, GameEnd):
                return

    async def ping(self) -> float:
        """DXP has no ping: this only checks that the engine is running and still connected."""
        self._check_usable()
        return 0.0

    async def stop(self) -> None:
        """DXP has no stop."""

    async def quit(self) -> None:
        if self._process is None or self._closed or self._closing:
            self._closed = self._closed or self._process is None
            return
        self._closing = True
        await self._process.take_stock()
        self._end_session()
        if self._server is not None:
            self._server.close()
        # A DXP engine need not exit when the connection closes, so ending it is no fault of its own.
        await self._close_process(quit_expected=False)
        if self._messages is not None:
            self._messages.close()
        if self._writer is not None:
            with contextlib.suppress(OSError, ConnectionError):
                await self._writer.wait_closed()

    # -- internals ----------------------------------------------------------------------------------

    def _end_session(self) -> None:
        """Tell the engine to stop and end the connection from our side, in one segment.

        A game end with stop code 1, in a game or between games: Moby Dam exits on it and not on the
        connection's end, Scan on either. The end of the connection follows at once, so the engine
        exits by itself instead of at the quit timeout, and a port it listens on is free again.
        The message is held back (``MSG_MORE``) until the shutdown adds the connection's end to it:
        the engine reads both together and closes second, so the TIME_WAIT of the closed connection is
        ours. Were the end to follow the message in a segment of its own, an engine quick to exit on
        the message would close first and keep its fixed port in TIME_WAIT for a minute, and the next
        start of an engine that listens without SO_REUSEADDR (as Scan does) would fail there.
        """
        stop = encode(GameEnd(GAME_END_UNKNOWN, 1))
        writer, own = self._writer, self._connection
        if writer is None or writer.is_closing():
            return
        if own is not None and writer.transport.get_write_buffer_size() == 0:
            self.comm_log.sent(stop.rstrip(b"\0").decode("ascii"))
            with contextlib.suppress(OSError):
                own.send(stop, socket.MSG_MORE)
                own.shutdown(socket.SHUT_WR)
            writer.close()
            return
        # Output still waiting in asyncio's buffer goes first; the end then follows it by itself.
        with contextlib.suppress(OSError, ValueError):
            writer.write(stop)
            writer.close()

    def _send(self, message: DxpMessage) -> float:
        """Write a message; the monotonic time just before the write, once the message is logged."""
        self._check_usable()
        if self._writer is None or self._writer.is_closing():
            raise self._fail(self._gone_fault())
        data = encode(message)
        logger.debug("%s < %r", self.name, data)
        self.comm_log.sent(data.rstrip(b"\0").decode("ascii", "backslashreplace"))
        if self._messages is not None:
            self._messages.command_sent()
        at = time.monotonic()
        self._writer.write(data)
        return at

    def _output_unread(self) -> bool:
        return self._messages is not None and self._messages.unread()

    def _unfinished_message(self) -> str:
        """For a fault: what the engine began of a message and never ended with its NUL."""
        unfinished = self._messages.unfinished() if self._messages is not None else b""
        if not unfinished:
            return ""
        text = unfinished.decode("ascii", "backslashreplace")
        return f"; it sent {text!r} without the NUL that ends a DXP message"

    def _send_quietly(self, message: DxpMessage) -> None:
        """An answer sent from the reader: a failure is already on record and must not stop reading."""
        with contextlib.suppress(EngineFault, RuntimeError):
            self._send(message)

    async def _settle_search(self) -> None:
        self._check_usable()
        if self._search is not None and not self._search.finished:
            with contextlib.suppress(BadMoveFormat):
                await self._search.finish()

    # -- StreamSink: the connection's messages, from the reader --------------------------------------

    def lines_read(self, lines: list[bytes], at: float) -> None:
        self._acknowledge_now()
        for data in lines:
            if self._broken is not None or self._closing:
                return
            self.comm_log.received(data.decode("ascii", "backslashreplace"))
            try:
                message = decode(data)
            except DxpSyntaxError as error:
                self._fail(Garbage(self.name, f"sent an unreadable DXP message: {error}"))
                return
            logger.debug("%s > %r", self.name, data)
            self._dispatch(message, at)

    def _acknowledge_now(self) -> None:
        """Acknowledge what was read at once, not after the kernel's delayed-ACK wait (40 ms on Linux).

        An engine that answers a game request with its acceptance and its first move in two writes has
        the move held back by its own Nagle algorithm until the acceptance is acknowledged, and the wait
        would be charged to its clock (Scan and Moby Dam: 41 ms for a book move sent in 0.2 ms)."""
        connection = self._connection
        if connection is not None and _QUICKACK is not None:
            with contextlib.suppress(OSError):
                connection.setsockopt(socket.IPPROTO_TCP, _QUICKACK, 1)

    def stream_stopped(self, why: str) -> None:
        if why == "line":
            self._fail(Garbage(self.name, f"sent a message longer than {MAX_MESSAGE} characters"))
        else:
            limit = self.config.output_limit_bytes
            self._fail(OutputFlood(self.name, f"sent more than {limit} bytes after one message"))

    def stream_closed(self, exited: bool, returncode: int | None) -> None:
        self.on_gone()

    def _dispatch(self, message: DxpMessage, at: float) -> None:
        search = self._search if self._search is not None and not self._search.finished else None
        if isinstance(message, Move | GameEnd) and search is not None and self._engine_to_move:
            self._engine_to_move = False
            self._last_move_at = at
            if self._accepted_at is not None and self._accepted_at == at:
                # The acceptance and the first move came in one read, so they share its stamp and the
                # engine's thinking between them is unknown: it is charged from the game request.
                search._started = self._requested_at
            self._accepted_at = None
            game = self._game
            if game is not None:
                game.played += 1
                if isinstance(message, GameEnd):
                    game.over = True
                    self._send_quietly(GameEnd(GAME_END_UNKNOWN, 0))  # DXP: an `E` is answered with an `E`
            search._complete(message, at)
        elif isinstance(message, Move):
            move = move_to_hub(message)
            self._fail(ProtocolError(self.name, f"sent a move, {move}, when it was not its turn"))
        elif isinstance(message, Chat):
            self.chats.append(message.text)
        elif isinstance(message, BackRequest):
            self._send_quietly(BackAccept(_TAKE_BACK_REFUSED))
        elif isinstance(message, GameRequest):
            self._fail(ProtocolError(self.name, "sent a game request, but the arbiter is the initiator"))
        elif isinstance(message, GameAccept):
            if message.code == ACCEPTED and self._engine_moves_first:
                self._engine_to_move = True  # it may move at once, before the accepting call resumes
                self._accepted_at = at
                if search is not None:
                    search._started = at
            self._inbox.put(message)
        elif isinstance(message, GameEnd):  # the answer to the arbiter's own `E`
            self._inbox.put(message)

    def _search_running(self) -> bool:
        return self._search is not None and not self._search.finished

    def _wake_all(self, fault: EngineFault) -> None:
        self._inbox.fail(fault)
        if self._search is not None:
            self._search._abort(fault)

    def on_line(self, line: bytes, at: float) -> None:
        """A DXP engine's stdout is only logged."""


def _free_port() -> int:
    """A port nobody listens on now, for an engine that must be told where to listen."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((_HOST, 0))
        port: int = probe.getsockname()[1]
        return port
