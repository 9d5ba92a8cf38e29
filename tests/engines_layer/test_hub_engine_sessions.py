"""A well-behaved Hub engine, run as a real child process: every message of the protocol both ways."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from engine_layer_support import (
    ENGINES,
    ENGLISH_START,
    INTERNATIONAL_START,
    RELAXED,
    assert_nothing_left,
    hub_config,
)

from arbiter.engines import (
    Clock,
    Depth,
    EngineConfig,
    EngineConfigError,
    HubEngine,
    Infinite,
    Level,
    MoveTime,
    Nodes,
    SearchTimeout,
    Timeouts,
    VariantUnsupported,
    probe_engine,
)
from arbiter.notation.movetext import parse_hub
from arbiter.rules import Position, get_variant


async def opened(config: EngineConfig, tmp_path: Path, variant: str | None = "english") -> HubEngine:
    engine = HubEngine(config, stderr_log=tmp_path / f"{config.name}.log")
    await engine.open(variant)
    return engine


def test_handshake_reads_the_identity_and_every_declared_parameter(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = await opened(hub_config("instant_hub.py"), tmp_path)
        assert engine.identity is not None
        assert (engine.identity.name, engine.identity.version) == ("instant", "1.0")
        assert (engine.identity.author, engine.identity.country) == ("Arbiter tests", "NL")
        assert engine.identity.extra["pid"] == str(engine.pid)
        params = engine.identity.params
        assert list(params) == ["variant", "hash", "ponder", "contempt", "book", "behaviour"]
        assert params["hash"].type == "int" and (params["hash"].min, params["hash"].max) == (1, 1024)
        assert params["variant"].values == ("english", "international", "russian")
        assert params["book"].default == ""
        await engine.quit()
        assert engine.faults == []
        assert_nothing_left(engine.pid)

    asyncio.run(scenario())


def test_a_search_sends_position_moves_level_and_returns_move_infos_and_time(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = await opened(hub_config("instant_hub.py", params={"hash": 64}), tmp_path, "international")
        result = await engine.search(INTERNATIONAL_START, ["32-28", "19-23"], MoveTime(0.5))
        assert result.move == "28x19x23"  # the test engine's third move
        assert result.ponder == "9-14" and not result.resigned and not result.offers_draw
        assert result.elapsed > 0
        (info,) = result.infos
        # The engine's score=0.25 is in men (Hub's unit), kept in centi-men.
        assert (info.depth, info.score, info.nodes, info.time, info.nps) == (3, 25, 1234, 0.001, 1234000.0)
        assert info.pv == ("28x19x23", "9-14")
        seen = info.extra  # what the engine read, echoed back
        assert seen["seen-moves"] == "2" and seen["seen-last"] == "19-23"
        assert seen["seen-level"] == "move-time=0.5" and seen["seen-mode"] == "think"
        assert seen["variant"] == "international" and seen["hash"] == "64"
        await engine.quit()

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("level", "seen"),
    [
        (Depth(7), "depth=7"),
        (Nodes(5000), "nodes=5000"),
        (MoveTime(1.5), "move-time=1.5"),
        (Clock(90, moves=40, inc=1.5), "moves=40 time=90 inc=1.5"),
        (Clock(2.25), "time=2.25"),
    ],
)
def test_every_form_of_level_reaches_the_engine(tmp_path: Path, level: Level, seen: str) -> None:
    async def scenario() -> None:
        engine = await opened(hub_config("instant_hub.py"), tmp_path)
        result = await engine.search(ENGLISH_START, [], level)
        assert result.infos[0].extra["seen-level"] == seen
        await engine.quit()

    asyncio.run(scenario())


def test_a_draw_offer_is_passed_on_and_an_engine_s_offer_is_read(tmp_path: Path) -> None:
    async def scenario() -> None:
        accepting = await opened(hub_config("instant_hub.py", params={"behaviour": "accept-draw"}), tmp_path)
        plain = await accepting.search(ENGLISH_START, [], MoveTime(0.1))
        assert plain.move == "11-15" and not plain.offers_draw
        offered = await accepting.search(ENGLISH_START, ["11-15"], MoveTime(0.1), draw_offered=True)
        assert offered.infos[0].extra["seen-draw-offered"] == "yes"
        assert offered.move == "23-19" and offered.offers_draw
        await accepting.quit()

        offering = await opened(hub_config("instant_hub.py", params={"behaviour": "offer-draw"}), tmp_path)
        result = await offering.search(ENGLISH_START, [], MoveTime(0.1))
        assert result.move == "11-15" and result.offers_draw
        assert result.infos[0].extra["seen-draw-offered"] == "no"
        await offering.quit()

    asyncio.run(scenario())


def test_done_resign_is_a_resignation_without_a_move(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = await opened(hub_config("instant_hub.py", params={"behaviour": "resign"}), tmp_path)
        result = await engine.search(ENGLISH_START, [], MoveTime(0.1))
        assert result.resigned and result.move is None
        await engine.quit()

    asyncio.run(scenario())


def test_time_is_called_with_stop_and_the_engine_then_moves(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = await opened(hub_config("instant_hub.py"), tmp_path)
        handle = await engine.begin_search(ENGLISH_START, [], Infinite())
        assert await handle.wait(0.05) is None  # the jump limit passes: still thinking
        await handle.stop()  # "Time"
        result = await handle.wait(5.0)
        assert result is not None and result.move == "11-15" and result.stopped
        assert result.infos[0].extra["seen-level"] == "infinite"
        assert (await engine.search(ENGLISH_START, ["11-15"], Depth(1))).move == "23-19"
        await engine.quit()

    asyncio.run(scenario())


def test_ping_is_answered_during_a_search(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = await opened(hub_config("instant_hub.py"), tmp_path)
        handle = await engine.begin_search(ENGLISH_START, [], Infinite(), mode="analyze")
        assert await engine.ping() >= 0
        assert not handle.finished
        result = await handle.finish()
        assert result.move == "11-15" and result.infos[0].extra["seen-mode"] == "analyze"
        await engine.quit()

    asyncio.run(scenario())


def test_a_search_past_its_deadline_is_stopped_and_the_engine_plays_on(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = await opened(hub_config("instant_hub.py"), tmp_path)
        with pytest.raises(SearchTimeout) as caught:
            await engine.search(ENGLISH_START, [], Infinite(), timeout=0.05)
        assert caught.value.kind == "search_timeout"
        assert [fault.kind for fault in engine.faults] == ["search_timeout"]
        assert (await engine.search(ENGLISH_START, [], Depth(1))).move == "11-15"
        await engine.quit()

    asyncio.run(scenario())


def test_a_search_left_running_is_ended_before_the_next_command(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = await opened(hub_config("instant_hub.py"), tmp_path)
        abandoned = await engine.begin_search(ENGLISH_START, [], Infinite())
        await engine.new_game()
        assert abandoned.finished
        result = await engine.search(ENGLISH_START, [], Depth(1))
        assert result.infos[0].extra["games"] == "1"
        await engine.quit()

    asyncio.run(scenario())


def test_an_error_message_from_the_engine_is_recorded_and_play_goes_on(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = await opened(hub_config("instant_hub.py", params={"behaviour": "complain"}), tmp_path)
        result = await engine.search(ENGLISH_START, [], MoveTime(0.1))
        assert result.move == "11-15"
        assert [(fault.kind, fault.fatal) for fault in engine.faults] == [("engine_error", False)]
        assert "this position looks odd to me" in engine.faults[0].message
        await engine.quit()

    asyncio.run(scenario())


def test_a_parameter_value_that_does_not_fit_is_a_configuration_error_and_nothing_runs(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        engine = HubEngine(hub_config("instant_hub.py", params={"hash": 4096}), stderr_log=tmp_path / "e.log")
        with pytest.raises(EngineConfigError, match=r"'hash' \(int 1..1024\): 4096 is outside"):
            await engine.open("english")
        assert_nothing_left(engine.pid)

    asyncio.run(scenario())


def test_an_engine_that_cannot_play_the_variant_is_refused_before_play(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = HubEngine(hub_config("instant_hub.py"), stderr_log=tmp_path / "e.log")
        with pytest.raises(
            VariantUnsupported, match="cannot play variant 'frisian'.*english, international, russian"
        ):
            await engine.open("frisian")
        assert_nothing_left(engine.pid)

    asyncio.run(scenario())


def test_the_engine_runs_in_its_own_directory_environment_and_session(tmp_path: Path) -> None:
    async def scenario() -> None:
        workdir = tmp_path / "engine-home"
        workdir.mkdir()
        config = hub_config("instant_hub.py", working_dir=workdir, env={"ARBITER_TEST_PROBE": "hello there"})
        engine = await opened(config, tmp_path)
        assert engine.identity is not None and engine.identity.extra["cwd"] == str(workdir)
        assert os.getpgid(engine.pid) == engine.pid and os.getsid(engine.pid) == engine.pid
        result = await engine.search(ENGLISH_START, [], Depth(1))
        assert result.infos[0].extra["env-probe"] == "hello there"
        await engine.quit()

    asyncio.run(scenario())


def test_memory_limit_and_cpu_affinity_apply_to_the_engine(tmp_path: Path) -> None:
    async def scenario() -> None:
        cpu = min(os.sched_getaffinity(0))
        engine = await opened(
            hub_config("instant_hub.py", memory_limit_mb=2048, cpu_affinity=[cpu]), tmp_path
        )
        assert engine.identity is not None
        assert engine.identity.extra["rlimit-as"] == str(2048 * 1024 * 1024)
        assert engine.identity.extra["affinity"] == str(cpu)
        await engine.quit()

    asyncio.run(scenario())


def test_a_slow_starting_engine_still_works_within_the_handshake_timeout(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = await opened(hub_config("slow_start.py", "0.4", timeouts={"handshake": 5.0}), tmp_path)
        assert (await engine.search(ENGLISH_START, [], Depth(1))).move == "11-15"
        await engine.quit()
        assert engine.faults == []
        assert_nothing_left(engine.pid)

    asyncio.run(scenario())


def test_stderr_goes_to_the_engine_s_log_and_never_into_the_protocol(tmp_path: Path) -> None:
    async def scenario() -> None:
        log = tmp_path / "chatty.log"
        engine = HubEngine(hub_config("stderr_flood.py", stderr_limit_bytes=50_000_000), stderr_log=log)
        await engine.open("english")
        assert (await engine.search(ENGLISH_START, [], Depth(1))).move == "11-15"
        await engine.quit()
        assert engine.faults == []
        text = log.read_text()
        assert text.count("debug: evaluating a very interesting position") > 60_000
        assert "info depth" not in text and "done move" not in text

    asyncio.run(scenario())


def test_lines_ended_windows_style_are_read_the_same(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = await opened(hub_config("instant_hub.py", env={"ARBITER_TEST_CRLF": "1"}), tmp_path)
        assert engine.identity is not None and engine.identity.country == "NL"
        result = await engine.search(ENGLISH_START, [], Depth(1))
        assert result.move == "11-15" and result.ponder == "9-14"
        await engine.quit()
        assert engine.faults == []

    asyncio.run(scenario())


def test_a_relative_program_path_is_found_in_the_engine_s_working_directory(tmp_path: Path) -> None:
    async def scenario() -> None:
        workdir = tmp_path / "engines"
        workdir.mkdir()
        (workdir / "python-here").symlink_to(sys.executable)
        script = str(ENGINES / "instant_hub.py")
        config = EngineConfig(name="relative", command=["./python-here", script], working_dir=workdir)
        engine = await opened(config, tmp_path)
        assert engine.identity is not None and engine.identity.name == "instant"
        await engine.quit()

    asyncio.run(scenario())


def test_probing_checks_every_variant_of_a_tournament_and_leaves_nothing_running(tmp_path: Path) -> None:
    config = hub_config("instant_hub.py", params={"hash": 128})
    identity = asyncio.run(probe_engine(config, ["english", "russian"], stderr_log=tmp_path / "probe.log"))
    assert identity.name == "instant"
    assert_nothing_left(int(identity.extra["pid"]))
    with pytest.raises(VariantUnsupported, match="'italian'"):
        asyncio.run(probe_engine(config, ["english", "italian"], stderr_log=tmp_path / "probe.log"))
    with pytest.raises(EngineConfigError, match="'hash'"):
        asyncio.run(probe_engine(hub_config("instant_hub.py", params={"hash": 0}), ["english"]))


def test_a_pong_that_comes_after_its_ping_gave_up_is_not_the_answer_to_the_next_ping(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        # slow_pong.py answers each ping one second late, one after the other.
        engine = await opened(hub_config("slow_pong.py", "1.0"), tmp_path)
        assert await engine._round_trip(0.5) is None  # the first ping gives up; its pong comes later
        answered = await engine._round_trip(10.0)
        # Its own pong is written one second after the late one; the late one would have taken 0.5 s.
        assert answered is not None and answered >= 1.0
        await engine.quit()
        assert engine.faults == []

    asyncio.run(scenario())


@pytest.mark.parametrize("player", ["random", "greedy", "alphabeta"])
def test_ponder_hit_turns_a_bundled_engine_s_ponder_search_into_its_move(tmp_path: Path, player: str) -> None:
    async def scenario() -> None:
        config = EngineConfig(
            name=player,
            command=[sys.executable, "-m", f"arbiter.players.{player}"],
            timeouts=Timeouts(**RELAXED),
        )
        engine = await opened(config, tmp_path)
        # Pondering on the opponent's expected reply 23-19 to 11-15: the clock is not yet running.
        handle = await engine.begin_search(ENGLISH_START, ["11-15", "23-19"], MoveTime(0.1), mode="ponder")
        assert await handle.wait(0.8) is None
        await engine.ponder_hit()
        result = await handle.wait(10.0)
        assert result is not None and result.move is not None and not result.stopped
        english = get_variant("english")
        position = Position.start(english)
        for played in ("11-15", "23-19"):
            position = position.play(parse_hub(position, played))
        assert parse_hub(position, result.move) in position.legal_moves()
        await engine.ponder_hit()  # nothing to hit any more: nothing is sent
        assert (await engine.search(ENGLISH_START, [], Depth(1))).move is not None
        await engine.quit()
        assert engine.faults == []

    asyncio.run(scenario())
