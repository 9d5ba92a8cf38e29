"""DXP messages: every message of the table, encoded and decoded, and what is not a message."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.engines.dxp_wire import (
    BackAccept,
    BackRequest,
    Chat,
    DxpMessage,
    DxpSyntaxError,
    GameAccept,
    GameEnd,
    GameRequest,
    Move,
    decode,
    encode,
    move_from_hub,
    move_to_hub,
    position_from_hub,
    position_to_hub,
)

START_DXP = "W" + "z" * 20 + "e" * 10 + "w" * 20


@pytest.mark.parametrize(
    ("message", "wire"),
    [
        (GameRequest("arbiter", "W", 90, 50), b"R01" + b"arbiter".ljust(32) + b"W090050A\0"),
        (
            GameRequest("Arbiter", "Z", 5, 0, START_DXP),
            b"R01" + b"Arbiter".ljust(32) + b"Z005000B" + START_DXP.encode() + b"\0",
        ),
        (GameAccept("Kingsrow", 0), b"A" + b"Kingsrow".ljust(32) + b"0\0"),
        (GameAccept("Dam", 2), b"A" + b"Dam".ljust(32) + b"2\0"),
        (Move(12, 32, 28), b"M0012322800\0"),
        (Move(3, 28, 19, (23,)), b"M0003281901" + b"23\0"),
        (Move(0, 46, 5, (41, 37, 14, 10)), b"M0000460504" + b"41371410\0"),
        (GameEnd(1, 0), b"E10\0"),
        (GameEnd(2, 1), b"E21\0"),
        (Chat("good luck"), b"Cgood luck\0"),
        (BackRequest(23, "Z"), b"B023Z\0"),
        (BackAccept(1), b"K1\0"),
    ],
)
def test_each_message_is_encoded_with_fixed_width_fields_and_decoded_back(
    message: DxpMessage, wire: bytes
) -> None:
    assert encode(message) == wire
    assert decode(wire[:-1]) == message


def test_a_long_name_is_cut_to_its_32_characters() -> None:
    wire = encode(GameAccept("An engine with a very long name indeed", 0))
    assert len(wire) == 35 and decode(wire[:-1]) == GameAccept("An engine with a very long name", 0)


@given(
    seconds=st.integers(0, 9999),
    source=st.integers(1, 50),
    target=st.integers(1, 50),
    captured=st.lists(st.integers(1, 50), max_size=20).map(tuple),
)
def test_every_move_reads_back_the_same(
    seconds: int, source: int, target: int, captured: tuple[int, ...]
) -> None:
    move = Move(seconds, source, target, captured)
    assert decode(encode(move)[:-1]) == move


@pytest.mark.parametrize(
    "wire",
    [
        b"",
        b"X123",
        b"M00123228",  # too short
        b"M00123228012",  # says one capture, carries half of one
        b"M00a2322800",
        b"E1",
        b"A" + b"name".ljust(32),
        b"R02" + b"arbiter".ljust(32) + b"W090050A",  # another version
        b"R01" + b"arbiter".ljust(32) + b"X090050A",
        b"R01" + b"arbiter".ljust(32) + b"W090050B" + b"W" + b"q" * 50,
        b"K\xff",
        b"B12W",
    ],
)
def test_bytes_that_are_not_a_dxp_message_are_refused(wire: bytes) -> None:
    with pytest.raises(DxpSyntaxError):
        decode(wire)


def test_values_that_do_not_fit_their_fields_cannot_be_sent() -> None:
    with pytest.raises(ValueError, match="3 digits"):
        encode(GameRequest("arbiter", "W", 1000, 0))
    with pytest.raises(ValueError, match="at most 127"):
        encode(Move(0, 1, 2, tuple(range(1, 60))))
    with pytest.raises(ValueError, match="ASCII"):
        encode(Chat("bonne chance, Frédéric"))


def test_moves_convert_between_hub_text_and_dxp_fields() -> None:
    assert move_from_hub("32-28", 7) == Move(7, 32, 28)
    assert move_from_hub("28x19x23", 0) == Move(0, 28, 19, (23,))
    assert move_to_hub(Move(0, 46, 5, (41, 37))) == "46x5x41x37"
    assert move_to_hub(Move(0, 9, 14)) == "9-14"
    with pytest.raises(ValueError):
        move_from_hub("e3-d4", 0)


def test_positions_convert_between_hub_and_dxp_letters() -> None:
    hub = "B" + "b" * 19 + "B" + "e" * 10 + "W" + "w" * 19
    dxp = position_from_hub(hub)
    assert dxp == "Z" + "z" * 19 + "Z" + "e" * 10 + "W" + "w" * 19
    assert position_to_hub(dxp) == hub
    with pytest.raises(ValueError, match="10x10"):
        position_from_hub("B" + "b" * 12 + "e" * 8 + "w" * 12)
