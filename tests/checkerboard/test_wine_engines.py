"""Windows CheckerBoard DLLs on Linux through Wine: the test engine built as a DLL plays through `play`
and `match`, its misbehaving builds give the faults they give as Linux libraries, and no Wine process
outlives its engine.

The Wine prefix the engines' prefixes are copied from is made once per test session, in a directory of
the session's own; making it takes many seconds (the time is printed)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from checkerboard_builds import ENGLISH_START, SOURCE, cb_config, search_once
from wine_builds import build_dll, live_wine_processes, skip_without_wine, zombie_children

from arbiter.engines import EngineConfigError, MoveTime, create_engine
from arbiter.engines.checkerboard.wine_prefix import server_directories
from arbiter.engines.checkerboard.wine_setup import (
    WINE32_HINT,
    WineUnavailable,
    build_host,
    dll_bits,
    prepare,
)
from arbiter.referee.record import GameRecord, Termination
from arbiter.referee.session import play_game_from_configs
from arbiter.referee.setup import GameSetup
from arbiter.referee.timecontrol import parse_time_control
from arbiter.rules import Position, get_variant
from arbiter.store import TournamentStore
from arbiter.store.events import EventKind

ARBITER = [sys.executable, "-m", "arbiter.cli"]
# What a game between well-behaved engines may end with.
PLAYED_OUT = {
    Termination.NO_PIECES,
    Termination.NO_LEGAL_MOVES,
    Termination.REPETITION,
    Termination.MOVE_COUNT_RULE,
    Termination.MAX_LENGTH,
}
Dll = Callable[..., Path]


@pytest.fixture(scope="session")
def wine_dir(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Path]:
    """The session's Wine cache (host programs, template prefix, engines' prefixes), made ready once."""
    skip_without_wine()
    directory = tmp_path_factory.mktemp("wine-cache")
    builds = tmp_path_factory.mktemp("wine-builds")
    saved = os.environ.get("ARBITER_WINE_DIR")
    os.environ["ARBITER_WINE_DIR"] = str(directory)  # engines started by the tests inherit it
    started = time.monotonic()
    try:
        prepare(build_dll(builds, "english"), os.environ)
    except WineUnavailable as error:
        pytest.fail(f"Wine is installed but not usable: {error}")
    # Shown however pytest captures output: the first Wine test of a session pays for this.
    spent = time.monotonic() - started
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if capture is not None and reporter is not None:
        with capture.global_and_fixture_disabled():
            reporter.write_line(
                f"\nWine: host built and test prefix created in {spent:.1f} s (once per session)"
            )
    yield directory
    if saved is None:
        os.environ.pop("ARBITER_WINE_DIR", None)
    else:
        os.environ["ARBITER_WINE_DIR"] = saved


@pytest.fixture(scope="session")
def dll(wine_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Dll:
    directory = tmp_path_factory.mktemp("dlls")
    return lambda name, bits=64: build_dll(directory, name, bits)


def arbiter(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ARBITER, *args], capture_output=True, text=True, timeout=timeout)


def prefixes(wine_dir: Path) -> list[Path]:
    instances = wine_dir / "instances"
    return list(instances.iterdir()) if instances.exists() else []


def assert_no_wine_left(wine_dir: Path) -> None:
    assert live_wine_processes(wine_dir) == []
    assert prefixes(wine_dir) == [], "every engine's prefix is removed"


def test_a_windows_dll_plays_a_game_through_play_under_wine(dll: Dll, wine_dir: Path, tmp_path: Path) -> None:
    pdn = tmp_path / "game.pdn"
    engine = f"cb:{dll('english')}"
    options = ["--variant", "english", "--tc", "st=0.05 margin=2", "--max-plies", "30", "--pdn", str(pdn)]
    result = arbiter("play", *options, engine, engine)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Test engine (English)" in result.stdout
    assert "Result: " in result.stdout
    assert "fault" not in result.stdout.lower(), result.stdout
    assert pdn.read_text().count(".") >= 10, "moves were played and written"
    assert_no_wine_left(wine_dir)


def test_a_match_of_windows_dlls_two_games_at_a_time_ends_every_wine_process(
    dll: Dll, wine_dir: Path, tmp_path: Path
) -> None:
    database = tmp_path / "match.sqlite"
    result = arbiter(
        "match", f"cb:{dll('english')}", "random", "--tc", "st=0.05 margin=2", "--games", "2",
        "--rounds", "2", "--concurrency", "2", "--max-plies", "40", "--db", str(database),
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    with TournamentStore.open(database, create=False) as store:
        tournament = store.find_tournament().id
        counts = store.termination_counts(tournament)
        faults = [stored.event for stored in store.events(tournament) if stored.event.kind is EventKind.FAULT]
    assert sum(counts.values()) == 4 and set(counts) <= PLAYED_OUT, counts
    assert faults == [], "no engine fault, none on the way out (quit in time, no stray Wine process)"
    assert "forfeit" not in result.stdout.lower() and "crashed" not in result.stdout, result.stdout
    # Checked through the operating system, once the event is over: no host, no wineserver, no service.
    assert_no_wine_left(wine_dir)


def test_the_russian_build_as_a_dll_plays_through_the_referee(
    dll: Dll, wine_dir: Path, tmp_path: Path
) -> None:
    """The Russian build fills struct CBmove (flying kings, men crowned mid-capture): relayed intact."""
    result = arbiter(
        "play",
        "--variant",
        "russian",
        "--tc",
        "st=0.05 margin=2",
        "--no-board",
        "random",
        f"cb:{dll('russian')}",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Test engine (Russian)" in result.stdout
    assert "illegal" not in result.stdout and "crashed" not in result.stdout, result.stdout
    assert_no_wine_left(wine_dir)


@pytest.mark.parametrize(
    ("build", "timeout", "timeouts", "kind"),
    [
        ("crash", 5.0, {}, "crashed"),
        ("hang", 0.3, {"stop": 0.5}, "stop_ignored"),
        ("ignore_playnow", 0.1, {}, "search_timeout"),  # it thinks 3 x (0.1 s - reserve) = 0.15 s
    ],
)
def test_each_misbehaving_dll_gives_the_fault_it_gives_on_linux_and_leaves_no_wine_process(
    dll: Dll,
    wine_dir: Path,
    tmp_path: Path,
    build: str,
    timeout: float,
    timeouts: dict[str, float],
    kind: str,
) -> None:
    before = zombie_children()
    engine = asyncio.run(search_once(dll(build), tmp_path / "e.log", timeout, timeouts))
    assert [fault.kind for fault in engine.faults] == [kind], engine.faults
    assert live_wine_processes(wine_dir) == []
    assert zombie_children() - before == set(), "Wine's processes are reaped however the engine ended"


def test_a_prefix_left_by_a_killed_engine_is_removed_when_the_next_wine_engine_starts(
    dll: Dll, wine_dir: Path, tmp_path: Path
) -> None:
    left = wine_dir / "instances" / "999999999-deadbeef"  # no such process id: a killed engine's prefix
    left.mkdir(parents=True)
    (left / "system.reg").write_text("")
    asyncio.run(search_once(dll("english"), tmp_path / "e.log", 10.0, {}))
    assert not left.exists()
    assert_no_wine_left(wine_dir)


def test_an_access_violation_in_getmove_is_a_crash_by_sigsegv_naming_the_exception(
    dll: Dll, wine_dir: Path, tmp_path: Path
) -> None:
    engine = asyncio.run(search_once(dll("crash"), tmp_path / "e.log", 5.0, {}))
    assert "SIGSEGV" in engine.faults[0].message
    assert "0xC0000005 (access violation)" in (tmp_path / "e.log").read_text()


def english_game(white: Path, black: Path, log_dir: Path) -> GameRecord:
    setup = GameSetup("english", parse_time_control("st=0.05"))
    white_config, black_config = cb_config(white, name="white"), cb_config(black, name="black")
    return asyncio.run(play_game_from_configs(setup, white_config, black_config, log_dir=log_dir))


def test_an_illegal_board_from_a_dll_loses_the_game_showing_the_engine_s_board(
    dll: Dll, tmp_path: Path
) -> None:
    record = english_game(dll("english"), dll("illegal"), tmp_path)
    outcome = record.outcome
    assert outcome.termination is Termination.ILLEGAL_MOVE
    assert "the engine's board after its move: W:W21,22,23,24,25,26,27,28,29,30,31,32:B" in outcome.reason


def test_what_a_dll_prints_goes_to_its_log_never_into_the_protocol(dll: Dll, tmp_path: Path) -> None:
    record = english_game(dll("printf"), dll("english"), tmp_path)
    outcome = record.outcome
    assert outcome.termination not in (Termination.UNPARSABLE_OUTPUT, Termination.CRASH), outcome.reason
    assert not record.warnings
    log = (tmp_path / "white-white.log").read_text()
    assert "this text must never reach the arbiter's protocol" in log
    assert "enginecommand name" in log


def test_playnow_reaches_a_dll_while_getmove_runs(dll: Dll, tmp_path: Path) -> None:
    """With `set think 1` the engine thinks until *playnow is set: a stop ends a 30 s search at once."""

    async def scenario() -> None:
        config = cb_config(dll("english"), params={"think": 1})
        engine = create_engine(config, stderr_log=tmp_path / "e.log")
        try:
            await engine.open("english")
            handle = await engine.begin_search(ENGLISH_START, [], MoveTime(30.0))
            await asyncio.sleep(0.5)
            await handle.finish()  # `stop`, then the move: StopIgnored if playnow never arrived
        finally:
            await engine.quit()
        assert engine.faults == []

    asyncio.run(scenario())
    assert "playnow seen" in (tmp_path / "e.log").read_text()


def test_a_32_bit_dll_plays_or_the_missing_wine32_is_named(dll: Dll, tmp_path: Path) -> None:
    library = dll("english", 32)
    try:
        prepare(library, os.environ)
    except WineUnavailable as error:  # Debian's wine64 alone (this project's machines and CI)
        assert str(error) == WINE32_HINT
        engine = create_engine(cb_config(library), stderr_log=tmp_path / "e.log")
        with pytest.raises(EngineConfigError, match="wine32:i386"):
            asyncio.run(engine.open("english"))
        return
    engine = asyncio.run(search_once(library, tmp_path / "e.log", 10.0, {}))
    assert engine.faults == [] and "getmove color=" in (tmp_path / "e.log").read_text()


def test_a_dll_without_the_api_or_missing_a_dll_it_needs_is_refused_at_start_saying_why(
    wine_dir: Path, tmp_path: Path
) -> None:
    compiler = "x86_64-w64-mingw32-gcc"
    (tmp_path / "helper.c").write_text("__declspec(dllexport) int helper(void) { return 1; }\n")
    (tmp_path / "engine.c").write_text(
        "int helper(void);\n"
        "__declspec(dllexport) int enginecommand(char *c, char *r) { return helper(); }\n"
        "__declspec(dllexport) int getmove(void) { return helper(); }\n"
    )
    helper, engine = tmp_path / "helper.dll", tmp_path / "engine.dll"
    link = f"-Wl,--out-implib,{tmp_path / 'libhelper.a'}"
    subprocess.run([compiler, "-shared", "-o", str(helper), str(tmp_path / "helper.c"), link], check=True)
    subprocess.run(
        [compiler, "-shared", "-o", str(engine), str(tmp_path / "engine.c"), f"-L{tmp_path}", "-lhelper"],
        check=True,
    )

    no_api = asyncio.run(search_once(helper, tmp_path / "a.log", 5.0, {}))
    assert no_api.faults[0].kind == "startup_exit"
    assert "helper.dll is not a CheckerBoard engine: it exports no getmove" in no_api.faults[0].message

    helper.unlink()
    no_helper = asyncio.run(search_once(engine, tmp_path / "b.log", 5.0, {}))
    assert no_helper.faults[0].kind == "startup_exit"
    assert "Windows error 126 (a DLL it needs is missing" in no_helper.faults[0].message
    assert_no_wine_left(wine_dir)


def test_the_wine_benchmark_runs_with_the_least_work_and_prints_its_figures(wine_dir: Path) -> None:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "wine_relay.py"
    done = subprocess.run(
        [sys.executable, str(script), "--starts", "1", "--count", "5"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "`getmove` through the Wine host" in done.stdout
    assert_no_wine_left(wine_dir)


def test_the_32_bit_host_builds_from_the_same_source(tmp_path: Path) -> None:
    if shutil.which("i686-w64-mingw32-gcc") is None:
        pytest.skip("no i686-w64-mingw32-gcc (Debian package mingw-w64)")
    host = build_host(32, tmp_path, os.environ)
    assert host.name == "wine_host32.exe" and dll_bits(host) == 32
    assert build_host(32, tmp_path, os.environ) == host, "built once, then found in the cache"


def test_engine_check_reports_a_windows_dll_like_any_engine(dll: Dll, wine_dir: Path) -> None:
    result = arbiter("engine", "check", f"cb:{dll('english')}")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Test engine (English)" in result.stdout and "faults: none" in result.stdout
    assert_no_wine_left(wine_dir)


def test_the_documented_prepare_command_finds_the_built_host_and_prefix(wine_dir: Path) -> None:
    command = [sys.executable, "-m", "arbiter.engines.checkerboard.wine_setup", "--bits", "64"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"host (64-bit): {wine_dir}/hosts/" in done.stdout
    assert f"template prefix: {wine_dir}/prefixes/template-" in done.stdout


def test_wine_is_started_and_the_dll_loaded_during_start_up_before_any_search(
    dll: Dll, wine_dir: Path, tmp_path: Path
) -> None:
    """So Wine's start is never on the engine's clock: once the handshake is over the host is running,
    and the DLL has made its warm-up getmove (its own set-up) by the time `ready` is answered.
    At the end nothing of its wineserver is left, not even the lock Wine keeps under /tmp."""
    log = tmp_path / "e.log"

    async def scenario() -> tuple[list[str], list[Path]]:
        engine = create_engine(cb_config(dll("english")), stderr_log=log)
        try:
            await engine.open("english")
            hosts = [line for line in live_wine_processes(wine_dir) if "wine_host64" in line]
            [prefix] = re.findall(r"in prefix (\S+)", log.read_text())
            return hosts, server_directories(Path(prefix))
        finally:
            await engine.quit()

    hosts, servers = asyncio.run(scenario())
    assert len(hosts) == 1, hosts
    logged = log.read_text()
    assert logged.count("getmove color=") == 1 and "off the clock" in logged, "only the warm-up's getmove"
    assert servers and not any(server.exists() for server in servers)
    assert_no_wine_left(wine_dir)


def test_a_dll_s_getmove_has_the_stack_checkerboard_gives_its_engines(
    dll: Dll, wine_dir: Path, tmp_path: Path
) -> None:
    # CheckerBoard reserves 8 MB of stack; a Windows program's main thread has 2 MB unless linked for more.
    log = tmp_path / "e.log"
    engine = asyncio.run(search_once(dll("deep_stack"), log))
    assert engine.faults == [], log.read_text()
    assert "deep frame" in log.read_text()
    assert_no_wine_left(wine_dir)


def test_settings_a_dll_keeps_in_the_registry_stay_in_its_own_prefix_and_never_reach_the_next_engine(
    dll: Dll, wine_dir: Path, tmp_path: Path
) -> None:
    """Engines written for CheckerBoard keep their settings in the registry. Wine rewrites a hard-linked
    registry file where it is, so a prefix must not share its registry with the template: one event's
    `hashsize` would become every later engine's, and engines ending together would write one file."""
    [template] = (wine_dir / "prefixes").glob("template-*")
    hives = {path.name: path.read_bytes() for path in template.glob("*.reg")}

    async def hashsize_offered(params: dict[str, int], log: Path) -> str:
        engine = create_engine(cb_config(dll("registry"), params=params), stderr_log=log)
        try:
            await engine.open("english")
        finally:
            await engine.quit()
        assert engine.identity is not None
        return engine.identity.params["hashsize"].default

    assert asyncio.run(hashsize_offered({"hashsize": 77}, tmp_path / "first.log")) == "16"
    assert asyncio.run(hashsize_offered({}, tmp_path / "second.log")) == "16", "the first engine's setting"
    assert {path.name: path.read_bytes() for path in template.glob("*.reg")} == hives
    assert_no_wine_left(wine_dir)


def test_wine_s_own_processes_are_reaped_with_the_engine_not_left_as_zombies_of_the_arbiter(
    dll: Dll, wine_dir: Path, tmp_path: Path
) -> None:
    """Wine's wineserver, services and launchers lose their parents at once. Handed to the arbiter (a
    subreaper), they would be zombies there after the engine ends, until the arbiter exits: some ten
    for every Wine engine started. The engine's own process adopts and reaps them instead."""
    before = zombie_children()

    engine = asyncio.run(search_once(dll("english"), tmp_path / "e.log"))
    assert engine.faults == []
    assert zombie_children() - before == set()
    assert_no_wine_left(wine_dir)


def test_functions_exported_under_32_bit_stdcall_names_are_found(wine_dir: Path, tmp_path: Path) -> None:
    """32-bit DLLs export `_getmove@36` (MSVC) or `getmove@36` (MinGW): the test engine's functions
    exported under such names only, in a 64-bit DLL so that this machine's Wine can run it."""
    wrapper = tmp_path / "decorated.c"
    wrapper.write_text(
        f'#define getmove cb_getmove\n#define enginecommand cb_enginecommand\n#include "{SOURCE}"\n'
    )
    exports = tmp_path / "decorated.def"
    exports.write_text("EXPORTS\n_getmove@36=cb_getmove\n_enginecommand@8=cb_enginecommand\n")
    library = tmp_path / "decorated.dll"
    command = ["x86_64-w64-mingw32-gcc", "-shared", "-static", "-O1", "-o", str(library), str(wrapper)]
    subprocess.run([*command, str(exports), "-lpthread"], check=True)
    engine = asyncio.run(search_once(library, tmp_path / "e.log", 5.0, {}))
    assert engine.faults == []
    log = (tmp_path / "e.log").read_text()
    assert "wine host (64 _getmove@36 _enginecommand@8)" in log and "getmove color=2" in log


def test_a_long_game_history_reaches_a_dll_whole(dll: Dll, tmp_path: Path) -> None:
    start = Position.from_fen(get_variant("english"), "B:WK29,32:BK3,12")
    shuffle = ["3-7", "29-25", "7-3", "25-29"] * 15  # 60 king moves: far beyond the API's 256 bytes
    log = tmp_path / "e.log"

    async def scenario() -> None:
        engine = create_engine(cb_config(dll("english")), stderr_log=log)
        try:
            await engine.open("english")
            await engine.search(start.hub(), shuffle, MoveTime(0.2))
        finally:
            await engine.quit()

    asyncio.run(scenario())
    *_warm_up, history = re.findall(r"gamehist (.*)", log.read_text())
    assert history.strip() == "B:WK29,32:BK3,12 " + " ".join(shuffle)


def test_a_tournament_file_names_a_dll_as_it_names_a_linux_library(
    dll: Dll, wine_dir: Path, tmp_path: Path
) -> None:
    (tmp_path / "event.toml").write_text(
        'name = "wine"\nvariant = "english"\ntime_control = "st=0.05 margin=2"\nformat = "round-robin"\n'
        'games_per_encounter = 2\nconcurrency = 2\ndatabase = "event.sqlite"\n'
        "[adjudication]\nmax_plies = 40\n"
        f'[[engines]]\nname = "windows"\nprotocol = "checkerboard"\nlibrary = "{dll("english")}"\n'
        "params = { hashsize = 32 }\n"
        '[[engines]]\nname = "random"\nbundled = "random"\n',
        encoding="utf-8",
    )
    result = arbiter("run", str(tmp_path / "event.toml"))
    assert result.returncode == 0, result.stdout + result.stderr
    with TournamentStore.open(tmp_path / "event.sqlite", create=False) as store:
        counts = store.termination_counts(store.find_tournament().id)
    assert sum(counts.values()) == 2 and set(counts) <= PLAYED_OUT, counts
    assert_no_wine_left(wine_dir)
