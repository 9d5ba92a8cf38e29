"""The tournament file: defaults, bundled engines, the engines file, and errors that say where."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arbiter.tournament.config import ConfigError, load_tournament

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
