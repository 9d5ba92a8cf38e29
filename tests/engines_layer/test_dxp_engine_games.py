"""The arbiter as DXP initiator against a real follower program (tests/engines/dxp_follower.py), with
the engine listening and with the engine connecting."""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from engine_layer_support import (
    ENGINES,
    INTERNATIONAL_START,
    RELAXED,
    assert_nothing_left,
)

from arbiter.engines import (
    Clock,
    Depth,
    DxpEngine,
    DxpSettings,
    EngineConfig,
    EngineFault,
    MoveTime,
    Timeouts,
    VariantUnsupported,
)

MODES = ["engine_listens", "engine_connects"]


def dxp_config(mode: str, *options: str, timeouts: dict[str, float] | None = None) -> EngineConfig:
    flag = "--listen" if mode == "engine_listens" else "--connect"
    return EngineConfig(
        name="follower",
        protocol="dxp",
        command=[sys.executable, str(ENGINES / "dxp_follower.py"), flag, "{port}", *options],
        dxp=DxpSettings(mode=mode, initiator_name="Arbiter Test"),  # type: ignore[arg-type]
        timeouts=Timeouts(**{**RELAXED, **(timeouts or {})}),
    )


def received(record: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in record.read_text().splitlines()]


@pytest.mark.parametrize("mode", MODES)
def test_a_game_is_requested_moves_are_relayed_both_ways_and_the_game_is_ended(
    tmp_path: Path, mode: str
) -> None:
    record = tmp_path / "record.jsonl"
    config = dxp_config(mode, "--moves", "32-28,28x19x23", "--record", str(record), "--name", "Follower 1")

    async def scenario() -> DxpEngine:
        engine = DxpEngine(config, stderr_log=tmp_path / "dxp.log")
        await engine.open("international")
        first = await engine.search(INTERNATIONAL_START, [], Clock(150, moves=40))
        assert first.move == "32-28" and first.reported_time == 1.0 and first.elapsed >= 0
        assert engine.identity is not None and engine.identity.name == "Follower 1"
        second = await engine.search(INTERNATIONAL_START, ["32-28", "18x27x22x23"], Clock(150, moves=40))
        assert second.move == "28x19x23" and second.reported_time == 2.0
        await engine.end_game()
        await engine.quit()
        return engine

    engine = asyncio.run(scenario())
    request, relayed, end, stop = received(record)
    assert request == {
        "type": "R",
        "version": "01",
        "initiator": "Arbiter Test",
        "follower_colour": "W",
        "minutes": 2,  # 150 s: rounded down, never more time than the engine has
        "moves": 0,  # DXP's count is the game's length: a period's 40 moves are not announced
        "start": "B",
        "position": "W" + "z" * 20 + "e" * 10 + "w" * 20,
    }
    assert relayed["type"] == "M" and (relayed["from"], relayed["to"], relayed["captured"]) == (
        18,
        27,
        [22, 23],
    )
    assert end == {"type": "E", "reason": 0, "stop": 0}
    assert stop == {"type": "E", "reason": 0, "stop": 1}, "quit ends the session"
    assert engine.faults == []
    assert_nothing_left(engine.pid)


@pytest.mark.parametrize("mode", MODES)
def test_a_new_game_with_the_engine_second_relays_the_first_move_after_the_request(
    tmp_path: Path, mode: str
) -> None:
    record = tmp_path / "record.jsonl"

    async def scenario() -> None:
        engine = DxpEngine(
            dxp_config(mode, "--moves", "19-23", "--record", str(record)), stderr_log=tmp_path / "l"
        )
        await engine.open("international")
        await engine.search(INTERNATIONAL_START, [], Depth(1))
        await engine.new_game()
        reply = await engine.search(INTERNATIONAL_START, ["32-28"], MoveTime(1))
        assert reply.move == "19-23"
        await engine.quit()
        assert_nothing_left(engine.pid)

    asyncio.run(scenario())
    kinds = [(message["type"], message.get("follower_colour")) for message in received(record)]
    assert kinds[:4] == [("R", "W"), ("E", None), ("R", "Z"), ("M", None)]
    assert received(record)[2]["minutes"] == 10  # the configured default for levels without a clock
    assert received(record)[-1] == {"type": "E", "reason": 0, "stop": 1}  # quit with a game still open


@pytest.mark.parametrize("mode", MODES)
def test_a_first_move_sent_right_behind_the_acceptance_is_not_charged_the_delayed_ack_wait(
    tmp_path: Path, mode: str
) -> None:
    # Like Scan and Moby Dam, the follower keeps Nagle's algorithm on: its first move, written just after
    # its acceptance, leaves only once the acceptance is acknowledged. Unless the arbiter acknowledges
    # at once, a connection past its first exchanges waits for the kernel's delayed ACK (40 ms or more
    # on Linux), and that wait was charged to the engine's clock from the second game on.
    config = dxp_config(mode, "--moves", "32-28", "--nagle")

    async def scenario() -> list[float]:
        engine = DxpEngine(config, stderr_log=tmp_path / "dxp.log")
        await engine.open("international")
        first_moves = []
        for _ in range(6):
            result = await engine.search(INTERNATIONAL_START, [], Clock(150, moves=40))
            first_moves.append(result.elapsed)
            await engine.new_game()
        await engine.quit()
        assert engine.faults == []
        return first_moves

    first_moves = asyncio.run(scenario())
    # Held for a delayed ACK, every later game's first move takes the kernel's floor of 40 ms at least;
    # the fastest of them says whether it was held, which no slow moment of a busy machine can fake.
    assert min(first_moves[1:]) < 0.02, first_moves


def test_a_first_move_that_arrives_with_the_acceptance_is_charged_from_the_game_request(
    tmp_path: Path,
) -> None:
    # Read together, the acceptance and the move share one stamp: charged from the acceptance, the move
    # would cost nothing, whatever the engine thought before it wrote them (or after its acceptance, when
    # a busy arbiter reads both at once).
    config = dxp_config("engine_listens", "--moves", "32-28", "--accept-with-first-move", "0.3")

    async def scenario() -> float:
        engine = DxpEngine(config, stderr_log=tmp_path / "dxp.log")
        await engine.open("international")
        result = await engine.search(INTERNATIONAL_START, [], Clock(150, moves=40))
        await engine.quit()
        assert engine.faults == []
        return result.elapsed

    assert asyncio.run(scenario()) >= 0.3


@pytest.mark.parametrize("mode", MODES)
def test_quit_ends_the_connection_so_an_engine_that_ends_with_it_exits_by_itself(
    tmp_path: Path, mode: str
) -> None:
    # Scan ends when the connection does; killed instead, a listening Scan leaves its fixed port taken
    # (it binds without SO_REUSEADDR), and the next Scan on it cannot start.
    log = tmp_path / "follower.log"

    async def scenario() -> None:
        engine = DxpEngine(dxp_config(mode, "--moves", "32-28", "--ignore-stop"), stderr_log=log)
        await engine.open("international")
        await engine.search(INTERNATIONAL_START, [], Depth(1))
        await engine.end_game()
        await engine.quit()
        assert_nothing_left(engine.pid)

    asyncio.run(scenario())
    assert "saw the connection end" in log.read_text()


@pytest.mark.parametrize("mode", MODES)
def test_quit_between_games_tells_the_engine_to_stop_so_one_that_outlives_the_connection_exits(
    tmp_path: Path, mode: str
) -> None:
    # Moby Dam exits on a game end with stop code 1 and not when the connection ends: told only by the
    # connection's end, it would run on until killed at the quit timeout (kept long here).
    record, log = tmp_path / "record.jsonl", tmp_path / "follower.log"
    options = ("--moves", "32-28", "--stay-after-connection-end", "--record", str(record))

    async def scenario() -> None:
        engine = DxpEngine(dxp_config(mode, *options, timeouts={"quit": 60.0}), stderr_log=log)
        await engine.open("international")
        await engine.search(INTERNATIONAL_START, [], Depth(1))
        await engine.end_game()
        await engine.quit()
        assert_nothing_left(engine.pid)
        assert engine.faults == []

    asyncio.run(scenario())
    assert received(record)[-1] == {"type": "E", "reason": 0, "stop": 1}
    text = log.read_text()
    assert "was told to stop" in text and "saw the connection end" not in text


def tcp_states_on_port(port: int) -> list[str]:
    """The states (hex, as /proc/net/tcp shows them: 06 is TIME_WAIT) of this machine's IPv4 TCP
    sockets whose local port is ``port``."""
    states = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].rsplit(":", 1)[1], 16) == port:
            states.append(fields[3])
    return states


def test_an_engine_told_to_stop_closes_second_so_its_fixed_port_is_not_left_in_time_wait(
    tmp_path: Path,
) -> None:
    # The follower exits as soon as it reads the stop code. Had the end of the connection come after the
    # stop code rather than with it, the follower would often close first and its listening port would
    # be held in TIME_WAIT for a minute: Scan, binding without SO_REUSEADDR, could not start on it again.
    log = tmp_path / "follower.log"

    async def quit_once() -> int:
        config = dxp_config("engine_listens", "--moves", "32-28", "--no-reuse-address")
        engine = DxpEngine(config, stderr_log=log)
        await engine.open("international")
        await engine.search(INTERNATIONAL_START, [], Depth(1))
        await engine.end_game()
        await engine.quit()
        assert_nothing_left(engine.pid)
        return engine.port

    for _ in range(5):
        port = asyncio.run(quit_once())
        assert "06" not in tcp_states_on_port(port), f"port {port} left in TIME_WAIT"
    assert log.read_text().count("was told to stop") == 5


def test_a_match_restarts_engines_that_listen_on_fixed_ports_without_reusing_them(tmp_path: Path) -> None:
    # The check before the match starts each engine once and quits it; the games start it again on the
    # same port. Ended by a kill, the first process would leave the port taken for a minute.
    ports = []
    for _ in range(2):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            ports.append(probe.getsockname()[1])
    follower = f"cmd={sys.executable} arg={ENGINES / 'dxp_follower.py'} arg=--no-reuse-address arg=--listen"
    result = subprocess.run(
        [
            sys.executable, "-m", "arbiter.cli", "match", "-v", "international", "--tc", "depth=1",
            "--engine", f"{follower} arg={ports[0]} proto=dxp port={ports[0]} listen=engine name=a",
            "--engine", f"{follower} arg={ports[1]} proto=dxp port={ports[1]} listen=engine name=b",
            "--games", "2", "--db", "m.sqlite",
        ],  # fmt: skip
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    with sqlite3.connect(tmp_path / "m.sqlite") as db:
        terminations = [row[0] for row in db.execute("SELECT termination FROM game")]
    assert len(terminations) == 2 and "start_failure" not in terminations, (terminations, result.stdout)


def test_resignation_and_draw_claims_are_read_from_game_end_messages(tmp_path: Path) -> None:
    async def play(*options: str) -> tuple[bool, bool, str | None]:
        engine = DxpEngine(dxp_config("engine_listens", *options), stderr_log=tmp_path / "l")
        await engine.open("international")
        result = await engine.search(INTERNATIONAL_START, [], Depth(1))
        await engine.quit()
        assert engine.faults == []
        return result.resigned, result.offers_draw, result.move

    assert asyncio.run(play("--resign-at", "1")) == (True, False, None)
    assert asyncio.run(play("--draw-at", "1")) == (False, True, None)


def test_chat_is_kept_and_a_take_back_request_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "record.jsonl"

    async def scenario() -> list[str]:
        options = ("--chat", "hello from the follower", "--ask-takeback", "--record", str(record))
        engine = DxpEngine(dxp_config("engine_connects", *options), stderr_log=tmp_path / "l")
        await engine.open("international")
        result = await engine.search(INTERNATIONAL_START, [], Depth(1))
        assert result.move == "32-28"
        await engine.search(INTERNATIONAL_START, ["32-28", "19-23"], Depth(1))
        await engine.quit()
        return list(engine.chats)

    assert asyncio.run(scenario()) == ["hello from the follower"] * 2
    assert {"type": "K", "code": 2} in received(record)


@pytest.mark.parametrize(
    ("options", "timeouts", "kind"),
    [
        (("--refuse",), {}, "game_refused"),
        (("--garbage-at", "1"), {}, "garbage"),
        (("--crash-at", "1"), {}, "crashed"),
        (("--hang-at", "1"), {"stop": 0.3}, "unresponsive"),
    ],
)
def test_a_misbehaving_dxp_engine_gives_a_named_fault_and_leaves_no_process(
    tmp_path: Path, options: tuple[str, ...], timeouts: dict[str, float], kind: str
) -> None:
    async def scenario() -> DxpEngine:
        engine = DxpEngine(
            dxp_config("engine_listens", *options, timeouts=timeouts), stderr_log=tmp_path / "l"
        )
        await engine.open("international")
        with pytest.raises(EngineFault):
            await engine.search(INTERNATIONAL_START, [], Depth(1), timeout=0.3)
        await engine.quit()
        return engine

    engine = asyncio.run(scenario())
    assert engine.faults[0].kind == kind
    assert_nothing_left(engine.pid)


@pytest.mark.parametrize("mode", MODES)
def test_an_engine_that_never_connects_or_listens_is_a_handshake_timeout(tmp_path: Path, mode: str) -> None:
    async def scenario() -> DxpEngine:
        config = EngineConfig(
            name="mute",
            protocol="dxp",
            command=[sys.executable, str(ENGINES / "silent_on_hub.py"), "{port}"],
            dxp=DxpSettings(mode=mode),  # type: ignore[arg-type]
            timeouts=Timeouts(handshake=0.3),
        )
        engine = DxpEngine(config, stderr_log=tmp_path / "l")
        with pytest.raises(EngineFault) as caught:
            await engine.open("international")
        assert caught.value.kind == "handshake_timeout"
        return engine

    engine = asyncio.run(scenario())
    assert_nothing_left(engine.pid)


@pytest.mark.parametrize("mode", MODES)
def test_an_engine_that_never_answers_the_game_request_is_a_ready_timeout(tmp_path: Path, mode: str) -> None:
    async def scenario() -> DxpEngine:
        config = dxp_config(mode, "--silent-on-request", timeouts={"ready": 0.3})
        engine = DxpEngine(config, stderr_log=tmp_path / "l")
        await engine.open("international")  # connected: the game request comes with the first search
        with pytest.raises(EngineFault) as caught:
            await engine.search(INTERNATIONAL_START, [], Depth(1))
        assert caught.value.kind == "ready_timeout"
        assert "did not answer the game request within 0.3 s" in caught.value.message
        await engine.quit()
        return engine

    engine = asyncio.run(scenario())
    assert [fault.kind for fault in engine.faults] == ["ready_timeout"]
    assert_nothing_left(engine.pid)


@pytest.mark.parametrize("linger", [[], ["--linger", "0.3"]], ids=["exits", "exits-after-closing-output"])
def test_a_dxp_engine_that_exits_at_start_is_a_startup_exit(tmp_path: Path, linger: list[str]) -> None:
    # While the arbiter waits for its connection, the engine's output closing is no fault yet: its exit
    # status comes a moment later (later still when it closes its output before its teardown).
    async def scenario() -> DxpEngine:
        config = EngineConfig(
            name="gone",
            protocol="dxp",
            command=[sys.executable, str(ENGINES / "exit_at_start.py"), "{port}", *linger],
            timeouts=Timeouts(handshake=5.0),
        )
        engine = DxpEngine(config, stderr_log=tmp_path / "l")
        with pytest.raises(EngineFault) as caught:
            await engine.open("international")
        assert caught.value.kind == "startup_exit" and "exited with code 3" in caught.value.message
        return engine

    assert_nothing_left(asyncio.run(scenario()).pid)


def test_a_dxp_engine_is_refused_for_variants_its_configuration_does_not_list(tmp_path: Path) -> None:
    async def scenario() -> DxpEngine:
        engine = DxpEngine(dxp_config("engine_listens"), stderr_log=tmp_path / "l")
        with pytest.raises(VariantUnsupported, match="cannot play variant 'english'"):
            await engine.open("english")
        return engine

    assert_nothing_left(asyncio.run(scenario()).pid)
