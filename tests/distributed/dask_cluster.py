"""A real Dask cluster on loopback for the tests: `dask scheduler` and `dask worker` child processes.

Each process runs in a session of its own, so a test can kill a worker outright (its nanny, the worker
and everything they started) the way a machine that loses power would. Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

DASK = [sys.executable, "-m", "dask"]
START_SECONDS = 60.0


class DaskCluster:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.scheduler_file = folder / "scheduler.json"
        self.address = ""
        self._processes: dict[str, subprocess.Popen[bytes]] = {}

    def log(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""

    def _spawn(self, name: str, command: list[str], env: dict[str, str] | None = None) -> None:
        with open(self.folder / f"{name}.log", "wb") as log:
            self._processes[name] = subprocess.Popen(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=self.folder,
                env={**os.environ, **(env or {})},
                start_new_session=True,
            )

    def start_scheduler(self) -> str:
        """Start the scheduler on a free loopback port; return its address."""
        self._spawn(
            "scheduler",
            [
                *DASK,
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(self.scheduler_file),
            ],
        )
        deadline = time.monotonic() + START_SECONDS
        while not self.address:
            self._check_alive("scheduler")
            if self.scheduler_file.exists():
                with contextlib.suppress(json.JSONDecodeError, KeyError):
                    self.address = json.loads(self.scheduler_file.read_text())["address"]
            assert time.monotonic() < deadline, f"the scheduler did not start:\n{self.log('scheduler')}"
            time.sleep(0.1)
        return self.address

    def start_worker(self, name: str, games: int = 2, env: dict[str, str] | None = None) -> None:
        """Start a worker that plays `games` games at once (its 'games' resource; 0: no such resource)."""
        resources = ["--resources", f"games={games}"] if games else []
        self._spawn(
            name,
            [
                *DASK,
                "worker",
                "--scheduler-file",
                str(self.scheduler_file),
                "--name",
                name,
                "--nthreads",
                str(max(games, 1)),
                *resources,
                "--host",
                "127.0.0.1",
                "--no-dashboard",
                "--memory-limit",
                "0",
                "--death-timeout",
                "60",
                "--local-directory",
                str(self.folder / f"{name}-files"),
            ],
            env,
        )

    def wait_for_workers(self, names: list[str]) -> None:
        """Until each named worker has registered with the scheduler (its log says so)."""
        deadline = time.monotonic() + START_SECONDS
        for name in names:
            while "Registered to:" not in self.log(name):
                self._check_alive(name)
                assert time.monotonic() < deadline, f"worker {name} did not register:\n{self.log(name)}"
                time.sleep(0.1)

    def kill(self, name: str) -> None:
        """SIGKILL a process and everything in its session, at once."""
        process = self._processes[name]
        _signal_session(process, signal.SIGKILL)
        process.wait(timeout=10)

    def close(self) -> None:
        """End every process: workers first (they end their engines), then the scheduler."""
        order = sorted(self._processes.items(), key=lambda item: item[0] == "scheduler")
        for _, process in order:
            _signal_session(process, signal.SIGTERM)
        deadline = time.monotonic() + 20
        for _, process in order:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            _signal_session(process, signal.SIGKILL)
            process.wait(timeout=10)

    def _check_alive(self, name: str) -> None:
        process = self._processes[name]
        assert process.poll() is None, f"{name} exited with {process.returncode}:\n{self.log(name)}"


def _signal_session(process: subprocess.Popen[bytes], signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signum)
