"""One engine's child process: started without a shell, in its own session, ended without leftovers.

Every process the engine starts is ended with it, even one that left its session: see ``leftovers``.
When the engine exits on its own (a crash, a kill from outside), what it left running is ended at once.

The process writes its protocol output to a UNIX sequenced-packet socket whose writes the kernel stamps
as it queues them (``arrival``), read by the event loop (``loop_reader``): every line is charged at the
moment the kernel received it, so a busy loop adds nothing to an engine's time. Where there is no such
socket or no stamp the stream is a pipe, read by a thread of its own (``stamped_reader``) that stamps
each line as it reads. The stream is cut into lines, with a cap on the length of a line and on the
bytes that may follow one command, so a misbehaving engine cannot make the arbiter buffer without bound.
Its stderr goes to a log file (also capped) and never into the protocol stream; what all the processes of
one engine keep of it over an event is bounded too (``stderr_budget``).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import errno
import os
import resource
import signal
import socket
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Protocol

from arbiter.engines.arrival import stamped_stream
from arbiter.engines.config import EngineConfig
from arbiter.engines.faults import EngineFault, LineTooLong, OutputFlood, StartFailed, StderrFlood
from arbiter.engines.leftovers import EngineProcesses, end_wine_services
from arbiter.engines.loop_reader import OutputReader, open_reader
from arbiter.engines.output_lines import ReadLimits
from arbiter.engines.process_group import ProcessEntry, become_subreaper, signal_group
from arbiter.engines.process_marker import MARKER_VARIABLE, marker_value, new_token
from arbiter.engines.stderr_budget import StderrBudget

_TAIL_BYTES = 2048
# After a DXP engine exits, how long its last output may take to arrive when a leftover child keeps its
# stdout open (normally end-of-file comes at once; a Hub engine's reader takes what is there at once).
_EXIT_FLUSH_SECONDS = 0.2

_live_engines: dict[int, EngineProcesses] = {}


@atexit.register
def _kill_live_engines() -> None:
    """Last resort if the arbiter exits without closing its engines: leave no engine running, nor the
    Wine servers and services the engines left to their prefixes."""
    for processes in list(_live_engines.values()):
        processes.signal(signal.SIGKILL)
    end_wine_services()


class OutputListener(Protocol):
    """What the protocol client hears from the process."""

    def on_line(self, line: bytes, at: float) -> None:
        """One line of protocol output (without its newline), and the monotonic time it arrived."""

    def on_stream_fault(self, fault: EngineFault) -> None:
        """Too long a line, too much output, too much stderr."""

    def on_gone(self) -> None:
        """The process exited or closed its output (may be called more than once)."""


@dataclass
class ShutdownReport:
    returncode: int | None
    terminated: bool  # it had to be sent SIGTERM/SIGKILL
    # Left alive after the engine itself exited (or, when it was terminated, outside its process group).
    strays: list[ProcessEntry] = field(default_factory=list)
    unkillable: list[ProcessEntry] = field(default_factory=list)


def describe_status(returncode: int | None) -> str:
    if returncode is None:
        return "is still running"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"was killed by {name}"
    return f"exited with code {returncode}"


def _limits_setter(memory_limit_mb: int | None, cpus: Sequence[int] | None) -> Callable[[], None] | None:
    """Applied in the child between fork and exec, so the limits hold from the engine's first instruction."""
    if memory_limit_mb is None and cpus is None:
        return None
    memory_bytes = memory_limit_mb * 1024 * 1024 if memory_limit_mb is not None else None
    cpu_set = set(cpus) if cpus is not None else None

    def apply() -> None:
        if memory_bytes is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        if cpu_set is not None:
            os.sched_setaffinity(0, cpu_set)

    return apply


class _PipeProtocol(asyncio.SubprocessProtocol):
    def __init__(self, owner: EngineProcess) -> None:
        self._owner = owner

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # Before any other callback: a process may exit before subprocess_exec() even returns.
        assert isinstance(transport, asyncio.SubprocessTransport)
        self._owner._transport = transport
        self._owner.pid = transport.get_pid()

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        self._owner._data_received(fd, data)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        self._owner._pipe_closed(fd)

    def process_exited(self) -> None:
        self._owner._process_exited()


class EngineProcess:
    """A started engine program. Create it with ``await EngineProcess.spawn(...)``."""

    def __init__(
        self,
        config: EngineConfig,
        listener: OutputListener,
        log: BinaryIO,
        log_path: Path,
        stdout_is_protocol: bool,
        token: str,
        stderr_budget: StderrBudget | None = None,
    ) -> None:
        self.config = config
        self.log_path = log_path
        self._budget = stderr_budget  # shared with the engine's other processes in the event
        self._budget_spent = False  # this process's stderr is no longer written: its budget is spent
        self._log_line_ended = True  # what was written last ends a line (an arbiter note needs none)
        self._listener = listener
        self._log = log
        self._stdout_is_protocol = stdout_is_protocol
        self._transport: asyncio.SubprocessTransport | None = None
        self._stdin: asyncio.WriteTransport | None = None  # the transport's stdin pipe, once looked up
        self._reader: OutputReader | None = None  # the protocol stream's reader
        self._reading_stopped = False
        self._stderr_written = 0
        self._stderr_overflowed = False
        self._tail = bytearray()
        self._exited = asyncio.Event()
        self._stdout_closed = asyncio.Event()
        self._returncode: int | None = None
        self._peeked_returncode: int | None = None  # seen by the reader before the child watcher
        self._gone_at_exit = False
        self.pid = 0
        self._token = token  # in the environment of the engine and of everything it starts
        self._ending = False  # shutdown() has begun
        self._sweep: asyncio.Task[tuple[list[ProcessEntry], list[ProcessEntry]]] | None = None
        self._seen: list[ProcessEntry] = []  # what the engine ran when it was told to quit (take_stock)

    @classmethod
    async def spawn(
        cls,
        config: EngineConfig,
        *,
        stderr_log: Path,
        listener: OutputListener,
        stdout_is_protocol: bool = True,
        argv: Sequence[str] | None = None,
        extra_env: Mapping[str, str] | None = None,
        stderr_budget: StderrBudget | None = None,
    ) -> EngineProcess:
        """Start the program. Its stdout is the protocol stream, or (DXP) goes to the log with stderr.

        ``stderr_budget``: what the engine's processes may still keep of their stderr in this event
        (none: only the process's own ``stderr_limit_bytes``)."""
        become_subreaper()
        args = list(argv if argv is not None else config.command)
        env = dict(os.environ) if config.inherit_env else {}
        env.update(config.env)
        env.update(extra_env or {})
        token = new_token()
        env[MARKER_VARIABLE] = marker_value(token, env.get(MARKER_VARIABLE))
        stderr_log.parent.mkdir(parents=True, exist_ok=True)
        log = stderr_log.open("ab")
        process = cls(config, listener, log, stderr_log, stdout_is_protocol, token, stderr_budget)
        loop = asyncio.get_running_loop()
        # The protocol stream is our own, read by its reader rather than by asyncio's pipe transport.
        protocol_read, protocol_write = _protocol_stream() if stdout_is_protocol else (-1, -1)
        try:
            transport, _ = await loop.subprocess_exec(
                lambda: _PipeProtocol(process),
                *args,
                stdin=subprocess.PIPE,
                stdout=_fileno(protocol_write) if stdout_is_protocol else subprocess.PIPE,
                stderr=subprocess.PIPE if stdout_is_protocol else subprocess.STDOUT,
                cwd=config.working_dir,
                env=env,
                start_new_session=True,
                close_fds=True,
                preexec_fn=_limits_setter(config.memory_limit_mb, config.cpu_affinity),
            )
        except (OSError, subprocess.SubprocessError) as error:
            log.close()
            if stdout_is_protocol:
                _close(protocol_read)
            raise StartFailed(config.name, _start_error_text(args, config.working_dir, error)) from error
        finally:
            if stdout_is_protocol:
                _close(protocol_write)  # the engine holds the only writing end: its exit is end-of-file
        process.pid = transport.get_pid()
        if stdout_is_protocol:
            limits = ReadLimits(config.line_limit_bytes, config.output_limit_bytes)
            process._reader = open_reader(
                protocol_read, process, limits, pid=process.pid, name=f"{config.name}-{process.pid}"
            )
        _live_engines[process.pid] = process.processes
        process._write_log(f"[arbiter] started pid {process.pid}: {' '.join(args)}\n".encode())
        return process

    # -- state -------------------------------------------------------------------------------------

    @property
    def processes(self) -> EngineProcesses:
        """How this engine's processes are found: its process group and its token."""
        return EngineProcesses(self.pid, self._token)

    @property
    def returncode(self) -> int | None:
        return self._returncode if self._returncode is not None else self._peeked_returncode

    @property
    def running(self) -> bool:
        return not self._exited.is_set()

    def status(self) -> str:
        return describe_status(self.returncode)

    def stderr_tail(self, lines: int = 5) -> str:
        """The last lines of stderr, to put in a fault message."""
        text = self._tail.decode("utf-8", "replace")
        kept = [line.rstrip() for line in text.splitlines() if line.strip()]
        return " | ".join(kept[-lines:])

    async def wait_exit(self, timeout: float) -> bool:
        """True when the process exited within ``timeout`` seconds."""
        if self._exited.is_set():
            return True
        try:
            async with asyncio.timeout(timeout):
                await self._exited.wait()
        except TimeoutError:
            return False
        return True

    async def wait_output_closed(self, timeout: float) -> bool:
        if self._stdout_closed.is_set():
            return True
        try:
            async with asyncio.timeout(timeout):
                await self._stdout_closed.wait()
        except TimeoutError:
            return False
        return True

    # -- writing -----------------------------------------------------------------------------------

    def write(self, data: bytes) -> bool:
        """Send bytes to the engine's stdin; False when it can no longer be written to."""
        pipe = self._stdin if self._stdin is not None else self._stdin_pipe()
        # Exited: its status is set with ``_exited``, in the same step (asyncio has it by then), and is
        # looked at here for every command as a plain attribute rather than through the event.
        if pipe is None or pipe.is_closing() or self._returncode is not None:
            return False
        reader = self._reader
        if reader is not None:
            reader.command_sent()
        pipe.write(data)
        return True

    def output_unread(self) -> bool:
        """Whether protocol output has arrived that the reader has not handed to the loop yet (a stamped
        socket's reader reads what is there now and answers False)."""
        return self._reader is not None and self._reader.unread()

    def close_stdin(self) -> None:
        pipe = self._stdin_pipe()
        if pipe is not None and not pipe.is_closing():
            pipe.close()

    def _stdin_pipe(self) -> asyncio.WriteTransport | None:
        if self._stdin is None and self._transport is not None:
            pipe = self._transport.get_pipe_transport(0)  # the same object for the life of the process
            self._stdin = pipe if isinstance(pipe, asyncio.WriteTransport) else None
        return self._stdin

    # -- reading (called by the event loop) ----------------------------------------------------------

    def _data_received(self, fd: int, data: bytes) -> None:
        # The protocol stream comes through the reader; what asyncio reads is only logged.
        self._log_data(data)

    # StreamSink: what the reader hands to the loop.

    def lines_read(self, lines: list[bytes], at: float) -> None:
        for line in lines:
            if self._reading_stopped:
                return
            self._listener.on_line(line, at)

    def stream_stopped(self, why: str) -> None:
        """Stop taking protocol output: the engine then blocks on its full pipe until it is ended."""
        if self._reading_stopped:
            return
        self._reading_stopped = True
        name = self.config.name
        if why == "flood":
            limit = self.config.output_limit_bytes
            fault: EngineFault = OutputFlood(name, f"printed more than {limit} bytes after one command")
        else:
            limit = self.config.line_limit_bytes
            fault = LineTooLong(name, f"printed a line longer than {limit} bytes")
        self._listener.on_stream_fault(fault)

    def stream_closed(self, exited: bool, returncode: int | None) -> None:
        if returncode is not None and self._returncode is None:
            self._peeked_returncode = returncode
        self._stdout_closed.set()
        if exited and returncode is None and not self._exited.is_set():
            # Reaped by the child watcher, whose word with the status is on its way: report with it.
            self._gone_at_exit = True
            return
        self._listener.on_gone()

    def _log_data(self, data: bytes) -> None:
        if self._log.closed:
            return
        self._tail += data
        if len(self._tail) > _TAIL_BYTES:
            del self._tail[: len(self._tail) - _TAIL_BYTES]
        room = self.config.stderr_limit_bytes - self._stderr_written
        if room > 0:
            kept = data[:room]
            self._keep_stderr(kept)
            # Counted whether or not the event's budget let it be written: the flood is the process's own.
            self._stderr_written += len(kept)
        if len(data) > room and not self._stderr_overflowed:
            self._stderr_overflowed = True
            limit = self.config.stderr_limit_bytes
            self._write_note(f"stderr limit of {limit} bytes reached; the rest is discarded")
            self._listener.on_stream_fault(
                StderrFlood(self.config.name, f"wrote more than {limit} bytes to stderr ({self.log_path})")
            )

    def _keep_stderr(self, data: bytes) -> None:
        """Write what the engine's budget for the event still allows; say so once when it runs out."""
        if self._budget_spent:
            return
        if self._budget is not None:
            granted = self._budget.take(len(data))
            if granted < len(data):
                self._budget_spent = True
                self._write_log(data[:granted])
                self._write_note(
                    f"stderr budget of {self._budget.limit} bytes for this engine's logs in the event is "
                    "spent; its stderr is read from here on but not kept"
                )
                return
        self._write_log(data)

    def _write_note(self, text: str) -> None:
        """The arbiter's own line in the log, on a line of its own."""
        start = "" if self._log_line_ended else "\n"
        self._write_log(f"{start}[arbiter] {text}\n".encode())

    def _write_log(self, data: bytes) -> None:
        """Into the engine's log, which stops at the first write that fails (a full disk): the game goes
        on, and the database, on the same disk, says so when the game is stored."""
        if self._log.closed or not data:
            return
        self._log_line_ended = data.endswith(b"\n")
        try:
            self._log.write(data)
            self._log.flush()
        except OSError:
            with contextlib.suppress(OSError):  # what is left in its buffer cannot be written either
                self._log.close()

    def _pipe_closed(self, fd: int) -> None:
        if fd == 1 and not self._stdout_is_protocol:  # DXP: its stdout, logged, closed with the engine
            self._stdout_closed.set()
            self._listener.on_gone()

    def _process_exited(self) -> None:
        assert self._transport is not None
        self._returncode = self._transport.get_returncode()
        self._exited.set()
        if self._gone_at_exit:
            self._listener.on_gone()
        if not self._ending and self._sweep is None:
            # It ended on its own (crashed, or was killed from outside): what it started goes now, not
            # whenever the engine is closed; shutdown() reports it.
            self._sweep = asyncio.get_running_loop().create_task(
                self._end_leftovers(self.config.timeouts.kill, group_dying=False)
            )
        if not self._stdout_closed.is_set():
            # A child the engine left behind may hold the pipe open: do not wait for end-of-file.
            if self._reader is not None:
                self._reader.engine_exited()
            else:
                asyncio.get_running_loop().call_later(_EXIT_FLUSH_SECONDS, self._listener.on_gone)

    # -- ending ------------------------------------------------------------------------------------

    async def shutdown(self, quit_grace: float, kill_grace: float) -> ShutdownReport:
        """Close stdin, give the engine ``quit_grace`` seconds to exit, then SIGTERM and SIGKILL its group.

        Whatever the engine left running, in its group or out of it, is ended too and reported as strays.
        """
        self._ending = True
        self.close_stdin()
        # Drain what is still coming so that a blocked writer can reach its exit.
        self._reading_stopped = True
        if self._reader is not None:
            self._reader.drain()
        terminated = False
        if not await self.wait_exit(quit_grace):
            terminated = True
            signal_group(self.pid, signal.SIGTERM)
            if not await self.wait_exit(kill_grace):
                signal_group(self.pid, signal.SIGKILL)
                await self.wait_exit(kill_grace + 5.0)
        strays: list[ProcessEntry] = []
        if self._sweep is not None:  # begun when the engine exited on its own
            strays, _ = await self._sweep
        # Again, for anything started since: what is still there after this one cannot be ended.
        late_strays, unkillable = await self._end_leftovers(kill_grace, group_dying=terminated)
        strays += late_strays
        if self._transport is not None:
            self._transport.close()
        # Let the pipes' closing callbacks run before the loop may be closed.
        await self.wait_output_closed(0.5)
        if self._reader is not None:
            self._reader.close()
        await asyncio.sleep(0)
        self._log.close()
        if not unkillable:
            _live_engines.pop(self.pid, None)
        return ShutdownReport(self._returncode, terminated, strays, unkillable)

    async def take_stock(self) -> None:
        """Note what the engine runs now, before it is told to quit, while its processes carry its token.

        One out of its session that the engine ends itself on quitting (Wine's, by `wineserver -k`) is a
        zombie by the time the engine has exited, and no token tells it then; the arbiter adopted it, so
        nothing else would reap it. The processes noted are looked for again once the engine is gone.
        """
        if not self._exited.is_set():
            self._seen = await asyncio.to_thread(self.processes.find)  # a look through /proc: off the loop

    async def _end_leftovers(
        self, kill_grace: float, group_dying: bool
    ) -> tuple[list[ProcessEntry], list[ProcessEntry]]:
        """End what the engine left running once it has exited: (the strays, what could not be ended).

        After an exit of its own, whatever is left would have outlived the engine. After SIGTERM to its
        group, the rest of the group is simply still dying, but what left the group is still a stray.
        What ``take_stock`` noted is looked for too, and reaped where the arbiter adopted it.
        """
        found = await asyncio.to_thread(self.processes.find, self._seen)  # a look through /proc: off the loop
        strays = [
            entry
            for entry in found
            if not entry.zombie and entry.pid != self.pid and not (group_dying and entry.pgid == self.pid)
        ]
        if not found:
            return strays, []
        return strays, await self.processes.end(found, kill_grace, kill_grace + 1.0)


def _protocol_stream() -> tuple[int | socket.socket, int | socket.socket]:
    """(our end, the engine's stdout): a socket whose writes the kernel stamps on arrival (see
    ``arrival``), or a pipe where the system cannot stamp them."""
    try:
        return stamped_stream()
    except OSError:
        return os.pipe()


def _fileno(end: int | socket.socket) -> int:
    return end.fileno() if isinstance(end, socket.socket) else end


def _close(end: int | socket.socket) -> None:
    if isinstance(end, socket.socket):
        end.close()
    else:
        os.close(end)


def _program_path(program: str, cwd: Path | None) -> Path:
    """Where a program given with a folder in its name is: relative to the working directory the
    engine is started in, as `subprocess` looks for it."""
    path = Path(program)
    return cwd / path if cwd is not None and not path.is_absolute() else path


def _start_error_text(args: Sequence[str], cwd: Path | None, error: BaseException) -> str:
    where = f" in working directory {cwd}" if cwd is not None else ""
    if isinstance(error, FileNotFoundError):
        if cwd is not None and not cwd.is_dir():
            return f"cannot start {args[0]!r}: working directory {cwd} does not exist"
        return f"cannot start {args[0]!r}: program not found{where}"
    if isinstance(error, PermissionError):
        if "/" in args[0] and _program_path(args[0], cwd).is_dir():
            return f"cannot start {args[0]!r}{where}: it is a folder, not a program"
        return f"cannot start {args[0]!r}: permission denied (is it executable?){where}"
    if isinstance(error, OSError) and error.errno == errno.ENOEXEC:
        # A script without a #! line: the system does not know which program runs it.
        return (
            f"cannot start {args[0]!r}{where}: not a program this system runs (a script needs a first "
            "line naming its interpreter, such as #!/usr/bin/env python3)"
        )
    if isinstance(error, OSError):
        return f"cannot start {args[0]!r}{where}: {error.strerror or error}"
    return f"cannot start {args[0]!r}{where}: {error} (memory limit or CPU affinity rejected?)"
