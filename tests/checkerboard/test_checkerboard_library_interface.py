"""The adapter talks to its engine only through ``CheckerBoardLibrary``, so a library that is not loaded
in its own process (one that relays the calls elsewhere) can stand behind it: here a Python one."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from arbiter.engines.checkerboard.adapter import Adapter, Output
from arbiter.engines.checkerboard.api import GetMoveReply
from arbiter.engines.checkerboard.board import BoardMap
from arbiter.engines.checkerboard.timing import reserve
from arbiter.engines.hub_wire import parse_line
from arbiter.rules import Color, Position, get_variant

ENGLISH = get_variant("english")
CELLS = BoardMap.of(ENGLISH)


class PythonLibrary:
    """Plays the last legal move once *playnow is set (or at once when ``wait`` is False)."""

    def __init__(self, wait: bool) -> None:
        self.wait = wait
        self.commands: list[str] = []
        self.calls: list[tuple[float, int, int]] = []
        self.play_now = threading.Event()

    def getmove(
        self, board: tuple[tuple[int, ...], ...], color: int, maxtime: float, info: int, moreinfo: int
    ) -> GetMoveReply:
        self.calls.append((maxtime, info, moreinfo))
        if self.wait:
            assert self.play_now.wait(10)
        turn = Color.WHITE if color == 1 else Color.BLACK
        white, black, kings = CELLS.bitboards(board) or (0, 0, 0)
        position = Position(ENGLISH, white, black, kings, turn)
        after = position.play(position.legal_moves()[-1])
        return GetMoveReply(3, CELLS.board(after), "last legal move", None)

    def enginecommand(self, command: str) -> tuple[bool, str]:
        self.commands.append(command)
        answers = {"name": "Python engine", "get gametype": "21", "get protocolversion": "2"}
        return (command in answers or command.startswith("set gamehist")), answers.get(command, "")

    def set_play_now(self, value: bool) -> None:
        if value:
            self.play_now.set()
        else:
            self.play_now.clear()

    def flush_output(self) -> None:
        pass


def run(library: PythonLibrary, lines: list[str], until: str) -> list[str]:
    """Feed Hub lines to an adapter over ``library``; the lines it writes, up to one starting ``until``."""
    read, write = os.pipe()
    adapter = Adapter(library, Output(write), Path("python-engine.so"))
    for text in lines:
        adapter.handle(parse_line(text))
    answer: list[str] = []
    with os.fdopen(read, "r") as stream:
        for line in stream:
            answer.append(line.strip())
            if line.startswith(until):
                break
    os.close(write)
    return answer


START = Position.start(ENGLISH)


def test_an_adapter_over_any_library_answers_the_hub_handshake_and_a_search() -> None:
    library = PythonLibrary(wait=False)
    out = run(library, ["hub", "init", f"pos pos={START.hub()}", "level move-time=1", "go think"], "done")
    assert out[0].startswith('id name="Python engine"') and "gametype=21" in out[0]
    assert 'param name=variant type=enum values="english english+iyt-draws"' in out[1]
    assert "wait" in out and "ready" in out
    last = START.legal_moves()[-1]
    assert out[-1] == f"done move={last.start}-{last.end}"
    assert library.calls == [(pytest.approx(1 - reserve(1)), 3, 0)]
    assert any(command.startswith("set gamehist B:W21,") for command in library.commands)


def test_stop_reaches_the_library_as_playnow_while_getmove_runs() -> None:
    library = PythonLibrary(wait=True)
    out = run(
        library, ["hub", f"pos pos={START.hub()}", "level infinite", "go think", "ping", "stop"], "done"
    )
    assert "pong" in out, "ping is answered while getmove runs"
    assert out[-1].startswith("done move=")
