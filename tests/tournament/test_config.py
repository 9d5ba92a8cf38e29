"""The tournament file: defaults, bundled engines, the engines file, and errors that say where."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arbiter.tournament.config import ConfigError, load_tournament
from arbiter.tournament.openings import acf_deck
from arbiter.tournament.plan import plan_tournament

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_sample_tournament_loads_with_bundled_engines() -> None:
    config, engines = load_tournament(ROOT / "data" / "sample_tournament.toml")
    assert [e.name for e in engines] == ["random", "greedy", "alphabeta"]
    assert engines[2].command == [sys.executable, "-m", "arbiter.players.alphabeta"]
    assert config.variant == "english"
    assert config.database == ROOT / "sample.sqlite"


def test_engines_can_come_from_a_shared_engines_file(tmp_path: Path) -> None:
    write(tmp_path, "engines.toml", '[[engines]]\nname = "scan"\ncommand = ["/opt/scan", "hub"]\n')
    path = write(
        tmp_path,
        "t.toml",
        'engines_file = "engines.toml"\n[[engines]]\nname = "scan"\n'
        '[[engines]]\nname = "r"\nbundled = "random"\n',
    )
    _, engines = load_tournament(path)
    assert engines[0].command == ["/opt/scan", "hub"]


def test_a_bundled_engine_can_come_from_the_engines_file(tmp_path: Path) -> None:
    # The engines file is a shared [[engines]] list: an entry takes the keys an event file's does.
    write(tmp_path, "engines.toml", '[[engines]]\nname = "strong"\nbundled = "alphabeta"\n')
    path = write(
        tmp_path,
        "t.toml",
        'engines_file = "engines.toml"\n[[engines]]\nname = "strong"\nparams = { resign = true }\n'
        '[[engines]]\nname = "r"\nbundled = "random"\n',
    )
    _, engines = load_tournament(path)
    assert engines[0].command == [sys.executable, "-m", "arbiter.players.alphabeta"]
    assert engines[0].score_unit == "centi-men"
    assert engines[0].params == {"resign": True}


def test_an_unknown_bundled_name_in_the_engines_file_is_told_at_its_line(tmp_path: Path) -> None:
    shared = write(
        tmp_path,
        "engines.toml",
        '[[engines]]\nname = "x"\ncommand = ["/opt/x"]\n\n'
        '[[engines]]\nname = "strong"\nbundled = "alfabeta"\n',
    )
    path = write(
        tmp_path,
        "t.toml",
        'engines_file = "engines.toml"\n[[engines]]\nname = "strong"\n'
        '[[engines]]\nname = "r"\nbundled = "random"\n',
    )
    with pytest.raises(ConfigError) as refused:
        load_tournament(path)
    assert str(refused.value).startswith(f"{shared}:7: engines.1.bundled: ")
    assert "'alphabeta'" in str(refused.value)


def test_a_key_the_event_file_gives_an_engine_of_the_engines_file_is_told_at_its_own_line(
    tmp_path: Path,
) -> None:
    shared = write(
        tmp_path,
        "engines.toml",
        '[[engines]]\nname = "other"\ncommand = ["/opt/other"]\n\n'
        '[[engines]]\nname = "scan"\ncommand = ["/opt/scan", "hub"]\nprotocl = "hub"\n',
    )
    event = (
        'engines_file = "engines.toml"\n[[engines]]\nname = "r"\nbundled = "random"\n'
        '[[engines]]\nname = "scan"\n'
    )
    path = write(tmp_path, "t.toml", event + 'working_dri = "/opt/scan"\n')
    with pytest.raises(ConfigError) as refused:
        load_tournament(path)
    # The misspelled key is in the event file, not in the engines file's table of the engine.
    assert set(str(refused.value).splitlines()) == {
        f"{path}:7: engines.1.working_dri: Extra inputs are not permitted",
        f"{shared}:8: engines.1.protocl: Extra inputs are not permitted",
    }


def test_unknown_key_names_the_file_line_and_key(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "t.toml",
        'name = "x"\n\n[[engines]]\nname = "a"\nbundled = "random"\n\n[[engines]]\nname = "b"\n'
        'bundled = "greedy"\nprotocl = "hub"\n',
    )
    with pytest.raises(ConfigError, match=r"t\.toml:10: engines\.1\.protocl: Extra inputs are not permitted"):
        load_tournament(path)


def test_bad_time_control_is_reported_with_its_line(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "t.toml",
        'name = "x"\ntime_control = "30/abc"\n[[engines]]\nname = "a"\nbundled = "random"\n'
        '[[engines]]\nname = "b"\nbundled = "random"\n',
    )
    with pytest.raises(ConfigError, match=r"t\.toml:2: time_control"):
        load_tournament(path)


def test_unknown_variant_is_a_config_error(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "t.toml",
        'variant = "chess"\n[[engines]]\nname = "a"\nbundled = "random"\n'
        '[[engines]]\nname = "b"\nbundled = "random"\n',
    )
    with pytest.raises(ConfigError, match=r"t\.toml:1: variant: .*unknown variant 'chess'"):
        load_tournament(path)


def test_engine_without_command_or_reference_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "t.toml", '[[engines]]\nname = "a"\n[[engines]]\nname = "b"\nbundled = "random"\n')
    with pytest.raises(ConfigError, match=r"t\.toml:2: engine 'a' has no command"):
        load_tournament(path)


@pytest.mark.parametrize(
    ("table", "line", "key"),
    [
        ('comand = ["/opt/engine"]', 3, "engines.0.comand"),  # a misspelled command
        ('bundeld = "random"', 3, "engines.0.bundeld"),  # a misspelled bundled
        ('protocol = "hub"\ncmd = "/opt/engine"', 4, "engines.0.cmd"),  # cutechess-cli's word
    ],
)
def test_a_misspelled_key_of_an_engine_without_command_is_named_not_taken_for_a_missing_command(
    tmp_path: Path, table: str, line: int, key: str
) -> None:
    path = write(
        tmp_path,
        "t.toml",
        f'[[engines]]\nname = "a"\n{table}\n[[engines]]\nname = "b"\nbundled = "random"\n',
    )
    with pytest.raises(ConfigError) as refused:
        load_tournament(path)
    assert str(refused.value) == f"{path}:{line}: {key}: Extra inputs are not permitted"


def test_malformed_toml_is_reported(tmp_path: Path) -> None:
    path = write(tmp_path, "t.toml", "name = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_tournament(path)


def test_repeated_engine_names_are_refused(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "t.toml",
        '[[engines]]\nname = "a"\nbundled = "random"\n[[engines]]\nname = "a"\nbundled = "greedy"\n',
    )
    with pytest.raises(ConfigError, match="repeated: a"):
        load_tournament(path)


ENGINES = '[[engines]]\nname = "a"\nbundled = "random"\n[[engines]]\nname = "b"\nbundled = "greedy"\n'


def test_unknown_deck_names_the_file_line_and_key(tmp_path: Path) -> None:
    path = write(tmp_path, "t.toml", f'name = "x"\n\n[openings]\ndeck = "acf-999"\n{ENGINES}')
    with pytest.raises(
        ConfigError, match=r"t\.toml:4: openings\.deck: .*unknown deck 'acf-999'; decks: acf-144"
    ):
        load_tournament(path)


def test_repeat_with_an_odd_number_of_games_names_the_file_line_and_key(tmp_path: Path) -> None:
    path = write(tmp_path, "t.toml", f'name = "x"\nrepeat = true\ngames_per_encounter = 3\n{ENGINES}')
    with pytest.raises(ConfigError, match=r"t\.toml:3: games_per_encounter: .*must be even, got 3"):
        load_tournament(path)


def test_pro_checkers_deals_random_ballots_from_the_156_deck_each_played_twice_colours_swapped(
    tmp_path: Path,
) -> None:
    three = ENGINES + '[[engines]]\nname = "c"\nbundled = "alphabeta"\n'
    path = write(tmp_path, "t.toml", f'name = "x"\n[openings]\ndeck = "pro-checkers"\nseed = 5\n{three}')
    config, _ = load_tournament(path)
    assert (config.repeat, config.games_per_encounter) == (True, 2)
    assert config.openings is not None and config.openings.order == "random"
    games = plan_tournament(config).schedule.games
    assert len(games) == 6  # three pairs, one ballot each, played twice
    acf_156 = {opening.id for opening in acf_deck("acf-156")}
    for first, second in zip(games[::2], games[1::2], strict=True):
        assert first.opening is not None and first.opening == second.opening
        assert first.opening.id in acf_156
        assert (first.white, first.black) == (second.black, second.white)
        assert first.pair_index == second.pair_index
    dealt = [game.opening.id for game in games[::2] if game.opening is not None]
    in_order = [opening.id for opening in acf_deck("acf-156")[:3]]
    assert dealt != in_order, "the ballots are drawn at random, not dealt in ACF order"
    assert len(set(dealt)) == 3


def test_pro_checkers_keeps_what_the_file_chooses_within_the_rule(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "t.toml",
        f'name = "x"\ngames_per_encounter = 4\n[openings]\ndeck = "pro-checkers"\n'
        f'order = "sequential"\n{ENGINES}',
    )
    config, _ = load_tournament(path)
    games = plan_tournament(config).schedule.games
    assert [g.opening.id for g in games if g.opening is not None] == ["acf-1", "acf-1", "acf-2", "acf-2"]
    assert config.repeat


@pytest.mark.parametrize(
    ("settings", "where"),
    [
        ("repeat = false\n", r"t\.toml:2: repeat: .*pro-checkers rule plays each ballot twice"),
        ("games_per_encounter = 3\n", r"t\.toml:2: games_per_encounter: .*must be even, got 3"),
        ('variant = "italian"\n', r"t\.toml:2: variant: .*pro-checkers rule is played in english"),
    ],
)
def test_pro_checkers_refuses_settings_that_contradict_the_rule(
    tmp_path: Path, settings: str, where: str
) -> None:
    path = write(tmp_path, "t.toml", f'name = "x"\n{settings}[openings]\ndeck = "pro-checkers"\n{ENGINES}')
    with pytest.raises(ConfigError, match=where):
        load_tournament(path)


def test_a_pdn_opening_file_needs_plies_and_plies_needs_a_pdn_file(tmp_path: Path) -> None:
    without = write(tmp_path, "a.toml", f'name = "x"\n[openings]\nfile = "games.pdn"\n{ENGINES}')
    with pytest.raises(ConfigError, match=r"a\.toml:2: openings\.plies: .*PDN opening file needs 'plies'"):
        load_tournament(without)
    misplaced = write(tmp_path, "b.toml", f'name = "x"\n[openings]\ndeck = "acf-144"\nplies = 4\n{ENGINES}')
    with pytest.raises(ConfigError, match=r"b\.toml:4: openings\.plies: .*cuts the games of a PDN"):
        load_tournament(misplaced)
