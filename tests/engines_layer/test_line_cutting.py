"""An engine's output cut into lines whatever the reads it arrives in, with too long a line named at the
read that makes it too long and a flood at the read that passes the allowance."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from arbiter.engines.output_lines import LineCutter, ReadLimits

LINE_BYTES = 12


def _expected(partial: bytes, data: bytes) -> tuple[list[bytes], str | None, bytes]:
    """What one read should give, written plainly: (lines, reason to stop, the incomplete rest)."""
    *complete, rest = (partial + data).split(b"\n")
    for index, line in enumerate(complete):
        if len(line) > LINE_BYTES:
            return complete[:index], "line", b""
    if len(rest) > LINE_BYTES:
        return complete, "line", b""
    return complete, None, rest


@given(reads=st.lists(st.binary(max_size=20).map(lambda raw: raw.replace(b"\r", b"\n")), max_size=12))
def test_a_stream_cut_at_any_points_gives_its_lines_whole_until_one_is_too_long(reads: list[bytes]) -> None:
    cutter = LineCutter(ReadLimits(line_bytes=LINE_BYTES, output_bytes=10_000))
    partial = b""
    for data in reads:
        lines, why = cutter.cut(data)
        expected_lines, expected_why, partial = _expected(partial, data)
        assert (lines, why) == (expected_lines, expected_why)
        if why is not None:
            break


def test_a_flood_is_named_at_the_read_that_passes_the_allowance_since_the_last_command() -> None:
    cutter = LineCutter(ReadLimits(line_bytes=LINE_BYTES, output_bytes=20))
    assert cutter.cut(b"info a\ninfo b\n") == ([b"info a", b"info b"], None)
    cutter.command_sent()
    assert cutter.cut(b"info c\ninfo d\n") == ([b"info c", b"info d"], None)
    assert cutter.cut(b"info e\n") == ([], "flood")
