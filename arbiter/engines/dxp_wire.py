"""DXP (DamExchange) messages: fixed-width ASCII fields after a one-letter header, each message ended
by a NUL byte on the TCP stream. Encoding and decoding only; the conversation is in dxp.py."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

MAX_MESSAGE = 127  # characters, without the NUL
NAME_WIDTH = 32
VERSION = "01"
SQUARES = 50

Colour = Literal["W", "Z"]  # DXP's letters: W white, Z (zwart) black

ACCEPTED = 0
GAME_END_UNKNOWN, GAME_END_RESIGN, GAME_END_DRAW, GAME_END_WIN = 0, 1, 2, 3

_HUB_TO_DXP_PIECE = str.maketrans("wbWBe", "wzWZe")
_DXP_TO_HUB_PIECE = str.maketrans("wzWZe", "wbWBe")
_HUB_CAPTURE = re.compile(r"[1-9]\d?(?:x[1-9]\d?)+")
_HUB_QUIET = re.compile(r"([1-9]\d?)-([1-9]\d?)")


class DxpSyntaxError(ValueError):
    """Bytes that are not a DXP message."""


@dataclass(frozen=True)
class GameRequest:
    """``R``: the initiator proposes a game. ``position`` is None for the standard start (`A`), else the
    side to move and 50 squares in DXP letters (`e`, `w`, `z`, `W`, `Z`)."""

    initiator: str
    follower_colour: Colour
    minutes: int
    moves: int
    position: str | None = None


@dataclass(frozen=True)
class GameAccept:
    """``A``: the follower's answer; code 0 accepted, 1 version not supported, 2 refused, 3 refuses all."""

    follower: str
    code: int


@dataclass(frozen=True)
class Move:
    """``M``: a move with the whole seconds its maker says it used."""

    seconds: int
    source: int
    target: int
    captured: tuple[int, ...] = ()


@dataclass(frozen=True)
class GameEnd:
    """``E``: reason (0 unknown, 1 I resign, 2 draw, 3 I win) and stop code (0 more games, 1 no more)."""

    reason: int
    stop: int


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class BackRequest:
    """``B``: take back to move number ``move_number`` with ``side`` to move."""

    move_number: int
    side: Colour


@dataclass(frozen=True)
class BackAccept:
    """``K``: answer to a take-back request; code 0 accepted, 1 not supported, 2 refused."""

    code: int


DxpMessage = GameRequest | GameAccept | Move | GameEnd | Chat | BackRequest | BackAccept


def _number(value: int, width: int, what: str) -> str:
    if not 0 <= value < 10**width:
        raise ValueError(f"DXP {what} {value} does not fit in {width} digits")
    return str(value).zfill(width)


def _name(text: str) -> str:
    if not text.isascii() or "\0" in text:
        raise ValueError(f"a DXP name must be ASCII without NUL: {text!r}")
    return text[:NAME_WIDTH].ljust(NAME_WIDTH)


def _colour(letter: str) -> Colour:
    if letter == "W":
        return "W"
    if letter == "Z":
        return "Z"
    raise DxpSyntaxError(f"colour {letter!r} is neither W nor Z")


def encode(message: DxpMessage) -> bytes:
    """The message with its ending NUL."""
    match message:
        case GameRequest(initiator, colour, minutes, moves, position):
            start = "A" if position is None else "B" + position
            if position is not None and not re.fullmatch(r"[WZ][ewzWZ]{50}", position):
                raise ValueError(f"not a DXP position (side, then 50 of e w z W Z): {position!r}")
            text = f"R{VERSION}{_name(initiator)}{colour}{_number(minutes, 3, 'minutes')}"
            text += f"{_number(moves, 3, 'move count')}{start}"
        case GameAccept(follower, code):
            text = f"A{_name(follower)}{_number(code, 1, 'code')}"
        case Move(seconds, source, target, captured):
            text = f"M{_number(min(seconds, 9999), 4, 'seconds')}{_number(source, 2, 'square')}"
            text += f"{_number(target, 2, 'square')}{_number(len(captured), 2, 'capture count')}"
            text += "".join(_number(square, 2, "square") for square in captured)
        case GameEnd(reason, stop):
            text = f"E{_number(reason, 1, 'reason')}{_number(stop, 1, 'stop code')}"
        case Chat(chat):
            if not chat.isascii() or "\0" in chat:
                raise ValueError(f"a DXP chat must be ASCII without NUL: {chat!r}")
            text = "C" + chat[: MAX_MESSAGE - 1]
        case BackRequest(move_number, side):
            text = f"B{_number(move_number, 3, 'move number')}{side}"
        case BackAccept(code):
            text = f"K{_number(code, 1, 'code')}"
    if len(text) > MAX_MESSAGE:
        raise ValueError(f"a DXP message is at most {MAX_MESSAGE} characters, this one has {len(text)}")
    return text.encode("ascii") + b"\0"


def _digits(text: str, start: int, width: int, what: str) -> int:
    field = text[start : start + width]
    if len(field) != width or not field.isdigit():
        raise DxpSyntaxError(f"{what} {field!r} is not {width} digits")
    return int(field)


def _expect_length(text: str, *lengths: int) -> None:
    if len(text) not in lengths:
        expected = " or ".join(str(length) for length in lengths)
        raise DxpSyntaxError(f"message {text[:1]!r} has {len(text)} characters, expected {expected}")


def decode(data: bytes) -> DxpMessage:
    """One message, without its NUL. Raises DxpSyntaxError for anything else, quoting the message."""
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise DxpSyntaxError(f"bytes that are not ASCII: {data[:40]!r}") from None
    if not text:
        raise DxpSyntaxError("an empty message")
    try:
        return _decode_text(text)
    except DxpSyntaxError as error:  # a field's error names the field: the message says where it is
        raise DxpSyntaxError(f"{error} in {text!r}") from None


def _decode_text(text: str) -> DxpMessage:
    header = text[0]
    if header == "R":
        _expect_length(text, 43, 43 + 1 + SQUARES)
        if text[1:3] != VERSION:
            raise DxpSyntaxError(f"game request of version {text[1:3]!r}, not {VERSION}")
        colour = _colour(text[35])
        minutes = _digits(text, 36, 3, "minutes")
        moves = _digits(text, 39, 3, "move count")
        kind = text[42]
        if kind == "A" and len(text) == 43:
            position = None
        elif kind == "B" and len(text) == 94 and re.fullmatch(r"[WZ][ewzWZ]{50}", text[43:]):
            position = text[43:]
        else:
            raise DxpSyntaxError(f"game request with an unreadable start position {text[42:]!r}")
        return GameRequest(text[3:35].rstrip(), colour, minutes, moves, position)
    if header == "A":
        _expect_length(text, 34)
        return GameAccept(text[1:33].rstrip(), _digits(text, 33, 1, "acceptance code"))
    if header == "M":
        count = _digits(text, 9, 2, "capture count")
        _expect_length(text, 11 + 2 * count)
        captured = tuple(_digits(text, 11 + 2 * index, 2, "captured square") for index in range(count))
        return Move(
            _digits(text, 1, 4, "seconds"), _digits(text, 5, 2, "from"), _digits(text, 7, 2, "to"), captured
        )
    if header == "E":
        _expect_length(text, 3)
        return GameEnd(_digits(text, 1, 1, "reason"), _digits(text, 2, 1, "stop code"))
    if header == "C":
        return Chat(text[1:])
    if header == "B":
        _expect_length(text, 5)
        return BackRequest(_digits(text, 1, 3, "move number"), _colour(text[4]))
    if header == "K":
        _expect_length(text, 2)
        return BackAccept(_digits(text, 1, 1, "acceptance code"))
    raise DxpSyntaxError(f"unknown message type {header!r}")


# -- between Hub text (what the referee speaks) and DXP fields ------------------------------------------


def position_from_hub(position: str) -> str:
    """A 10x10 Hub position (`W` + 50 of w b W B e) as DXP's side letter and 50 squares."""
    if len(position) != 1 + SQUARES or not re.fullmatch(r"[WB][wbWBe]+", position):
        raise ValueError(f"DXP plays on the 10x10 board: expected W or B and 50 squares, not {position!r}")
    side = "W" if position[0] == "W" else "Z"
    return side + position[1:].translate(_HUB_TO_DXP_PIECE)


def position_to_hub(position: str) -> str:
    side = "W" if position[0] == "W" else "B"
    return side + position[1:].translate(_DXP_TO_HUB_PIECE)


def move_from_hub(move: str, seconds: int) -> Move:
    """`32-28` or `28x19x23` (start, end, captured squares) as a DXP move."""
    quiet = _HUB_QUIET.fullmatch(move)
    if quiet:
        return Move(seconds, int(quiet.group(1)), int(quiet.group(2)))
    if _HUB_CAPTURE.fullmatch(move):
        squares = [int(square) for square in move.split("x")]
        return Move(seconds, squares[0], squares[1], tuple(squares[2:]))
    raise ValueError(f"not a Hub move: {move!r}")


def move_to_hub(move: Move) -> str:
    if not move.captured:
        return f"{move.source}-{move.target}"
    return "x".join(str(square) for square in (move.source, move.target, *move.captured))
