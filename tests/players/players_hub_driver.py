"""A minimal Hub driver for the bundled engines' tests: the engine is a real child process.

It is written apart from the arbiter's own Hub client (and from the engines' Hub code), so the tests
check the engines against an independent reading of the protocol. Timeouts here only stop a broken
engine from hanging the test run; no test asserts on how long anything took.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from types import TracebackType

REPO = Path(__file__).resolve().parents[2]
GENEROUS = 30.0  # seconds: far beyond what any answer needs, even on a loaded machine


def fields_of(line: str) -> tuple[str, dict[str, str], set[str]]:
    """``command key=value key="quoted value" flag`` split into command, values and flags."""
    words: list[str] = []
    current = ""
    quoted = False
    started = False
    for char in line.strip():
        if char == '"':
            quoted = not quoted
            started = True
        elif char.isspace() and not quoted:
            if started:
                words.append(current)
            current, started = "", False
        else:
            current += char
            started = True
    if started:
        words.append(current)
    values: dict[str, str] = {}
    flags: set[str] = set()
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if sep:
            values[key] = value
        else:
            flags.add(word)
    return (words[0] if words else ""), values, flags


class EngineProcess:
    """One bundled engine started as ``python -m arbiter.players.<name> [args]``."""

    def __init__(self, name: str, *args: str) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
        self.process = subprocess.Popen(
            [sys.executable, "-m", f"arbiter.players.{name}", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
            cwd=REPO,
            env=env,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.transcript: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.transcript.append(f"> {line}")
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def close_stdin(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()

    def read(self, timeout: float = GENEROUS) -> str:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(
                f"no answer within {timeout} s; so far:\n" + "\n".join(self.transcript)
            ) from None
        if line is None:
            raise AssertionError("the engine closed its output; so far:\n" + "\n".join(self.transcript))
        self.transcript.append(f"< {line}")
        return line

    def read_until(self, command: str, timeout: float = GENEROUS) -> list[str]:
        """Every line up to and including the first whose command is ``command``."""
        seen: list[str] = []
        while True:
            line = self.read(timeout)
            seen.append(line)
            if fields_of(line)[0] == command:
                return seen

    def handshake(self, **params: str) -> list[str]:
        self.send("hub")
        hello = self.read_until("wait")
        for name, value in params.items():
            self.send(f"set-param name={name} value={value}")
        self.send("init")
        self.read_until("ready")
        return hello

    def search(
        self, pos: str | None = None, moves: str = "", level: str = "depth=2", go: str = "go think"
    ) -> str:
        """Send a position, a level and ``go``; return the ``done`` line."""
        command = "pos" if pos is None else f"pos pos={pos}"
        if moves:
            command += f' moves="{moves}"'
        self.send(command)
        self.send(f"level {level}")
        self.send(go)
        return self.read_until("done")[-1]

    def wait_exit(self, timeout: float = GENEROUS) -> int:
        return self.process.wait(timeout=timeout)

    def __enter__(self) -> EngineProcess:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        try:
            if self.process.stdin is not None and not self.process.stdin.closed:
                self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
