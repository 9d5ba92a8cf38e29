"""Files a run writes besides its games failing part way (a full disk, a folder made read-only while the
run goes on): a message naming the file, exit status 1, no traceback, every stored game kept, and the
same command resumes."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bad_input_support import ARBITER, ENGINES, Ran, arbiter, assert_refused, finished_games, ran_from_files

QUICK_MATCH = ("match", "random", "greedy", "--tc", "depth=1", "--rounds", "3")


def arbiter_with_file_limit(*args: str | Path, cwd: Path, limit_bytes: int) -> Ran:
    """`arbiter` whose files cannot grow beyond `limit_bytes` (EFBIG, as ENOSPC on a full disk: a write
    that fails), the database included."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    # No .pyc written under the limit: a short one would break every later import of its module.
    return arbiter(*args, cwd=cwd, env={"PYTHONDONTWRITEBYTECODE": "1"}, preexec_fn=limit)


def test_a_json_file_that_fills_up_stops_the_run_naming_it_and_keeps_the_games(tmp_path: Path) -> None:
    # Was a traceback from the observer's write, with the game already stored.
    ran = arbiter(*QUICK_MATCH, "--db", "match.sqlite", "--json", "/dev/full", cwd=tmp_path)
    assert_refused(ran, "/dev/full: cannot write: No space left on device", "resume with:", code=1)
    kept = finished_games(tmp_path / "match.sqlite")
    assert kept >= 1, "the game whose line could not be written is stored"
    resumed = arbiter(*QUICK_MATCH, "--db", "match.sqlite", cwd=tmp_path)
    assert resumed.code == 0, resumed.out + resumed.err
    assert finished_games(tmp_path / "match.sqlite") == 6


def test_an_engine_log_that_cannot_be_written_is_no_traceback(tmp_path: Path) -> None:
    # The engine's stderr was written in the event loop's callback: each failed write printed a
    # traceback ("Exception in callback"), and the log's first line one that ended the run.
    flood = f"cmd={sys.executable} arg={ENGINES / 'stderr_flood.py'} name=flood"
    ran = arbiter_with_file_limit(
        "match", "--engine", flood, "--engine", "cmd=random name=random", "--tc", "depth=1",
        "--db", "match.sqlite", cwd=tmp_path, limit_bytes=256 * 1024,
    )  # fmt: skip
    assert "Traceback" not in ran.out + ran.err, ran.err
    assert ran.code == 0, ran.out + ran.err  # the log stops; the games go on
    assert finished_games(tmp_path / "match.sqlite") == 2
    assert (tmp_path / "match-logs" / "flood-preflight.stderr.log").stat().st_size <= 256 * 1024


def test_a_database_that_cannot_be_made_is_named(tmp_path: Path) -> None:
    # Was "error: the database failed: disk I/O error", naming no file.
    ran = arbiter_with_file_limit(*QUICK_MATCH, "--db", "new.sqlite", cwd=tmp_path, limit_bytes=2048)
    assert_refused(ran, "new.sqlite: cannot create the database", code=1)
    assert "cannot rollback" not in ran.said, "the write that failed is said, not the rollback after it"


LOGS_MADE_READ_ONLY = """
set -u
cd "$OUT"
{arbiter} match --engine "cmd=$PY arg=$ENGINES/crash_in_search.py name=crasher" random \\
    --tc depth=1 --rounds 40 --db match.sqlite > first.out 2> first.err &
run=$!
# A game stored: the crasher's next game starts it again, with a new log.
while [ "$(sqlite3 match.sqlite 'SELECT count(*) FROM game' 2>/dev/null || echo 0)" -lt 1 ]; do
    sleep 0.05
done
# A read-only folder laid over the logs' folder at once (made read-only in place, files being opened in
# it would keep it writable).
mkdir shadow
mount --bind shadow shadow && mount -o remount,ro,bind shadow && mount --bind shadow match-logs \
    || {{ kill $run; exit 77; }}
wait $run
echo $? > first.code
umount match-logs
{arbiter} match --engine "cmd=$PY arg=$ENGINES/crash_in_search.py name=crasher" random \\
    --tc depth=1 --rounds 40 --db match.sqlite > second.out 2> second.err
echo $? > second.code
"""


def test_a_logs_folder_made_read_only_mid_run_stops_it_naming_the_log(tmp_path: Path) -> None:
    # Was a traceback from opening the new engine's log.
    if shutil.which("unshare") is None or shutil.which("sqlite3") is None or os.geteuid() != 0:
        pytest.skip("needs root, unshare and sqlite3 to make a folder read-only under a running match")
    script = LOGS_MADE_READ_ONLY.format(arbiter=" ".join(ARBITER))
    env = {**os.environ, "OUT": str(tmp_path), "ENGINES": str(ENGINES), "PY": sys.executable}
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], env=env, capture_output=True, text=True)
    if done.returncode == 77 or not (tmp_path / "first.code").exists():
        pytest.skip(f"cannot bind-mount here: {done.stderr.strip()}")
    first = ran_from_files(tmp_path, "first")
    assert_refused(first, "match-logs/crasher-game-", "cannot write: Read-only file system", code=1)
    assert "resume with:" in first.said
    assert (tmp_path / "second.code").read_text().strip() == "0", (tmp_path / "second.err").read_text()
    assert finished_games(tmp_path / "match.sqlite") == 80


SITE_ON_A_SMALL_DISK = """
set -u
cd "$OUT"
mkdir site
mount -t tmpfs -o size=64k tmpfs site || exit 77
{arbiter} match random greedy --tc depth=1 --rounds 5 --db match.sqlite --report site > run.out 2> run.err
echo $? > run.code
"""


def test_a_site_that_does_not_fit_on_its_disk_is_said_and_the_run_exits_1(tmp_path: Path) -> None:
    # Was exit status 0 and "report: site/index.html", a page never written.
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("needs root and unshare to mount a small disk")
    script = SITE_ON_A_SMALL_DISK.format(arbiter=" ".join(ARBITER))
    env = {**os.environ, "OUT": str(tmp_path)}
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], env=env, capture_output=True, text=True)
    if done.returncode == 77 or not (tmp_path / "run.code").exists():
        pytest.skip(f"cannot mount a small disk here: {done.stderr.strip()}")
    ran = ran_from_files(tmp_path, "run")
    assert_refused(
        ran, "No space left on device", "the site in site does not show the event as it ended", code=1
    )
    assert "report: site/index.html" not in ran.said
    assert finished_games(tmp_path / "match.sqlite") == 10
