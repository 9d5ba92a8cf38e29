"""Reading and writing Hub lines in the bundled engines."""

from __future__ import annotations

from arbiter.players.hub_text import format_hub_line, parse_hub_line


def test_a_line_splits_into_command_values_and_flags() -> None:
    line = parse_hub_line("go think draw-offered")
    assert line is not None
    assert line.command == "go"
    assert line.flags == {"think", "draw-offered"}
    assert line.values == {}


def test_quoted_values_keep_their_spaces_and_equals_signs() -> None:
    line = parse_hub_line('pos pos=Wbbbe moves="32-28 19-23 28x19x23"  note="a=b"')
    assert line is not None
    assert line.values == {"pos": "Wbbbe", "moves": "32-28 19-23 28x19x23", "note": "a=b"}


def test_an_empty_quoted_value_is_empty() -> None:
    line = parse_hub_line('set-param name=book value=""')
    assert line is not None
    assert line.values == {"name": "book", "value": ""}


def test_an_unterminated_quote_takes_the_rest_of_the_line() -> None:
    line = parse_hub_line('pos moves="11-15 23-19')
    assert line is not None
    assert line.values["moves"] == "11-15 23-19"


def test_a_blank_line_is_nothing_and_garbage_never_raises() -> None:
    assert parse_hub_line("   \n") is None
    for garbage in ["=", "== = =", '"', 'x ="', "x =a", "\x00\x01", "level depth=="]:
        parse_hub_line(garbage)


def test_values_with_spaces_equals_or_nothing_are_quoted_when_written() -> None:
    text = format_hub_line("param", [("name", "variant"), ("values", "english international"), ("x", "")])
    assert text == 'param name=variant values="english international" x=""'
    assert format_hub_line("info", [("pv", "a=b")]) == 'info pv="a=b"'
    assert format_hub_line("done", [("move", "11-15")], flags=["draw"]) == "done move=11-15 draw"


def test_written_lines_read_back_the_same() -> None:
    values = [("name", "alpha beta"), ("value", ""), ("time", 1.5), ("on", True), ("n", 7)]
    line = parse_hub_line(format_hub_line("cmd", values, flags=["flag"]))
    assert line is not None
    assert line.values == {"name": "alpha beta", "value": "", "time": "1.500", "on": "true", "n": "7"}
    assert line.flags == {"flag"}
