"""Real engines as engine testers meet them: Scan's variant names, Scan's working directory, a Hub
version 1 engine, scores in men, and the communication log of what was said."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from engine_layer_support import INTERNATIONAL_START, hub_config

from arbiter.engines import CommLog, EngineFault, HubEngine, MoveTime, ProtocolError, VariantUnsupported
from arbiter.engines.variant_names import engine_variant_name

SCAN_NAMES = ("normal", "killer", "bt", "frisian", "losing")
ANTIDRAUGHTS_START = INTERNATIONAL_START  # the same board and start


def scan_like(tmp_path: Path, **fields: object) -> HubEngine:
    """The Scan stand-in, started in a folder that holds its `scan.ini`."""
    folder = tmp_path / "scan"
    folder.mkdir(exist_ok=True)
    (folder / "scan.ini").write_text("")
    config = hub_config("scan_like_hub.py", working_dir=folder, **fields)
    return HubEngine(config, stderr_log=tmp_path / "scan.log")


@pytest.mark.parametrize(
    ("variant", "told"), [("international", "normal"), ("antidraughts", "losing"), ("frisian", "frisian")]
)
def test_scan_variant_names_are_told_to_an_engine_that_offers_only_them(
    tmp_path: Path, variant: str, told: str
) -> None:
    async def scenario() -> str:
        engine = scan_like(tmp_path)
        await engine.open(variant)
        try:
            result = await engine.search(ANTIDRAUGHTS_START, [], MoveTime(0.1))
        finally:
            await engine.quit()
        info = result.last_info
        assert info is not None
        return info.extra["variant"]

    assert asyncio.run(scenario()) == told


def test_a_configured_variant_name_wins_over_the_standard_one(tmp_path: Path) -> None:
    async def scenario() -> list[str]:
        engine = scan_like(tmp_path, variant_names={"international": "killer"})
        await engine.open("international")
        await engine.quit()
        return [line for line in engine.comm_log.recent if "set-param name=variant" in line]

    (line,) = asyncio.run(scenario())
    assert line.endswith("> set-param name=variant value=killer")


def test_a_variant_the_engine_does_not_offer_is_still_refused_naming_the_command_line_option(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        engine = scan_like(tmp_path)
        try:
            await engine.open("english")
        finally:
            await engine.quit()

    with pytest.raises(VariantUnsupported, match="--variant-name english=NAME"):
        asyncio.run(scenario())


def test_standard_names_are_looked_up_in_what_the_engine_offers() -> None:
    assert engine_variant_name("international", SCAN_NAMES) == "normal"
    assert engine_variant_name("international", ("international", "normal")) == "international"
    assert engine_variant_name("frisian", ("frysk",)) == "frysk"
    assert engine_variant_name("english", ("checkers",)) == "checkers"
    # An option that changes the moves is never told by the base variant's names.
    assert engine_variant_name("turkish+crown-continues", ("turkish",)) == "turkish+crown-continues"
    assert engine_variant_name("international", SCAN_NAMES, {"international": "bt"}) == "bt"
    assert engine_variant_name("russian", SCAN_NAMES) == "russian"  # not offered: refused by the caller


def test_scan_without_its_working_directory_fails_at_init_and_says_why(tmp_path: Path) -> None:
    config = hub_config("scan_like_hub.py")

    async def scenario() -> None:
        engine = HubEngine(config, stderr_log=tmp_path / "scan.log")
        await engine.open("international")

    with pytest.raises(EngineFault, match="cannot open scan.ini"):
        asyncio.run(scenario())


def test_scores_in_men_are_kept_in_centi_men_and_a_declared_unit_is_used(tmp_path: Path) -> None:
    async def score(**fields: object) -> float | None:
        engine = scan_like(tmp_path, **fields)
        await engine.open("international")
        try:
            result = await engine.search(INTERNATIONAL_START, [], MoveTime(0.1))
        finally:
            await engine.quit()
        assert result.last_info is not None
        return result.last_info.score

    assert asyncio.run(score()) == 150  # score=1.5 men, Hub's unit
    assert asyncio.run(score(score_unit="centi-men")) == 1.5
    assert asyncio.run(score(score_unit="milli-men")) == 0.15


def test_a_hub_version_1_engine_is_recognised_at_the_handshake_and_refused_saying_so(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = HubEngine(hub_config("hub1_engine.py"), stderr_log=tmp_path / "hub1.log")
        try:
            await engine.open("international")
        finally:
            await engine.quit()

    with pytest.raises(ProtocolError, match=r"speaks Hub version 1 \(Scan 2\.0's protocol"):
        asyncio.run(scenario())


def test_the_communication_log_has_every_line_both_ways_with_time_and_game(tmp_path: Path) -> None:
    path = tmp_path / "logs" / "scan.debug.log"

    async def scenario() -> None:
        engine = scan_like(tmp_path)
        engine.comm_log = CommLog(engine.name, path)
        engine.comm_log.context = "game r1-b1-g1"
        await engine.open("international")
        await engine.search(INTERNATIONAL_START, [], MoveTime(0.1))
        await engine.quit()

    asyncio.run(scenario())
    lines = path.read_text().splitlines()
    sent = [line.split(" > ", 1)[1] for line in lines if " > " in line]
    read = [line.split(" < ", 1)[1] for line in lines if " < " in line]
    assert sent[:3] == ["hub", "set-param name=variant value=normal", "init"]
    assert "go think" in sent and sent[-1] == "quit"
    assert read[0].startswith("id name=scanlike") and "wait" in read and read[-1].startswith("done move=")
    assert all(line[:4].isdigit() and " game r1-b1-g1 scan_like_hub " in line for line in lines)
