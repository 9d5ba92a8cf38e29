"""Hub line text: quoting, reading, writing, the move grammar, levels and info lines."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.engines.hub_wire import (
    HubLine,
    HubSyntaxError,
    _parse_tokens,
    check_position_text,
    format_line,
    format_seconds,
    is_move_text,
    parse_line,
    quote_value,
)
from arbiter.engines.level import Clock, Depth, Infinite, MoveTime, Nodes, level_line
from arbiter.engines.results import parse_info


def test_a_value_with_a_space_an_equals_sign_or_nothing_is_double_quoted() -> None:
    assert quote_value("Scan") == "Scan"
    assert quote_value("Fabien Letouzey") == '"Fabien Letouzey"'
    assert quote_value("a=b") == '"a=b"'
    assert quote_value("") == '""'


def test_a_value_with_a_double_quote_or_line_break_cannot_be_written() -> None:
    with pytest.raises(ValueError, match="double quotes"):
        quote_value('say "hi"')
    with pytest.raises(ValueError):
        quote_value("two\nlines")


def test_parse_reads_command_fields_quoted_values_and_flags() -> None:
    line = parse_line('param name=variant value=normal type=enum values="normal killer bt" extra-flag')
    assert line.command == "param"
    assert line.fields == {"name": "variant", "value": "normal", "type": "enum", "values": "normal killer bt"}
    assert line.flags == frozenset({"extra-flag"})


def test_parse_accepts_an_empty_quoted_value_and_repeated_spaces() -> None:
    line = parse_line('param   name=book  value=""   type=string')
    assert line.fields == {"name": "book", "value": "", "type": "string"}


def test_done_with_draw_flag_is_read_as_a_flag() -> None:
    line = parse_line("done move=11-15 draw")
    assert line.fields == {"move": "11-15"} and line.flags == frozenset({"draw"})


@pytest.mark.parametrize(
    "text",
    [
        'id name="unterminated',
        "name=value first",
        'info pv="32-28"19-23',
        "info\x00depth=3",
        "info depth=3\x1b[2J",
        "   ",
    ],
)
def test_text_that_is_not_hub_is_a_syntax_error(text: str) -> None:
    with pytest.raises(HubSyntaxError):
        parse_line(text)


_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz-0123456789", min_size=1, max_size=8)
_value = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FF, exclude_characters='"\x7f'), max_size=12
)


@given(command=_word, fields=st.dictionaries(_word, _value, max_size=5), flags=st.sets(_word, max_size=3))
def test_every_line_the_arbiter_writes_reads_back_the_same(
    command: str, fields: dict[str, str], flags: set[str]
) -> None:
    flags -= set(fields)
    line = parse_line(format_line(command, fields, sorted(flags)))
    assert (line.command, line.fields, line.flags) == (command, fields, frozenset(flags))


def _read(read: Callable[[str], HubLine], text: str) -> tuple[str, dict[str, str], frozenset[str]] | str:
    try:
        line = read(text)
    except HubSyntaxError as error:
        return f"error: {error}"
    return line.command, line.fields, line.flags


@given(text=st.text(alphabet=' \tabz09=-x.+"\u00a0\u2003\u00e9', max_size=30))
def test_a_plain_line_is_read_quickly_as_the_full_reader_reads_it(text: str) -> None:
    """Lines without quotes, in ASCII, are read by splitting them at their spaces: the same command,
    fields, flags and errors as the token reader gives, whatever the text (control characters are
    refused before either reads)."""
    assert _read(parse_line, text) == _read(_parse_tokens, text)


@pytest.mark.parametrize(
    "text", ["done move=32-28", "done  move=32-28\tdraw", "info depth=3 a= b", "x =a", "x a==b", "=a", ""]
)
def test_plain_lines_and_their_mistakes_read_the_same_both_ways(text: str) -> None:
    assert _read(parse_line, text) == _read(_parse_tokens, text)


@pytest.mark.parametrize("move", ["32-28", "1-5", "28x19x23", "15x24", "46x37x41x32x28", "9-13"])
def test_moves_are_squares_joined_by_dash_or_x(move: str) -> None:
    assert is_move_text(move)


@pytest.mark.parametrize(
    "move", ["e3-d4", "32-28-23", "0-5", "32--28", "32x", "x19", "32 28", "", "32:28", "05-10"]
)
def test_text_without_the_shape_of_a_move_is_rejected(move: str) -> None:
    assert not is_move_text(move)


def test_position_text_is_a_side_letter_then_one_letter_per_square() -> None:
    check_position_text("B" + "b" * 12 + "e" * 8 + "w" * 12)
    for bad in ("", "X" + "e" * 32, "Wbbb eee", "w" + "e" * 32, "W"):
        with pytest.raises(ValueError, match="not a Hub position"):
            check_position_text(bad)


def test_seconds_are_written_as_short_real_numbers() -> None:
    assert [format_seconds(s) for s in (0.1, 60, 2.5, 0, 0.0004, 1e-9)] == ["0.1", "60", "2.5", "0", "0", "0"]


@pytest.mark.parametrize(
    ("level", "line"),
    [
        (Depth(12), "level depth=12"),
        (Nodes(100000), "level nodes=100000"),
        (MoveTime(0.25), "level move-time=0.25"),
        (Clock(300), "level time=300"),
        (Clock(118.5, moves=40, inc=2), "level moves=40 time=118.5 inc=2"),
        (Clock(60, inc=0.6), "level time=60 inc=0.6"),
        (Infinite(), "level infinite"),
    ],
)
def test_every_form_of_level_is_written_as_hub_expects(level: Depth, line: str) -> None:
    assert level_line(level) == line


@pytest.mark.parametrize(
    "make",
    [
        lambda: Depth(0),
        lambda: Nodes(-1),
        lambda: MoveTime(-1),
        lambda: Clock(float("nan")),
        lambda: Clock(5, 0),
    ],
)
def test_a_level_that_makes_no_sense_is_refused(make: object) -> None:
    with pytest.raises(ValueError):
        make()  # type: ignore[operator]


def test_info_fields_are_typed_and_unknown_fields_are_kept() -> None:
    line = parse_line(
        'info depth=12 mean-depth=13.5 score=-0.25 nodes=120000 time=1.5 nps=80000 pv="32-28 19-23"'
    )
    info = parse_info(line.fields)
    assert (info.depth, info.score, info.nodes, info.time, info.nps) == (12, -0.25, 120000, 1.5, 80000.0)
    assert info.pv == ("32-28", "19-23")
    assert info.extra == {"mean-depth": "13.5"}


def test_an_info_number_that_cannot_be_read_is_kept_as_text() -> None:
    info = parse_info({"depth": "deep", "score": "+1.5", "nodes": "1e9"})
    assert info.depth is None and info.score == 1.5 and info.nodes is None
    assert info.extra == {"depth": "deep", "nodes": "1e9"}


_ascii_and_some_more = st.characters(max_codepoint=0x7F) | st.sampled_from("\u00e9\u2003\x85")


@given(text=st.text(alphabet=_ascii_and_some_more, max_size=20))
def test_a_line_is_refused_for_control_characters_exactly_when_it_holds_one(text: str) -> None:
    """A printable ASCII line is read without looking for control characters: none can be in it. Any
    other line is looked through, so a control character (a tab aside) anywhere is always refused."""
    holds_one = any(ord(char) < 32 and char != "\t" or ord(char) == 0x7F for char in text)
    assert (_read(parse_line, text) == "error: control characters in the line") == holds_one
