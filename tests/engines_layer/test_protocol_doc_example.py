"""The example session in docs/protocol.md is a real one: every line reads as Hub, every move in it is
legal (checked with the rules core), the game it shows is one game, and it shows every message an
engine author needs to see."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from arbiter.engines.hub_wire import HubLine, parse_line
from arbiter.notation.movetext import MoveTextError, parse_hub
from arbiter.rules import Position, get_variant

PROTOCOL_DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


@dataclass(frozen=True)
class SessionLine:
    number: int  # line number in docs/protocol.md
    sender: str  # "arbiter" or "engine"
    message: HubLine


def example_session() -> list[SessionLine]:
    """The fenced block under "A full session", read with the arbiter's own Hub parser."""
    lines = PROTOCOL_DOC.read_text().splitlines()
    heading = lines.index("### A full session")
    opening = next(i for i in range(heading, len(lines)) if lines[i].startswith("```"))
    closing = next(i for i in range(opening + 1, len(lines)) if lines[i].startswith("```"))
    session = []
    for index in range(opening + 1, closing):
        text = lines[index]
        assert re.match(r"[<>] \S", text), f"docs/protocol.md:{index + 1}: not '> ...' or '< ...': {text!r}"
        sender = "arbiter" if text[0] == ">" else "engine"
        session.append(SessionLine(index + 1, sender, parse_line(text[2:])))
    return session


def play_all(position: Position, moves: list[str], where: str) -> Position:
    for move in moves:
        try:
            position = position.play(parse_hub(position, move))
        except MoveTextError as error:
            raise AssertionError(f"{where}: {error}") from None
    return position


def test_every_move_in_the_example_session_is_legal_and_the_game_is_one_game() -> None:
    variant = get_variant("english")
    position: Position | None = None  # where the running search starts
    played: list[str] | None = []  # the game's moves so far; None once the game has ended
    draw_offered = False
    searches = 0
    for line in example_session():
        where = f"docs/protocol.md:{line.number}"
        command, fields = line.message.command, line.message.fields
        if command == "set-param" and fields["name"] == "variant":
            variant = get_variant(fields["value"])
        elif command == "new-game":
            played = []
        elif command == "pos":
            moves = fields.get("moves", "").split()
            assert played is not None, f"{where}: the game ended in an agreed draw; new-game must come first"
            # The game goes on: each position is the last one plus the engine's move and the reply.
            assert moves[: len(played)] == played, f"{where}: the moves do not continue the game {played}"
            position = play_all(Position.from_hub(variant, fields["pos"]), moves, where)
            played = moves
        elif command == "go":
            assert position is not None, f"{where}: go without pos"
            draw_offered = "draw-offered" in line.message.flags
            searches += 1
        elif command == "info" and "pv" in fields:
            assert position is not None, f"{where}: info outside a search"
            play_all(position, fields["pv"].split(), where)
        elif command == "done":
            assert position is not None, f"{where}: done outside a search"
            move = fields["move"]
            after = play_all(position, [move], where)
            if "ponder" in fields:
                play_all(after, [fields["ponder"]], where)
            # An accepted offer ends the game (the accepting move is not played).
            agreed = draw_offered and "draw" in line.message.flags
            played = None if agreed or played is None else [*played, move]
            position = None
    assert searches >= 5


def test_the_example_session_shows_every_message_an_engine_author_needs() -> None:
    session = example_session()
    sent = {line.message.command for line in session if line.sender == "arbiter"}
    answered = {line.message.command for line in session if line.sender == "engine"}
    assert {"hub", "set-param", "init", "new-game", "pos", "level", "go", "ping", "stop", "quit"} <= sent
    assert {"id", "param", "wait", "ready", "info", "done", "pong"} <= answered
    levels = [line.message for line in session if line.message.command == "level"]
    forms = [set(level.fields) | set(level.flags) for level in levels]
    for form in ({"depth"}, {"nodes"}, {"move-time"}, {"moves", "time", "inc"}, {"infinite"}):
        assert form in forms, f"no level line of the form {sorted(form)}"
    assert any("moves" in line.message.fields for line in session if line.message.command == "pos")
    assert any("draw-offered" in line.message.flags for line in session if line.message.command == "go")
    commands = [line.message.command for line in session]
    assert commands[0] == "hub" and commands[-1] == "quit"
    # `stop` ends a search under `level infinite`, and the engine's `done` follows it.
    stop = commands.index("stop")
    last_level = next(line.message for line in reversed(session[:stop]) if line.message.command == "level")
    assert "infinite" in last_level.flags
    assert "done" in commands[stop : commands.index("quit")]


def test_the_example_session_s_handshake_is_what_the_bundled_engine_sends() -> None:
    # The session is the bundled alphabeta's: its answer to `hub` (identity and parameters, the
    # variants it offers included) must stay the one the engine really sends.
    lines = PROTOCOL_DOC.read_text().splitlines()
    session = example_session()
    start = next(i for i, line in enumerate(session) if line.sender == "engine")
    end = next(
        i for i, line in enumerate(session) if line.sender == "engine" and line.message.command == "wait"
    )
    shown = [lines[line.number - 1][2:] for line in session[start : end + 1]]
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.players.alphabeta"],
        input="hub\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert shown == done.stdout.splitlines()
