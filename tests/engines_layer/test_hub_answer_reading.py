"""What the Hub client makes of each line an engine prints, and of the `done` that ends a search, and
when it writes: the quick paths taken for every answer and every command give what the careful ones
give."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest
from engine_layer_support import engine_command

from arbiter.engines import EngineConfig
from arbiter.engines.faults import EngineFault, Garbage
from arbiter.engines.hub import HubEngine
from arbiter.engines.process import EngineProcess
from arbiter.engines.results import Info, SearchResult


def _engine(tmp_path: Path) -> HubEngine:
    """A client that is never started: what it reads is handed to it line by line."""
    return HubEngine(EngineConfig(name="e", command=["e"]), stderr_log=tmp_path / "e.log")


@pytest.mark.parametrize("line", [b"", b"   ", b"\t \t", b" \x0b\x0c ", "\u00a0\u2003".encode(), b"  \r"])
def test_a_blank_line_from_an_engine_is_ignored_whatever_its_white_space(tmp_path: Path, line: bytes) -> None:
    engine = _engine(tmp_path)
    engine.on_line(line, 0.0)
    assert engine.faults == []
    assert len(engine.comm_log.recent) == 1  # still logged


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (b"info depth=3\x00", "control characters in the line"),
        (b"\x00", "control characters in the line"),
        (" \u00a0x=1".encode(), "unreadable text at column 2"),
        (b"a=1 go", "the line starts with key=value instead of a command"),
        # What is wrong is named, not just where: debugging text on stdout, an info line cut short.
        (b"DEBUG: best = 9-13", "'=' without a key before it at column 13"),
        (b'info pv="9-13 5-9', "a double quote never closed at column 9"),
        (
            b'info a"b" c',
            'a double quote inside a word at column 7 (only a whole value is quoted: key="...")',
        ),
        (b'info pv="9-13"5-9', "text right after a closing quote at column 15 (a space must follow it)"),
    ],
)
def test_a_line_that_is_not_hub_text_is_garbage(tmp_path: Path, line: bytes, said: str) -> None:
    engine = _engine(tmp_path)
    engine.on_line(line, 0.0)
    assert len(engine.faults) == 1
    fault = engine.faults[0]
    assert isinstance(fault, Garbage)
    assert f"printed {said}: " in str(fault)


def test_a_result_made_for_a_move_is_the_one_the_constructor_makes() -> None:
    infos = (Info(depth=3, score=12.0, pv=("32-28",)),)
    made = SearchResult.moved("32-28", True, "19-23", infos, 0.25, True, "Wbbe")
    built = SearchResult("32-28", False, True, "19-23", infos, 0.25, True, None, "Wbbe")
    assert made == built
    assert vars(made) == vars(built)  # every field set, none left to a class default
    assert made.last_info == infos[0]
    assert repr(made) == repr(built)


def test_a_result_made_for_a_move_is_frozen_as_any_other() -> None:
    made = SearchResult.moved("32-28", False, None, (), 0.0, False, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.move = "9-13"  # type: ignore[misc]


class _Deaf:
    """A process listener that hears nothing it is told."""

    def on_line(self, line: bytes, at: float) -> None: ...

    def on_stream_fault(self, fault: EngineFault) -> None: ...

    def on_gone(self) -> None: ...


def test_nothing_is_written_to_an_engine_once_it_has_exited(tmp_path: Path) -> None:
    async def main() -> None:
        config = EngineConfig(name="exits", command=engine_command("exit_at_start.py"))
        process = await EngineProcess.spawn(config, stderr_log=tmp_path / "e.log", listener=_Deaf())
        try:
            assert await process.wait_exit(10.0)
            assert process.write(b"go think\n") is False
        finally:
            await process.shutdown(1.0, 1.0)

    asyncio.run(main())
