"""The bundled engines as programs: each is started as a child process and driven over Hub."""

from __future__ import annotations

import importlib

import pytest
from players_hub_driver import EngineProcess, fields_of

from arbiter.notation.movetext import format_hub, parse_hub
from arbiter.rules import VARIANTS, Position, get_variant
from arbiter.rules.variants import move_option_variants

ENGINES = ["random", "greedy", "alphabeta"]
DRAW_PLIES = 130  # beyond the ply where alphabeta starts offering draws in level positions


def opening(variant_id: str, plies: int) -> tuple[Position, Position, str]:
    """The start position, the position after ``plies`` first-legal-moves, and those moves as Hub text."""
    start = Position.start(get_variant(variant_id))
    position = start
    texts: list[str] = []
    for _ in range(plies):
        move = position.legal_moves()[0]
        texts.append(format_hub(move))
        position = position.play(move)
    return start, position, " ".join(texts)


def move_of(done: str) -> str:
    command, values, _ = fields_of(done)
    assert command == "done", done
    assert "move" in values, done
    return values["move"]


@pytest.mark.parametrize("engine", ENGINES)
def test_handshake_names_the_engine_lists_every_variant_then_waits(engine: str) -> None:
    with EngineProcess(engine) as hub:
        hello = hub.handshake()
        command, values, _ = fields_of(hello[0])
        assert command == "id"
        assert values["name"] == engine
        assert "version" in values and "author" in values
        params = {
            fields_of(line)[1]["name"]: fields_of(line)[1] for line in hello if line.startswith("param ")
        }
        assert params["variant"]["type"] == "enum"
        assert params["variant"]["values"].split() == [*VARIANTS, *move_option_variants()]
        assert hello[-1] == "wait"


@pytest.mark.parametrize("variant_id", list(VARIANTS))
@pytest.mark.parametrize("engine", ENGINES)
def test_engine_answers_a_legal_move_after_the_given_moves(engine: str, variant_id: str) -> None:
    start, after, moves = opening(variant_id, 3)
    with EngineProcess(engine) as hub:
        hub.handshake(variant=variant_id)
        hub.send("new-game")
        done = hub.search(start.hub(), moves, level="depth=2")
        parse_hub(after, move_of(done))  # raises unless it is legal where the moves lead


@pytest.mark.parametrize("engine", ENGINES)
def test_international_is_also_reachable_by_scans_name_normal(engine: str) -> None:
    _, position, _ = opening("international", 1)
    with EngineProcess(engine) as hub:
        hub.handshake(variant="normal")
        parse_hub(position, move_of(hub.search(position.hub(), level="move-time=0.2")))


@pytest.mark.parametrize("engine", ENGINES)
def test_pos_without_a_position_means_the_start_position(engine: str) -> None:
    start = Position.start(get_variant("english"))
    with EngineProcess(engine) as hub:
        hub.handshake()
        parse_hub(start, move_of(hub.search(None)))


@pytest.mark.parametrize(
    "level",
    ["depth=3", "nodes=400", "move-time=0.2", "time=3", "moves=20 time=5 inc=0.1", "time=0.5 inc=0.2"],
)
def test_alphabeta_answers_every_finite_level_form(level: str) -> None:
    _, position, _ = opening("english", 2)
    with EngineProcess("alphabeta") as hub:
        hub.handshake()
        parse_hub(position, move_of(hub.search(position.hub(), level=level)))


def test_alphabeta_depth_level_searches_exactly_that_depth() -> None:
    _, position, _ = opening("english", 2)
    with EngineProcess("alphabeta") as hub:
        hub.handshake()
        hub.send(f"pos pos={position.hub()}")
        hub.send("level depth=5")
        hub.send("go think")
        lines = hub.read_until("done")
    depths = [int(fields_of(line)[1]["depth"]) for line in lines if line.startswith("info ")]
    assert depths == [1, 2, 3, 4, 5]


def test_alphabeta_info_lines_carry_score_nodes_time_nps_and_a_legal_pv() -> None:
    _, position, _ = opening("international", 2)
    with EngineProcess("alphabeta") as hub:
        hub.handshake(variant="international")
        hub.send(f"pos pos={position.hub()}")
        hub.send("level depth=3")
        hub.send("go think")
        lines = hub.read_until("done")
    infos = [fields_of(line)[1] for line in lines if line.startswith("info ")]
    assert infos
    for info in infos:
        assert {"depth", "score", "nodes", "time", "nps", "pv"} <= info.keys()
        int(info["score"]), int(info["nodes"]), float(info["time"]), int(info["nps"])
        walk = position
        for text in info["pv"].split():
            walk = walk.play(parse_hub(walk, text))


def test_alphabeta_node_level_stops_after_that_many_nodes() -> None:
    _, position, _ = opening("english", 2)
    with EngineProcess("alphabeta") as hub:
        hub.handshake()
        hub.send(f"pos pos={position.hub()}")
        hub.send("level nodes=300")
        hub.send("go think")
        lines = hub.read_until("done")
    nodes = [int(fields_of(line)[1]["nodes"]) for line in lines if line.startswith("info ")]
    assert nodes and all(n <= 300 for n in nodes)
    parse_hub(position, move_of(lines[-1]))


@pytest.mark.parametrize("engine", ENGINES)
def test_stop_right_after_go_on_an_infinite_level_gets_a_legal_move(engine: str) -> None:
    _, position, _ = opening("international", 2)
    with EngineProcess(engine) as hub:
        hub.handshake(variant="international")
        hub.send(f"pos pos={position.hub()}")
        hub.send("level infinite")
        hub.send("go think")
        hub.send("stop")
        parse_hub(position, move_of(hub.read_until("done")[-1]))


@pytest.mark.parametrize("engine", ENGINES)
def test_an_infinite_search_answers_ping_and_holds_its_move_until_stop(engine: str) -> None:
    _, position, _ = opening("english", 2)
    with EngineProcess(engine) as hub:
        hub.handshake()
        hub.send(f"pos pos={position.hub()}")
        hub.send("level infinite")
        hub.send("go think")
        if engine == "alphabeta":
            hub.read_until("info")  # the search is under way
        hub.send("ping")
        before_pong = hub.read_until("pong")
        assert not any(line.startswith("done") for line in before_pong)
        hub.send("ping")
        assert not any(line.startswith("done") for line in hub.read_until("pong"))
        hub.send("stop")
        parse_hub(position, move_of(hub.read_until("done")[-1]))
        hub.send("ping")  # idle again: still answered
        hub.read_until("pong")


def test_ponder_waits_for_ponder_hit_then_moves_under_the_level() -> None:
    _, position, _ = opening("english", 2)
    with EngineProcess("alphabeta") as hub:
        hub.handshake()
        hub.send(f"pos pos={position.hub()}")
        hub.send("level move-time=0.2")
        hub.send("go ponder")
        hub.send("ping")
        assert not any(line.startswith("done") for line in hub.read_until("pong"))
        hub.send("ponder-hit")
        parse_hub(position, move_of(hub.read_until("done")[-1]))


def test_analyze_runs_until_stop() -> None:
    _, position, _ = opening("english", 2)
    with EngineProcess("alphabeta") as hub:
        hub.handshake()
        hub.send(f"pos pos={position.hub()}")
        hub.send("level depth=2")
        hub.send("go analyze")
        hub.send("ping")
        assert not any(line.startswith("done") for line in hub.read_until("pong"))
        hub.send("stop")
        parse_hub(position, move_of(hub.read_until("done")[-1]))


@pytest.mark.parametrize("engine", ENGINES)
def test_unknown_commands_and_garbage_are_ignored_and_bad_arguments_reported(engine: str) -> None:
    _, position, _ = opening("english", 2)
    with EngineProcess(engine) as hub:
        hub.send("hello there")
        hub.send("%%% ===  ")
        hub.send("")
        hub.send('hub extra=1 "odd')
        hub.read_until("wait")
        hub.send("set-param name=no_such_param value=7")
        hub.send("set-param name=variant value=chess")
        assert "chess" in fields_of(hub.read_until("error")[-1])[1]["message"]
        hub.send("level depth=deep")
        assert "depth" in fields_of(hub.read_until("error")[-1])[1]["message"]
        hub.send("pos pos=Wxyz")
        assert "pos" in fields_of(hub.read_until("error")[-1])[1]["message"]
        hub.send('pos moves="11-15 99-98"')
        assert "move 2" in fields_of(hub.read_until("error")[-1])[1]["message"]
        hub.send("init")
        hub.read_until("ready")
        parse_hub(position, move_of(hub.search(position.hub(), level="depth=1")))


def test_go_on_a_position_without_moves_reports_an_error_and_still_answers_done() -> None:
    # White to move with no piece left.
    variant = get_variant("english")
    empty_side = Position.from_fen(variant, "W:W:B1,2")
    with EngineProcess("alphabeta") as hub:
        hub.handshake()
        hub.send(f"pos pos={empty_side.hub()}")
        hub.send("level depth=2")
        hub.send("go think")
        lines = hub.read_until("done")
    assert any(line.startswith("error ") for line in lines)
    assert "move" not in fields_of(lines[-1])[1]


@pytest.mark.parametrize("engine", ENGINES)
def test_engine_exits_when_stdin_closes(engine: str) -> None:
    with EngineProcess(engine) as hub:
        hub.handshake()
        hub.close_stdin()
        assert hub.wait_exit() == 0


def test_engine_exits_when_stdin_closes_during_an_infinite_search() -> None:
    with EngineProcess("alphabeta") as hub:
        hub.handshake()
        hub.send("pos")
        hub.send("level infinite")
        hub.send("go think")
        hub.read_until("info")
        hub.close_stdin()
        assert hub.wait_exit() == 0


def test_quit_during_an_infinite_search_ends_the_engine() -> None:
    with EngineProcess("alphabeta") as hub:
        hub.handshake()
        hub.send("pos")
        hub.send("level infinite")
        hub.send("go think")
        hub.read_until("info")
        hub.send("quit")
        assert hub.wait_exit() == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_quit_ends_the_engine(engine: str) -> None:
    with EngineProcess(engine) as hub:
        hub.handshake()
        hub.send("quit")
        assert hub.wait_exit() == 0


def test_random_with_a_seed_repeats_its_choices() -> None:
    positions = [opening("international", n)[1] for n in range(6)]

    def moves_with(*args: str, params: dict[str, str]) -> list[str]:
        with EngineProcess("random", *args) as hub:
            hub.handshake(variant="international", **params)
            return [move_of(hub.search(p.hub(), level="depth=1")) for p in positions]

    from_option = moves_with("--param", "seed=12345", params={})
    from_set_param = moves_with(params={"seed": "12345"})
    assert from_option == from_set_param
    assert len(set(from_option)) > 1  # really choosing, not always the first move


def test_greedy_takes_the_capture_that_wins_the_most_material() -> None:
    # Black to move in English may take a man (14x23, 15x22) or the king on 19 (15x24); the choice is
    # free, so greedy must take the king.
    variant = get_variant("english")
    position = Position.from_fen(variant, "B:W18,K19,30,31:B14,15,1")
    moves = {format_hub(m) for m in position.legal_moves()}
    assert {"15x24x19", "14x23x18"} <= moves
    with EngineProcess("greedy") as hub:
        hub.handshake()
        assert move_of(hub.search(position.hub(), level="depth=1")) == "15x24x19"


def test_alphabeta_accepts_a_draw_offer_only_when_it_is_not_better() -> None:
    variant = get_variant("english")
    losing = Position.from_fen(variant, "B:WK18,K19,K27:B1")  # a lone man against three kings
    winning = Position.from_fen(variant, "W:WK18,K19,K27:B1")
    with EngineProcess("alphabeta") as hub:
        hub.handshake()
        assert "draw" in fields_of(hub.search(losing.hub(), go="go think draw-offered"))[2]
        assert "draw" not in fields_of(hub.search(winning.hub(), go="go think draw-offered"))[2]
    with EngineProcess("alphabeta") as hub:
        hub.handshake(draw_offers="false")
        assert "draw" not in fields_of(hub.search(losing.hub(), go="go think draw-offered"))[2]


def test_alphabeta_offers_a_draw_late_in_a_level_game() -> None:
    variant = get_variant("english")
    start = Position.from_fen(variant, "W:WK29:BK4")
    # Two lone kings shuffle in their corners: a long game that neither side can win.
    texts = (["29-25", "4-8", "25-29", "8-4"] * DRAW_PLIES)[:DRAW_PLIES]
    position = start
    for text in texts:
        position = position.play(parse_hub(position, text))
    with EngineProcess("alphabeta") as hub:
        hub.handshake()
        early = hub.search(start.hub(), " ".join(texts[:10]), level="depth=4")
        late = hub.search(start.hub(), " ".join(texts), level="depth=4")
    assert "draw" not in fields_of(early)[2]
    assert "draw" in fields_of(late)[2]
    parse_hub(position, move_of(late))


def test_alphabeta_resigns_a_hopeless_game_only_when_asked() -> None:
    variant = get_variant("english")
    hopeless = Position.from_fen(variant, "B:WK18,K19,K27,K26:B1")  # a lone man, lost in a few moves
    with EngineProcess("alphabeta") as hub:
        hub.handshake()
        answers = [hub.search(hopeless.hub(), level="depth=4") for _ in range(4)]
        assert all("move" in fields_of(a)[1] for a in answers)
    with EngineProcess("alphabeta", "--param", "resign=true") as hub:
        hub.handshake()
        answers = [hub.search(hopeless.hub(), level="depth=4") for _ in range(3)]
    assert "move" in fields_of(answers[0])[1]
    assert fields_of(answers[-1])[2] == {"resign"}


def test_a_bad_command_line_parameter_is_refused() -> None:
    with EngineProcess("alphabeta", "--param", "resign=maybe") as hub:
        assert hub.wait_exit() == 2
        assert hub.process.stderr is not None
        assert "resign" in hub.process.stderr.read()


@pytest.mark.parametrize("engine", ENGINES)
def test_each_engine_module_has_a_main_that_explains_itself(
    engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    module = importlib.import_module(f"arbiter.players.{engine}")
    assert module.main(["--help"]) == 0
    assert "Hub" in capsys.readouterr().out


@pytest.mark.parametrize("engine", ENGINES)
def test_engines_obey_the_frisian_king_move_limit_shown_by_the_moves_given(engine: str) -> None:
    # White's king has gone 1-6-1-6 (Black's man moves in between): it may not move a fourth time, so
    # only the man on 9 may move, although the position alone allows the king's moves too.
    start = Position.from_fen(get_variant("frisian"), "W:WK1,9:BK35,22")
    with EngineProcess(engine) as hub:
        hub.handshake(variant="frisian")
        for seed in range(1, 6):
            hub.send("new-game")
            if engine != "alphabeta":
                hub.send(f"set-param name=seed value={seed}")
            done = hub.search(start.hub(), "1-6 22-27 6-1 27-32 1-6 32-38", level="depth=2")
            assert move_of(done) in ("9-3", "9-4")
