"""DXP engines that misbehave on the wire as real programs do (tests/engines/dxp_misfit.py): each fault
names the engine and what it sent."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from engine_layer_support import ENGINES, INTERNATIONAL_START, RELAXED, assert_nothing_left

from arbiter.engines import Depth, DxpEngine, DxpSettings, EngineConfig, EngineFault, Timeouts


def misfit(fault: str, **timeouts: float) -> EngineConfig:
    return EngineConfig(
        name="misfit",
        protocol="dxp",
        command=[sys.executable, str(ENGINES / "dxp_misfit.py"), "--listen", "{port}", "--fault", fault],
        dxp=DxpSettings(mode="engine_listens"),
        timeouts=Timeouts(**{**RELAXED, **timeouts}),
    )


def first_fault(tmp_path: Path, config: EngineConfig, searches: int = 1) -> EngineFault:
    """The fault the engine's first searches from the start end in; its process must be gone after."""

    async def scenario() -> tuple[DxpEngine, EngineFault]:
        engine = DxpEngine(config, stderr_log=tmp_path / "stderr.log")
        await engine.open("international")
        moves: list[str] = []
        with pytest.raises(EngineFault) as caught:
            for _ in range(searches):
                result = await engine.search(INTERNATIONAL_START, moves, Depth(1), timeout=0.3)
                assert result.move is not None
                moves = [result.move, "16-21"]
        await engine.quit()
        return engine, caught.value

    engine, fault = asyncio.run(scenario())
    assert_nothing_left(engine.pid)
    return fault


@pytest.mark.parametrize(
    ("fault", "sent"),
    [
        ("wrong-length", "'M000131260'"),  # one character short: its capture count is cut
        ("bad-time", "'M00x1312600'"),
        ("unknown-type", "'X0001312600'"),
    ],
)
def test_an_unreadable_dxp_message_is_garbage_quoting_the_message_the_engine_sent(
    tmp_path: Path, fault: str, sent: str
) -> None:
    caught = first_fault(tmp_path, misfit(fault))
    assert caught.kind == "garbage" and caught.engine == "misfit"
    assert sent in caught.message


def test_a_move_sent_out_of_turn_is_a_protocol_error_naming_the_move(tmp_path: Path) -> None:
    caught = first_fault(tmp_path, misfit("twice"), searches=2)  # 31-26, then black's 16-21 unasked
    assert caught.kind == "protocol_error"
    assert "sent a move, 16-21, when it was not its turn" in caught.message


def test_a_move_without_its_nul_is_named_when_the_engine_is_unresponsive(tmp_path: Path) -> None:
    caught = first_fault(tmp_path, misfit("no-nul", stop=0.3))
    assert caught.kind == "unresponsive"
    assert "it sent 'M0001312600' without the NUL that ends a DXP message" in caught.message
