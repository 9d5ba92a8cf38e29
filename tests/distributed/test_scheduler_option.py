"""The `scheduler` setting: in the tournament file, on the command line, and when Dask is not installed."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from arbiter.running.runner import TournamentRunner
from arbiter.store import TournamentStore
from arbiter.tournament.config import load_tournament

EVENT = """name = "scheduled"
database = "event.sqlite"
time_control = "depth=2"
format = "match"
{extra}
[[engines]]
name = "random"
bundled = "random"
[[engines]]
name = "greedy"
bundled = "greedy"
"""

# Runs the arbiter as if `distributed` were not installed: an import of it fails as a missing one does.
WITHOUT_DASK = (
    "import sys; sys.modules['distributed'] = None; sys.modules['dask'] = None\n"
    "from arbiter.cli import main\n"
    "sys.argv = ['arbiter', *sys.argv[1:]]\n"
    "main()\n"
)


def test_the_tournament_file_may_name_a_scheduler(tmp_path: Path) -> None:
    path = tmp_path / "tournament.toml"
    path.write_text(EVENT.format(extra='scheduler = "tcp://10.1.2.3:8786"'), encoding="utf-8")
    config, _ = load_tournament(path)
    assert config.scheduler == "tcp://10.1.2.3:8786"


def test_a_resumed_event_may_use_another_scheduler_or_none(tmp_path: Path) -> None:
    path = tmp_path / "tournament.toml"
    path.write_text(EVENT.format(extra='scheduler = "tcp://127.0.0.1:8786"'), encoding="utf-8")
    config, engines = load_tournament(path)
    with TournamentStore.open(config.database) as store:
        first = TournamentRunner(config, engines).open_tournament(store)
        for other in ("tcp://127.0.0.1:9999", None):
            again = TournamentRunner(config.model_copy(update={"scheduler": other}), engines)
            assert again.open_tournament(store) == first


def test_scheduler_without_dask_installed_says_what_to_install(tmp_path: Path) -> None:
    path = tmp_path / "tournament.toml"
    path.write_text(EVENT.format(extra=""), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_DASK, "run", str(path), "--scheduler", "tcp://127.0.0.1:8786"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "needs the 'distributed' package" in done.stderr
    assert "pip install 'arbiter[distributed]'" in done.stderr
    assert not (tmp_path / "event.sqlite").exists(), "nothing was started"


def test_without_a_scheduler_the_run_needs_no_dask(tmp_path: Path) -> None:
    path = tmp_path / "tournament.toml"
    path.write_text(EVENT.format(extra="[adjudication]\nmax_plies = 60"), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_DASK, "run", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "finished: 1/1 games" in done.stdout


def arbiter(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "arbiter.cli", "run", str(tmp_path / "tournament.toml"), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)


def test_a_finished_event_shows_its_result_without_reaching_the_scheduler(tmp_path: Path) -> None:
    (tmp_path / "tournament.toml").write_text(EVENT.format(extra="[adjudication]\nmax_plies = 40"))
    assert arbiter(tmp_path).returncode == 0
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # nothing listens there once closed
    done = arbiter(tmp_path, "--scheduler", f"tcp://127.0.0.1:{port}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "is already finished" in done.stdout and "cannot reach" not in done.stderr


def test_an_unknown_address_scheme_is_told_without_dask_warnings(tmp_path: Path) -> None:
    (tmp_path / "tournament.toml").write_text(EVENT.format(extra=""))
    done = arbiter(tmp_path, "--scheduler", "foo://sched:8786")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "cannot reach the Dask scheduler at foo://sched:8786: unknown address scheme 'foo'" in done.stderr
    assert "Warning" not in done.stderr, done.stderr
