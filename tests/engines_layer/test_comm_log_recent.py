"""The communication log kept in memory: the last lines both ways, one line per protocol line, each
write's lines with the one time of that write."""

from __future__ import annotations

from arbiter.engines.comm_log import KEPT_LINES, CommLog


def test_the_lines_of_one_write_are_kept_as_lines_with_the_time_of_the_write() -> None:
    log = CommLog("scan")
    log.context = "game 3"
    log.sent("pos pos=Wbbbeeewww\nlevel time=60 inc=1\ngo think")
    log.received("done move=32-28")
    lines = log.recent
    assert [line.split(" scan ", 1)[1] for line in lines] == [
        "> pos pos=Wbbbeeewww",
        "> level time=60 inc=1",
        "> go think",
        "< done move=32-28",
    ]
    assert len({line.split(" ", 1)[0] for line in lines[:3]}) == 1, "one time for the three lines"
    assert all(" game 3 scan " in line for line in lines)


def test_only_the_last_lines_are_kept_however_they_were_written() -> None:
    log = CommLog("scan")
    for number in range(KEPT_LINES):
        log.sent(f"pos {number}\nlevel time=60\ngo think")
        log.received(f"done {number}")
    lines = log.recent
    assert len(lines) == KEPT_LINES
    assert lines[-1].endswith(f"< done {KEPT_LINES - 1}")
    assert lines[0].endswith(f"> pos {KEPT_LINES - 50}")
