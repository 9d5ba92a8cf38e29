"""`arbiter serve DIR --port N`, run as a user runs it: the site's pages over HTTP, never cached."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from report_games import play_event

from arbiter.report import build_site


def test_serve_answers_with_the_sites_pages_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    played = play_event(["Alpha", "Bravo"], games_per_encounter=1, openings=False, max_plies=30)
    build_site(tmp_path / "site", played.event, played.games)
    serve = subprocess.Popen(
        [sys.executable, "-m", "arbiter.cli", "serve", str(tmp_path / "site"), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert serve.stdout is not None
        line = serve.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line
        base = f"http://127.0.0.1:{match.group(1)}"
        with urllib.request.urlopen(f"{base}/index.html", timeout=30) as answer:
            assert answer.headers["Cache-Control"] == "no-store"
            assert answer.read() == (tmp_path / "site" / "index.html").read_bytes()
        with urllib.request.urlopen(f"{base}/live-data.js", timeout=30) as answer:
            assert answer.read().startswith(b"window.arbiterLive = ")
    finally:
        serve.send_signal(signal.SIGINT)
        serve.communicate(timeout=30)
    assert serve.returncode == 0


def test_serve_refuses_a_folder_without_a_site(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "serve", str(tmp_path), "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert f"{tmp_path} holds no site" in done.stderr
